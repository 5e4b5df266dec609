//! Checking a declaration against the component's real export types.
//!
//! The catalog trusts the embedded WIT for flags and help; before any guest
//! code runs, the compiled component's own type must say the same: every
//! declared verb exported with exactly the declared parameters, and nothing
//! exported that is not declared.

use std::collections::BTreeSet;

use wasmtime::Engine;
use wasmtime::component::Component;
use wasmtime::component::types::{ComponentFunc, ComponentItem, Type};

use crate::catalog::{FlagShape, Param, Scalar, VerbSpec};

/// Compare the verbs declared for a component with its real exports; the
/// error says which verb differs and how.
pub fn verify(engine: &Engine, component: &Component, verbs: &[VerbSpec]) -> Result<(), String> {
    let ty = component.component_type();
    let mut exported = BTreeSet::new();
    for (name, export) in ty.exports(engine) {
        match export.ty {
            ComponentItem::ComponentFunc(_) => {
                exported.insert((None, name.to_owned()));
            }
            ComponentItem::ComponentInstance(instance) => {
                for (func, export) in instance.exports(engine) {
                    if matches!(export.ty, ComponentItem::ComponentFunc(_)) {
                        exported.insert((Some(name.to_owned()), func.to_owned()));
                    }
                }
            }
            _ => {}
        }
    }
    for verb in verbs {
        let key = (verb.export.interface.clone(), verb.export.function.clone());
        if !exported.remove(&key) {
            return Err(format!(
                "`{}` is declared but the component does not export it",
                verb.path_string()
            ));
        }
        let func = find(engine, component, verb).ok_or_else(|| {
            format!(
                "`{}` is declared but the component does not export it",
                verb.path_string()
            )
        })?;
        check_func(verb, &func).map_err(|what| format!("`{}`: {what}", verb.path_string()))?;
    }
    if let Some((interface, func)) = exported.into_iter().next() {
        let name = match interface {
            Some(i) => format!("{i}#{func}"),
            None => func,
        };
        return Err(format!(
            "the component exports `{name}`, which its declaration does not mention"
        ));
    }
    Ok(())
}

fn find(engine: &Engine, component: &Component, verb: &VerbSpec) -> Option<ComponentFunc> {
    let ty = component.component_type();
    let item = match &verb.export.interface {
        None => ty.get_export(engine, &verb.export.function)?.ty,
        Some(interface) => match ty.get_export(engine, interface)?.ty {
            ComponentItem::ComponentInstance(instance) => {
                instance.get_export(engine, &verb.export.function)?.ty
            }
            _ => return None,
        },
    };
    match item {
        ComponentItem::ComponentFunc(func) => Some(func),
        _ => None,
    }
}

fn check_func(verb: &VerbSpec, func: &ComponentFunc) -> Result<(), String> {
    let params: Vec<(&str, Type)> = func.params().collect();
    if params.len() != verb.params.len() {
        return Err(format!(
            "declared {} parameters, the component has {}",
            verb.params.len(),
            params.len()
        ));
    }
    for (param, (name, ty)) in verb.params.iter().zip(&params) {
        match param {
            Param::Options => {
                if *name != "options" {
                    return Err(format!(
                        "declared `options` where the component has `{name}`"
                    ));
                }
                check_options(verb, ty)?;
            }
            Param::Operand(i) => {
                let operand = &verb.operands[*i];
                if *name != operand.name {
                    return Err(format!(
                        "declared operand `{}` where the component has `{name}`",
                        operand.name
                    ));
                }
                let fits = match ty {
                    Type::String => operand.required,
                    Type::Option(o) => {
                        !operand.required && !operand.variadic && o.ty() == Type::String
                    }
                    Type::List(l) => operand.variadic && l.ty() == Type::String,
                    _ => false,
                };
                if !fits {
                    return Err(format!(
                        "operand `{name}` has another type in the component"
                    ));
                }
            }
        }
    }
    let results: Vec<Type> = func.results().collect();
    if results != [Type::U8] {
        return Err("the component's function does not return `u8`".into());
    }
    Ok(())
}

fn check_options(verb: &VerbSpec, ty: &Type) -> Result<(), String> {
    let Type::Record(record) = ty else {
        return Err("`options` is not a record in the component".into());
    };
    let fields: Vec<_> = record.fields().collect();
    let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
    if names != verb.fields.iter().map(String::as_str).collect::<Vec<_>>() {
        return Err(format!(
            "declared flags {:?}, the component's record has {:?}",
            verb.fields, names
        ));
    }
    for field in fields {
        let fits = match verb.flag(field.name) {
            None => field.ty == Type::Bool, // `json`
            Some(flag) => match (&flag.shape, &field.ty) {
                (FlagShape::Switch, Type::Bool) => true,
                (FlagShape::Required(s), t) => scalar_fits(s, t),
                (FlagShape::Optional(s), Type::Option(o)) => scalar_fits(s, &o.ty()),
                (FlagShape::Repeated(s), Type::List(l)) => scalar_fits(s, &l.ty()),
                _ => false,
            },
        };
        if !fits {
            return Err(format!(
                "flag `--{}` has another type in the component",
                field.name
            ));
        }
    }
    Ok(())
}

fn scalar_fits(scalar: &Scalar, ty: &Type) -> bool {
    match (scalar, ty) {
        (Scalar::String, Type::String) => true,
        (Scalar::Unsigned(8), Type::U8)
        | (Scalar::Unsigned(16), Type::U16)
        | (Scalar::Unsigned(32), Type::U32)
        | (Scalar::Unsigned(64), Type::U64)
        | (Scalar::Signed(8), Type::S8)
        | (Scalar::Signed(16), Type::S16)
        | (Scalar::Signed(32), Type::S32)
        | (Scalar::Signed(64), Type::S64)
        | (Scalar::Float(32), Type::Float32)
        | (Scalar::Float(64), Type::Float64) => true,
        (Scalar::Choice(choices), Type::Enum(e)) => {
            e.names().eq(choices.iter().map(String::as_str))
        }
        _ => false,
    }
}

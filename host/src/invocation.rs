//! A request to run one verb: flag values and operands, checked against the
//! verb's declaration and turned into the arguments of the exported function.
//!
//! The CLI and `invoke` both end here, so a value is judged the same way
//! wherever it comes from: each failure names the flag or operand and says
//! what would be accepted.

use std::collections::BTreeMap;

use wasmtime::component::Val;

use crate::catalog::{FlagShape, Param, Scalar, VerbSpec};

/// The value given for one flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagValue {
    /// A switch, on or off.
    Switch(bool),
    /// One value, or several for a repeatable flag.
    Values(Vec<String>),
}

/// Flag values and operands for one verb.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Invocation {
    /// By long name, without dashes.
    pub flags: BTreeMap<String, FlagValue>,
    /// In order.
    pub operands: Vec<String>,
    /// Whether to ask the verb for its JSON envelope.
    pub json: bool,
}

/// Why arguments do not fit a verb.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    /// A flag the verb does not declare.
    #[error("unknown flag `--{flag}` for `{verb}`{suggestion}")]
    UnknownFlag {
        /// The verb path.
        verb: String,
        /// The flag as given.
        flag: String,
        /// ` (did you mean `--x`?)` or empty.
        suggestion: String,
    },
    /// A required flag is missing.
    #[error("`{verb}` needs `--{flag}`")]
    MissingFlag {
        /// The verb path.
        verb: String,
        /// The flag.
        flag: String,
    },
    /// A switch given a value, or a valued flag given none.
    #[error("`--{flag}` {problem}")]
    Shape {
        /// The flag.
        flag: String,
        /// What is wrong.
        problem: String,
    },
    /// A value of the wrong type or outside the choices.
    #[error("`--{flag}` does not accept `{value}`: expected {expected}")]
    BadValue {
        /// The flag.
        flag: String,
        /// The value as given.
        value: String,
        /// What it would accept.
        expected: String,
    },
    /// Too few or too many operands.
    #[error("{0}")]
    Operands(String),
    /// `--json` for a verb that has no JSON output.
    #[error("`{verb}` has no JSON output")]
    NoJson {
        /// The verb path.
        verb: String,
    },
}

/// ` (did you mean `--x`?)` for the closest declared flag, or nothing.
pub fn suggest_flag(spec: &VerbSpec, given: &str) -> String {
    spec.flags
        .iter()
        .map(|f| (strsim::jaro_winkler(given, &f.name), &f.name))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| format!(" (did you mean `--{name}`?)"))
        .unwrap_or_default()
}

/// A verb's arguments, checked against its declaration once: what
/// [`crate::sandbox::Sandbox::call`] passes to the verb's export.
#[derive(Debug, Clone)]
pub struct Arguments {
    verb: String,
    values: Vec<Val>,
}

impl Arguments {
    /// The verb path (`vault list`).
    pub fn verb(&self) -> &str {
        &self.verb
    }

    /// The export's parameters: the options record, then the operands.
    pub fn values(&self) -> &[Val] {
        &self.values
    }
}

/// Check an invocation against a verb and build the function's arguments.
pub fn arguments(spec: &VerbSpec, invocation: &Invocation) -> Result<Arguments, ArgError> {
    Ok(Arguments {
        verb: spec.path_string(),
        values: values(spec, invocation)?,
    })
}

fn values(spec: &VerbSpec, invocation: &Invocation) -> Result<Vec<Val>, ArgError> {
    let verb = spec.path_string();
    for name in invocation.flags.keys() {
        if spec.flag(name).is_none() {
            return Err(ArgError::UnknownFlag {
                verb,
                flag: name.clone(),
                suggestion: suggest_flag(spec, name),
            });
        }
    }
    if invocation.json && !spec.supports_json {
        return Err(ArgError::NoJson { verb });
    }
    let operands = operand_values(spec, &invocation.operands)?;
    let mut args = Vec::with_capacity(spec.params.len());
    for param in &spec.params {
        match param {
            Param::Options => args.push(options_record(spec, invocation)?),
            Param::Operand(i) => args.push(operands[*i].clone()),
        }
    }
    Ok(args)
}

fn options_record(spec: &VerbSpec, invocation: &Invocation) -> Result<Val, ArgError> {
    let mut fields = Vec::with_capacity(spec.fields.len());
    for name in &spec.fields {
        if name == "json" {
            fields.push((name.clone(), Val::Bool(invocation.json)));
            continue;
        }
        let flag = spec.flag(name).expect("every field but json is a flag");
        let given = invocation.flags.get(name);
        let shape_error = |problem: &str| ArgError::Shape {
            flag: name.clone(),
            problem: problem.to_owned(),
        };
        let value = match (&flag.shape, given) {
            (FlagShape::Switch, None) => Val::Bool(false),
            (FlagShape::Switch, Some(FlagValue::Switch(on))) => Val::Bool(*on),
            (FlagShape::Switch, Some(FlagValue::Values(_))) => {
                return Err(shape_error("is a switch and takes no value"));
            }
            (_, Some(FlagValue::Switch(_))) => return Err(shape_error("needs a value")),
            (FlagShape::Required(_), None) => {
                return Err(ArgError::MissingFlag {
                    verb: spec.path_string(),
                    flag: name.clone(),
                });
            }
            (FlagShape::Required(scalar), Some(FlagValue::Values(values))) => {
                scalar_val(name, scalar, single(name, values)?)?
            }
            (FlagShape::Optional(_), None) => Val::Option(None),
            (FlagShape::Optional(scalar), Some(FlagValue::Values(values))) => Val::Option(Some(
                Box::new(scalar_val(name, scalar, single(name, values)?)?),
            )),
            (FlagShape::Repeated(_), None) => Val::List(Vec::new()),
            (FlagShape::Repeated(scalar), Some(FlagValue::Values(values))) => Val::List(
                values
                    .iter()
                    .map(|v| scalar_val(name, scalar, v))
                    .collect::<Result<_, _>>()?,
            ),
        };
        fields.push((name.clone(), value));
    }
    Ok(Val::Record(fields))
}

fn single<'a>(flag: &str, values: &'a [String]) -> Result<&'a str, ArgError> {
    match values {
        [one] => Ok(one),
        [] => Err(ArgError::Shape {
            flag: flag.to_owned(),
            problem: "needs a value".into(),
        }),
        _ => Err(ArgError::Shape {
            flag: flag.to_owned(),
            problem: "may be given only once".into(),
        }),
    }
}

/// Parse one value for a flag of type `scalar`.
pub fn scalar_val(flag: &str, scalar: &Scalar, value: &str) -> Result<Val, ArgError> {
    let bad = || ArgError::BadValue {
        flag: flag.to_owned(),
        value: value.to_owned(),
        expected: scalar.describe(),
    };
    let trimmed = value.trim();
    Ok(match scalar {
        Scalar::String => Val::String(value.to_owned()),
        Scalar::Unsigned(8) => Val::U8(trimmed.parse().map_err(|_| bad())?),
        Scalar::Unsigned(16) => Val::U16(trimmed.parse().map_err(|_| bad())?),
        Scalar::Unsigned(32) => Val::U32(trimmed.parse().map_err(|_| bad())?),
        Scalar::Unsigned(_) => Val::U64(trimmed.parse().map_err(|_| bad())?),
        Scalar::Signed(8) => Val::S8(trimmed.parse().map_err(|_| bad())?),
        Scalar::Signed(16) => Val::S16(trimmed.parse().map_err(|_| bad())?),
        Scalar::Signed(32) => Val::S32(trimmed.parse().map_err(|_| bad())?),
        Scalar::Signed(_) => Val::S64(trimmed.parse().map_err(|_| bad())?),
        Scalar::Float(32) => {
            Val::Float32(finite(trimmed.parse().map_err(|_| bad())?).ok_or_else(bad)?)
        }
        Scalar::Float(_) => {
            Val::Float64(finite(trimmed.parse().map_err(|_| bad())?).ok_or_else(bad)?)
        }
        Scalar::Choice(choices) => {
            let choice = choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(trimmed))
                .ok_or_else(bad)?;
            Val::Enum(choice.clone())
        }
    })
}

fn finite<F: Into<f64> + Copy>(value: F) -> Option<F> {
    value.into().is_finite().then_some(value)
}

fn operand_values(spec: &VerbSpec, given: &[String]) -> Result<Vec<Val>, ArgError> {
    let verb = spec.path_string();
    let mut values = Vec::with_capacity(spec.operands.len());
    let mut rest = given;
    for operand in &spec.operands {
        if operand.variadic {
            values.push(Val::List(rest.iter().cloned().map(Val::String).collect()));
            rest = &[];
        } else if let Some((first, tail)) = rest.split_first() {
            values.push(if operand.required {
                Val::String(first.clone())
            } else {
                Val::Option(Some(Box::new(Val::String(first.clone()))))
            });
            rest = tail;
        } else if operand.required {
            return Err(ArgError::Operands(format!(
                "`{verb}` needs the operand `{}`",
                operand.name.to_uppercase()
            )));
        } else {
            values.push(Val::Option(None));
        }
    }
    if !rest.is_empty() {
        let accepted = spec.operands.len();
        return Err(ArgError::Operands(format!(
            "`{verb}` takes {} but was given {}: unexpected `{}`",
            match accepted {
                0 => "no operands".to_owned(),
                1 => "one operand".to_owned(),
                n => format!("{n} operands"),
            },
            given.len(),
            rest[0]
        )));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::parse;

    fn spec() -> VerbSpec {
        let source = r#"
package t:t@0.1.0;
interface vault {
    enum tier { l1, l2 }
    record add-options {
        feature: string,
        related: list<string>,
        tier: option<tier>,
        limit: option<u32>,
        force: bool,
        json: bool,
    }
    /// Add.
    add: func(options: add-options, doc-type: string, extra: option<string>) -> u8;
}
world w { export vault; }
"#;
        parse(source).unwrap().remove(0)
    }

    fn invocation(flags: &[(&str, FlagValue)], operands: &[&str]) -> Invocation {
        Invocation {
            flags: flags
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            operands: operands.iter().map(|s| s.to_string()).collect(),
            json: true,
        }
    }

    fn values(list: &[&str]) -> FlagValue {
        FlagValue::Values(list.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn flags_and_operands_become_the_record_and_parameters() {
        let inv = invocation(
            &[
                ("feature", values(&["cache"])),
                ("related", values(&["a", "b"])),
                ("tier", values(&["L2"])),
            ],
            &["adr"],
        );
        let args = arguments(&spec(), &inv).unwrap();
        assert_eq!(args.verb(), spec().path_string());
        let args = args.values();
        let Val::Record(fields) = &args[0] else {
            panic!("not a record")
        };
        assert_eq!(fields[0], ("feature".into(), Val::String("cache".into())));
        assert_eq!(
            fields[1].1,
            Val::List(vec![Val::String("a".into()), Val::String("b".into())])
        );
        assert_eq!(
            fields[2].1,
            Val::Option(Some(Box::new(Val::Enum("l2".into()))))
        );
        assert_eq!(fields[5], ("json".into(), Val::Bool(true)));
        assert_eq!(args[1], Val::String("adr".into()));
        assert_eq!(args[2], Val::Option(None));
    }

    #[test]
    fn each_bad_argument_is_named() {
        let spec = spec();
        let feature = ("feature", values(&["x"]));
        let err = arguments(
            &spec,
            &invocation(&[feature.clone(), ("featur", values(&["x"]))], &["adr"]),
        );
        assert!(
            err.unwrap_err()
                .to_string()
                .contains("did you mean `--feature`")
        );
        let err = arguments(&spec, &invocation(&[], &["adr"])).unwrap_err();
        assert_eq!(
            err,
            ArgError::MissingFlag {
                verb: "vault add".into(),
                flag: "feature".into()
            }
        );
        let err = arguments(
            &spec,
            &invocation(&[feature.clone(), ("limit", values(&["-3"]))], &["adr"]),
        );
        assert!(matches!(err, Err(ArgError::BadValue { flag, .. }) if flag == "limit"));
        let err = arguments(
            &spec,
            &invocation(&[feature.clone(), ("tier", values(&["l9"]))], &["adr"]),
        );
        assert!(err.unwrap_err().to_string().contains("one of l1, l2"));
        let err = arguments(&spec, &invocation(std::slice::from_ref(&feature), &[])).unwrap_err();
        assert!(err.to_string().contains("DOC-TYPE"));
        let err = arguments(&spec, &invocation(&[feature], &["a", "b", "c"])).unwrap_err();
        assert!(err.to_string().contains("unexpected `c`"));
    }
}

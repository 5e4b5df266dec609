//! How the `verbs` commands show a component and its verbs, as text or JSON.
//!
//! Text is for a terminal: names and paths a file system or a component
//! supplied go through [`Escaped`], so a crafted file name cannot redraw a
//! review (the trust prompt shows [`component_text`]). JSON escapes control
//! characters itself; the data keeps its real names.

use std::fmt::Write;
use std::path::Path;

use serde_json::{Value, json};

use crate::catalog::{
    Capabilities, FlagShape, Origin, Refusal, Trust, VerbComponent, VerbSpec, scope_of,
    trust_command,
};
use crate::display::Escaped;

/// Where a component came from, as one word: `builtin`, `workspace`, `user`.
pub fn origin_word(component: &VerbComponent, root: Option<&Path>) -> &'static str {
    match &component.origin {
        Origin::Builtin => "builtin",
        Origin::Host => "host",
        Origin::File(path) => match scope_of(path, root) {
            crate::catalog::Scope::Workspace => "workspace",
            crate::catalog::Scope::User => "user",
        },
    }
}

/// The capabilities as words (`read, write`, `read, framework`, or `none`).
pub fn capability_words(caps: Capabilities) -> String {
    let words: Vec<&str> = [
        (caps.read, "read"),
        (caps.write, "write"),
        (caps.framework, "framework"),
    ]
    .into_iter()
    .filter_map(|(on, word)| on.then_some(word))
    .collect();
    if words.is_empty() {
        "none".to_owned()
    } else {
        words.join(", ")
    }
}

/// The trust as a word.
pub fn trust_word(trust: Trust) -> &'static str {
    match trust {
        Trust::Builtin => "builtin",
        Trust::Trusted => "trusted",
        Trust::Untrusted => "untrusted",
    }
}

/// A verb's synopsis: `notes count [DOC-TYPE] [--feature FEATURE] [--json]`.
pub fn usage(spec: &VerbSpec) -> String {
    let mut line = spec.path_string();
    for operand in &spec.operands {
        let name = operand.name.to_uppercase();
        let _ = match (operand.required, operand.variadic) {
            (_, true) => write!(line, " [{name}…]"),
            (true, false) => write!(line, " {name}"),
            (false, false) => write!(line, " [{name}]"),
        };
    }
    for flag in &spec.flags {
        let value = flag.name.to_uppercase().replace('-', "_");
        let _ = match &flag.shape {
            FlagShape::Switch => write!(line, " [--{}]", flag.name),
            FlagShape::Required(_) => write!(line, " --{} {value}", flag.name),
            FlagShape::Optional(_) => write!(line, " [--{} {value}]", flag.name),
            FlagShape::Repeated(_) => write!(line, " [--{} {value}]…", flag.name),
        };
    }
    if spec.supports_json {
        line.push_str(" [--json]");
    }
    line
}

/// One verb as JSON: path, synopsis, summary, flags and operands.
pub fn verb_json(spec: &VerbSpec) -> Value {
    let flags: Vec<Value> = spec
        .flags
        .iter()
        .map(|f| {
            json!({
                "name": format!("--{}", f.name),
                "takes_value": f.takes_value(),
                "repeatable": f.repeatable(),
                "required": f.required(),
                "choices": f.choices(),
                "help": f.help,
            })
        })
        .collect();
    json!({
        "verb": spec.path_string(),
        "usage": usage(spec),
        "summary": spec.summary(),
        "intents": spec.intents,
        "supports_json": spec.supports_json,
        "flags": flags,
        "arguments": spec.operands,
    })
}

/// One component as JSON.
pub fn component_json(component: &VerbComponent, trust: Trust, root: Option<&Path>) -> Value {
    let path = match &component.origin {
        Origin::File(path) => Some(path.display().to_string()),
        Origin::Builtin | Origin::Host => None,
    };
    let mut value = json!({
        "name": component.name,
        "origin": origin_word(component, root),
        "path": path,
        "digest": component.digest,
        "capabilities": component.capabilities,
        "trust": trust,
        "verbs": component.verbs.iter().map(verb_json).collect::<Vec<_>>(),
    });
    if trust == Trust::Untrusted {
        value["trust_command"] = Value::from(trust_command(&component.name));
    }
    value
}

/// One component as text, for a person reviewing it.
pub fn component_text(component: &VerbComponent, trust: Trust, root: Option<&Path>) -> String {
    let mut text = format!(
        "{}  ({}, {})\n",
        Escaped::new(&component.name),
        origin_word(component, root),
        trust_word(trust)
    );
    if let Origin::File(path) = &component.origin {
        let _ = writeln!(
            text,
            "  file          {}",
            Escaped::new(&path.display().to_string())
        );
    }
    let _ = writeln!(text, "  digest        {}", component.digest);
    let _ = writeln!(
        text,
        "  capabilities  {}",
        capability_words(component.capabilities)
    );
    for (i, verb) in component.verbs.iter().enumerate() {
        let label = if i == 0 { "verbs" } else { "" };
        let _ = writeln!(text, "  {label:<12}  {}", Escaped::new(&usage(verb)));
        if !verb.summary().is_empty() {
            let _ = writeln!(text, "  {:<12}    {}", "", Escaped::new(&verb.summary()));
        }
    }
    if trust == Trust::Untrusted {
        let _ = writeln!(
            text,
            "  trust it with `{}`",
            Escaped::new(&trust_command(&component.name))
        );
    }
    text
}

/// A refusal as JSON.
pub fn refusal_json(refusal: &Refusal) -> Value {
    json!({ "name": refusal.component, "reason": refusal.reason.to_string() })
}

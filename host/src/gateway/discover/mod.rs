//! `discover`: rank the catalog's verbs by intent and return their schemas
//! (`spec/gateway.md` §2, with our own ranking).
//!
//! The reference scores plain word overlap, which misses every request that
//! shares no word with the verb ("delete a step" for `vault plan step
//! remove`). Ours ranks by [`index`]: field-weighted BM25 over each verb's
//! path, the intents its declaration lists, its summary, description and
//! flags, with stemming ([`words`]), the vault's synonyms and typo
//! tolerance. Each result says which query words matched it, and how.

mod index;
mod values;
mod words;

use serde_json::{Value, json};

pub use index::{Index, Ranked};

use crate::catalog::{Catalog, Scalar, Trust};

/// Flags `discover` never lists: the gateway sets `--json` and `--target`
/// itself, and `--help` is for people at a terminal.
pub const RESERVED: [&str; 3] = ["target", "json", "help"];

/// Flags no tool call may pass: they run host commands or import files.
pub const BLOCKED: [&str; 4] = ["editor", "from-file", "body-file", "template"];

/// The best `limit` verbs for `query`, best first, from an index built for
/// this one query (a server keeps its [`Index`] instead).
pub fn rank<'c>(catalog: &'c Catalog, query: &str, limit: usize) -> Vec<Ranked<'c>> {
    Index::build(catalog).rank(catalog, query, limit)
}

fn value_type(scalar: &Scalar) -> &'static str {
    match scalar {
        Scalar::String | Scalar::Choice(_) => "string",
        Scalar::Unsigned(_) | Scalar::Signed(_) => "integer",
        Scalar::Float(_) => "number",
    }
}

/// The schema of a verb `ranked` in `catalog`, as `discover` shows it:
/// typed flags (reserved and blocked ones left out) and operands, with its
/// score and the query words that matched it, and whether it can change the
/// vault: `read_only` when its component imports no write access, which the
/// sandbox then never grants.
pub fn schema(catalog: &Catalog, ranked: &Ranked<'_>) -> Value {
    let (spec, score, matched) = (&ranked.entry.spec, ranked.score, &ranked.matched);
    let trust = catalog.trust(ranked.entry);
    let read_only = !catalog.component_of(ranked.entry).capabilities.writes();
    let flags: Vec<Value> = spec
        .flags
        .iter()
        .filter(|f| !RESERVED.contains(&f.name.as_str()) && !BLOCKED.contains(&f.name.as_str()))
        .map(|f| {
            let mut flag = json!({
                "name": format!("--{}", f.name),
                "takes_value": f.takes_value(),
                "repeatable": f.repeatable(),
                "required": f.required(),
                "help": f.help,
            });
            if let Some(scalar) = f.scalar() {
                flag["type"] = json!(value_type(scalar));
            }
            if !f.choices().is_empty() {
                flag["choices"] = json!(f.choices());
            }
            flag
        })
        .collect();
    let arguments: Vec<Value> = spec
        .operands
        .iter()
        .map(|o| {
            let mut argument = json!({
                "name": o.name,
                "required": o.required,
                "variadic": o.variadic,
                "help": o.help,
            });
            if !o.choices.is_empty() {
                argument["choices"] = json!(o.choices);
            }
            argument
        })
        .collect();
    let mut verb = json!({
        "verb": spec.path_string(),
        "description": spec.summary(),
        "group": spec.group_summary(),
        "score": score,
        "matched": matched,
        "supports_json": spec.supports_json,
        "read_only": read_only,
        "flags": flags,
        "arguments": arguments,
    });
    if trust == Trust::Untrusted {
        verb["trusted"] = json!(false);
    }
    verb
}

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

use crate::catalog::{Catalog, Entry, Scalar, Trust};

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

/// The two fixed halves of a verb's schema as `discover` shows it, either
/// side of its per-query `score` and `matched`: what it is (`verb`,
/// `description`, `group`), then how to call it (`supports_json`,
/// `read_only` — its component imports no write access, which the sandbox
/// then never grants —, typed `flags` with reserved and blocked ones left
/// out, `arguments`, and `trusted: false` for a verb not yet trusted).
pub fn schema_halves(catalog: &Catalog, entry: &Entry) -> (Value, Value) {
    let spec = &entry.spec;
    let trust = catalog.trust(entry);
    let read_only = !catalog.component_of(entry).capabilities.writes();
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
    let what = json!({
        "verb": spec.path_string(),
        "description": spec.summary(),
        "group": spec.group_summary(),
    });
    let mut how = json!({
        "supports_json": spec.supports_json,
        "read_only": read_only,
        "flags": flags,
        "arguments": arguments,
    });
    if trust == Trust::Untrusted {
        how["trusted"] = json!(false);
    }
    (what, how)
}

/// The schema of a verb `ranked` in `catalog`, as `discover` shows it
/// ([`schema_halves`] around its `score` and the query words that matched).
pub fn schema(catalog: &Catalog, ranked: &Ranked<'_>) -> Value {
    let (what, how) = schema_halves(catalog, ranked.entry);
    let mut verb = what;
    if let (Value::Object(verb), Value::Object(how)) = (&mut verb, how) {
        verb.insert("score".into(), json!(ranked.score));
        verb.insert("matched".into(), json!(ranked.matched));
        verb.extend(how);
    }
    verb
}

/// Each verb's schema halves written as JSON once, so a `discover` reply is
/// put together from text instead of being built and written per call.
#[derive(Debug, Default)]
pub struct Prepared {
    /// Verb path → (`{"verb":…,"group":…`, `"supports_json":…}`).
    halves: std::collections::HashMap<String, (String, String)>,
}

impl Prepared {
    /// Write every verb of `catalog` out.
    pub fn build(catalog: &Catalog) -> Self {
        let halves = catalog
            .entries()
            .map(|entry| {
                let (what, how) = schema_halves(catalog, entry);
                let what = what.to_string();
                let how = how.to_string();
                // `{…}` less its closing brace, and `{…}` less its opening one.
                let what = what[..what.len() - 1].to_owned();
                let how = how[1..].to_owned();
                (entry.spec.path_string(), (what, how))
            })
            .collect();
        Self { halves }
    }

    /// The JSON of `ranked`'s schema: the same text [`schema`] writes as.
    pub fn write(&self, catalog: &Catalog, ranked: &Ranked<'_>, out: &mut String) {
        let Some((what, how)) = self.halves.get(&ranked.entry.spec.path_string()) else {
            out.push_str(&schema(catalog, ranked).to_string());
            return;
        };
        out.push_str(what);
        out.push_str(",\"score\":");
        out.push_str(&json!(ranked.score).to_string());
        out.push_str(",\"matched\":");
        out.push_str(&json!(ranked.matched).to_string());
        out.push(',');
        out.push_str(how);
    }
}

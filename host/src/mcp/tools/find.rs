//! `find`: the feature listing, or documents by type, feature, date and name
//! (`spec/mcp-tools.md` §6.1).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value, json};
use vaultspec_vault::graph::{self, FindQuery, Graph};
use vaultspec_vault::hash::blob_oid;
use vaultspec_vault::status;
use vaultspec_vault::storage::MAX_FILE_BYTES;
use vaultspec_vault::{Storage, StorageError};

use super::parse;
use crate::git_history::{History, TIME_BUDGET};
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Reply, ToolError, ToolResult, plural};
use crate::mcp::resources::file_uri;
use crate::mcp::vault_cache::LoadedVault;
use vaultspec_vault::CapStorage;

/// The most bytes of a document an excerpt carries.
pub const EXCERPT_BYTES: usize = 600;

/// The most rows `body: "full"` may return.
pub const FULL_BODY_ROWS: usize = 5;

#[derive(Deserialize)]
struct Args {
    feature: Option<String>,
    #[serde(rename = "type", default)]
    types: Vec<String>,
    date: Option<String>,
    text: Option<String>,
    #[serde(default = "none")]
    body: String,
    #[serde(default)]
    json: bool,
    #[serde(default = "twenty")]
    limit: usize,
}

fn none() -> String {
    "none".to_owned()
}

fn twenty() -> usize {
    20
}

fn present(value: &Option<String>) -> bool {
    value.as_deref().is_some_and(|v| !v.is_empty())
}

/// List features, or find documents.
pub fn call(context: &ServerContext, args: Value) -> ToolResult {
    let raw = args.clone();
    let args: Args = parse(args)?;
    if args.body == "full" && args.limit > FULL_BODY_ROWS {
        return Err(ToolError::tool(format!(
            "body='full' returns whole documents, so it is limited to {FULL_BODY_ROWS} rows; got limit={}. \
             Use body='excerpt' to survey more, then 'full' on the few that matter.",
            args.limit
        )));
    }
    let storage = context.storage()?;
    let root = context.workspace.root();
    let loaded = context.vault.get(root, &storage).map_err(budget_refusal)?;
    let listing = !present(&args.feature)
        && args.types.is_empty()
        && !present(&args.date)
        && !present(&args.text);
    // Document rows say which of them are stale, dated from the history
    // read under the state that is part of the key the answer is kept
    // under (the history and its state come from one read).
    let dating = (!listing).then(|| crate::git_history::read_vault_cached(root, TIME_BUDGET));
    let key = match &dating {
        Some((state, _)) => json!({ "args": raw, "head": state }),
        None => raw,
    };
    // The answer is kept with the load it was made from, until a file
    // under `.vault/` or `.vaultspec/` changes.
    loaded
        .replies
        .get_or(root, context.today(), "find", &key, || {
            let dating = dating.as_ref().map(|(_, history)| history.as_ref());
            answer(context, &storage, &loaded, &args, dating)
        })
}

/// The answer to `args` from the loaded vault.
fn answer(
    context: &ServerContext,
    storage: &CapStorage,
    loaded: &LoadedVault,
    args: &Args,
    dating: Option<&Result<History, String>>,
) -> ToolResult {
    let graph = &loaded.graph;
    let rows = if let Some(dating) = dating {
        document_rows(context, storage, graph, args, dating)
    } else {
        // Only the `json` listing shows each feature's lifecycle word.
        let progress = if args.json {
            loaded.plans(storage).progress_by_feature()
        } else {
            BTreeMap::new()
        };
        feature_rows(&progress, graph, args)
    };
    // Documents the vault cannot read or parse are named beside the answer
    // (the reference fails the whole call on a file over its budget).
    let problems = graph.problem_rows();
    let mut summary = plural(rows.len(), "row");
    let mut structured = json!({ "result": rows });
    if !problems.is_empty() {
        summary.push_str(&format!(
            "; {} with a problem: {}",
            plural(problems.len(), "document"),
            problems[0].path
        ));
        structured["problems"] = json!(problems);
    }
    Ok(Reply {
        summary,
        structured: structured.into(),
    })
}

/// The feature listing; under `json`, each feature's lifecycle word from
/// its document types and its plans' `(steps, checked)` in `progress`.
///
/// The reference gives the word only to the ten most recently active
/// features (it reads them from a capped rollup) and `Unknown` to the rest;
/// that cap is an accident of its implementation, so every feature here
/// gets its word.
fn feature_rows(
    progress: &BTreeMap<String, (usize, usize)>,
    graph: &Graph,
    args: &Args,
) -> Vec<Value> {
    graph
        .find_listing(args.limit)
        .into_iter()
        .map(|row| {
            let mut value =
                json!({"name": row.name, "doc_count": row.doc_count, "weight": row.weight});
            if args.json {
                let (steps, done) = progress.get(&row.name).copied().unwrap_or_default();
                let types: Vec<&str> = row.types.iter().map(String::as_str).collect();
                value["status"] = json!(status::lifecycle_word(&types, row.has_plan, steps, done));
                value["types"] = json!(row.types);
                if let Some(date) = row.earliest_date {
                    value["earliest_date"] = json!(date);
                }
                value["has_plan"] = json!(row.has_plan);
            }
            value
        })
        .collect()
}

fn document_rows(
    context: &ServerContext,
    storage: &CapStorage,
    graph: &Graph,
    args: &Args,
    dating: &Result<History, String>,
) -> Vec<Value> {
    let feature = args
        .feature
        .as_deref()
        .map(vaultspec_vault::doc::feature_arg)
        .filter(|f| !f.is_empty());
    let query = FindQuery {
        types: &args.types,
        feature,
        date: args.date.as_deref().filter(|d| !d.is_empty()),
        text: args.text.as_deref(),
        limit: args.limit,
    };
    let rows = graph.find_documents(&query);
    // Only the links from the rows found are dated, not the whole vault's.
    let root = context.workspace.root();
    let found =
        crate::coherence::stale_from(root, storage, graph, rows.iter().map(|r| r.node), dating);
    let stale = vaultspec_vault::coherence::stale_documents(&found);
    rows.into_iter()
        .map(|row| {
            let mut value = Map::new();
            value.insert("name".into(), json!(row.name));
            value.insert("type".into(), json!(row.doc_type));
            if let Some(feature) = &row.feature {
                value.insert("feature".into(), json!(feature));
            }
            if let Some(date) = &row.date {
                value.insert("date".into(), json!(date));
            }
            value.insert("path".into(), json!(row.path));
            if let Some(problem) = &row.problem {
                value.insert("problem".into(), json!(problem));
            }
            // Only on a stale document: other rows keep the reference's shape.
            if stale.contains(&row.node) {
                value.insert("stale".into(), json!(true));
            }
            // The cached document holds the file's text and hash; only a file
            // whose bytes were normalised when read (a BOM, carriage
            // returns) or that is not text is read again for its bytes.
            let cached = graph
                .doc(row.node)
                .filter(|d| d.has_text() && !d.normalized);
            let (blob, text) = match cached {
                Some(doc) => (doc.blob_oid(), Some(Cow::Borrowed(&*doc.text))),
                None => match storage.read(&row.path) {
                    Ok(bytes) => (
                        Some(blob_oid(&bytes)),
                        Some(Cow::Owned(String::from_utf8_lossy(&bytes).into_owned())),
                    ),
                    Err(_) => (None, None),
                },
            };
            if let Some(blob) = blob {
                value.insert("blob_hash".into(), json!(blob));
            }
            // The reference's `file://` locator, which is also the
            // document's URI among this server's resources.
            value.insert("resource_uri".into(), json!(file_uri(context, &row.path)));
            if let (Some(text), "excerpt" | "full") = (text.as_deref(), args.body.as_str()) {
                let (body, truncated) = if args.body == "full" {
                    (text, false)
                } else {
                    let clipped = clip(text, EXCERPT_BYTES);
                    (clipped, clipped.len() < text.len())
                };
                value.insert("body".into(), json!(body));
                value.insert("body_bytes".into(), json!(text.len()));
                value.insert("body_truncated".into(), json!(truncated));
            }
            Value::Object(value)
        })
        .collect()
}

/// The reference's wording for a read over the per-call budget, naming the
/// file whose read crossed it. (A file over the per-file limit is not an
/// error: it is a document with a problem, named beside the answer.)
fn budget_refusal(err: graph::LoadError) -> ToolError {
    let graph::LoadError::Storage(storage) = &err;
    match storage {
        StorageError::BudgetExceeded { path, budget } => ToolError::tool(format!(
            "find document byte budget exceeded (file limit {MAX_FILE_BYTES}, remaining 0): reading `{path}` would take this call past its {budget}-byte budget"
        )),
        _ => ToolError::tool(err.to_string()),
    }
}

/// The longest prefix of `text` of at most `max` bytes that ends on a
/// character boundary.
fn clip(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_end_on_a_character_boundary() {
        let text = "é".repeat(400);
        let clipped = clip(&text, EXCERPT_BYTES);
        assert_eq!(clipped.len(), 600);
        assert_eq!(clip(&format!("a{text}"), EXCERPT_BYTES).len(), 599);
        assert_eq!(clip("short", EXCERPT_BYTES), "short");
    }
}

//! `search`: the passages that answer a question, ranked locally with BM25
//! over document sections (`spec/mcp-tools.md` §6.7, `graph-and-search.md` §8).
//!
//! The reply keeps the reference's shape, says that the ranking is local, and
//! leaves out what only a hosted judge could know (`answers`,
//! `premise_conflict`, `verdict`): `answered` stays false.

use serde::Deserialize;
use serde_json::{Value, json};
use vaultspec_vault::Storage;
use vaultspec_vault::hash::blob_oid;
use vaultspec_vault::search::SearchQuery;

use super::parse;
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Reply, ToolResult, plural};

#[derive(Deserialize)]
struct Args {
    query: String,
    #[serde(rename = "type", default)]
    types: Vec<String>,
    feature: Option<String>,
    date: Option<String>,
    #[serde(default = "four")]
    limit: usize,
}

fn four() -> usize {
    4
}

/// Rank the vault's sections against the query.
pub fn call(context: &ServerContext, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    let storage = context.storage()?;
    let loaded = context.vault.get(context.workspace.root(), &storage)?;
    let docs = loaded.graph.docs();
    let index = loaded.index();
    let query = SearchQuery {
        text: &args.query,
        types: &args.types,
        feature: args.feature.as_deref(),
        date: args.date.as_deref(),
        limit: args.limit,
    };
    let page = index.page(docs, &query);
    let hits: Vec<Value> = page
        .hits
        .iter()
        .map(|hit| {
            let blob = docs
                .iter()
                .find(|d| d.path == hit.path)
                .and_then(|d| d.blob_oid())
                .or_else(|| storage.read(&hit.path).ok().map(|b| blob_oid(&b)));
            let mut value = serde_json::to_value(hit).unwrap_or_default();
            value["feature"] = json!(hit.feature.clone().unwrap_or_default());
            value["date"] = json!(hit.date.clone().unwrap_or_default());
            value["score"] = json!((hit.score * 1000.0).round() / 1000.0);
            value["blob_hash"] = json!(blob.unwrap_or_default());
            value
        })
        .collect();
    let counted = if page.truncated {
        format!("{} of {} hits", page.returned, page.total)
    } else {
        plural(page.returned, "hit")
    };
    let mut summary = format!("{counted}, ranked locally");
    let mut value = serde_json::to_value(&page)?;
    value["hits"] = json!(hits);
    // What the ranking could not look inside is named, never silently
    // missing from the hits.
    let unreadable = loaded.graph.unreadable_rows();
    if !unreadable.is_empty() {
        summary.push_str(&format!(
            "; {} not searched: {}",
            plural(unreadable.len(), "unreadable document"),
            unreadable[0].path
        ));
        value["unreadable"] = json!(unreadable);
    }
    Ok(Reply {
        summary,
        structured: value.into(),
    })
}

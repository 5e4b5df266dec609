//! `crossref`: which ADRs an ADR relates to, ranked locally; with `apply`,
//! the suggested links are written into its `related:` (`spec/mcp-tools.md`
//! §6.8). The selection, the verdicts and the writes are
//! `vaultspec_vault::ops::crossref`, shared with `vault adr crossref`; this
//! tool adds the workspace lock and the reference's document sentinel.

use serde::Deserialize;
use serde_json::Value;
use vaultspec_vault::graph;
use vaultspec_vault::ops::crossref::{self, CrossrefOutcome, CrossrefRequest};

use super::parse;
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Reply, ToolResult};

#[derive(Deserialize)]
struct Args {
    #[serde(default)]
    refs: Vec<String>,
    #[serde(rename = "ref")]
    single: Option<String>,
    feature: Option<String>,
    #[serde(default)]
    isolated: bool,
    #[serde(default)]
    all_adrs: bool,
    after: Option<String>,
    max_sources: Option<usize>,
    #[serde(default)]
    apply: bool,
    body: Option<String>,
}

/// Judge one ADR, or sweep several.
pub fn call(context: &ServerContext, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    let request = CrossrefRequest {
        refs: args.single.map_or(args.refs, |single| vec![single]),
        feature: args.feature,
        isolated: args.isolated,
        all: args.all_adrs,
        after: args.after,
        max_sources: args.max_sources,
        apply: args.apply,
        body: args.body,
    };
    let storage = context.storage()?;
    let graph = graph::load_graph(&storage)?;
    let _lock = if request.apply {
        Some(context.lock_writes()?)
    } else {
        None
    };
    // Applying links writes the source ADR: hold its sentinel as the
    // reference's writers do. A refused request is a tool error with the
    // model's message.
    let outcome: CrossrefOutcome =
        crossref::crossref(&storage, graph.docs(), &request, context.today(), |path| {
            context.lock_document(path)
        })?;
    Ok(Reply {
        summary: summary(&outcome),
        structured: serde_json::to_value(&outcome)?.into(),
    })
}

/// `<judged> judged, <links> links[, <w> written][, <r> remaining]`.
fn summary(outcome: &CrossrefOutcome) -> String {
    let mut summary = format!("{} judged, {} links", outcome.judged, outcome.links);
    if outcome.written > 0 {
        summary.push_str(&format!(", {} written", outcome.written));
    }
    if outcome.remaining > 0 {
        summary.push_str(&format!(", {} remaining", outcome.remaining));
    }
    summary
}

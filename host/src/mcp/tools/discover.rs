//! `discover`: the catalog ranked by intent, with each verb's schema
//! (`spec/gateway.md` §2).

use serde::Deserialize;
use serde_json::{Value, json};

use super::parse;
use crate::gateway::discover::schema;
use crate::mcp::context::Context;
use crate::mcp::reply::{Reply, ToolResult};

#[derive(Deserialize)]
struct Args {
    query: String,
    #[serde(default = "ten")]
    limit: usize,
}

fn ten() -> usize {
    10
}

/// Rank the verbs for the query.
pub fn call(context: &Context, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    let verbs: Vec<Value> = context
        .discover_index()
        .rank(&context.catalog, &args.query, args.limit)
        .into_iter()
        .map(|r| {
            schema(
                &r.entry.spec,
                r.score,
                &r.matched,
                context.catalog.trust(r.entry),
            )
        })
        .collect();
    let summary = format!("{} verbs", verbs.len());
    Ok(Reply {
        summary,
        structured: json!({"query": args.query, "count": verbs.len(), "verbs": verbs}),
    })
}

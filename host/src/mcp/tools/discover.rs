//! `discover`: the catalog ranked by intent, with each verb's schema
//! (`spec/gateway.md` §2).

use serde::Deserialize;
use serde_json::{Value, json};

use super::parse;
use crate::mcp::context::ServerContext;
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
pub fn call(context: &ServerContext, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    let verbs = context.gateway.discover(&args.query, args.limit);
    let summary = format!("{} verbs", verbs.len());
    Ok(Reply {
        summary,
        structured: json!({"query": args.query, "count": verbs.len(), "verbs": verbs}).into(),
    })
}

//! `discover`: the catalog ranked by intent, with each verb's schema
//! (`spec/gateway.md` §2).

use serde::Deserialize;
use serde_json::Value;

use super::parse;
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Payload, Reply, ToolResult};

#[derive(Deserialize)]
struct Args {
    query: String,
    #[serde(default = "ten")]
    limit: usize,
}

fn ten() -> usize {
    10
}

/// Rank the verbs for the query: the reply is written from each verb's
/// schema as the gateway keeps it, never built per call.
pub fn call(context: &ServerContext, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    let (count, json) = context.gateway.discover_reply(&args.query, args.limit);
    Ok(Reply {
        summary: format!("{count} verbs"),
        structured: Payload::Written(json.into()),
    })
}

//! `invoke`: run one cataloged verb in the sandbox (`spec/gateway.md` §3–6).

use serde::Deserialize;
use serde_json::{Map, Value};

use super::parse;
use crate::gateway::invoke::{Request, invoke, summary};
use crate::mcp::context::Context;
use crate::mcp::reply::{Refusal, Reply, ToolResult};

#[derive(Deserialize)]
struct Args {
    verb: String,
    #[serde(default)]
    arguments: Map<String, Value>,
    #[serde(default)]
    positionals: Vec<String>,
    timeout: Option<f64>,
}

/// Check and run the verb; the tool runs on a blocking thread, so it waits
/// for the sandbox on the server's runtime.
pub fn call(context: &Context, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    let request = Request {
        verb: args.verb,
        arguments: args.arguments,
        positionals: args.positionals,
        timeout: args.timeout,
    };
    let runtime = tokio::runtime::Handle::current();
    let reply = runtime
        .block_on(invoke(
            &context.catalog,
            &context.sandbox,
            &context.workspace,
            &request,
        ))
        .map_err(Refusal::Tool)?;
    Ok(Reply {
        summary: summary(&reply),
        structured: reply,
    })
}

//! `invoke`: run one cataloged verb in the sandbox (`spec/gateway.md` §3–6).
//!
//! The only tool that is not run on a blocking thread: the verb runs on the
//! server's runtime, under the sandbox's own deadline, so the call waits for
//! it as any other future.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::parse;
use crate::gateway::invoke::{Request, summary};
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Reply, ToolError, ToolResult};

#[derive(Deserialize)]
struct Args {
    verb: String,
    #[serde(default)]
    arguments: Map<String, Value>,
    #[serde(default)]
    positionals: Vec<String>,
    timeout: Option<f64>,
}

/// Check and run the verb through the gateway.
pub async fn call(context: &ServerContext, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    let request = Request {
        verb: args.verb,
        arguments: args.arguments,
        positionals: args.positionals,
        timeout: args.timeout,
    };
    let reply = context
        .gateway
        .invoke(&context.workspace, &request)
        .await
        .map_err(ToolError::Tool)?;
    Ok(Reply {
        summary: summary(&reply),
        structured: reply.into(),
    })
}

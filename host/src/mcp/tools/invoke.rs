//! `invoke`: run one cataloged verb in the sandbox (`spec/gateway.md` §3–6).
//!
//! The only tool that is not run on a blocking thread: the verb runs on the
//! server's runtime, under the sandbox's own deadline, so the call waits for
//! it as any other future.
//!
//! A read-only builtin's reply is kept with the loaded vault (see
//! [`KeptReplies`]): while no file under `.vault/` changes, and nothing
//! else the verb read, the same call is answered from there. A server
//! started with `--no-cache` keeps none.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Map, Value};

use super::parse;
use crate::gateway::invoke::{Replied, Request, summary, timeout_seconds};
use crate::gateway::kept::KeptReplies;
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Payload, Reply, ToolError, ToolResult};
use crate::workspace::survey::is_real_folder;

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
pub async fn call(context: &Arc<ServerContext>, args: Value) -> ToolResult {
    let began = Instant::now();
    let args: Args = parse(args)?;
    let request = Request {
        verb: args.verb,
        arguments: args.arguments,
        positionals: args.positionals,
        timeout: args.timeout,
        began: Some(began),
    };
    // The vault is brought up to date only for a call whose reply could
    // be kept: a third-party verb or a refused call never waits for it.
    let kept = match timeout_seconds(request.timeout) {
        Ok(seconds) if context.gateway.may_keep(&request) => {
            kept_replies(context, Duration::from_secs_f64(seconds)).await
        }
        _ => None,
    };
    let replied = context
        .gateway
        .invoke(&context.workspace, &request, kept.as_deref())
        .await
        .map_err(ToolError::Tool)?;
    Ok(match replied {
        Replied::Made(reply) => Reply {
            summary: summary(&reply),
            structured: reply.into(),
        },
        Replied::Kept(given) => Reply {
            summary: given.summary,
            structured: Payload::Written(given.json),
        },
    })
}

/// The replies kept for the vault as it is now, waiting at most `wait` for
/// the vault to be brought up to date; `None` when the server keeps none,
/// `.vault` is not a real folder (a link is never cached), or it cannot be
/// loaded in time.
async fn kept_replies(context: &Arc<ServerContext>, wait: Duration) -> Option<Arc<KeptReplies>> {
    let root = context.workspace.root();
    if !context.keep_replies || !is_real_folder(&root.join(".vault")) {
        return None;
    }
    let context = Arc::clone(context);
    let load = tokio::task::spawn_blocking(move || {
        let storage = context.storage().ok()?;
        let loaded = context.vault.get(context.workspace.root(), &storage).ok()?;
        Some(Arc::clone(&loaded.replies.invoke))
    });
    // A load that outlasts the wait goes on for the next call; this one
    // runs the verb afresh.
    tokio::time::timeout(wait, load).await.ok()?.ok()?
}

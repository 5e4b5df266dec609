//! The ten hot tools, each in its own file, and the dispatch between them.
//!
//! A tool takes its arguments (already checked against its input schema) as
//! JSON and returns a [`Reply`](super::reply::Reply) or a
//! [`ToolError`](super::reply::ToolError). The native tools run on a blocking
//! thread through [`call`] and use `vaultspec-vault` directly; writers hold
//! the workspace lock. [`invoke`] is async: it waits for the sandbox on the
//! server's runtime.

mod check;
mod create;
mod crossref;
mod definitions;
mod discover;
mod edit;
mod find;
pub mod invoke;
mod log;
mod plan;
mod search;
mod status;

pub use definitions::{Hints, ToolDef, definitions};

use serde_json::Value;

use super::context::ServerContext;
use super::reply::{ToolError, ToolResult};

/// Run the native tool `name` with `args` (every tool but [`invoke`]).
pub fn call(context: &ServerContext, name: &str, args: Value) -> ToolResult {
    match name {
        "find" => find::call(context, args),
        "create" => create::call(context, args),
        "edit" => edit::call(context, args),
        "status" => status::call(context, args),
        "check" => check::call(context, args),
        "search" => search::call(context, args),
        "crossref" => crossref::call(context, args),
        "plan_progress" => plan::progress(context, args),
        "plan_edit" => plan::edit(context, args),
        "log" => log::call(context, args),
        "discover" => discover::call(context, args),
        other => Err(ToolError::Bare(format!("Unknown tool: {other}"))),
    }
}

/// Deserialize validated arguments into a tool's argument struct.
pub fn parse<T: serde::de::DeserializeOwned>(args: Value) -> Result<T, ToolError> {
    serde_json::from_value(args)
        .map_err(|e| ToolError::tool(format!("the arguments do not fit: {e}")))
}

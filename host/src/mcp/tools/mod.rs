//! The ten hot tools, each in its own file, and the dispatch between them.
//!
//! A tool takes its arguments (already checked against its input schema) as
//! JSON and returns a [`Reply`](super::reply::Reply) or a
//! [`Refusal`](super::reply::Refusal). Tools run on a blocking thread and
//! call `vaultspec-vault` directly; writers hold the workspace lock.

mod check;
mod create;
mod crossref;
mod definitions;
mod discover;
mod edit;
mod find;
mod invoke;
mod log;
mod plan;
mod search;
mod status;

pub use definitions::{Hints, ToolDef, definitions};

use serde_json::Value;

use super::context::Context;
use super::reply::{Refusal, ToolResult};

/// Run the tool `name` with `args`.
pub fn call(context: &Context, name: &str, args: Value) -> ToolResult {
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
        "invoke" => invoke::call(context, args),
        other => Err(Refusal::Bare(format!("Unknown tool: {other}"))),
    }
}

/// Deserialize validated arguments into a tool's argument struct.
pub fn parse<T: serde::de::DeserializeOwned>(args: Value) -> Result<T, Refusal> {
    serde_json::from_value(args)
        .map_err(|e| Refusal::tool(format!("the arguments do not fit: {e}")))
}

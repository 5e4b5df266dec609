//! The ten hot tools, each in its own file, and the dispatch between them.
//!
//! A tool takes its validated arguments as JSON and returns a [`Reply`] (a
//! summary line and the structured payload) or a [`Refusal`].

mod definitions;

pub use definitions::{Hints, ToolDef, definitions};

use serde_json::Value;

use super::context::Context;
use super::reply::{Refusal, ToolResult};

/// Run the tool `name` with `args` (already checked against its schema).
pub fn call(context: &Context, name: &str, args: Value) -> ToolResult {
    let _ = (context, args);
    Err(Refusal::tool(format!("`{name}` is not available yet")))
}

/// Deserialize validated arguments into a tool's argument struct.
pub fn parse<T: serde::de::DeserializeOwned>(args: Value) -> Result<T, Refusal> {
    serde_json::from_value(args).map_err(|e| Refusal::tool(format!("the arguments do not fit: {e}")))
}

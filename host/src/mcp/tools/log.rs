//! `log`: record what a plan step changed in the feature's execution ledger
//! (`spec/mcp-tools.md` §6.11, `exec-ledger.md` §4).

use serde::Deserialize;
use serde_json::{Value, json};
use vaultspec_vault::ledger::{self, LogOptions, LogRequest};

use super::parse;
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Reply, ToolResult};

#[derive(Deserialize)]
struct Args {
    feature: String,
    plan: String,
    step: String,
    #[serde(default)]
    rows: Vec<String>,
    #[serde(default)]
    verify: Vec<String>,
    by: Option<String>,
    #[serde(default)]
    notes: Vec<String>,
}

/// Append the rows, verifications and notes for one step.
pub fn call(context: &ServerContext, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    let storage = context.storage()?;
    let _lock = context.lock_writes()?;
    let _sentinel = context.lock_docs_domain()?;
    let request = LogRequest {
        feature: args.feature,
        plan_stem: args.plan,
        step: args.step,
        rows: args.rows,
        verify: args.verify,
        by: args.by,
        notes: args.notes,
    };
    let result = ledger::log(&storage, &request, &LogOptions::new(context.today()))?;
    let verb = if result.created {
        "created"
    } else if result.changed {
        "logged"
    } else {
        "unchanged"
    };
    let summary = format!(
        "{verb}: {} -> {} ({} rows)",
        result.step, result.path, result.rows
    );
    let value = json!({
        "path": result.path, "step": result.step, "rows": result.rows, "notes": result.notes,
        "changed": result.changed, "created": result.created,
    });
    Ok(Reply {
        summary,
        structured: value.into(),
    })
}

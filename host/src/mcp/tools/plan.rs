//! `plan_progress` and `plan_edit`: batches of step changes on one plan,
//! loaded once and written once (`spec/mcp-tools.md` §6.9, §6.10, §8).

use serde::Deserialize;
use serde_json::Value;
use vaultspec_vault::Storage;
use vaultspec_vault::plan::{self, EditRequest, StepChange, WriteOptions, resolve_plan};

use super::parse;
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Reply, ToolError, ToolResult};

#[derive(Deserialize)]
struct ProgressArgs {
    plan: String,
    steps: Vec<ProgressStep>,
}

#[derive(Deserialize)]
struct ProgressStep {
    step_id: String,
    state: String,
}

#[derive(Deserialize)]
struct EditArgs {
    plan: String,
    operations: Vec<EditOperation>,
}

#[derive(Deserialize)]
struct EditOperation {
    operation: String,
    action: Option<String>,
    scope: Option<String>,
    phase_id: Option<String>,
    before: Option<String>,
    after: Option<String>,
    step_id: Option<String>,
}

/// The plan's path for an MCP target: a stem or a feature with one plan.
fn resolve(storage: &dyn Storage, target: &str) -> Result<String, ToolError> {
    resolve_plan(storage, target, false).map_err(|err| match err {
        plan::PlanError::InvalidTarget { .. } => {
            ToolError::tool("MCP plan targets must be a stem or feature handle, not a path")
        }
        other => ToolError::tool(format!("Cannot resolve plan '{}': {other}.", target.trim())),
    })
}

/// Check or uncheck steps.
pub fn progress(context: &ServerContext, args: Value) -> ToolResult {
    let args: ProgressArgs = parse(args)?;
    if args.steps.is_empty() {
        return Err(ToolError::tool(
            "plan_progress requires at least one step change",
        ));
    }
    let storage = context.storage()?;
    let _lock = context.lock_writes()?;
    let path = resolve(&storage, &args.plan)?;
    let _sentinel = context.lock_document(&path)?;
    let changes: Vec<StepChange> = args
        .steps
        .into_iter()
        .map(|s| StepChange {
            step_id: s.step_id,
            state: s.state,
        })
        .collect();
    let report = plan::plan_progress(
        &storage,
        &path,
        &changes,
        &WriteOptions::new(context.today()),
    )?;
    let summary = format!("PlanProgressResult: {}", report.status);
    Ok(Reply {
        summary,
        structured: serde_json::to_value(&report)?.into(),
    })
}

/// Add, insert, edit or remove steps.
pub fn edit(context: &ServerContext, args: Value) -> ToolResult {
    let args: EditArgs = parse(args)?;
    if args.operations.is_empty() {
        return Err(ToolError::tool("plan_edit requires at least one operation"));
    }
    let storage = context.storage()?;
    let _lock = context.lock_writes()?;
    let path = resolve(&storage, &args.plan)?;
    let _sentinel = context.lock_document(&path)?;
    let requests: Vec<EditRequest> = args
        .operations
        .into_iter()
        .map(|o| EditRequest {
            operation: o.operation,
            action: o.action,
            scope: o.scope,
            phase_id: o.phase_id,
            before: o.before,
            after: o.after,
            step_id: o.step_id,
        })
        .collect();
    let report = plan::plan_edit(
        &storage,
        &path,
        &requests,
        &WriteOptions::new(context.today()),
    )?;
    let summary = format!("PlanEditResult: {}", report.status);
    Ok(Reply {
        summary,
        structured: serde_json::to_value(&report)?.into(),
    })
}

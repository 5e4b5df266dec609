//! Batches of changes to one plan, applied item by item under one load and
//! one write, with a status per item and the plan's totals: Step state
//! changes and structural edits (what the server's `plan_progress` and
//! `plan_edit` run, spec/mcp-tools.md §6.9, §6.10).

use serde::Serialize;

use crate::storage::Storage;

use super::error::PlanError;
use super::op::{Anchor, PlanOp};
use super::status::completion_percent;
use super::store::{PlanWrite, WriteOptions, edit_plan};

/// One requested Step state change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepChange {
    /// `S##` or a full display path.
    pub step_id: String,
    /// `checked` or `unchecked`.
    pub state: String,
}

/// The error object of a failed item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemError {
    /// What went wrong.
    pub message: String,
}

/// One item of a `plan_progress` result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProgressItem {
    /// The address as given.
    pub step_id: String,
    /// The state as given.
    pub state: String,
    /// `updated`, `unchanged` or `failed`.
    pub status: &'static str,
    /// Why the item failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ItemError>,
}

/// The `plan_progress` result (plus the write, for hashes).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProgressReport {
    /// `ok`, `mixed` or `failed`.
    pub status: &'static str,
    /// The plan stem.
    pub plan: String,
    /// One item per change, in order.
    pub items: Vec<ProgressItem>,
    /// Step rows in the plan.
    pub total_steps: usize,
    /// Checked rows.
    pub steps_completed: usize,
    /// Completion, one decimal.
    pub completion_percent: f64,
    /// Display path of the first open Step.
    pub next_open_step: Option<String>,
    /// The write (skipped in the MCP output).
    #[serde(skip)]
    pub write: PlanWrite,
}

fn aggregate<'a>(statuses: impl Iterator<Item = &'a str>, ok: &[&str]) -> &'static str {
    let (mut good, mut bad) = (0, 0);
    for s in statuses {
        if ok.contains(&s) { good += 1 } else { bad += 1 }
    }
    match (good, bad) {
        (_, 0) => "ok",
        (0, _) => "failed",
        _ => "mixed",
    }
}

/// Checks and unchecks Steps of the plan at `path` in one write.
pub fn plan_progress(
    storage: &dyn Storage,
    path: &str,
    changes: &[StepChange],
    opts: &WriteOptions,
) -> Result<ProgressReport, PlanError> {
    if changes.is_empty() {
        return Err(PlanError::Usage(
            "plan_progress needs at least one step change".into(),
        ));
    }
    let (write, items, plan) = edit_plan(storage, path, opts, |session| {
        changes
            .iter()
            .map(|c| {
                let item = |status, error: Option<String>| ProgressItem {
                    step_id: c.step_id.clone(),
                    state: c.state.clone(),
                    status,
                    error: error.map(|message| ItemError { message }),
                };
                let want = match c.state.as_str() {
                    "checked" => true,
                    "unchecked" => false,
                    other => {
                        return item(
                            "failed",
                            Some(format!(
                                "invalid state `{other}`; use `checked` or `unchecked`"
                            )),
                        );
                    }
                };
                let plan = session.plan();
                match plan.find_step(&c.step_id) {
                    Err(e) => item("failed", Some(e.to_string())),
                    Ok(i) if plan.steps[i].checked == want => item("unchanged", None),
                    Ok(_) => {
                        let op = if want {
                            PlanOp::StepCheck {
                                step: c.step_id.clone(),
                            }
                        } else {
                            PlanOp::StepUncheck {
                                step: c.step_id.clone(),
                            }
                        };
                        match session.apply(&op) {
                            Ok(_) => item("updated", None),
                            Err(e) => item("failed", Some(e.to_string())),
                        }
                    }
                }
            })
            .collect::<Vec<_>>()
    })?;
    Ok(ProgressReport {
        status: aggregate(items.iter().map(|i| i.status), &["updated", "unchanged"]),
        plan: crate::doc::stem_of(path).to_owned(),
        total_steps: plan.steps.len(),
        steps_completed: plan.steps_completed(),
        completion_percent: completion_percent(plan.steps_completed(), plan.steps.len()),
        next_open_step: plan
            .steps
            .iter()
            .find(|s| !s.checked)
            .map(|s| plan.shown_path(s)),
        items,
        write,
    })
}

/// One `plan_edit` operation as the MCP tool receives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EditRequest {
    /// `add`, `insert`, `edit` or `remove`.
    pub operation: String,
    /// Action text (add, insert, edit).
    pub action: Option<String>,
    /// Scope (add, insert, edit).
    pub scope: Option<String>,
    /// Phase for `add` (canonical `P##`).
    pub phase_id: Option<String>,
    /// Anchor for `insert`.
    pub before: Option<String>,
    /// Anchor for `insert`.
    pub after: Option<String>,
    /// The Step for `edit` / `remove`.
    pub step_id: Option<String>,
}

/// One item of a `plan_edit` result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditItem {
    /// The operation as given.
    pub operation: String,
    /// `created`, `updated`, `removed` or `failed`.
    pub status: &'static str,
    /// The canonical id of the Step concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_id: Option<String>,
    /// Why the item failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ItemError>,
}

/// The `plan_edit` result (plus the write, for hashes).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EditReport {
    /// `ok`, `mixed` or `failed`.
    pub status: &'static str,
    /// The plan stem.
    pub plan: String,
    /// One item per operation, in order.
    pub items: Vec<EditItem>,
    /// Step rows in the plan.
    pub total_steps: usize,
    /// Checked rows.
    pub steps_completed: usize,
    /// Display path of the first open Step.
    pub next_open_step: Option<String>,
    /// The write (skipped in the MCP output).
    #[serde(skip)]
    pub write: PlanWrite,
}

fn edit_op(req: &EditRequest) -> Result<PlanOp, String> {
    let both = || match (&req.action, &req.scope) {
        (Some(a), Some(s)) => Ok((a.clone(), s.clone())),
        _ => Err(format!("`{}` needs `action` and `scope`", req.operation)),
    };
    let step = || {
        req.step_id
            .clone()
            .ok_or_else(|| format!("`{}` needs `step_id`", req.operation))
    };
    match req.operation.as_str() {
        "add" => {
            let (action, scope) = both()?;
            Ok(PlanOp::StepAdd {
                action,
                scope,
                phase: req.phase_id.clone(),
            })
        }
        "insert" => {
            let (action, scope) = both()?;
            let anchor = Anchor::from_flags(req.before.as_deref(), req.after.as_deref())
                .map_err(|e| e.to_string())?
                .ok_or_else(|| "`insert` needs `before` or `after`".to_string())?;
            Ok(PlanOp::StepInsert {
                anchor,
                action,
                scope,
            })
        }
        "edit" => Ok(PlanOp::StepEdit {
            step: step()?,
            action: req.action.clone(),
            scope: req.scope.clone(),
        }),
        "remove" => Ok(PlanOp::StepRemove { step: step()? }),
        other => Err(format!(
            "unknown plan_edit operation `{other}`; use `add`, `insert`, `edit` or `remove`"
        )),
    }
}

/// Adds, inserts, edits and removes Steps of the plan at `path` in one write.
pub fn plan_edit(
    storage: &dyn Storage,
    path: &str,
    requests: &[EditRequest],
    opts: &WriteOptions,
) -> Result<EditReport, PlanError> {
    if requests.is_empty() {
        return Err(PlanError::Usage(
            "plan_edit needs at least one operation".into(),
        ));
    }
    let (write, items, plan) = edit_plan(storage, path, opts, |session| {
        requests
            .iter()
            .map(|req| {
                let failed = |message: String| EditItem {
                    operation: req.operation.clone(),
                    status: "failed",
                    step_id: req.step_id.clone(),
                    error: Some(ItemError { message }),
                };
                let op = match edit_op(req) {
                    Ok(op) => op,
                    Err(m) => return failed(m),
                };
                let target = req
                    .step_id
                    .as_deref()
                    .and_then(|s| session.plan().find_step(s).ok());
                let target_id = target.map(|i| session.plan().steps[i].id.clone());
                match session.apply(&op) {
                    Err(e) => failed(e.to_string()),
                    Ok(out) => {
                        let (status, step_id) = match req.operation.as_str() {
                            "add" | "insert" => (
                                "created",
                                out.subject
                                    .map(|p| p.rsplit('.').next().unwrap_or(&p).to_string()),
                            ),
                            "edit" => ("updated", target_id),
                            _ => ("removed", target_id),
                        };
                        EditItem {
                            operation: req.operation.clone(),
                            status,
                            step_id,
                            error: None,
                        }
                    }
                }
            })
            .collect::<Vec<_>>()
    })?;
    Ok(EditReport {
        status: aggregate(
            items.iter().map(|i| i.status),
            &["created", "updated", "removed"],
        ),
        plan: crate::doc::stem_of(path).to_owned(),
        total_steps: plan.steps.len(),
        steps_completed: plan.steps_completed(),
        next_open_step: plan
            .steps
            .iter()
            .find(|s| !s.checked)
            .map(|s| plan.shown_path(s)),
        items,
        write,
    })
}

//! `vault plan step …`: checking off, adding, inserting, editing, moving and
//! removing the Step rows of a plan.

use vaultspec_sdk::vault::plan::PlanOp;

use crate::exports::vaultspec::plan_write::vault_plan_step::{
    AddOptions, EditOptions, InsertOptions, MarkOptions, MoveOptions,
};
use crate::mutate::{anchor, common, required_anchor, run};

/// Which way `check`, `uncheck` and `toggle` turn the box.
pub enum Mark {
    Check,
    Uncheck,
    Toggle,
}

pub fn mark(options: MarkOptions, path: &str, step: String, mark: Mark) -> u8 {
    let op = match mark {
        Mark::Check => PlanOp::StepCheck { step },
        Mark::Uncheck => PlanOp::StepUncheck { step },
        Mark::Toggle => PlanOp::StepToggle { step },
    };
    run(common!(options), path, Ok(op))
}

pub fn add(options: AddOptions, path: &str) -> u8 {
    let op = PlanOp::StepAdd {
        action: options.action.clone(),
        scope: options.scope.clone(),
        phase: options.phase.clone(),
    };
    run(common!(options), path, Ok(op))
}

pub fn insert(options: InsertOptions, path: &str) -> u8 {
    let op = required_anchor(options.before.as_deref(), options.after.as_deref()).map(|anchor| {
        PlanOp::StepInsert {
            anchor,
            action: options.action.clone(),
            scope: options.scope.clone(),
        }
    });
    run(common!(options), path, op)
}

pub fn edit(options: EditOptions, path: &str, step: String) -> u8 {
    let op = if options.action.is_none() && options.scope.is_none() {
        Err(vaultspec_sdk::vault::plan::PlanError::Usage(
            "nothing to change: give `--action` or `--scope`".into(),
        ))
    } else {
        Ok(PlanOp::StepEdit {
            step,
            action: options.action.clone(),
            scope: options.scope.clone(),
        })
    };
    run(common!(options), path, op)
}

pub fn move_(options: MoveOptions, path: &str, step: String) -> u8 {
    let op = anchor(options.before.as_deref(), options.after.as_deref()).and_then(|anchor| {
        if anchor.is_none() && options.to_phase.is_none() {
            return Err(vaultspec_sdk::vault::plan::PlanError::Usage(
                "nothing to move: give `--to-phase P##`, `--before ID` or `--after ID`".into(),
            ));
        }
        Ok(PlanOp::StepMove {
            step,
            to_phase: options.to_phase.clone(),
            anchor,
        })
    });
    run(common!(options), path, op)
}

pub fn remove(options: MarkOptions, path: &str, step: String) -> u8 {
    run(common!(options), path, Ok(PlanOp::StepRemove { step }))
}

//! `vault plan phase …` and `vault plan wave …`: adding, inserting, editing,
//! moving, renumbering and removing the containers that group Steps.

use vaultspec_sdk::vault::plan::{PlanError, PlanOp};

use crate::exports::vaultspec::plan_write::{vault_plan_phase as phase, vault_plan_wave as wave};
use crate::mutate::{anchor, common, required_anchor, run};

fn nothing_to_edit(title: &Option<String>, intent: &Option<String>) -> Option<PlanError> {
    (title.is_none() && intent.is_none())
        .then(|| PlanError::Usage("nothing to change: give `--title` or `--intent`".into()))
}

pub fn phase_add(o: phase::AddOptions, path: &str) -> u8 {
    let op = PlanOp::PhaseAdd {
        title: o.title.clone(),
        intent: o.intent.clone(),
        wave: o.wave.clone(),
    };
    run(common!(o), path, Ok(op))
}

pub fn phase_insert(o: phase::InsertOptions, path: &str) -> u8 {
    let op = required_anchor(o.before.as_deref(), o.after.as_deref()).map(|anchor| {
        PlanOp::PhaseInsert {
            anchor,
            title: o.title.clone(),
            intent: o.intent.clone(),
        }
    });
    run(common!(o), path, op)
}

pub fn phase_edit(o: phase::EditOptions, path: &str, id: String) -> u8 {
    let op = match nothing_to_edit(&o.title, &o.intent) {
        Some(err) => Err(err),
        None => Ok(PlanOp::PhaseEdit {
            phase: id,
            title: o.title.clone(),
            intent: o.intent.clone(),
        }),
    };
    run(common!(o), path, op)
}

pub fn phase_move(o: phase::MoveOptions, path: &str, id: String) -> u8 {
    let op = anchor(o.before.as_deref(), o.after.as_deref()).and_then(|anchor| {
        if anchor.is_none() && o.to_wave.is_none() {
            return Err(PlanError::Usage(
                "nothing to move: give `--to-wave W##`, `--before P##` or `--after P##`".into(),
            ));
        }
        Ok(PlanOp::PhaseMove {
            phase: id,
            to_wave: o.to_wave.clone(),
            anchor,
        })
    });
    run(common!(o), path, op)
}

pub fn phase_renumber(o: phase::RenumberOptions, path: &str, id: String) -> u8 {
    run(
        common!(o),
        path,
        Ok(PlanOp::PhaseRenumber {
            phase: id,
            to: o.to.trim().to_string(),
        }),
    )
}

pub fn phase_remove(o: phase::RemoveOptions, path: &str, id: String) -> u8 {
    run(common!(o), path, Ok(PlanOp::PhaseRemove { phase: id }))
}

pub fn wave_add(o: wave::AddOptions, path: &str) -> u8 {
    run(
        common!(o),
        path,
        Ok(PlanOp::WaveAdd {
            title: o.title.clone(),
            intent: o.intent.clone(),
        }),
    )
}

pub fn wave_insert(o: wave::InsertOptions, path: &str) -> u8 {
    let op =
        required_anchor(o.before.as_deref(), o.after.as_deref()).map(|anchor| PlanOp::WaveInsert {
            anchor,
            title: o.title.clone(),
            intent: o.intent.clone(),
        });
    run(common!(o), path, op)
}

pub fn wave_edit(o: wave::EditOptions, path: &str, id: String) -> u8 {
    let op = match nothing_to_edit(&o.title, &o.intent) {
        Some(err) => Err(err),
        None => Ok(PlanOp::WaveEdit {
            wave: id,
            title: o.title.clone(),
            intent: o.intent.clone(),
        }),
    };
    run(common!(o), path, op)
}

pub fn wave_move(o: wave::MoveOptions, path: &str, id: String) -> u8 {
    let op = required_anchor(o.before.as_deref(), o.after.as_deref())
        .map(|anchor| PlanOp::WaveMove { wave: id, anchor });
    run(common!(o), path, op)
}

pub fn wave_remove(o: wave::RemoveOptions, path: &str, id: String) -> u8 {
    run(common!(o), path, Ok(PlanOp::WaveRemove { wave: id }))
}

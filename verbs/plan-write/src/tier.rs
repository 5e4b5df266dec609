//! `vault plan tier promote|demote` and `vault plan epic intent edit`: the
//! verbs that change how deeply a plan nests.
//!
//! The reference names the tier flag `--target`, which is the host's
//! workspace flag here; ours is `--to`.

use vaultspec_sdk::vault::plan::{PlanOp, PromoteTexts};

use crate::exports::vaultspec::plan_write::vault_plan_epic_intent::EditOptions;
use crate::exports::vaultspec::plan_write::vault_plan_tier::{DemoteOptions, PromoteOptions};
use crate::mutate::{common, run, tier};

pub fn promote(o: PromoteOptions, path: &str) -> u8 {
    let op = tier(o.to.as_deref()).map(|target| PlanOp::TierPromote {
        target,
        texts: PromoteTexts {
            phase_title: o.phase_title.clone(),
            phase_intent: o.phase_intent.clone(),
            wave_title: o.wave_title.clone(),
            wave_intent: o.wave_intent.clone(),
            epic_intent: o.epic_intent.clone(),
            require_all: true,
        },
    });
    run(common!(o), path, op)
}

pub fn demote(o: DemoteOptions, path: &str) -> u8 {
    let op = tier(o.to.as_deref()).map(|target| PlanOp::TierDemote {
        target,
        force: o.force,
    });
    run(common!(o), path, op)
}

pub fn epic_edit(o: EditOptions, path: &str) -> u8 {
    run(
        common!(o),
        path,
        Ok(PlanOp::EpicIntentEdit {
            text: o.text.clone(),
        }),
    )
}

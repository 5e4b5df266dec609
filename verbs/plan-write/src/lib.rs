//! The builtin `vault plan` verbs that change a plan: Steps, Phases, Waves,
//! the Epic intent, the tier, and `plan check --fix`.
//!
//! This component imports write access; the read-only plan verbs live in the
//! `plan` component, which does not. Every mutation is one model operation
//! written through the guarded plan writer: a refused edit leaves the file
//! byte-identical, and `--expected-blob-hash` refuses a plan that moved on.

mod check;
mod container;
mod mutate;
mod step;
mod tier;

use exports::vaultspec::plan_write::{
    vault_plan, vault_plan_epic_intent, vault_plan_phase as phase, vault_plan_step as step_if,
    vault_plan_tier, vault_plan_wave as wave,
};
use step::Mark;

struct Verbs;

impl vault_plan::Guest for Verbs {
    fn check(options: vault_plan::CheckOptions, path: String) -> u8 {
        check::check(options, &path)
    }
}

impl step_if::Guest for Verbs {
    fn toggle(options: step_if::MarkOptions, path: String, step_id: String) -> u8 {
        step::mark(options, &path, step_id, Mark::Toggle)
    }
    fn check(options: step_if::MarkOptions, path: String, step_id: String) -> u8 {
        step::mark(options, &path, step_id, Mark::Check)
    }
    fn uncheck(options: step_if::MarkOptions, path: String, step_id: String) -> u8 {
        step::mark(options, &path, step_id, Mark::Uncheck)
    }
    fn add(options: step_if::AddOptions, path: String) -> u8 {
        step::add(options, &path)
    }
    fn insert(options: step_if::InsertOptions, path: String) -> u8 {
        step::insert(options, &path)
    }
    fn edit(options: step_if::EditOptions, path: String, step_id: String) -> u8 {
        step::edit(options, &path, step_id)
    }
    fn move_(options: step_if::MoveOptions, path: String, step_id: String) -> u8 {
        step::move_(options, &path, step_id)
    }
    fn remove(options: step_if::MarkOptions, path: String, step_id: String) -> u8 {
        step::remove(options, &path, step_id)
    }
}

impl phase::Guest for Verbs {
    fn add(options: phase::AddOptions, path: String) -> u8 {
        container::phase_add(options, &path)
    }
    fn insert(options: phase::InsertOptions, path: String) -> u8 {
        container::phase_insert(options, &path)
    }
    fn edit(options: phase::EditOptions, path: String, phase_id: String) -> u8 {
        container::phase_edit(options, &path, phase_id)
    }
    fn move_(options: phase::MoveOptions, path: String, phase_id: String) -> u8 {
        container::phase_move(options, &path, phase_id)
    }
    fn renumber(options: phase::RenumberOptions, path: String, phase_id: String) -> u8 {
        container::phase_renumber(options, &path, phase_id)
    }
    fn remove(options: phase::RemoveOptions, path: String, phase_id: String) -> u8 {
        container::phase_remove(options, &path, phase_id)
    }
}

impl wave::Guest for Verbs {
    fn add(options: wave::AddOptions, path: String) -> u8 {
        container::wave_add(options, &path)
    }
    fn insert(options: wave::InsertOptions, path: String) -> u8 {
        container::wave_insert(options, &path)
    }
    fn edit(options: wave::EditOptions, path: String, wave_id: String) -> u8 {
        container::wave_edit(options, &path, wave_id)
    }
    fn move_(options: wave::MoveOptions, path: String, wave_id: String) -> u8 {
        container::wave_move(options, &path, wave_id)
    }
    fn remove(options: wave::RemoveOptions, path: String, wave_id: String) -> u8 {
        container::wave_remove(options, &path, wave_id)
    }
}

impl vault_plan_epic_intent::Guest for Verbs {
    fn edit(options: vault_plan_epic_intent::EditOptions, path: String) -> u8 {
        tier::epic_edit(options, &path)
    }
}

impl vault_plan_tier::Guest for Verbs {
    fn promote(options: vault_plan_tier::PromoteOptions, path: String) -> u8 {
        tier::promote(options, &path)
    }
    fn demote(options: vault_plan_tier::DemoteOptions, path: String) -> u8 {
        tier::demote(options, &path)
    }
}

vaultspec_sdk::verb!(Verbs);

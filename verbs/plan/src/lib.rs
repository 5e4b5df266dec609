//! The builtin read-only `vault plan` verbs: status, query, `tier show`,
//! `epic intent show` and the commit trailers.
//!
//! None of them writes, so the component imports no write access; the verbs
//! that change a plan (and `plan check`, whose `--fix` writes) live in
//! `plan-write`. Each verb resolves the plan, asks the vault model and prints
//! text or the JSON envelope.

mod read;
mod trailer;

use exports::vaultspec::plan::{
    vault_plan, vault_plan_epic_intent, vault_plan_tier, vault_plan_trailer,
};

struct Verbs;

impl vault_plan::Guest for Verbs {
    fn status(options: vault_plan::StatusOptions, path: String) -> u8 {
        read::status(options, &path)
    }

    fn query(options: vault_plan::QueryOptions, path: String) -> u8 {
        read::query(options, &path)
    }
}

impl vault_plan_epic_intent::Guest for Verbs {
    fn show(options: vault_plan_epic_intent::ShowOptions, path: String) -> u8 {
        read::epic_show(options, &path)
    }
}

impl vault_plan_tier::Guest for Verbs {
    fn show(options: vault_plan_tier::ShowOptions, path: String) -> u8 {
        read::tier_show(options, &path)
    }
}

impl vault_plan_trailer::Guest for Verbs {
    fn emit(options: vault_plan_trailer::EmitOptions) -> u8 {
        trailer::emit(options)
    }

    fn validate(options: vault_plan_trailer::ValidateOptions, message_file: String) -> u8 {
        trailer::validate(options, &message_file)
    }
}

vaultspec_sdk::verb!(Verbs);

//! Running `spec hooks …` and `spec triggers …`: the reading commands
//! ([`read`]) print into a [`Printed`] (the gateway serves them too); the
//! others write the team's files ([`author`]), the person's approvals
//! ([`approve`]) or the agents' settings, and run triggers ([`run`]), at the
//! command line only.

mod approve;
mod author;
mod read;
mod run;

pub use read::{doctor_findings, hooks_status, list_hooks, list_triggers, show, triggers_status};
pub use run::{after_sync, approved_triggers};

use approve::trust;
use author::{add_hook, add_trigger, edit, remove, rename};
use run::{run_triggers_now, sync_hooks};

use std::path::Path;

use anyhow::Context;
use serde_json::{Value, json};
use vaultspec_vault::{CapStorage, Storage, StorageError, WriteScope};

use super::args::*;
use super::ledger::Ledger;
use super::scripts::{self, Folder, Script, scope_dir, valid_name};
use super::spec::{self, Hook, PROVIDERS};
use super::sync::{self as hook_sync, hook_providers};
use super::triggers::{self, Trigger};
use crate::display::Escaped;
use crate::provision::enroll::print_report;
use crate::provision::enroll::targets::Homes;
use crate::report::{Printed, Reporter, exit, print_envelope, write_stdout};
use crate::trust::{Terminal, cannot_ask};

/// Run one `spec hooks` command in the workspace at `root`.
pub fn run_hooks(command: &HooksCommand, root: &Path) -> anyhow::Result<u8> {
    let homes = || Homes::from_env().context("no home folder: set HOME");
    match command {
        HooksCommand::List(a) => Ok(list_hooks(root, &homes()?, a.json).emit()?),
        HooksCommand::Show(a) => Ok(show(root, Folder::Hooks, &a.name, a.json).emit()?),
        HooksCommand::Status(a) => Ok(hooks_status(root, &homes()?, a.json).emit()?),
        HooksCommand::Sync(a) => sync_hooks(root, &homes()?, a),
        HooksCommand::Trust(a) => trust(root, &homes()?, Folder::Hooks, a),
        HooksCommand::Add(a) => add_hook(root, a),
        HooksCommand::Edit(a) => edit(root, Folder::Hooks, a),
        HooksCommand::Remove(a) => remove(root, Folder::Hooks, a),
        HooksCommand::Rename(a) => rename(root, Folder::Hooks, a),
        HooksCommand::Run(a) => {
            eprintln!(
                "note: `spec hooks run` fires vaultspec's own events; it is `spec triggers run`."
            );
            run_triggers_now(root, &homes()?, a)
        }
    }
}

/// Run one `spec triggers` command in the workspace at `root`.
pub fn run_triggers(command: &TriggersCommand, root: &Path) -> anyhow::Result<u8> {
    let homes = || Homes::from_env().context("no home folder: set HOME");
    match command {
        TriggersCommand::List(a) => Ok(list_triggers(root, &homes()?, a.json).emit()?),
        TriggersCommand::Show(a) => Ok(show(root, Folder::Triggers, &a.name, a.json).emit()?),
        TriggersCommand::Status(a) => Ok(triggers_status(root, a.json).emit()?),
        TriggersCommand::Run(a) => run_triggers_now(root, &homes()?, a),
        TriggersCommand::Trust(a) => trust(root, &homes()?, Folder::Triggers, a),
        TriggersCommand::Add(a) => add_trigger(root, a),
        TriggersCommand::Edit(a) => edit(root, Folder::Triggers, a),
        TriggersCommand::Remove(a) => remove(root, Folder::Triggers, a),
        TriggersCommand::Rename(a) => rename(root, Folder::Triggers, a),
    }
}

/// The schema of `verb` in `folder`'s group.
fn schema(folder: Folder, verb: &str) -> String {
    format!("vaultspec.spec.{}.{verb}.v1", folder.group())
}

/// A failure as [`Printed`]: the error envelope, or `error:` on stderr.
fn failed(json: bool, code: u8, message: &str) -> Printed {
    let mut printed = Printed::new(code);
    if json {
        printed.envelope(
            "vaultspec.error.v1",
            "failed",
            json!({"message": message, "exit_code": code}),
        );
    } else {
        printed.stderr = format!("error: {}\n", Escaped::new(message));
    }
    printed
}

/// The workspace path of `name` in `folder`: `<name>.yaml`, or the
/// `.yml` file when only that exists. `Err` names what is wrong.
fn file_of(storage: &CapStorage, folder: Folder, name: &str) -> Result<String, String> {
    let stem = scripts::name_of(name).unwrap_or(name);
    if !valid_name(stem) {
        return Err(format!(
            "'{name}' is not a file name vaultspec writes: use letters, digits, `-`, `_` and `.`"
        ));
    }
    if name.ends_with(".yaml") || name.ends_with(".yml") {
        return Ok(format!("{}/{name}", folder.path()));
    }
    let yaml = format!("{}/{stem}.yaml", folder.path());
    let yml = format!("{}/{stem}.yml", folder.path());
    if !storage.exists(&yaml).unwrap_or(false) && storage.exists(&yml).unwrap_or(false) {
        return Ok(yml);
    }
    Ok(yaml)
}

fn not_found(folder: Folder, name: &str) -> String {
    format!(
        "{} '{name}' not found; `vaultspec spec {} list` lists them.",
        folder.noun(),
        folder.group()
    )
}

/// The workspace opened for writing the team's files.
fn setup_storage(root: &Path) -> anyhow::Result<CapStorage> {
    Ok(CapStorage::open(root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(WriteScope::Setup))
}

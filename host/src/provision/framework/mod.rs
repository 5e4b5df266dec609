//! The agent framework at the command line: `sync`, `spec rules|skills|
//! agents …`, `spec system …`, and the part of `install` and `uninstall`
//! that puts vaultspec's rules, skills, personas and system prompt into
//! (and takes them out of) each coding agent's files.
//!
//! The model is `vaultspec_vault::framework`: it reads the sources,
//! renders them and decides, by each file's mark, what may change. Here
//! that is run against the workspace through a [`CapStorage`] held to
//! [`WriteScope::Framework`](vaultspec_vault::WriteScope::Framework): no link
//! is followed, each file is replaced atomically, and nothing but the
//! agents' rule, skill and persona folders, their root files and the
//! sources can change.

mod args;
mod provision;
mod reference;
mod render_run;
mod sources;
mod status;

use std::path::Path;

use anyhow::Context;
use serde_json::json;
use vaultspec_vault::framework::Kind;
use vaultspec_vault::framework::sync::Overwrite;

pub use args::{FamilyCommand, FullSyncArgs, SyncArgs, SystemCommand};
pub use provision::{Installed, install, uninstall};
pub use render_run::SyncReport;
pub use status::drift;

use crate::report::{exit, print_envelope, write_stdout};
use crate::workspace::resolve_root;

/// The workspace root for a command, or the error to show.
fn root(target: Option<&Path>) -> anyhow::Result<std::path::PathBuf> {
    let cwd = std::env::current_dir().context("reading the current folder")?;
    resolve_root(target, &cwd)
}

/// Run `spec rules|skills|agents …` for `kind`; returns the exit code.
pub fn run_family(
    kind: Kind,
    command: &FamilyCommand,
    target: Option<&Path>,
) -> anyhow::Result<u8> {
    let root = root(target)?;
    let storage = render_run::storage(&root)?;
    match command {
        FamilyCommand::List(args) => sources::list(&storage, kind, args.json),
        FamilyCommand::Add(args) => sources::add(&storage, kind, args),
        FamilyCommand::Show(args) => sources::show(&storage, kind, args),
        FamilyCommand::Edit(args) => sources::edit(&storage, kind, args),
        FamilyCommand::Remove(args) => sources::remove(&storage, kind, args),
        FamilyCommand::Rename(args) => sources::rename(&storage, kind, args),
        FamilyCommand::Restore(args) => sources::restore(&storage, kind, args),
        FamilyCommand::Status(args) => {
            status::status(&root, &storage, kind, family_kinds(kind), args.json)
        }
        FamilyCommand::Sync(args) => sync_kinds(
            &root,
            args,
            family_kinds(kind),
            &[],
            &format!("spec.{}.sync", kind.folder()),
        ),
    }
}

/// The kinds a family's `sync` and `status` cover: the rules folder
/// carries the system rule too.
fn family_kinds(kind: Kind) -> &'static [Kind] {
    match kind {
        Kind::Rule => &[Kind::Rule, Kind::System],
        Kind::Skill => &[Kind::Skill],
        Kind::Agent => &[Kind::Agent],
        Kind::System => &[Kind::System],
    }
}

/// Run `spec system …`; returns the exit code.
pub fn run_system(command: &SystemCommand, target: Option<&Path>) -> anyhow::Result<u8> {
    let root = root(target)?;
    match command {
        SystemCommand::Show(args) => {
            let storage = render_run::storage(&root)?;
            status::system_show(&root, &storage, args.json)
        }
        SystemCommand::Sync(args) => {
            sync_kinds(&root, args, &[Kind::System], &[], "spec.system.sync")
        }
    }
}

/// Run `vaultspec sync`: every family for the chosen agents, then their MCP
/// enrollment; returns the exit code.
pub fn run_sync(args: &FullSyncArgs, target: Option<&Path>) -> anyhow::Result<u8> {
    let root = root(target)?;
    let skip_mcp = args.skip.iter().any(|s| s == "mcp");
    let code = sync_kinds(&root, &args.sync, &Kind::ALL, &args.skip, "sync")?;
    if skip_mcp || code == exit::USAGE {
        return Ok(code);
    }
    let enrollment = crate::provision::enroll::sync_installed(&root, args.sync.dry_run)?;
    if !args.sync.json {
        crate::provision::enroll::print_warnings(&enrollment.warnings);
    }
    Ok(if enrollment.failed() {
        exit::FINDINGS
    } else {
        code
    })
}

/// Sync `kinds` for the agents `args` choose, and report it.
fn sync_kinds(
    root: &Path,
    args: &SyncArgs,
    kinds: &[Kind],
    skip: &[String],
    schema: &str,
) -> anyhow::Result<u8> {
    let reporter = crate::report::Reporter { json: args.json };
    let providers = match render_run::chosen(root, &args.provider, skip) {
        Ok(providers) => providers,
        Err(message) => return Ok(reporter.fail(exit::FINDINGS, &message)),
    };
    if providers.is_empty() {
        return Ok(reporter.fail(
            exit::FINDINGS,
            "no agent is set up in this workspace: run `vaultspec install` (or `install claude`, …) first",
        ));
    }
    let storage = render_run::storage(root)?;
    let overwrite = Overwrite {
        force: args.force,
        builtins: false,
    };
    let report = render_run::run(root, &storage, &providers, kinds, overwrite, args.dry_run);
    print_sync(schema, &report, args.json, args.dry_run)?;
    Ok(if report.failed() {
        exit::FINDINGS
    } else {
        exit::OK
    })
}

/// Print a sync's report as text (warnings on stderr) or JSON.
pub fn print_sync(
    schema: &str,
    report: &SyncReport,
    json: bool,
    dry_run: bool,
) -> anyhow::Result<()> {
    let warnings = report.warnings();
    if json {
        print_envelope(
            &format!("vaultspec.{schema}.v1"),
            if dry_run {
                "unchanged"
            } else {
                report.status()
            },
            json!({"items": report.items(), "warnings": warnings, "dry_run": dry_run}),
        )?;
        return Ok(());
    }
    print_warnings(&warnings);
    let head = if dry_run {
        "Framework sync (dry run: nothing written):\n"
    } else {
        "Framework sync:\n"
    };
    write_stdout(&format!("{head}{}", report.text(dry_run)))?;
    Ok(())
}

/// Print warnings on stderr, at most ten, then how many more.
pub fn print_warnings(warnings: &[String]) {
    const SHOWN: usize = 10;
    for warning in warnings.iter().take(SHOWN) {
        eprintln!("warning: {}", crate::display::Escaped::new(warning));
    }
    if warnings.len() > SHOWN {
        eprintln!(
            "warning: … and {} more like these (`--json` lists them all)",
            warnings.len() - SHOWN
        );
    }
}

//! The agent framework in the host: `sync`, `spec rules|skills|agents
//! edit`, and the part of `install` and `uninstall` that puts vaultspec's
//! rules, skills, personas and system prompt into (and takes them out of)
//! each coding agent's files. The rest of the `spec rules|skills|agents|
//! system` verbs are the builtin `framework` component's (`verbs/framework`),
//! which runs the same model through `framework-write`.
//!
//! The model is `vaultspec_vault::framework`: it reads the sources,
//! renders them and decides, by each file's mark, what may change. Here
//! that is run against the workspace through a [`CapStorage`] held to
//! [`WriteScope::Framework`](vaultspec_vault::WriteScope::Framework): no link
//! is followed, each file is replaced atomically, and nothing but the
//! agents' rule, skill and persona folders, their root files and the
//! sources can change.

mod args;
mod drift;
mod edit;
mod provision;
mod reference;
mod render_run;

use std::path::Path;

use anyhow::Context;
use vaultspec_vault::framework::sync::Overwrite;
use vaultspec_vault::framework::{Kind, run};

pub use args::{FamilyCommand, FullSyncArgs, SyncArgs};
pub use drift::drift;
pub use edit::edit_file;
pub use provision::{Installed, install, uninstall};
pub use run::SyncReport;

use crate::report::{exit, print_envelope, write_stdout};
use crate::workspace::resolve_root;

/// The workspace root for a command, or the error to show.
fn root(target: Option<&Path>) -> anyhow::Result<std::path::PathBuf> {
    let cwd = std::env::current_dir().context("reading the current folder")?;
    resolve_root(target, &cwd)
}

/// Run the host's own verb of `spec rules|skills|agents` for `kind`;
/// returns the exit code.
pub fn run_family(
    kind: Kind,
    command: &FamilyCommand,
    target: Option<&Path>,
) -> anyhow::Result<u8> {
    let root = root(target)?;
    let storage = render_run::storage(&root)?;
    match command {
        FamilyCommand::Edit(args) => edit::edit(&storage, kind, args),
    }
}

/// Run `vaultspec sync`: every family for the chosen agents, then their MCP
/// enrollment; returns the exit code.
pub fn run_sync(args: &FullSyncArgs, target: Option<&Path>) -> anyhow::Result<u8> {
    let root = root(target)?;
    let sync = &args.sync;
    let reporter = crate::report::Reporter { json: sync.json };
    let storage = render_run::storage(&root)?;
    let providers = match run::chosen(&storage, &sync.provider, &args.skip) {
        Ok(providers) if providers.is_empty() => {
            return Ok(reporter.fail(exit::FINDINGS, run::NOT_INSTALLED));
        }
        Ok(providers) => providers,
        Err(message) => return Ok(reporter.fail(exit::FINDINGS, &message)),
    };
    let overwrite = Overwrite {
        force: sync.force,
        builtins: false,
    };
    let report = render_run::run(
        &root,
        &storage,
        &providers,
        &Kind::ALL,
        overwrite,
        sync.dry_run,
    );
    print_sync("sync", &report, sync.json, sync.dry_run)?;
    let code = if report.failed() {
        exit::FINDINGS
    } else {
        exit::OK
    };
    let mut code = code;
    if !args.skip.iter().any(|s| s == "mcp") {
        let enrollment = crate::provision::enroll::sync_installed(&root, sync.dry_run)?;
        if !sync.json {
            crate::provision::enroll::print_warnings(&enrollment.warnings);
        }
        if enrollment.failed() {
            code = exit::FINDINGS;
        }
    }
    if !args.skip.iter().any(|s| s == "hooks") {
        let names: Vec<String> = providers.iter().map(|p| p.name().to_owned()).collect();
        let hooks = crate::provision::hooks::sync::sync_installed(&root, &names, sync.dry_run);
        if !sync.json {
            crate::provision::enroll::print_warnings(&hooks.warnings);
            crate::provision::hooks::sync::print_items(&hooks);
        }
        if hooks.failed() {
            code = exit::FINDINGS;
        }
    }
    // The team's `config.synced` triggers run after a full sync, as the
    // reference runs them.
    if sync.provider == "all" && !sync.dry_run {
        crate::provision::hooks::after_sync(&root);
    }
    Ok(code)
}

/// Print a sync's report as text (warnings on stderr) or JSON.
pub fn print_sync(
    schema: &str,
    report: &SyncReport,
    json: bool,
    dry_run: bool,
) -> anyhow::Result<()> {
    if json {
        let status = if dry_run {
            "unchanged"
        } else {
            report.status()
        };
        print_envelope(
            &format!("vaultspec.{schema}.v1"),
            status,
            report.data(dry_run),
        )?;
        return Ok(());
    }
    print_warnings(&report.warnings());
    write_stdout(&report.text(dry_run))?;
    Ok(())
}

/// Print warnings on stderr, at most ten, then how many more.
pub fn print_warnings(warnings: &[String]) {
    const SHOWN: usize = 10;
    for warning in warnings.iter().take(SHOWN) {
        eprintln!(
            "{} {}",
            crate::display::warning_label(),
            crate::display::Escaped::new(warning)
        );
    }
    if warnings.len() > SHOWN {
        eprintln!(
            "warning: … and {} more like these (`--json` lists them all)",
            warnings.len() - SHOWN
        );
    }
}

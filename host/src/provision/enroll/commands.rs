//! Running `spec mcps …` and `spec doctor`: which agents' files a command
//! works on, the sync and uninstall runs, `list` and `status`, and how
//! their reports print.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::{Value, json};

use super::args::{McpsCommand, SpecCommand, TargetArgs};
use super::consent::Ledger;
use super::definitions::{self, Definition};
use super::ownership::{self, Ownership};
use super::status;
use super::sync::{self, Options, Outcome, Report, Workspace};
use super::targets::{self, Homes, Provider, Scope, Target};
use super::{approve, doctor, edit, providers};
use crate::display::Escaped;
use crate::report::{Printed, exit};
use crate::workspace::resolve_root;

/// Run one `spec` command; returns the exit code.
pub fn run(command: &SpecCommand, target: Option<&Path>) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir().context("reading the current folder")?;
    let root = match (command, target, resolve_root(target, &cwd)) {
        (_, _, Ok(root)) => root,
        // The doctor diagnoses a folder that is not (or no longer) a
        // workspace too: that is its first finding.
        (SpecCommand::Doctor(_), Some(target), Err(_)) if target.is_dir() => target.to_path_buf(),
        (_, _, Err(err)) => return Err(err),
    };
    let root = root
        .canonicalize()
        .with_context(|| format!("resolving `{}`", root.display()))?;
    let homes = Homes::from_env().context("no home folder: set HOME")?;
    match command {
        SpecCommand::Doctor(args) => {
            Ok(doctor::diagnose(&root, &homes, args.json, args.gate_errors).emit()?)
        }
        SpecCommand::Mcps(command) => match command {
            McpsCommand::List(args) => Ok(list(&root, args.json).emit()?),
            McpsCommand::Status(args) => Ok(status_command(&root, &homes, args).emit()?),
            McpsCommand::Add(args) => edit::add(&root, args),
            McpsCommand::Remove(args) => edit::remove(&root, args),
            McpsCommand::Sync(args) => {
                let options = Options {
                    dry_run: args.dry_run,
                    force: args.force,
                    prune: args.prune,
                };
                let (report, code) = sync_report(&root, &homes, &args.target, options);
                print_report("spec.mcps.sync", &report, args.target.json, args.dry_run)?;
                Ok(code)
            }
            McpsCommand::Trust(args) => approve::trust(&root, &homes, args),
            McpsCommand::Uninstall(args) => {
                let reporter = crate::report::Reporter {
                    json: args.target.json,
                };
                if !args.force && !args.dry_run {
                    return Ok(reporter.fail(
                        exit::FINDINGS,
                        "MCP uninstall is destructive: pass --force to remove vaultspec's \
                             entries, or --dry-run to list them",
                    ));
                }
                let (targets, scope) = match selected(&root, &homes, &args.target) {
                    Ok(found) => found,
                    Err(err) => return Ok(reporter.fail(exit::FINDINGS, &err)),
                };
                let report = uninstall_report(&root, &homes, &targets, scope, args.dry_run);
                print_report(
                    "spec.mcps.uninstall",
                    &report,
                    args.target.json,
                    args.dry_run,
                )?;
                Ok(report.exit_code())
            }
        },
    }
}

/// The targets `args` select, with their scope; the error is for the user.
pub(super) fn selected(
    root: &Path,
    homes: &Homes,
    args: &TargetArgs,
) -> Result<(Vec<Target>, Scope), String> {
    let scope = Scope::parse(&args.scope)?;
    let installed = providers::with_mcp(root);
    let chosen: Vec<Provider> = match args.provider.as_str() {
        "all" => installed,
        "gemini" => {
            return Err(
                "Gemini has no MCP file vaultspec writes; choose claude, codex or antigravity."
                    .to_owned(),
            );
        }
        name => match Provider::parse(name) {
            Some(p) if installed.contains(&p) => vec![p],
            Some(_) => {
                return Err(format!(
                    "MCP provider '{name}' is not enrolled in this workspace (set it up with \
                     `vaultspec install {name}`)."
                ));
            }
            None => {
                return Err(format!(
                    "Unknown provider '{name}': choose all, claude, codex or antigravity."
                ));
            }
        },
    };
    let homes = resolved_homes(homes);
    let mut targets = Vec::new();
    for provider in chosen {
        match targets::resolve(provider, scope, root, &homes) {
            Ok(target) => targets.push(target),
            // Under `all`, a provider without this scope is left out.
            Err(_) if args.provider == "all" => {}
            Err(err) => return Err(err),
        }
    }
    Ok((targets, scope))
}

/// The home folders with links resolved where they exist, as the reference
/// records target paths.
fn resolved_homes(homes: &Homes) -> Homes {
    let resolve = |p: &PathBuf| p.canonicalize().unwrap_or_else(|_| p.clone());
    Homes {
        home: resolve(&homes.home),
        claude: resolve(&homes.claude),
        codex: resolve(&homes.codex),
    }
}

/// Sync the targets `args` select; the report and the exit code.
fn sync_report(root: &Path, homes: &Homes, args: &TargetArgs, options: Options) -> (Report, u8) {
    let (targets, scope) = match selected(root, homes, args) {
        Ok(found) => found,
        Err(err) => {
            let mut report = Report::default();
            report.warnings.push(err.clone());
            report.items.push(sync::Item {
                name: args.provider.clone(),
                outcome: Outcome::Failed,
                group: args.provider.clone(),
                detail: Some(err),
            });
            return (report, exit::FINDINGS);
        }
    };
    let (defs, mut warnings) = definitions::collect(root);
    let ledger = Ledger::read(homes);
    let report = match Ownership::read(ownership::place(homes, root, scope)) {
        Ok(mut owned) => {
            let ws = Workspace {
                root,
                definitions: &defs,
                ledger: &ledger,
            };
            let mut report = sync::sync(&ws, &targets, &mut owned, options);
            warnings.append(&mut report.warnings);
            report.warnings = warnings;
            report
        }
        Err(err) => Report::fail_all(&targets, &err),
    };
    let code = report.exit_code();
    (report, code)
}

/// `install`'s enrollment: sync every installed provider at project scope.
pub fn sync_installed(root: &Path, dry_run: bool) -> anyhow::Result<Report> {
    let Some(homes) = Homes::from_env() else {
        // Approvals and ownership live in the home folder: without one,
        // nothing can be approved, so nothing is enrolled.
        let mut report = Report::default();
        report.warnings.push(
            "no home folder (HOME is not set): the MCP server is not enrolled; set HOME and run \
             `vaultspec spec mcps trust`, then `vaultspec spec mcps sync`"
                .to_owned(),
        );
        return Ok(report);
    };
    let root = root
        .canonicalize()
        .with_context(|| format!("resolving `{}`", root.display()))?;
    let args = TargetArgs {
        provider: "all".into(),
        scope: "project".into(),
        json: false,
    };
    let options = Options {
        dry_run,
        ..Options::default()
    };
    Ok(sync_report(&root, &homes, &args, options).0)
}

/// `uninstall`'s enrollment half: remove vaultspec's entries for
/// `providers` at project scope.
pub fn uninstall_installed(
    root: &Path,
    chosen: &[Provider],
    dry_run: bool,
) -> anyhow::Result<Report> {
    let homes = Homes::from_env().context("no home folder: set HOME")?;
    let root = root
        .canonicalize()
        .with_context(|| format!("resolving `{}`", root.display()))?;
    let homes = resolved_homes(&homes);
    let targets: Vec<Target> = chosen
        .iter()
        .filter_map(|p| targets::resolve(*p, Scope::Project, &root, &homes).ok())
        .collect();
    Ok(uninstall_report(
        &root,
        &homes,
        &targets,
        Scope::Project,
        dry_run,
    ))
}

/// Remove vaultspec's entries from `targets`, under the records of `scope`.
fn uninstall_report(
    root: &Path,
    homes: &Homes,
    targets: &[Target],
    scope: Scope,
    dry_run: bool,
) -> Report {
    match Ownership::read(ownership::place(homes, root, scope)) {
        Ok(mut owned) => sync::uninstall(targets, &mut owned, dry_run),
        Err(err) => Report::fail_all(targets, &err),
    }
}

/// Print a sync-style report as JSON or as one line per item.
pub fn print_report(
    schema: &str,
    report: &Report,
    json: bool,
    dry_run: bool,
) -> anyhow::Result<()> {
    if json {
        crate::report::print_envelope(
            &format!("vaultspec.{schema}.v1"),
            report.status(),
            report.data(),
        )?;
        return Ok(());
    }
    print_warnings(&report.warnings);
    let mut out = String::new();
    if report.items.is_empty() {
        out.push_str("Nothing to do.\n");
    }
    for item in &report.items {
        let mark = match item.outcome {
            Outcome::Created => "[ADD]",
            Outcome::Updated => "[UPDATE]",
            Outcome::Unchanged => "[UNCHANGED]",
            Outcome::Removed => "[DELETE]",
            Outcome::Skipped => "[SKIP]",
            Outcome::Failed => "[FAILED]",
        };
        out.push_str(&format!(
            "  {mark} {} ({})",
            Escaped::new(&item.name),
            item.group
        ));
        if let Some(detail) = &item.detail {
            out.push_str(&format!(": {}", Escaped::new(detail)));
        }
        out.push('\n');
    }
    if dry_run {
        out.push_str("(dry run: nothing written)\n");
    }
    crate::report::write_stdout(&out)?;
    Ok(())
}

/// Each warning on stderr, on a line of its own.
pub fn print_warnings(warnings: &[String]) {
    for warning in warnings {
        eprintln!(
            "{} {}",
            crate::display::warning_label(),
            Escaped::new(warning)
        );
    }
}

/// `spec mcps list`, printed into a [`Printed`].
pub fn list(root: &Path, json: bool) -> Printed {
    let (defs, warnings) = definitions::collect(root);
    let source = |d: &Definition| match (d.builtin, d.shadows_builtin) {
        (true, _) => "Built-in",
        (false, true) => "Custom (shadows Built-in)",
        (false, false) => "Custom",
    };
    let items: Vec<Value> = defs
        .iter()
        .map(|d| json!({"name": d.name, "source": source(d)}))
        .collect();
    let mut printed = Printed::new(exit::OK);
    if json {
        printed.envelope(
            "vaultspec.spec.mcps.list.v1",
            "unchanged",
            json!({"items": items}),
        );
        return printed;
    }
    for warning in &warnings {
        printed.warn(&Escaped::new(warning).to_string());
    }
    let mut out = String::new();
    if defs.is_empty() {
        out.push_str("No MCP server definitions in .vaultspec/mcps/.\n");
    }
    for d in &defs {
        out.push_str(&format!("  {}  {}\n", Escaped::new(&d.name), source(d)));
    }
    printed.stdout = out;
    printed
}

/// `spec mcps status`, printed into a [`Printed`].
pub fn status_command(root: &Path, homes: &Homes, args: &TargetArgs) -> Printed {
    let (defs, warnings) = definitions::collect(root);
    let early = |status: &str, warning: String| {
        json!({
            "status": status, "config_path": null, "config_exists": false,
            "definitions": defs.iter().map(|d| d.name.clone()).collect::<Vec<_>>(),
            "configured": [], "managed": [],
            "missing": defs.iter().map(|d| d.name.clone()).collect::<Vec<_>>(),
            "drifted": [], "stale_managed": [], "external": [], "reference": [], "unapproved": [], "providers": {},
            "warnings": [warning],
        })
    };
    let data = match selected(root, homes, args) {
        Err(err) => early("invalid_target", err),
        Ok((targets, scope)) => match Ownership::read(ownership::place(homes, root, scope)) {
            Err(err) => early("invalid_target", err),
            Ok(owned) => {
                let statuses = status::assess_all(root, homes, &targets, &defs, &owned);
                status::aggregate(&statuses, &defs, &warnings)
            }
        },
    };
    let code = if data["status"] == "ok" {
        exit::OK
    } else {
        exit::FINDINGS
    };
    let mut printed = Printed::new(code);
    if args.json {
        printed.envelope("vaultspec.spec.mcps.status.v1", "unchanged", data);
        return printed;
    }
    let mut out = format!(
        "MCP enrollment: {}\n",
        data["status"].as_str().unwrap_or_default()
    );
    if let Some(providers) = data["providers"].as_object() {
        for (name, p) in providers {
            out.push_str(&format!(
                "  {name:<12} {:<15} {}\n",
                p["status"].as_str().unwrap_or_default(),
                Escaped::new(p["config_path"].as_str().unwrap_or_default())
            ));
            for (list, label) in [
                ("missing", "missing"),
                ("drifted", "drifted"),
                ("stale_managed", "stale_managed"),
                ("external", "external"),
                ("reference", "vaultspec-core's server, to take over"),
                ("unapproved", "unapproved"),
            ] {
                let names: Vec<&str> = p[list]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if !names.is_empty() {
                    out.push_str(&format!(
                        "      {label}: {}\n",
                        Escaped::new(&names.join(", "))
                    ));
                }
            }
        }
    }
    for warning in data["warnings"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "warning: {}\n",
            Escaped::new(warning.as_str().unwrap_or_default())
        ));
    }
    printed.stdout = out;
    printed
}

//! The `spec mcps` and `spec doctor` command lines, and what they print.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use vaultspec_vault::{CapStorage, Storage, WriteScope};

use super::consent::{Approval, Ledger};
use super::definitions::{self, Definition};
use super::ownership::{self, Ownership};
use super::pyjson::{self, Style};
use super::status;
use super::sync::{self, Options, Outcome, Report, Workspace};
use super::targets::{self, Homes, Provider, Scope, Target};
use super::{doctor, providers};
use crate::cli::exit;
use crate::display::Escaped;
use crate::trust::{Terminal, stdin_is_terminal};
use crate::workspace::resolve_root;

/// The `spec` commands the host runs itself.
#[derive(Debug, Subcommand)]
pub enum SpecCommand {
    /// MCP servers: their definitions, and their enrollment into coding agents.
    #[command(subcommand)]
    Mcps(McpsCommand),
    /// Diagnose this workspace's setup: the framework, the agents it is set
    /// up for and their MCP enrollment. Exits 2 on an error, 1 on a warning.
    Doctor(DoctorArgs),
}

/// `spec mcps …`.
#[derive(Debug, Subcommand)]
pub enum McpsCommand {
    /// List the MCP server definitions in `.vaultspec/mcps/`.
    List(JsonArg),
    /// Show how each agent's MCP file stands against the definitions;
    /// exits 0 only when every one is `ok`.
    Status(TargetArgs),
    /// Add or replace an MCP server definition.
    Add(AddArgs),
    /// Remove an MCP server definition (agents' files are not touched:
    /// `sync --prune` or `uninstall` does that).
    Remove(RemoveArgs),
    /// Write the approved definitions into the agents' MCP files.
    Sync(SyncArgs),
    /// Review the exact commands agents would launch, and approve them (at
    /// a terminal only), or `--revoke` every approval of this workspace.
    Trust(TrustArgs),
    /// Remove the entries vaultspec wrote from the agents' MCP files.
    Uninstall(UninstallArgs),
}

#[derive(Debug, Args)]
pub struct JsonArg {
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct TargetArgs {
    /// Which agent: `all` (every one the workspace is set up for), `claude`,
    /// `codex` or `antigravity`.
    #[arg(default_value = "all")]
    provider: String,
    /// Whose file: `project` (the workspace's), `local` (yours, for this
    /// workspace; Claude only) or `user` (yours, for every workspace).
    #[arg(long, default_value = "project")]
    scope: String,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The server's name (the file is `.vaultspec/mcps/<NAME>.json`).
    #[arg(long)]
    name: String,
    /// The definition, a JSON object: `{"command": "...", "args": [...], "env": {...}}`.
    #[arg(long)]
    config: Option<String>,
    /// Replace a definition of that name.
    #[arg(long)]
    force: bool,
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The server's name.
    name: String,
    /// Remove without asking.
    #[arg(long)]
    force: bool,
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct SyncArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// Show what would change, and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Overwrite entries that differ from their definition, and adopt ones
    /// vaultspec did not write. Never approves a launch.
    #[arg(long)]
    force: bool,
    /// Also remove entries vaultspec wrote whose definition file is gone.
    #[arg(long)]
    prune: bool,
}

#[derive(Debug, Args)]
pub struct TrustArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// Remove every approval of this workspace instead.
    #[arg(long)]
    revoke: bool,
}

#[derive(Debug, Args)]
pub struct UninstallArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// Show what would be removed, and remove nothing.
    #[arg(long)]
    dry_run: bool,
    /// Remove for real: this is destructive, so it asks for this.
    #[arg(long)]
    force: bool,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Exit non-zero for errors only, not for warnings.
    #[arg(long)]
    gate_errors: bool,
    #[arg(long)]
    json: bool,
}

/// Run one `spec` command; returns the exit code.
pub fn run(command: &SpecCommand, target: Option<&Path>) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir().context("reading the current folder")?;
    let root = resolve_root(target, &cwd)?;
    let root = root
        .canonicalize()
        .with_context(|| format!("resolving `{}`", root.display()))?;
    let homes = Homes::from_env().context("no home folder: set HOME")?;
    match command {
        SpecCommand::Doctor(args) => doctor::run(&root, &homes, args.json, args.gate_errors),
        SpecCommand::Mcps(command) => {
            match command {
                McpsCommand::List(args) => list(&root, args.json),
                McpsCommand::Status(args) => status_command(&root, &homes, args),
                McpsCommand::Add(args) => add(&root, args),
                McpsCommand::Remove(args) => remove(&root, args),
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
                McpsCommand::Trust(args) => trust(&root, &homes, args),
                McpsCommand::Uninstall(args) => {
                    if !args.force && !args.dry_run {
                        return Ok(crate::cli::Reporter { json: args.target.json }.fail(
                        exit::FINDINGS,
                        "MCP uninstall is destructive: pass --force to remove vaultspec's entries, \
                         or --dry-run to list them",
                    ));
                    }
                    let (report, code) = match selected(&root, &homes, &args.target) {
                        Ok((targets, scope)) => {
                            match Ownership::read(ownership::place(&homes, &root, scope)) {
                                Ok(mut owned) => {
                                    let report =
                                        sync::uninstall(&targets, &mut owned, args.dry_run);
                                    let code = if report.failed() {
                                        exit::FINDINGS
                                    } else {
                                        exit::OK
                                    };
                                    (report, code)
                                }
                                Err(err) => (failure(&targets, err), exit::FINDINGS),
                            }
                        }
                        Err(err) => {
                            return Ok(crate::cli::Reporter {
                                json: args.target.json,
                            }
                            .fail(exit::FINDINGS, &err));
                        }
                    };
                    print_report(
                        "spec.mcps.uninstall",
                        &report,
                        args.target.json,
                        args.dry_run,
                    )?;
                    Ok(code)
                }
            }
        }
    }
}

/// The targets `args` select, with their scope; the error is for the user.
fn selected(root: &Path, homes: &Homes, args: &TargetArgs) -> Result<(Vec<Target>, Scope), String> {
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

fn failure(targets: &[Target], err: String) -> Report {
    let mut report = Report::default();
    for target in targets {
        report.items.push(sync::Item {
            name: target.path.display().to_string(),
            outcome: Outcome::Failed,
            group: target.provider.name().to_owned(),
            detail: Some(err.clone()),
        });
    }
    report
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
        Err(err) => failure(&targets, err),
    };
    let code = if report.failed() {
        exit::FINDINGS
    } else {
        exit::OK
    };
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
    let mut owned = Ownership::read(ownership::place(&homes, &root, Scope::Project))
        .map_err(anyhow::Error::msg)?;
    Ok(sync::uninstall(&targets, &mut owned, dry_run))
}

/// Print a sync-style report as JSON or as one line per item.
pub fn print_report(
    schema: &str,
    report: &Report,
    json: bool,
    dry_run: bool,
) -> anyhow::Result<()> {
    if json {
        crate::cli::print_envelope(
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
    crate::cli::write_stdout(&out)?;
    Ok(())
}

fn print_warnings(warnings: &[String]) {
    for warning in warnings {
        eprintln!("warning: {}", Escaped::new(warning));
    }
}

fn list(root: &Path, json: bool) -> anyhow::Result<u8> {
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
    if json {
        crate::cli::print_envelope(
            "vaultspec.spec.mcps.list.v1",
            "unchanged",
            json!({"items": items}),
        )?;
        return Ok(exit::OK);
    }
    print_warnings(&warnings);
    let mut out = String::new();
    if defs.is_empty() {
        out.push_str("No MCP server definitions in .vaultspec/mcps/.\n");
    }
    for d in &defs {
        out.push_str(&format!("  {}  {}\n", Escaped::new(&d.name), source(d)));
    }
    crate::cli::write_stdout(&out)?;
    Ok(exit::OK)
}

fn status_command(root: &Path, homes: &Homes, args: &TargetArgs) -> anyhow::Result<u8> {
    let (defs, warnings) = definitions::collect(root);
    let early = |status: &str, warning: String| {
        json!({
            "status": status, "config_path": null, "config_exists": false,
            "definitions": defs.iter().map(|d| d.name.clone()).collect::<Vec<_>>(),
            "configured": [], "managed": [],
            "missing": defs.iter().map(|d| d.name.clone()).collect::<Vec<_>>(),
            "drifted": [], "stale_managed": [], "external": [], "unapproved": [], "providers": {},
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
    if args.json {
        crate::cli::print_envelope("vaultspec.spec.mcps.status.v1", "unchanged", data)?;
        return Ok(code);
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
            for list in [
                "missing",
                "drifted",
                "stale_managed",
                "external",
                "unapproved",
            ] {
                let names: Vec<&str> = p[list]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if !names.is_empty() {
                    out.push_str(&format!(
                        "      {list}: {}\n",
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
    crate::cli::write_stdout(&out)?;
    Ok(code)
}

/// A server name a definition file may carry.
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty()
        || name.contains(['/', '\\'])
        || name.contains("..")
        || name.ends_with(".builtin")
        || name.ends_with(".builtin.json")
        || name.chars().any(char::is_control)
    {
        return Err(format!(
            "invalid MCP server name {:?}: use a plain name, without `/`, `\\`, `..`, control \
             characters or a `.builtin` ending",
            name
        ));
    }
    Ok(())
}

fn setup_storage(root: &Path) -> anyhow::Result<CapStorage> {
    Ok(CapStorage::open(root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(WriteScope::Setup))
}

fn add(root: &Path, args: &AddArgs) -> anyhow::Result<u8> {
    let reporter = crate::cli::Reporter { json: args.json };
    if let Err(err) = check_name(&args.name) {
        return Ok(reporter.fail(exit::USAGE, &err));
    }
    let config = match &args.config {
        None => json!({"command": "", "args": []}),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => {
                return Ok(
                    reporter.fail(exit::FINDINGS, "MCP configuration must be a JSON object.")
                );
            }
            Err(err) => {
                return Ok(reporter.fail(exit::FINDINGS, &format!("--config is not JSON: {err}")));
            }
        },
    };
    let relative = format!("{}/{}.json", definitions::FOLDER, args.name);
    let storage = setup_storage(root)?;
    if storage.exists(&relative)? && !args.force {
        return Ok(reporter.fail(
            exit::FINDINGS,
            &format!("MCP definition '{relative}' exists. Use --force to overwrite."),
        ));
    }
    let text = format!("{}\n", pyjson::dumps(&config, Style::INDENTED));
    storage
        .write(&relative, text.as_bytes())
        .with_context(|| format!("writing `{relative}`"))?;
    let path = root.join(&relative).display().to_string();
    if args.json {
        crate::cli::print_envelope(
            "vaultspec.spec.mcps.add.v1",
            "created",
            json!({"path": path}),
        )?;
    } else {
        crate::cli::write_stdout(&format!(
            "Wrote {}. Approve it with `vaultspec spec mcps trust`, then `vaultspec spec mcps sync`.\n",
            Escaped::new(&path)
        ))?;
    }
    Ok(exit::OK)
}

fn remove(root: &Path, args: &RemoveArgs) -> anyhow::Result<u8> {
    let reporter = crate::cli::Reporter { json: args.json };
    if let Err(err) = check_name(&args.name) {
        return Ok(reporter.fail(exit::USAGE, &err));
    }
    let storage = setup_storage(root)?;
    let found = [".json", ".builtin.json"]
        .iter()
        .map(|ext| format!("{}/{}{ext}", definitions::FOLDER, args.name))
        .find(|p| storage.exists(p).unwrap_or(false));
    let Some(relative) = found else {
        return Ok(reporter.fail(
            exit::FINDINGS,
            &format!("MCP definition '{}' not found.", args.name),
        ));
    };
    if !args.force {
        if args.json || !stdin_is_terminal() {
            return Ok(reporter.fail(
                exit::FINDINGS,
                &format!("removing `{relative}` needs a yes at a terminal, or --force"),
            ));
        }
        if !Terminal::open()?.confirm(&format!("Remove {relative}?"))? {
            return Ok(reporter.fail(exit::FINDINGS, "Nothing was removed."));
        }
    }
    storage
        .remove(&relative)
        .with_context(|| format!("removing `{relative}`"))?;
    if args.json {
        crate::cli::print_envelope(
            "vaultspec.spec.mcps.remove.v1",
            "removed",
            json!({"removed": args.name}),
        )?;
    } else {
        crate::cli::write_stdout(&format!(
            "Removed {relative}. The agents' files still list it until `vaultspec spec mcps sync --prune`.\n"
        ))?;
    }
    Ok(exit::OK)
}

/// Whether the run declares itself unattended.
fn unattended() -> bool {
    ["VAULTSPEC_NON_INTERACTIVE", "CI"].iter().any(|name| {
        std::env::var(name).is_ok_and(|v| {
            !matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "" | "0" | "false" | "no" | "off"
            )
        })
    })
}

fn trust(root: &Path, homes: &Homes, args: &TrustArgs) -> anyhow::Result<u8> {
    let reporter = crate::cli::Reporter {
        json: args.target.json,
    };
    if args.revoke {
        let revoked = Ledger::update(homes, |ledger| ledger.revoke_workspace(root))?;
        if args.target.json {
            let status = if revoked > 0 { "removed" } else { "unchanged" };
            crate::cli::print_envelope(
                "vaultspec.spec.mcps.trust.v1",
                status,
                json!({"revoked": revoked}),
            )?;
        } else {
            crate::cli::write_stdout(&format!(
                "Revoked {revoked} MCP approval(s) of this workspace; the agents' files are unchanged.\n"
            ))?;
        }
        return Ok(exit::OK);
    }
    if args.target.json || unattended() || !stdin_is_terminal() || !std::io::stdout().is_terminal()
    {
        return Ok(reporter.fail(
            exit::FINDINGS,
            "MCP approval requires review and confirmation at an interactive terminal \
             (not with --json, in CI or with VAULTSPEC_NON_INTERACTIVE set).",
        ));
    }
    let (targets, _) = match selected(root, homes, &args.target) {
        Ok(found) => found,
        Err(err) => return Ok(reporter.fail(exit::FINDINGS, &err)),
    };
    let (defs, warnings) = definitions::collect(root);
    let ledger = Ledger::read(homes);
    let mut pending: Vec<(Approval, Value)> = Vec::new();
    let mut notes = warnings;
    for target in &targets {
        for def in &defs {
            match definitions::normalise(def, target.provider) {
                Ok(launch) => {
                    let approval = Approval::of(root, def, &launch, target);
                    if ledger.approves(&approval) {
                        continue;
                    }
                    let shown = json!({
                        "name": def.name,
                        "source": def.file.display().to_string(),
                        "provider": target.provider.name(),
                        "scope": target.scope.name(),
                        "target": target.path.display().to_string(),
                        "definition_digest": def.digest,
                        "launch": approval.launch,
                    });
                    pending.push((approval, shown));
                }
                Err(warning) => notes.push(warning),
            }
        }
    }
    for note in &notes {
        eprintln!("warning: {}", pyjson::dumps(&json!(note), Style::PLAIN));
    }
    if pending.is_empty() {
        crate::cli::write_stdout("Every MCP enrollment of this workspace is already approved.\n")?;
        return Ok(exit::OK);
    }
    let mut terminal = Terminal::open()?;
    let mut review = String::from("These MCP servers would be enrolled:\n\n");
    for (_, shown) in &pending {
        review.push_str(&serde_json::to_string_pretty(shown)?);
        review.push_str("\n\n");
    }
    review.push_str(
        "An agent that reads these files will run each command above as you, with your \
         permissions, whenever it starts. Approve only commands you recognise.\n",
    );
    terminal.say(&review)?;
    if !terminal.confirm("Approve these MCP enrollments?")? {
        return Ok(reporter.fail(exit::FINDINGS, "MCP definitions were not approved."));
    }
    let count = pending.len();
    Ledger::update(homes, |ledger| {
        for (approval, _) in &pending {
            ledger.grant(approval);
        }
    })?;
    crate::cli::write_stdout(&format!(
        "Approved {count} MCP enrollment(s); run `vaultspec spec mcps sync` next.\n"
    ))?;
    Ok(exit::OK)
}

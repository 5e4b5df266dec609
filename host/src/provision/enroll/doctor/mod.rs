//! `vaultspec spec doctor`: what is wrong with this workspace's setup, read
//! only. Errors exit 2, warnings 1 (`--gate-errors`: errors only), weighed
//! as the reference weighs its signals; notes are never weighed.
//!
//! The JSON carries the reference's keys in its order ([`vault`],
//! [`packages`] and [`home`] compute the ones beyond the framework, git and
//! MCP), then `mcp_enrollment` (vaultspec's fuller enrollment status) and
//! `signals` (each finding with the command that settles it).

mod home;
mod packages;
mod vault;

use std::path::Path;

use serde_json::{Value, json};

use super::agents;
use super::definitions;
use super::ownership::{self, Ownership};
use super::providers;
use super::seeds;
use super::status;
use super::targets::{self, Homes, Scope};
use crate::display::Escaped;
use crate::report::{Printed, exit};

/// One finding of the diagnosis.
struct Signal {
    level: &'static str,
    message: String,
}

/// What the root `doctor` component is handed of this report
/// ([`vaultspec_vault::handoff::SPEC_DOCTOR`]): `{exit, data}` from the
/// `--json` envelope of a run without `--gate-errors`.
pub fn handoff(printed: &Printed) -> Option<String> {
    let envelope: Value = serde_json::from_str(printed.stdout.trim()).ok()?;
    Some(json!({ "exit": printed.code, "data": envelope["data"] }).to_string())
}

/// The diagnosis, printed into a [`Printed`]: the command line writes it,
/// the gateway folds it into a tool reply.
pub fn diagnose(root: &Path, homes: &Homes, json: bool, gate_errors: bool) -> Printed {
    let mut signals = Vec::new();
    let mut warn = |level, message: String| signals.push(Signal { level, message });
    let framework = root.join(".vaultspec").is_dir();
    if !framework {
        warn(
            "error",
            "`.vaultspec/` is missing: run `vaultspec install`".to_owned(),
        );
    }
    let framework_word = framework_word(root);
    match framework_word {
        "adoptable" => warn(
            "warning",
            "`.vaultspec/` has no `providers.json`: `vaultspec install` adopts this workspace"
                .to_owned(),
        ),
        "corrupted" => warn(
            "error",
            "`.vaultspec/providers.json` is missing, unreadable or lists no agents: `vaultspec \
             install --force` writes it again"
                .to_owned(),
        ),
        _ => {}
    }
    let present = framework_word == "present";
    let installed = providers::installed(root);
    if installed.is_empty() {
        warn(
            "info",
            "no coding agent is set up here (`.vaultspec/providers.json` lists none): \
             run `vaultspec install` to enroll the MCP server"
                .to_owned(),
        );
    }
    let mut rules = std::collections::BTreeMap::new();
    if framework {
        match crate::provision::framework::drift(root) {
            Ok((drifted, problems)) => {
                for drift in drifted {
                    rules.insert(drift.provider.clone(), drift.rules);
                    let [missing, changed, stale] = drift.counts;
                    if missing + changed + stale == 0 {
                        continue;
                    }
                    let provider = drift.provider;
                    // Weighed through each rule file (`providers`), as the
                    // reference weighs it; this names the rest.
                    warn(
                        "info",
                        format!(
                            "{provider}'s rules, skills and personas are out of line with \
                             `.vaultspec/`: {missing} missing, {changed} differing, {stale} stale \
                             (`vaultspec spec rules status` and the like list them; \
                             `vaultspec sync {provider}` brings them in line)"
                        ),
                    );
                }
                for problem in problems {
                    warn(
                        "warning",
                        format!("a framework source is left out: {problem}"),
                    );
                }
            }
            Err(err) => warn("error", format!("the framework cannot be read: {err:#}")),
        }
    }
    if let Some(signal) = journal_signal(root) {
        warn(signal.level, signal.message);
    }
    let git = crate::provision::setup::git_state(root);
    for (level, message) in &git.findings {
        warn(level, message.clone());
    }
    for (level, message) in crate::provision::hooks::commands::doctor_findings(root, homes) {
        warn(level, message);
    }
    let provider_hooks = crate::provision::hooks::state::provider_hooks(root, homes);
    for row in &provider_hooks {
        let signal = row["signal"].as_str().unwrap_or_default();
        if !matches!(signal, "in_sync" | "no_sources" | "untrusted") {
            warn(
                "warning",
                format!(
                    "{}'s hooks are {} in {}: `vaultspec spec hooks sync` brings them in line",
                    row["tool"].as_str().unwrap_or_default(),
                    signal.replace('_', " "),
                    row["native_path"].as_str().unwrap_or_default()
                ),
            );
        }
    }
    let migrations = vaultspec_vault::CapStorage::open(root)
        .map_err(|e| e.to_string())
        .and_then(|storage| vaultspec_vault::migrations::state(&storage));
    let (migration_status, pending): (&str, Vec<&str>) = match &migrations {
        Ok(state) => (
            state.status_word(),
            state.pending.iter().map(|(name, _)| *name).collect(),
        ),
        Err(err) => {
            warn(
                "error",
                format!("the migration state cannot be read: {err}"),
            );
            ("unreadable", Vec::new())
        }
    };
    if !pending.is_empty() {
        warn(
            "warning",
            format!(
                "{} migration(s) pending ({}): run `vaultspec migrations run`",
                pending.len(),
                pending.join(", ")
            ),
        );
    }
    let (defs, def_warnings) = definitions::collect(root);
    for w in &def_warnings {
        warn("warning", format!("unreadable MCP definition: {w}"));
    }
    let (mcp, mcp_signal) = match Ownership::read(ownership::place(homes, root, Scope::Project)) {
        Ok(owned) => {
            let targets: Vec<_> = providers::with_mcp(root)
                .into_iter()
                .filter_map(|p| targets::resolve(p, Scope::Project, root, homes).ok())
                .collect();
            let statuses = status::assess_all(root, homes, &targets, &defs, &owned);
            for s in &statuses {
                match s.status {
                    "invalid_config" => warn(
                        "warning",
                        format!(
                            "{} cannot be parsed: {}",
                            s.target.path.display(),
                            s.warnings.join("; ")
                        ),
                    ),
                    "partial" if !s.reference.is_empty() => warn(
                        "info",
                        format!(
                            "{} still starts vaultspec-core's Python MCP server from {}; take it over \
                             with `vaultspec spec mcps trust {}`, then `vaultspec spec mcps sync`",
                            s.target.provider,
                            s.target.path.display(),
                            s.target.provider
                        ),
                    ),
                    "missing_config" | "partial" => warn(
                        "info",
                        format!(
                            "{}'s MCP file {} is {} (approve with `vaultspec spec mcps trust {}`, then \
                             `vaultspec spec mcps sync`)",
                            s.target.provider,
                            s.target.path.display(),
                            s.status.replace('_', " "),
                            s.target.provider
                        ),
                    ),
                    _ => {}
                }
            }
            let claude = statuses
                .iter()
                .find(|s| s.target.provider == super::targets::Provider::Claude);
            (
                status::aggregate(&statuses, &defs, &def_warnings),
                mcp_word(root, claude),
            )
        }
        Err(err) => {
            warn("error", err.clone());
            (
                json!({"status": "invalid_target", "warnings": [err]}),
                mcp_word(root, None),
            )
        }
    };
    let opened = vaultspec_vault::CapStorage::open(root).ok();
    let builtin_version = opened
        .as_ref()
        .map_or("no_snapshots", seeds::builtin_version);
    match builtin_version {
        "deleted" => warn(
            "error",
            "a builtin rule source under `.vaultspec/rules/` was deleted: `vaultspec install \
             --force` puts it back"
                .to_owned(),
        ),
        "modified" => warn(
            "warning",
            "a builtin rule source under `.vaultspec/rules/` differs from what install seeded: \
             keep your edit under another name, or `vaultspec install --force` restores it"
                .to_owned(),
        ),
        _ => {}
    }
    let stale_seeds = opened
        .as_ref()
        .map(seeds::stale_mcp_seeds)
        .unwrap_or_default();
    if !stale_seeds.is_empty() {
        warn(
            "info",
            format!(
                "MCP seed definition(s) name their own command instead of the placeholder: {} \
                 (`vaultspec install --upgrade` refreshes vaultspec's)",
                stale_seeds.join(", ")
            ),
        );
    }
    // In the reference's order and words (only with a framework to read).
    let provider_states: serde_json::Map<String, Value> = if framework {
        agents::states(root, &installed, &rules, !present)
    } else {
        serde_json::Map::new()
    };
    for (level, message) in agents::findings(&provider_states) {
        warn(level, message);
    }
    let storage = opened.as_ref().map(|s| s as &dyn vaultspec_vault::Storage);
    let has_vault = root.join(".vault").is_dir();
    let (vault_content, annotated, unreadable) = match storage {
        Some(storage) if has_vault => vault::content(storage),
        _ => ("no_vault", 0, 0),
    };
    match vault_content {
        "annotations" => warn(
            "warning",
            format!(
                "{annotated} document(s) still hold template guidance comments: `vaultspec vault \
                 check annotations --fix` takes them out"
            ),
        ),
        "unreadable" => warn(
            "warning",
            format!(
                "{unreadable} document(s) are not UTF-8 text: `vaultspec vault check encoding` \
                 names them"
            ),
        ),
        _ => {}
    }
    let (rename_integrity, mismatches) = storage.map_or(("error", 0), vault::names);
    match rename_integrity {
        "mismatch" => warn(
            "warning",
            format!(
                "{mismatches} rule, skill or persona name(s) differ from their file: `vaultspec \
                 vault check rename-integrity --fix` renames them"
            ),
        ),
        "error" => warn(
            "error",
            "the names of rules, skills and personas could not be checked".to_owned(),
        ),
        _ => {}
    }
    let declared = storage.map(packages::keys).unwrap_or_default();
    for (name, package) in declared["packages"].as_object().into_iter().flatten() {
        if package["mode_mismatch"] == "mismatch" {
            warn(
                "warning",
                format!(
                    "{name} is declared for {} mode in `.vaultspec/workspace.json`, but the commit \
                     hook or the MCP launch was written for the other: `vaultspec install \
                     --upgrade` rewrites them",
                    package["declared_mode"].as_str().unwrap_or_default()
                ),
            );
        }
    }
    if declared["version_floor"] == "below" {
        warn(
            "error",
            format!(
                "`.vaultspec/workspace.json` asks for vaultspec-core {} or later; this vaultspec \
                 follows {}: upgrade vaultspec",
                declared["version_floor_minimum"]
                    .as_str()
                    .unwrap_or_default(),
                declared["version_floor_running"]
                    .as_str()
                    .unwrap_or_default()
            ),
        );
    }
    let tracked = home::tracked_credentials(root);
    match tracked.as_array() {
        Some(files) if !files.is_empty() => {
            let files: Vec<&str> = files.iter().filter_map(Value::as_str).collect();
            warn(
                "warning",
                format!(
                    "git tracks secrets: {} (`git rm --cached` each, then change every secret \
                     it held)",
                    files.join(", ")
                ),
            );
        }
        Some(_) => {}
        None => warn(
            "warning",
            "the git index could not be read, so tracked `.env` files were not looked for"
                .to_owned(),
        ),
    }
    // The companion and the process records are reported, never weighed:
    // vaultspec depends on neither.
    let companion = storage.map(crate::workspace::companion);
    let process_registry = home::process_registry(Some(homes.home.as_path()));
    let errors = signals.iter().any(|s| s.level == "error");
    let warnings = signals.iter().any(|s| s.level == "warning");
    let code = if errors {
        exit::USAGE
    } else if warnings && !gate_errors {
        exit::FINDINGS
    } else {
        exit::OK
    };
    let mut data = json!({
        "framework": framework_word,
        "providers": provider_states,
        "builtin_version": if present { builtin_version } else { "no_snapshots" },
        "gitignore": git.gitignore,
        "gitattributes": git.gitattributes,
        "mcp": mcp_signal,
        "precommit": git.precommit,
        "stale_mcp_seeds": stale_seeds,
        "migration_status": if present { migration_status } else { "up_to_date" },
        "pending_migrations": if present { pending } else { Vec::new() },
        "vault_content": vault_content,
        "vault_annotation_count": annotated,
        "vault_unreadable_count": unreadable,
        "rename_integrity": rename_integrity,
        "rename_mismatch_count": mismatches,
    });
    if let Value::Object(map) = &mut data {
        map.extend(declared);
        map.insert(
            "home".into(),
            json!({
                "process_registry": process_registry,
                "divergent_projections": [],
                "companion": companion,
                "provider_hooks": provider_hooks,
                "tracked_credentials": tracked,
            }),
        );
        map.insert("mcp_enrollment".into(), mcp);
        map.insert(
            "signals".into(),
            signals
                .iter()
                .map(|s| json!({"level": s.level, "message": s.message}))
                .collect(),
        );
    }
    let mut printed = Printed::new(code);
    if json {
        // As the reference: a report that fails the run says so.
        let status = if code == exit::OK {
            "unchanged"
        } else {
            "failed"
        };
        printed.envelope("vaultspec.spec.doctor.v1", status, data);
        return printed;
    }
    let mut out = format!(
        "framework: {}\nagents set up: {}\nMCP enrollment: {}\n",
        data["framework"].as_str().unwrap_or_default(),
        if installed.is_empty() {
            "none".to_owned()
        } else {
            installed.join(", ")
        },
        data["mcp_enrollment"]["status"]
            .as_str()
            .unwrap_or_default()
    );
    if let Some(companion) = &companion {
        let line = vaultspec_vault::status::companion::line(companion);
        out.push_str(&format!("semantic search: {}\n", Escaped::new(&line)));
    }
    for s in &signals {
        out.push_str(&format!("{}: {}\n", s.level, Escaped::new(&s.message)));
    }
    if !errors && !warnings {
        out.push_str("No problems found.\n");
    }
    // The other doctor, named so the two never seem to disagree.
    out.push_str(
        "(what coding agents were given: rules, MCP enrollment, journal; for the vault's \
         documents, run `vaultspec doctor`)\n",
    );
    printed.stdout = out;
    printed
}

/// `present`; `adoptable` (no `providers.json`, but framework folders a
/// release made); `corrupted` (no `providers.json` and nothing to adopt,
/// or one that does not read or lists no agents); `missing`.
fn framework_word(root: &Path) -> &'static str {
    let dir = root.join(".vaultspec");
    if !dir.is_dir() {
        return "missing";
    }
    let manifest = crate::checked_file::read(
        &dir.join("providers.json"),
        vaultspec_vault::storage::MAX_FILE_BYTES,
        crate::checked_file::Owner::Anyone,
    );
    match manifest {
        Ok(Some(bytes)) => match serde_json::from_slice::<Value>(&bytes) {
            Ok(doc) if doc.get("installed").is_some() => "present",
            _ => "corrupted",
        },
        Ok(None) => {
            let made = [
                "agents",
                "mcps",
                "reference",
                "rules",
                "skills",
                "system",
                "templates",
            ];
            if made.iter().any(|d| dir.join(d).exists()) {
                "adoptable"
            } else {
                "corrupted"
            }
        }
        Err(_) => "corrupted",
    }
}

/// The reference's word for Claude's `.mcp.json`: `unreadable` when it is
/// not a JSON object, `partial_mcp` without servers, `registry_drift` when
/// a definition's entry is missing or differs, `user_mcp` beside entries of
/// a person's own, else `ok`. Never weighed, except `unreadable`.
fn mcp_word(root: &Path, claude: Option<&status::TargetStatus>) -> &'static str {
    let Some(text) = vaultspec_vault::CapStorage::open(root)
        .ok()
        .and_then(|s| vaultspec_vault::Storage::read(&s, ".mcp.json").ok())
    else {
        return "partial_mcp";
    };
    let Ok(Value::Object(doc)) = serde_json::from_slice::<Value>(&text) else {
        return "unreadable";
    };
    let Some(servers) = doc.get("mcpServers").and_then(Value::as_object) else {
        return "partial_mcp";
    };
    match claude {
        Some(s) if !s.missing.is_empty() || !s.drifted.is_empty() || !s.reference.is_empty() => {
            "registry_drift"
        }
        Some(s) if !s.external.is_empty() => "user_mcp",
        Some(_) => "ok",
        None if !servers.contains_key("vaultspec-core") => "partial_mcp",
        None if servers.len() > 1 => "user_mcp",
        None => "ok",
    }
}

/// What an undo journal in the workspace means, if there is one: a change
/// of this user's that was interrupted (a warning: the next write rolls it
/// back), or one this user's vaultspec did not write (an error: it is left
/// for a person to look at).
fn journal_signal(root: &Path) -> Option<Signal> {
    let storage = vaultspec_vault::CapStorage::open(root)
        .ok()?
        .with_journal_key_from(crate::journal_key::key);
    let notice = vaultspec_vault::ops::journal::notice(&storage)?;
    Some(Signal {
        level: match notice.state {
            "interrupted" => "warning",
            _ => "error",
        },
        message: match notice.state {
            "interrupted" => format!("`{}`: {}", notice.path, notice.message),
            _ => notice.message,
        },
    })
}

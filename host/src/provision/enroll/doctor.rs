//! `vaultspec spec doctor`: what is wrong with this workspace's setup, read
//! only. Errors exit 2, warnings 1 (`--gate-errors`: errors only).

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
    let installed = providers::installed(root);
    if installed.is_empty() {
        warn(
            "warning",
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
                    warn(
                        "warning",
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
        warn("error", format!("unreadable MCP definition: {w}"));
    }
    let mcp = match Ownership::read(ownership::place(homes, root, Scope::Project)) {
        Ok(owned) => {
            let targets: Vec<_> = providers::with_mcp(root)
                .into_iter()
                .filter_map(|p| targets::resolve(p, Scope::Project, root, homes).ok())
                .collect();
            let statuses = status::assess_all(root, homes, &targets, &defs, &owned);
            for s in &statuses {
                match s.status {
                    "invalid_config" => warn(
                        "error",
                        format!(
                            "{} cannot be parsed: {}",
                            s.target.path.display(),
                            s.warnings.join("; ")
                        ),
                    ),
                    "partial" if !s.reference.is_empty() => warn(
                        "warning",
                        format!(
                            "{} still starts vaultspec-core's Python MCP server from {}; take it over \
                             with `vaultspec spec mcps trust {}`, then `vaultspec spec mcps sync`",
                            s.target.provider,
                            s.target.path.display(),
                            s.target.provider
                        ),
                    ),
                    "missing_config" | "partial" => warn(
                        "warning",
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
            status::aggregate(&statuses, &defs, &def_warnings)
        }
        Err(err) => {
            warn("error", err.clone());
            json!({"status": "invalid_target", "warnings": [err]})
        }
    };
    let seeded = vaultspec_vault::CapStorage::open(root).ok();
    let builtin_version = seeded
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
    let stale_seeds = seeded
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
    if framework {
        for (level, message) in agents::findings(&agents::states(root, &installed, &rules)) {
            warn(level, message);
        }
    }
    // The companion is reported, never weighed: vaultspec does not depend on it.
    let companion = vaultspec_vault::CapStorage::open(root)
        .map(|storage| crate::workspace::companion(&storage))
        .ok();
    let errors = signals.iter().any(|s| s.level == "error");
    let warnings = signals.iter().any(|s| s.level == "warning");
    let code = if errors {
        exit::USAGE
    } else if warnings && !gate_errors {
        exit::FINDINGS
    } else {
        exit::OK
    };
    // In the reference's order and words (only with a framework to read).
    let provider_states: serde_json::Map<String, Value> = if framework {
        agents::states(root, &installed, &rules)
    } else {
        serde_json::Map::new()
    };
    let data = json!({
        "framework": if framework { "present" } else { "missing" },
        "providers": provider_states,
        "builtin_version": builtin_version,
        "mcp": mcp,
        "stale_mcp_seeds": stale_seeds,
        "migration_status": migration_status,
        "pending_migrations": pending,
        "gitignore": git.gitignore,
        "gitattributes": git.gitattributes,
        "precommit": git.precommit,
        "home": {"companion": companion, "provider_hooks": provider_hooks},
        "signals": signals.iter().map(|s| json!({"level": s.level, "message": s.message})).collect::<Vec<_>>(),
    });
    let mut printed = Printed::new(code);
    if json {
        let status = if errors { "failed" } else { "unchanged" };
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
        data["mcp"]["status"].as_str().unwrap_or_default()
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

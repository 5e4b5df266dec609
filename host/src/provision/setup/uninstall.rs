//! `vaultspec uninstall`: remove `.vaultspec/` from a workspace, and with
//! `--remove-vault` the vault and vaultspec's managed blocks too.
//!
//! Like the reference it is destructive only when asked twice: without
//! `--force` it refuses and says what it would remove (`--dry-run` shows the
//! same without the refusal). Folders are removed without following any
//! link, so a link inside `.vaultspec/` goes, never what it points to. The
//! blocks stay in `.gitignore` and `.gitattributes` while the vault stays:
//! they keep its lock folder out of git and its ledgers merging cleanly.

use std::path::Path;

use anyhow::Context;
use clap::Args;
use serde_json::json;
use vaultspec_vault::{CapStorage, Storage, WriteScope};

use super::managed_block;
use crate::display::Escaped;
use crate::provision::enroll::{Provider, providers};
use crate::report::exit;
use crate::workspace::resolve_root;

/// The `uninstall` flags.
#[derive(Debug, Args)]
pub struct UninstallArgs {
    /// What to remove: `all` (the default: vaultspec's MCP entries from every
    /// agent's file, then `.vaultspec/`), `core` (the same), or one agent's
    /// enrollment only: `claude`, `codex`, `antigravity` or `gemini`.
    #[arg(default_value = "all", value_parser = ["all", "core", "claude", "codex", "antigravity", "gemini"])]
    provider: String,
    /// Also delete `.vault/` with every document in it, and vaultspec's
    /// blocks in `.gitignore` and `.gitattributes`.
    #[arg(long)]
    remove_vault: bool,
    /// Show what would be removed, and remove nothing.
    #[arg(long)]
    dry_run: bool,
    /// Remove for real: uninstall is destructive, so it asks for this.
    #[arg(long)]
    force: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    json: bool,
}

/// One thing uninstall removes.
enum Target {
    /// A whole folder.
    Folder(&'static str, &'static str),
    /// The managed block of a root file.
    Block(&'static str),
}

/// Run `uninstall`; returns the exit code.
pub fn run(args: &UninstallArgs, target: Option<&Path>) -> anyhow::Result<u8> {
    let mut found_mcp: Vec<String> = Vec::new();
    // The agents' framework files uninstall removes (or would remove).
    let mut found_framework: Vec<String> = Vec::new();
    let cwd = std::env::current_dir().context("reading the current folder")?;
    let root = resolve_root(target, &cwd)?;
    let storage = CapStorage::open(&root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(WriteScope::Setup);
    let dir = cap_std::fs::Dir::open_ambient_dir(&root, cap_std::ambient_authority())
        .with_context(|| format!("opening `{}`", root.display()))?;
    let whole = matches!(args.provider.as_str(), "all" | "core");
    // The agents whose MCP entries go: every one set up, or the one named.
    let agents: Vec<Provider> = if whole {
        providers::with_mcp(&root)
    } else {
        Provider::ALL
            .into_iter()
            .filter(|p| p.name() == args.provider)
            .collect()
    };
    // Without --force or --dry-run the run is refused below, before any change.
    if (args.dry_run || args.force) && !agents.is_empty() {
        let report = crate::provision::enroll::uninstall_installed(&root, &agents, args.dry_run)?;
        for item in &report.items {
            found_mcp.push(format!("{} ({})", item.name, item.group));
        }
        if report.failed() {
            let why: Vec<String> = report
                .items
                .iter()
                .filter_map(|i| i.detail.clone())
                .collect();
            anyhow::bail!(
                "vaultspec's MCP entries could not all be removed, so nothing else was: {}",
                why.join("; ")
            );
        }
    }
    // The framework's files go with their agents, once the MCP entries are
    // out: every agent for a whole uninstall, else the one named, keeping
    // what the agents still set up share with it.
    if args.dry_run || args.force {
        let leaving: Vec<vaultspec_vault::framework::Provider> = if whole {
            vaultspec_vault::framework::Provider::ALL.to_vec()
        } else {
            vaultspec_vault::framework::Provider::parse(&args.provider)
                .into_iter()
                .collect()
        };
        let staying: Vec<vaultspec_vault::framework::Provider> = if whole {
            Vec::new()
        } else {
            providers::installed(&root)
                .iter()
                .filter_map(|n| vaultspec_vault::framework::Provider::parse(n))
                .filter(|p| !leaving.contains(p))
                .collect()
        };
        let report =
            crate::provision::framework::uninstall(&root, &leaving, &staying, args.dry_run)?;
        crate::provision::framework::print_warnings(&report.warnings());
        for change in &report.changes {
            if change.writes() {
                found_framework.push(change.path.clone());
            }
        }
    }
    if !whole {
        return one_agent(&storage, &root, args, &found_mcp, &found_framework);
    }
    let mut targets = vec![Target::Folder(".vaultspec", "core")];
    if args.remove_vault {
        targets.push(Target::Folder(".vault", "vault"));
        targets.push(Target::Block(".gitignore"));
        targets.push(Target::Block(".gitattributes"));
    }
    // What is there to remove, with the new text of each file losing a block.
    let mut found = Vec::new();
    for target in targets {
        match target {
            Target::Folder(path, label) => {
                if dir.symlink_metadata(path).is_ok() {
                    found.push((format!("{path}/"), label, None));
                }
            }
            Target::Block(path) => {
                if !storage.exists(path)? {
                    continue;
                }
                let text = String::from_utf8(storage.read(path)?).unwrap_or_default();
                if let Some(rest) = managed_block::remove(&text) {
                    found.push((path.to_owned(), "git", Some(rest)));
                }
            }
        }
    }
    let root_shown = Escaped::new(&root.display().to_string()).to_string();
    if !args.dry_run && !args.force {
        let listed: Vec<_> = found.iter().map(|(p, ..)| format!("`{p}`")).collect();
        let message = format!(
            "uninstall is destructive: it would remove {} from {root_shown}; \
             pass --force to remove them, or --dry-run to only list them",
            if listed.is_empty() {
                "nothing".to_owned()
            } else {
                listed.join(", ")
            }
        );
        return Ok(crate::report::Reporter { json: args.json }.fail(exit::FINDINGS, &message));
    }
    if !args.dry_run {
        for (path, _, rest) in &found {
            match rest {
                None => dir
                    .remove_dir_all(path.trim_end_matches('/'))
                    .with_context(|| format!("removing `{path}` from {root_shown}"))?,
                Some(rest) if rest.is_empty() => storage
                    .remove(path)
                    .with_context(|| format!("removing `{path}` from {root_shown}"))?,
                Some(rest) => storage
                    .write(path, rest.as_bytes())
                    .with_context(|| format!("rewriting `{path}` in {root_shown}"))?,
            }
        }
    }
    let status = if args.dry_run || found.is_empty() {
        "unchanged"
    } else {
        "removed"
    };
    if args.json {
        let removed: Vec<_> = found.iter().map(|(p, l, _)| json!([p, l])).collect();
        let data = json!({
            "action": if args.dry_run { "dry_run" } else { "uninstall" },
            "removed": removed,
            "keep_vault": !args.remove_vault,
            "mcp_removed": found_mcp,
            "framework_removed": found_framework,
            "path": root.display().to_string(),
        });
        super::print_envelope("uninstall", status, data)?;
        return Ok(exit::OK);
    }
    let mut out = if found.is_empty() && found_framework.is_empty() && found_mcp.is_empty() {
        format!("Nothing of vaultspec's is left in {root_shown}.\n")
    } else if args.dry_run {
        format!("Would remove from {root_shown} (dry run: nothing removed):\n")
    } else {
        format!("Removed from {root_shown}:\n")
    };
    for entry in &found_mcp {
        out.push_str(&format!("  - MCP server {}\n", Escaped::new(entry)));
    }
    out.push_str(&framework_lines(&found_framework));
    for (path, _, rest) in &found {
        let what = if rest.is_some() {
            " (managed block)"
        } else {
            ""
        };
        out.push_str(&format!("  - {path}{what}\n"));
    }
    if !args.remove_vault && dir.symlink_metadata(".vault").is_ok() {
        out.push_str("The vault `.vault/` stays (--remove-vault deletes it too).\n");
    }
    crate::report::write_stdout(&out)?;
    Ok(exit::OK)
}

/// `uninstall <agent>`: that agent's MCP entries are out (above); take it
/// off the workspace's list of agents.
fn one_agent(
    storage: &CapStorage,
    root: &Path,
    args: &UninstallArgs,
    removed: &[String],
    framework: &[String],
) -> anyhow::Result<u8> {
    let root_shown = Escaped::new(&root.display().to_string()).to_string();
    if !args.dry_run && !args.force {
        return Ok(crate::report::Reporter { json: args.json }.fail(
            exit::FINDINGS,
            &format!(
                "uninstall is destructive: it would take {} out of {root_shown}; pass --force to do it, \
                 or --dry-run to see what it removes",
                args.provider
            ),
        ));
    }
    let text = providers::updated(root, &[], &[args.provider.as_str()], "");
    if let Some(text) = &text
        && !args.dry_run
    {
        storage
            .write(providers::FILE, text.as_bytes())
            .with_context(|| format!("writing `{}` in {root_shown}", providers::FILE))?;
    }
    let changed = text.is_some() || !removed.is_empty() || !framework.is_empty();
    let status = if args.dry_run || !changed {
        "unchanged"
    } else {
        "removed"
    };
    if args.json {
        let data = json!({
            "action": if args.dry_run { "dry_run" } else { "uninstall" },
            "provider": args.provider,
            "mcp_removed": removed,
            "framework_removed": framework,
            "path": root.display().to_string(),
        });
        super::print_envelope("uninstall", status, data)?;
        return Ok(exit::OK);
    }
    let mut out = if !changed {
        format!(
            "{} is not set up in {root_shown}: nothing to remove.\n",
            args.provider
        )
    } else if args.dry_run {
        format!(
            "Would take {} out of {root_shown} (dry run: nothing removed):\n",
            args.provider
        )
    } else {
        format!("Took {} out of {root_shown}:\n", args.provider)
    };
    for entry in removed {
        out.push_str(&format!("  - MCP server {}\n", Escaped::new(entry)));
    }
    out.push_str(&framework_lines(framework));
    crate::report::write_stdout(&out)?;
    Ok(exit::OK)
}

/// The framework files removed, as one line per folder and file count.
fn framework_lines(paths: &[String]) -> String {
    let mut by_folder: std::collections::BTreeMap<&str, usize> = Default::default();
    for path in paths {
        let folder = path.rsplit_once('/').map_or(path.as_str(), |(f, _)| f);
        let top: Vec<&str> = folder.split('/').take(2).collect();
        let key = &folder[..top.join("/").len()];
        *by_folder.entry(key).or_default() += 1;
    }
    by_folder
        .into_iter()
        .map(|(folder, n)| {
            format!(
                "  - {} (vaultspec's framework files: {n})\n",
                Escaped::new(folder)
            )
        })
        .collect()
}

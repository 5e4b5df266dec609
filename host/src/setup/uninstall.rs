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
use crate::cli::exit;
use crate::display::Escaped;
use crate::workspace::resolve_root;

/// The `uninstall` flags.
#[derive(Debug, Args)]
pub struct UninstallArgs {
    /// What to remove: `all` (the default) or `core`, which today are the same.
    #[arg(default_value = "all", value_parser = ["all", "core"])]
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
    let cwd = std::env::current_dir().context("reading the current folder")?;
    let root = resolve_root(target, &cwd)?;
    let storage = CapStorage::open(&root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(WriteScope::Setup);
    let dir = cap_std::fs::Dir::open_ambient_dir(&root, cap_std::ambient_authority())
        .with_context(|| format!("opening `{}`", root.display()))?;
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
        return Ok(crate::cli::Reporter { json: args.json }.fail(exit::FINDINGS, &message));
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
            "path": root.display().to_string(),
        });
        super::print_envelope("uninstall", status, data)?;
        return Ok(exit::OK);
    }
    let mut out = if found.is_empty() {
        format!("Nothing of vaultspec's is left in {root_shown}.\n")
    } else if args.dry_run {
        format!("Would remove from {root_shown} (dry run: nothing removed):\n")
    } else {
        format!("Removed from {root_shown}:\n")
    };
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
    crate::cli::write_stdout(&out)?;
    Ok(exit::OK)
}

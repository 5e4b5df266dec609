//! The migrations that change files no verb may write: `.gitignore`, the
//! commit hook file, the Codex configuration, the MCP launches and the
//! protected folders of `.vaultspec/`. `vaultspec migrations run` at a
//! terminal runs them here, natively, before its component runs the
//! document migrations; the component then reports what was done here and
//! moves the manifest past them. Through the gateway they do not run, and
//! the manifest stays below the first of them.
//!
//! Each one acts on a staged overlay; the workspace's files are changed in
//! one journalled batch per write scope once every migration has decided,
//! so a refusal leaves nothing half-written.

mod codex;
mod commit_gate;
mod flatten;
mod gitignore;
mod ownership;
mod triggers;

use std::path::Path;

use anyhow::Context;
use serde_json::{Map, Value, json};
use vaultspec_vault::ops::staged::Staged;
use vaultspec_vault::{CapStorage, Storage, WriteScope};

pub use vaultspec_vault::migrations::{HOST_DONE_ENV as DONE_ENV, HOST_MIGRATIONS};

/// What one migration did: its summary and the files it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done {
    pub summary: String,
    pub changes: Vec<String>,
}

impl Done {
    fn said(summary: impl Into<String>) -> Done {
        Done {
            summary: summary.into(),
            changes: Vec::new(),
        }
    }
}

/// Runs the pending host migrations of the workspace at `root` (all of
/// them decided before any file changes; none written on `dry_run`), and
/// returns the value of [`DONE_ENV`] for the component, `None` when none
/// was pending.
pub fn run(root: &Path, dry_run: bool) -> anyhow::Result<Option<String>> {
    let open = |scope| -> anyhow::Result<CapStorage> {
        Ok(CapStorage::open(root)
            .with_context(|| format!("opening the workspace `{}`", root.display()))?
            .with_scope(scope))
    };
    let setup = open(WriteScope::Setup)?;
    let enroll = open(WriteScope::Enroll)?;
    let state = vaultspec_vault::migrations::state(&setup).map_err(anyhow::Error::msg)?;
    let pending: Vec<&str> = state
        .pending
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| HOST_MIGRATIONS.contains(name))
        .collect();
    if pending.is_empty() {
        return Ok(None);
    }
    if !dry_run {
        vaultspec_vault::ops::recover(&setup).context("finishing an interrupted write")?;
    }
    let staged_setup = Staged::new(&setup);
    let staged_enroll = Staged::new(&enroll);
    let mut done = Map::new();
    for name in pending {
        let result = match name {
            "gitignore_reversal" => gitignore::run(&staged_setup),
            "codex_agents_dedup" => codex::run(&staged_enroll),
            "framework_flatten" => flatten::run(&staged_setup),
            "launch_convergence" => ownership::converge_launches(root, dry_run),
            "trigger_split" => triggers::run(&staged_setup),
            "commit_gate" => commit_gate::run(&staged_setup),
            _ => ownership::retire_sidecar(&staged_setup),
        };
        let outcome = result.map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        done.insert(
            name.to_owned(),
            json!({ "detail": outcome.summary, "changes": outcome.changes }),
        );
    }
    if !dry_run {
        staged_setup
            .commit()
            .context("writing the migrated workspace files")?;
        staged_enroll
            .commit()
            .context("writing the migrated Codex configuration")?;
    }
    Ok(Some(Value::Object(done).to_string()))
}

/// A file's text, or `None` when it does not exist.
fn read_text(storage: &dyn Storage, path: &str) -> Result<Option<String>, String> {
    if !storage.exists(path).map_err(|e| e.to_string())? {
        return Ok(None);
    }
    let bytes = storage.read(path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| format!("`{path}` is not UTF-8 text"))
}

/// Writes `text` to `path` on the staged storage.
fn write(storage: &dyn Storage, path: &str, text: &str) -> Result<(), String> {
    storage
        .write(path, text.as_bytes())
        .map_err(|e| e.to_string())
}

/// Moves `from` to `to`, replacing what `to` held.
fn replace(storage: &dyn Storage, from: &str, to: &str) -> Result<(), String> {
    if storage.exists(to).map_err(|e| e.to_string())? {
        storage.remove(to).map_err(|e| e.to_string())?;
    }
    storage.rename(from, to).map_err(|e| e.to_string())
}

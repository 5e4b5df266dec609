//! The user's approvals of MCP launches, `~/.vaultspec/mcp-trust.json`, in
//! the reference's layout, so a grant made by either tool holds in both.
//!
//! An approval binds the workspace, the definition file and the sha256 of
//! its bytes, the provider, scope and file it goes into, the server's name
//! and the exact command, arguments and environment an agent will run. A
//! change to any of them needs a new approval, made by a person at a
//! terminal (`vaultspec spec mcps trust`); nothing in a repository, and no
//! tool call, can make one. A ledger that cannot be read approves nothing.

use std::path::Path;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use vaultspec_vault::WriteScope;

use super::definitions::{Definition, Launch};
use super::files::Place;
use super::pyjson::{self, Style};
use super::targets::{Homes, Target};
use crate::file_lock::FileLock;

/// What a person approves: one definition, rendered, for one target.
#[derive(Debug, Clone)]
pub struct Approval {
    /// The ledger key: workspace, source, provider, scope, file and name.
    pub key: String,
    /// The value that must be on record: the definition's digest and the
    /// launch, hashed together.
    pub digest: String,
    /// The launch as the reference shows and hashes it.
    pub launch: Value,
}

impl Approval {
    /// The approval `definition` rendered as `launch` needs for `target` in
    /// the workspace at `root`.
    pub fn of(root: &Path, definition: &Definition, launch: &Launch, target: &Target) -> Approval {
        let launch_value = json!({
            "command": launch.command,
            "args": launch.args,
            "env": launch.env,
        });
        let launch_text = pyjson::dumps(&launch_value, Style::SORTED);
        let key = pyjson::dumps(
            &json!([
                root.to_string_lossy(),
                definition.file.to_string_lossy(),
                target.provider.name(),
                target.scope.name(),
                target.path.to_string_lossy(),
                definition.name,
            ]),
            Style::PLAIN,
        );
        let digest = format!(
            "sha256:{}",
            hex::encode(Sha256::digest(
                pyjson::dumps(&json!([definition.digest, launch_text]), Style::PLAIN).as_bytes()
            ))
        );
        Approval {
            key,
            digest,
            launch: launch_value,
        }
    }
}

/// The ledger's grants: key → digest, in the order they were made.
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    grants: Map<String, Value>,
}

/// Where the ledger lives.
pub fn place(homes: &Homes) -> Place {
    Place {
        base: homes.vaultspec(),
        relative: "mcp-trust.json".to_owned(),
        scope: WriteScope::Beneath,
    }
}

impl Ledger {
    /// Read the ledger; missing, unreadable or malformed, it holds nothing.
    pub fn read(homes: &Homes) -> Ledger {
        let grants = place(homes)
            .read()
            .ok()
            .flatten()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .filter(|doc| doc.get("version") == Some(&json!(1)))
            .and_then(|doc| doc.get("grants").and_then(Value::as_object).cloned())
            .unwrap_or_default();
        Ledger { grants }
    }

    /// Whether `approval` is on record, for exactly these bytes and launch.
    pub fn approves(&self, approval: &Approval) -> bool {
        self.grants.get(&approval.key).and_then(Value::as_str) == Some(approval.digest.as_str())
    }

    /// Under the ledger's lock, re-read it, apply `change`, write it back.
    /// Returns what `change` returned.
    pub fn update<T>(homes: &Homes, change: impl FnOnce(&mut Ledger) -> T) -> anyhow::Result<T> {
        let place = place(homes);
        let _lock = FileLock::take(&place.path())?;
        let mut ledger = Ledger::read(homes);
        let result = change(&mut ledger);
        let doc = json!({"version": 1, "grants": ledger.grants});
        place.write(Some(&format!("{}\n", pyjson::dumps(&doc, Style::INDENTED))))?;
        Ok(result)
    }

    /// Record `approval`.
    pub fn grant(&mut self, approval: &Approval) {
        self.grants
            .insert(approval.key.clone(), Value::String(approval.digest.clone()));
    }

    /// Remove every grant of the workspace at `root`; returns how many.
    pub fn revoke_workspace(&mut self, root: &Path) -> usize {
        let opening = pyjson::dumps(&json!([root.to_string_lossy()]), Style::PLAIN);
        let prefix = format!("{},", opening.trim_end_matches(']'));
        let before = self.grants.len();
        self.grants.retain(|key, _| !key.starts_with(&prefix));
        before - self.grants.len()
    }
}

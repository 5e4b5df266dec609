//! The person's approvals of hook and trigger files,
//! `~/.vaultspec/hook-trust.json`, in the reference's layout so that a
//! grant made by either tool holds in both.
//!
//! A grant binds one file of one folder (`scopes[<folder>].hooks[<file>]`)
//! to the sha256 of its bytes: any edit needs a new approval, and only a
//! person at a terminal makes one. A ledger that cannot be read, or of
//! another version, approves nothing.

use std::path::Path;

use serde_json::{Map, Value, json};
use vaultspec_vault::WriteScope;

use super::scripts::Script;
use crate::file_lock::FileLock;
use crate::provision::enroll::files::Place;
use crate::provision::enroll::pyjson::{self, Style};
use crate::provision::enroll::targets::Homes;

/// The approvals: folder → its grants.
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    scopes: Map<String, Value>,
}

/// Where the ledger lives.
fn place(homes: &Homes) -> Place {
    Place {
        base: homes.vaultspec(),
        relative: "hook-trust.json".to_owned(),
        scope: WriteScope::Beneath,
    }
}

impl Ledger {
    /// Read the ledger; missing, unreadable or malformed, it holds nothing.
    pub fn read(homes: &Homes) -> Ledger {
        let scopes = place(homes)
            .read()
            .ok()
            .flatten()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .filter(|doc| doc.get("version") == Some(&json!(1)))
            .and_then(|doc| doc.get("scopes").and_then(Value::as_object).cloned())
            .unwrap_or_default();
        Ledger { scopes }
    }

    /// Whether `script` of the folder `dir` is approved as its bytes are now.
    pub fn approves(&self, dir: &Path, script: &Script) -> bool {
        self.scopes
            .get(&dir.to_string_lossy().into_owned())
            .and_then(|scope| scope.get("hooks"))
            .and_then(|grants| grants.get(&script.file_name))
            .and_then(Value::as_str)
            == Some(script.digest.as_str())
    }

    /// Under the ledger's lock, re-read it, apply `change`, write it back
    /// (every folder's `granted_at` set to now, as the reference does).
    pub fn update<T>(homes: &Homes, change: impl FnOnce(&mut Ledger) -> T) -> anyhow::Result<T> {
        let place = place(homes);
        let _lock = FileLock::take(&place.path())?;
        let mut ledger = Ledger::read(homes);
        let result = change(&mut ledger);
        let now = crate::provision::setup::utc_timestamp();
        for scope in ledger.scopes.values_mut() {
            if let Some(scope) = scope.as_object_mut() {
                scope.insert("granted_at".into(), json!(now));
            }
        }
        let doc = json!({"scopes": ledger.scopes, "version": 1});
        place.write(Some(&format!(
            "{}\n",
            pyjson::dumps(&doc, Style::INDENTED_SORTED)
        )))?;
        Ok(result)
    }

    /// Record `script` of the folder `dir`, as its bytes are now.
    pub fn grant(&mut self, dir: &Path, script: &Script) {
        let scope = self
            .scopes
            .entry(dir.to_string_lossy().into_owned())
            .or_insert_with(|| json!({"hooks": {}}));
        if !scope.get("hooks").is_some_and(Value::is_object) {
            scope["hooks"] = json!({});
        }
        scope["hooks"][&script.file_name] = json!(script.digest);
    }

    /// Remove every grant of the folder `dir`; returns how many there were.
    pub fn revoke(&mut self, dir: &Path) -> usize {
        self.scopes
            .remove(&dir.to_string_lossy().into_owned())
            .and_then(|scope| scope.get("hooks").and_then(Value::as_object).map(Map::len))
            .unwrap_or(0)
    }
}

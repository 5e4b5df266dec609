//! Which entries in the agents' files vaultspec wrote: the ownership
//! records under `~/.vaultspec`, in the reference's layout, so either tool
//! knows what the other enrolled.
//!
//! Nothing in a repository can claim an entry: the records live in the
//! user's home, one file per workspace (keyed by the sha256 of its path)
//! and one for the user scope. Each managed name carries the fingerprint of
//! the entry as written, so a later run can tell an entry nobody touched
//! (refreshed in place) from one a person edited (left alone).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::files::Place;
use super::pyjson::{self, Style};
use super::targets::{Homes, Scope, Target};
use vaultspec_vault::WriteScope;

/// The records of one target: managed name → fingerprint (`None`: owned,
/// but with no entry to verify against).
pub type Managed = BTreeMap<String, Option<String>>;

/// The file of one ownership record set, and what it holds.
#[derive(Debug, Clone)]
pub struct Ownership {
    pub place: Place,
    /// Target key → (provider, scope, path, managed).
    targets: BTreeMap<String, (String, String, String, Managed)>,
}

/// The fingerprint of an entry: sha256 of its compact, sorted JSON.
pub fn fingerprint(entry: &Value) -> String {
    hex::encode(Sha256::digest(
        pyjson::dumps(entry, Style::SORTED_COMPACT).as_bytes(),
    ))
}

/// Where the records of `scope` are kept for the workspace at `root`.
pub fn place(homes: &Homes, root: &Path, scope: Scope) -> Place {
    let relative = match scope {
        Scope::User => "mcp-ownership.json".to_owned(),
        _ => format!(
            "mcp-ownership/{}/mcp-ownership.json",
            hex::encode(Sha256::digest(root.to_string_lossy().as_bytes()))
        ),
    };
    Place {
        base: homes.vaultspec(),
        relative,
        scope: WriteScope::Beneath,
    }
}

impl Ownership {
    /// Read the records at `place`; a missing file holds none. An
    /// unreadable or malformed file is an error that stops the run: what
    /// vaultspec owns cannot be guessed.
    pub fn read(place: Place) -> Result<Ownership, String> {
        let path = place.path();
        let text = place.read().map_err(|e| {
            format!(
                "Cannot read MCP ownership state at {}: {e:#}",
                path.display()
            )
        })?;
        let mut targets = BTreeMap::new();
        if let Some(text) = text {
            let invalid = || {
                format!(
                    "Invalid MCP ownership state at {} (repair or remove it).",
                    path.display()
                )
            };
            let doc: Value = serde_json::from_str(&text).map_err(|e| {
                format!("Cannot read MCP ownership state at {}: {e}", path.display())
            })?;
            let version = doc.get("version").cloned().unwrap_or(Value::Null);
            let Some(records) = doc.get("targets").and_then(Value::as_object) else {
                return Err(invalid());
            };
            if version != json!(1) {
                return Err(format!(
                    "Unsupported MCP ownership version at {}: {version}",
                    path.display()
                ));
            }
            for (key, record) in records {
                let bad = || format!("Invalid MCP ownership record at {}: {key}", path.display());
                let field =
                    |name: &str| record.get(name).and_then(Value::as_str).map(str::to_owned);
                let (Some(provider), Some(scope), Some(file)) =
                    (field("provider"), field("scope"), field("path"))
                else {
                    return Err(bad());
                };
                if *key != format!("{provider}:{scope}:{file}") || !Path::new(&file).is_absolute() {
                    return Err(bad());
                }
                let Some(managed) = record.get("managed").and_then(Value::as_object) else {
                    return Err(bad());
                };
                let mut names = Managed::new();
                for (name, print) in managed {
                    match print {
                        Value::Null => names.insert(name.clone(), None),
                        Value::String(s) => names.insert(name.clone(), Some(s.clone())),
                        _ => return Err(bad()),
                    };
                }
                targets.insert(key.clone(), (provider, scope, file, names));
            }
        }
        Ok(Ownership { place, targets })
    }

    /// The managed names of `target`.
    pub fn managed(&self, target: &Target) -> Managed {
        self.targets
            .get(&target.key())
            .map(|(_, _, _, m)| m.clone())
            .unwrap_or_default()
    }

    /// Replace the records of `target` (none: drop them).
    pub fn set(&mut self, target: &Target, managed: Managed) {
        let key = target.key();
        if managed.is_empty() {
            self.targets.remove(&key);
        } else {
            self.targets.insert(
                key,
                (
                    target.provider.name().to_owned(),
                    target.scope.name().to_owned(),
                    target.path.to_string_lossy().into_owned(),
                    managed,
                ),
            );
        }
    }

    /// The file's text as the reference writes it; `None` when no target
    /// is left (the file is deleted).
    pub fn render(&self) -> Option<String> {
        if self.targets.is_empty() {
            return None;
        }
        let mut targets = Map::new();
        for (key, (provider, scope, path, managed)) in &self.targets {
            targets.insert(
                key.clone(),
                json!({"provider": provider, "scope": scope, "path": path, "managed": managed}),
            );
        }
        let doc = json!({"version": 1, "targets": targets});
        Some(format!("{}\n", pyjson::dumps(&doc, Style::INDENTED_SORTED)))
    }

    /// The file the records live in.
    pub fn path(&self) -> PathBuf {
        self.place.path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_is_the_references() {
        // python3 -c 'import json,hashlib; print(hashlib.sha256(json.dumps(
        //   {"command":"uv","args":["run"]},sort_keys=True,separators=(",",":")).encode()).hexdigest())'
        assert_eq!(
            fingerprint(&json!({"command": "uv", "args": ["run"]})),
            "6ca8c5f15fe5c6a0e55f5ea832ac753016b66b3fd0a274196dc42a751000d72d"
        );
    }
}

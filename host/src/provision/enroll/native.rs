//! One agent file, read and edited: the servers it lists and which of them
//! sit where vaultspec writes (the whole list in JSON, the marker block in
//! Codex's TOML).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::codex_file::CodexFile;
use super::files::Place;
use super::json_file;
use super::targets::{Format, Scope, Target};
use vaultspec_vault::WriteScope;

/// A target file as read, and the edits made to it.
#[derive(Debug, Clone)]
pub struct Native {
    /// The text as read; `None`: the file does not exist.
    pub original: Option<String>,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    Json {
        text: String,
        keys: Vec<String>,
        servers: Map<String, Value>,
    },
    Codex {
        file: CodexFile,
        block: BTreeMap<String, Value>,
        /// The block's servers changed: it is written anew. (An unchanged
        /// block keeps its bytes, however it was laid out.)
        dirty: bool,
    },
}

/// Where the host reads and writes `target`: in the workspace only the
/// agents' three files may change, in the user's folders the file itself.
pub fn place(target: &Target) -> Place {
    let scope = match target.scope {
        Scope::Project => WriteScope::Enroll,
        Scope::Local | Scope::User => WriteScope::Beneath,
    };
    Place {
        base: target.base.clone(),
        relative: target.relative.clone(),
        scope,
    }
}

impl Native {
    /// Read and parse `target`'s file; the error is the reference's
    /// `Cannot parse <path>: <why>`, the file left as it is.
    pub fn load(target: &Target) -> Result<Native, String> {
        let path = target.path.display();
        let original = place(target)
            .read()
            .map_err(|e| format!("Cannot read {path}: {}", e.root_cause()))?;
        let text = original.clone().unwrap_or_default();
        let kind = match &target.format {
            Format::Json { keys } => {
                let servers = if text.trim().is_empty() {
                    Map::new()
                } else {
                    let doc =
                        json_file::parse(&text).map_err(|e| format!("Cannot parse {path}: {e}"))?;
                    if !doc.is_object() {
                        return Err(format!(
                            "Cannot parse {path}: the file is not a JSON object"
                        ));
                    }
                    // Each object on the way to the servers must be one.
                    let mut at = &doc;
                    for key in keys {
                        match at.get(key) {
                            None => break,
                            Some(v @ Value::Object(_)) => at = v,
                            Some(_) => {
                                return Err(format!(
                                    "Cannot parse {path}: `{key}` is not a JSON object"
                                ));
                            }
                        }
                    }
                    let servers = json_file::at(&doc, keys)
                        .and_then(Value::as_object)
                        .cloned()
                        .unwrap_or_default();
                    if let Some((name, _)) = servers.iter().find(|(_, v)| !v.is_object()) {
                        return Err(format!(
                            "Cannot parse {path}: server '{name}' is not a JSON object"
                        ));
                    }
                    servers
                };
                Kind::Json {
                    text,
                    keys: keys.clone(),
                    servers,
                }
            }
            Format::CodexToml => {
                let file =
                    CodexFile::parse(&text).map_err(|e| format!("Cannot parse {path}: {e}"))?;
                let block = file.inside.clone().into_iter().collect();
                Kind::Codex {
                    file,
                    block,
                    dirty: false,
                }
            }
        };
        Ok(Native { original, kind })
    }

    /// Every server the file lists now.
    pub fn servers(&self) -> Map<String, Value> {
        match &self.kind {
            Kind::Json { servers, .. } => servers.clone(),
            Kind::Codex { file, block, .. } => {
                let mut all = file.outside.clone();
                all.extend(block.clone());
                all
            }
        }
    }

    /// Whether `name` sits where vaultspec may write it: anywhere in a
    /// JSON list, inside the block in Codex's file.
    pub fn in_our_part(&self, name: &str) -> bool {
        match &self.kind {
            Kind::Json { servers, .. } => servers.contains_key(name),
            Kind::Codex { block, .. } => block.contains_key(name),
        }
    }

    /// The names inside Codex's block (none for JSON).
    pub fn block_names(&self) -> Vec<String> {
        match &self.kind {
            Kind::Json { .. } => Vec::new(),
            Kind::Codex { block, .. } => block.keys().cloned().collect(),
        }
    }

    /// Whether `name` is declared where vaultspec never writes (outside
    /// Codex's block).
    pub fn outside_our_part(&self, name: &str) -> bool {
        match &self.kind {
            Kind::Json { .. } => false,
            Kind::Codex { file, .. } => file.outside.contains_key(name),
        }
    }

    /// Set or remove one server in vaultspec's part of the file.
    pub fn set(&mut self, name: &str, entry: Option<&Value>) {
        match &mut self.kind {
            Kind::Json {
                text,
                keys,
                servers,
            } => {
                *text = json_file::set(text, keys, name, entry).unwrap_or_default();
                match entry {
                    Some(entry) => {
                        servers.insert(name.to_owned(), entry.clone());
                    }
                    None => {
                        servers.shift_remove(name);
                    }
                }
            }
            Kind::Codex { block, dirty, .. } => {
                let before = block.get(name).cloned();
                match entry {
                    Some(entry) => block.insert(name.to_owned(), entry.clone()),
                    None => block.remove(name),
                };
                *dirty |= block.get(name) != before.as_ref();
            }
        }
    }

    /// The file's new text; `None` when it should not exist.
    pub fn text(&self) -> Option<String> {
        match &self.kind {
            Kind::Json { text, .. } => (!text.trim().is_empty()).then(|| text.clone()),
            Kind::Codex { file, block, .. } => file.with_block(block),
        }
    }

    /// Whether the edits changed the file.
    pub fn changed(&self) -> bool {
        match &self.kind {
            Kind::Json { .. } => self.text() != self.original,
            Kind::Codex { dirty, .. } => *dirty,
        }
    }
}

//! What `spec doctor` checks of the files `install` seeded, in the
//! reference's words: the builtin rule sources against the snapshots kept
//! of them (`builtin_version`), and MCP seed definitions older than the
//! launch placeholders (`stale_mcp_seeds`). Read through the checked
//! reader, never written.

use vaultspec_vault::{CapStorage, Storage};

use super::definitions::COMMAND_PLACEHOLDER;

const SNAPSHOTS: &str = ".vaultspec/_snapshots";

/// `current`, `modified` (a seeded source was edited), `deleted` (one was
/// removed) or `no_snapshots`.
pub fn builtin_version(storage: &CapStorage) -> &'static str {
    let snapshots: Vec<String> = storage
        .list(SNAPSHOTS)
        .unwrap_or_default()
        .into_iter()
        .map(|e| e.path)
        .filter(|p| p.ends_with(".builtin.md"))
        .collect();
    if snapshots.is_empty() {
        return "no_snapshots";
    }
    let mut modified = false;
    for snapshot in &snapshots {
        let live = format!(".vaultspec{}", &snapshot[SNAPSHOTS.len()..]);
        match (storage.read(snapshot), storage.read(&live)) {
            (_, Err(vaultspec_vault::StorageError::NotFound { .. })) => return "deleted",
            (Ok(kept), Ok(now)) if kept == now => {}
            _ => modified = true,
        }
    }
    if modified { "modified" } else { "current" }
}

/// The names of `.vaultspec/mcps/*.builtin.json` seeds that still name a
/// command of their own instead of the placeholder, sorted.
pub fn stale_mcp_seeds(storage: &CapStorage) -> Vec<String> {
    let mut names: Vec<String> = storage
        .list(".vaultspec/mcps")
        .unwrap_or_default()
        .into_iter()
        .filter_map(|entry| {
            let name = entry
                .path
                .strip_prefix(".vaultspec/mcps/")?
                .strip_suffix(".builtin.json")?
                .to_owned();
            let bytes = storage.read(&entry.path).ok()?;
            let doc: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
            let command = doc.as_object()?.get("command");
            (command.and_then(|c| c.as_str()) != Some(COMMAND_PLACEHOLDER)).then_some(name)
        })
        .filter(|name| !name.contains('/'))
        .collect();
    names.sort();
    names
}

//! `.vaultspec/providers.json`: which coding agents a workspace is set up
//! for, in the reference's layout (its other keys are kept as they are).

use std::path::Path;

use serde_json::{Map, Value, json};

use super::pyjson::{self, Style};
use super::targets::Provider;

/// The file, under the workspace root.
pub const FILE: &str = vaultspec_vault::framework::run::PROVIDERS_FILE;

/// Every provider `install` knows, as the reference lists them.
pub const KNOWN: [&str; 4] = ["antigravity", "claude", "codex", "gemini"];

/// The providers the workspace at `root` is set up for (none without the
/// file, or with one that cannot be read or parsed). Read through the
/// storage: no link out, no FIFO, 1 MiB at most.
pub fn installed(root: &Path) -> Vec<String> {
    vaultspec_vault::CapStorage::open(root)
        .map(|storage| vaultspec_vault::framework::run::installed(&storage))
        .unwrap_or_default()
}

/// The installed providers that have an MCP file, in report order.
pub fn with_mcp(root: &Path) -> Vec<Provider> {
    let installed = installed(root);
    Provider::ALL
        .into_iter()
        .filter(|p| installed.iter().any(|i| i == p.name()))
        .collect()
}

fn read(root: &Path) -> Option<Map<String, Value>> {
    let storage = vaultspec_vault::CapStorage::open(root).ok()?;
    let bytes = vaultspec_vault::Storage::read(&storage, FILE).ok()?;
    serde_json::from_slice::<Value>(&bytes)
        .ok()?
        .as_object()
        .cloned()
}

/// The file's new text with `add` installed and `remove` not; `None` when
/// nothing changes.
pub fn updated(root: &Path, add: &[&str], remove: &[&str], now: &str) -> Option<String> {
    let old = read(root);
    let mut doc = old.clone().unwrap_or_else(|| {
        let mut doc = Map::new();
        doc.insert("version".into(), json!("2.0"));
        // The reference version whose formats this workspace follows: the
        // migrations run against it, so an older one would leave every one
        // of them pending.
        doc.insert(
            "vaultspec_version".into(),
            json!(vaultspec_vault::migrations::CURRENT_VERSION),
        );
        doc.insert("installed_at".into(), json!(now));
        doc.insert("serial".into(), json!(0));
        doc
    });
    let mut installed: Vec<String> = doc
        .get("installed")
        .cloned()
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let before = installed.clone();
    installed.extend(add.iter().map(|p| (*p).to_owned()));
    installed.retain(|p| !remove.contains(&p.as_str()));
    installed.sort();
    installed.dedup();
    if old.is_some() && installed == before {
        return None;
    }
    let mut state = doc
        .get("provider_state")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for p in add {
        if !before.iter().any(|b| b == p) {
            state.insert((*p).to_owned(), json!({"installed_at": now}));
        }
    }
    for p in remove {
        state.remove(*p);
    }
    let serial = doc.get("serial").and_then(Value::as_u64).unwrap_or(0) + 1;
    doc.insert("serial".into(), json!(serial));
    doc.insert("installed".into(), json!(installed));
    doc.insert("provider_state".into(), Value::Object(state));
    Some(format!(
        "{}\n",
        pyjson::dumps(&Value::Object(doc), Style::INDENTED)
    ))
}

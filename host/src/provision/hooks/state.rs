//! How each agent's hook file stands against the approved hooks, in the
//! reference's words (`spec doctor`'s `home.provider_hooks`): `no_sources`,
//! `in_sync`, `untrusted`, `not_rendered`, `stale`, `sidecar_missing`,
//! `sidecar_stale`, `unreadable`. Read only.

use std::path::Path;

use serde_json::{Map, Value, json};
use vaultspec_vault::{CapStorage, Storage, StorageError};

use super::render::native_file;
use super::spec::{self, native_event};
use super::sync::{approved, hook_providers};
use crate::provision::enroll::targets::Homes;

/// A JSON file of the workspace: `Ok(None)` when absent, `Err` when it is
/// there but not a JSON object (or cannot be read).
fn object(storage: &CapStorage, path: &str) -> Result<Option<Map<String, Value>>, ()> {
    match storage.read(path) {
        Ok(bytes) => match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(map)) => Ok(Some(map)),
            _ => Err(()),
        },
        Err(StorageError::NotFound { .. }) => Ok(None),
        Err(_) => Err(()),
    }
}

/// One row per agent set up here: `{tool, signal, native_path, unsupported}`.
pub fn provider_hooks(root: &Path, homes: &Homes) -> Vec<Value> {
    let Ok(storage) = CapStorage::open(root) else {
        return Vec::new();
    };
    let (hooks, _) = spec::load(root);
    let declared: Vec<&spec::Hook> = hooks.iter().filter(|h| h.enabled).collect();
    let (trusted, _) = approved(root, homes, &hooks);
    hook_providers(root)
        .iter()
        .map(|provider| {
            let file = native_file(provider);
            let (payload, _) = spec::payload(provider, &trusted);
            let mut signal = signal(&storage, provider, file, &payload, !declared.is_empty());
            if !declared.is_empty()
                && trusted.is_empty()
                && matches!(signal, "not_rendered" | "no_sources" | "in_sync")
            {
                signal = "untrusted";
            }
            let unsupported: Vec<String> = declared
                .iter()
                .filter(|h| native_event(provider, &h.event).is_none())
                .map(|h| format!("{} ({})", h.script.name, h.event))
                .collect();
            json!({
                "tool": provider,
                "signal": signal,
                "native_path": root.join(file).display().to_string(),
                "unsupported": unsupported,
            })
        })
        .collect()
}

fn signal(
    storage: &CapStorage,
    provider: &str,
    file: &str,
    payload: &Map<String, Value>,
    declared: bool,
) -> &'static str {
    let Ok(native) = object(storage, file) else {
        return "unreadable";
    };
    let native = native.unwrap_or_default();
    if provider == "antigravity" {
        let present = native.get("vaultspec");
        return match (payload.is_empty(), present) {
            (true, None) if declared => "in_sync",
            (true, None) => "no_sources",
            (true, Some(_)) => "stale",
            (false, None) => "not_rendered",
            (false, Some(set)) => {
                let mut wanted = Map::new();
                wanted.insert("enabled".into(), json!(true));
                wanted.extend(payload.clone());
                if *set == Value::Object(wanted) {
                    "in_sync"
                } else {
                    "stale"
                }
            }
        };
    }
    let dir = file.rsplit_once('/').map_or("", |(d, _)| d);
    let Ok(sidecar) = object(storage, &format!("{dir}/.vaultspec-hooks.json")) else {
        return "unreadable";
    };
    if payload.is_empty() {
        return match sidecar {
            Some(s) if !s.is_empty() => "stale",
            _ if declared => "in_sync",
            _ => "no_sources",
        };
    }
    let hooks = native.get("hooks").and_then(Value::as_object);
    let groups: Vec<(&String, &Value)> = payload
        .iter()
        .flat_map(|(event, list)| {
            list.as_array()
                .into_iter()
                .flatten()
                .map(move |g| (event, g))
        })
        .collect();
    let present = groups
        .iter()
        .filter(|(event, group)| {
            hooks
                .and_then(|h| h.get(*event))
                .and_then(Value::as_array)
                .is_some_and(|list| list.contains(group))
        })
        .count();
    match (present, &sidecar) {
        (0, Some(_)) => "stale",
        (0, None) => "not_rendered",
        (n, _) if n < groups.len() => "stale",
        (_, None) => "sidecar_missing",
        (_, Some(s)) if *s != *payload => "sidecar_stale",
        _ => "in_sync",
    }
}

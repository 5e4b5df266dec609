//! The schema migrations vaultspec-core 0.3.9 registers, and how pending ones
//! are found: each has a target version, and a migration is pending when the
//! workspace's `.vaultspec/providers.json` `vaultspec_version` is older.
//!
//! Read by the `orient` (status, doctor) and `admin` (run) components, and
//! by the host's `install` (which stamps the manifest) and `spec doctor`.

use crate::Storage;

pub mod documents;
pub mod exec_fold;

/// The manifest holding the workspace's version.
pub const MANIFEST_PATH: &str = ".vaultspec/providers.json";

/// The version a run brings the manifest to (the reference this port matches).
pub const CURRENT_VERSION: &str = "0.3.9";

/// Every registered migration with its target version, in run order.
pub const REGISTERED: [(&str, &str); 13] = [
    ("index_subfolder", "0.1.17"),
    ("gitignore_reversal", "0.1.20"),
    ("frontmatter_lifecycle", "0.1.21"),
    ("codex_agents_dedup", "0.1.24"),
    ("modified_stamp_backfill", "0.1.29"),
    ("framework_flatten", "0.1.35"),
    ("launch_convergence", "0.1.48"),
    ("body_hash_seed", "0.1.55"),
    ("exec_ledger_fold", "0.1.58"),
    ("exec_ledger_only", "0.1.74"),
    ("trigger_split", "0.2.4"),
    ("commit_gate", "0.2.5"),
    ("mcp_ownership", "0.3.2"),
];

/// The migrations that change files outside what a verb may write (the
/// agents' and git's files, the protected folders of `.vaultspec/`): the
/// host runs them at a terminal, before the `migrations run` component.
pub const HOST_MIGRATIONS: [&str; 7] = [
    "gitignore_reversal",
    "codex_agents_dedup",
    "framework_flatten",
    "launch_convergence",
    "trigger_split",
    "commit_gate",
    "mcp_ownership",
];

/// The variable through which the host tells the builtin `migrations run`
/// component what its pass did ([`crate::handoff`]).
pub use crate::handoff::MIGRATIONS_DONE as HOST_DONE_ENV;

/// `0.1.17` → `[0, 1, 17]`; anything unreadable sorts first.
pub fn version_key(v: &str) -> Vec<u64> {
    v.trim()
        .trim_start_matches('v')
        .split(['.', '-', '+'])
        .map_while(|p| p.parse().ok())
        .collect()
}

/// Where the workspace stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationState {
    /// The manifest's `vaultspec_version`, when there is a manifest.
    pub manifest_version: Option<String>,
    /// Whether `.vaultspec/providers.json` exists.
    pub has_manifest: bool,
    /// Feature indexes still at the top of `.vault/` (the `index_subfolder` layout).
    pub legacy_indexes: Vec<String>,
    /// The pending migrations, in run order.
    pub pending: Vec<(&'static str, &'static str)>,
}

impl MigrationState {
    /// `up_to_date`, `pending`, or `no_manifest` (nothing pending, no manifest).
    pub fn status_word(&self) -> &'static str {
        if !self.pending.is_empty() {
            "pending"
        } else if !self.has_manifest {
            "no_manifest"
        } else {
            "up_to_date"
        }
    }
}

/// The `vaultspec_version` string of a manifest's text.
pub fn manifest_version(text: &str) -> Option<String> {
    let at = text.find("\"vaultspec_version\"")?;
    let rest = text[at + "\"vaultspec_version\"".len()..]
        .trim_start()
        .strip_prefix(':')?
        .trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_owned())
}

/// The manifest as the reference rewrites it when a migration bumps it to
/// `version`: its keys in the reference's order, the ones it lacks filled
/// with their defaults, `serial` one more, written as Python's
/// `json.dumps(indent=2)` writes (non-ASCII escaped) with a final newline.
pub fn manifest_rewritten(text: &str, version: &str) -> Result<String, String> {
    use serde_json::{Map, Value, json};
    let old: Map<String, Value> = match serde_json::from_str(text) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Err(format!("{MANIFEST_PATH} is not a JSON object")),
        Err(err) => return Err(format!("{MANIFEST_PATH} cannot be read: {err}")),
    };
    let serial = match old.get("serial") {
        None => 0,
        Some(v) => v
            .as_i64()
            .ok_or_else(|| format!("{MANIFEST_PATH} has a serial that is not a number"))?,
    };
    let field = |key: &str, default: Value| old.get(key).cloned().unwrap_or(default);
    let flag = |key: &str| {
        json!(
            old.get(key)
                .is_some_and(|v| v.as_bool().unwrap_or(!v.is_null()))
        )
    };
    let mut installed: Vec<Value> = old
        .get("installed")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    installed.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    installed.dedup();
    let mut new = Map::new();
    new.insert("version".into(), json!("2.0"));
    new.insert("vaultspec_version".into(), json!(version));
    new.insert("installed_at".into(), field("installed_at", json!("")));
    new.insert("serial".into(), json!(serial + 1));
    new.insert("installed".into(), Value::Array(installed));
    new.insert("provider_state".into(), field("provider_state", json!({})));
    for key in [
        "gitignore_managed",
        "gitignore_opted_out",
        "gitattributes_opted_out",
        "gitattributes_managed",
        "precommit_managed",
    ] {
        new.insert(key.into(), flag(key));
    }
    new.insert("resolved_mode".into(), field("resolved_mode", Value::Null));
    new.insert(
        "resolved_floor_version".into(),
        field("resolved_floor_version", Value::Null),
    );
    let pretty = serde_json::to_string_pretty(&Value::Object(new)).expect("JSON serialises");
    let mut out = String::with_capacity(pretty.len() + 1);
    for c in pretty.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out.push('\n');
    Ok(out)
}

/// Reads the manifest and the vault layout.
pub fn state(storage: &dyn Storage) -> Result<MigrationState, String> {
    let has_manifest = storage.exists(MANIFEST_PATH).map_err(|e| e.to_string())?;
    let manifest_version = if has_manifest {
        let bytes = storage.read(MANIFEST_PATH).map_err(|e| e.to_string())?;
        manifest_version(&String::from_utf8_lossy(&bytes))
    } else {
        None
    };
    let legacy_indexes: Vec<String> = storage
        .list(".vault")
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|e| e.path)
        .filter(|p| p.ends_with(".index.md") && p.matches('/').count() == 1)
        .collect();
    let current = manifest_version.as_deref().map(version_key);
    let pending = REGISTERED
        .iter()
        .copied()
        .filter(|(name, target)| match &current {
            Some(v) => version_key(target) > *v,
            None if *name == "index_subfolder" => !legacy_indexes.is_empty(),
            None => has_manifest,
        })
        .collect();
    Ok(MigrationState {
        manifest_version,
        has_manifest,
        legacy_indexes,
        pending,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_numerically() {
        assert!(version_key("0.1.20") > version_key("0.1.9"));
        assert_eq!(
            manifest_version("{\n  \"vaultspec_version\": \"0.2.1\"\n}").as_deref(),
            Some("0.2.1")
        );
    }
}

//! What `spec doctor` says of the packages `.vaultspec/workspace.json`
//! declares, in the reference's keys: each one's declared install mode,
//! whether the commit hook and the MCP launch still match it
//! (`mode_mismatch`), and whether the version running is below the floor
//! the team set (`version_floor`).
//!
//! vaultspec stands in for `vaultspec-core` at the version whose formats it
//! follows ([`CURRENT_VERSION`]); its own commit hook and MCP launch are
//! neither mode's, so only entries the reference wrote are compared.

use serde_json::{Map, Value, json};
use vaultspec_vault::Storage;
use vaultspec_vault::migrations::{CURRENT_VERSION, version_key};

const CORE: &str = "vaultspec-core";
const DECLARATION: &str = ".vaultspec/workspace.json";
const GATE: &str = "vaultspec-commit-gate";
const MODULE: &str = "vaultspec_core.mcp_server.app";

/// The facts of one declared package.
struct Package {
    name: String,
    declared_mode: String,
    mode_mismatch: &'static str,
    floor: (&'static str, String, String),
}

/// `dev` runs as `dependency` does.
fn rendered_mode(mode: &str) -> &str {
    if mode == "dev" { "dependency" } else { mode }
}

/// `Foo_Bar.baz` → `foo-bar-baz`.
fn canonical(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

fn read_json(storage: &dyn Storage, path: &str) -> Option<Value> {
    serde_json::from_slice(&storage.read(path).ok()?).ok()
}

/// The mode the reference's commit hook entries were written for, when
/// they all agree.
fn hook_mode(storage: &dyn Storage) -> Option<&'static str> {
    use crate::provision::setup::hook_file;
    let path = hook_file::FILES
        .into_iter()
        .find(|p| storage.exists(p).unwrap_or(false))?;
    let text = String::from_utf8(storage.read(path).ok()?).ok()?;
    let mut modes = Vec::new();
    for hook in hook_file::hooks(&text)?.iter().filter(|h| h.id == GATE) {
        modes.push(hook_file::entry_mode(&hook.entry)?);
    }
    let first = *modes.first()?;
    modes.iter().all(|m| *m == first).then_some(first)
}

/// The mode the reference rendered a package's MCP launch for; `legacy`
/// also accepts its older shapes (without `--no-sync` or `-P`).
fn mcp_mode(storage: &dyn Storage, package: &str, legacy: bool) -> Option<&'static str> {
    let servers = read_json(storage, ".mcp.json")?;
    let entry = servers.get("mcpServers")?.get(package)?;
    let command = entry.get("command")?.as_str()?;
    let args: Vec<&str> = entry
        .get("args")?
        .as_array()?
        .iter()
        .map(Value::as_str)
        .collect::<Option<_>>()?;
    let module = args
        .iter()
        .position(|a| *a == "-m")
        .and_then(|i| args.get(i + 1))
        .copied()
        .unwrap_or(if package == CORE { MODULE } else { "" });
    let tool = ["--from", package, "python", "-P", "-m", module];
    let dependency = ["run", "--no-sync", "python", "-P", "-m", module];
    let matches = |want: &[&str]| {
        let shapes: Vec<Vec<&str>> = if legacy {
            let without = |drop: &[&str]| -> Vec<&str> {
                want.iter().copied().filter(|a| !drop.contains(a)).collect()
            };
            vec![
                want.to_vec(),
                without(&["--no-sync"]),
                without(&["-P"]),
                without(&["--no-sync", "-P"]),
            ]
        } else {
            vec![want.to_vec()]
        };
        shapes.contains(&args)
    };
    match command {
        "uvx" if matches(&tool) => Some("tool"),
        "uv" if matches(&dependency) => Some("dependency"),
        _ => None,
    }
}

fn package(storage: &dyn Storage, name: &str, declared: &Value) -> Package {
    let declared_mode = declared
        .get("install_mode")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let observed: Vec<&str> = if name == CORE {
        [hook_mode(storage), mcp_mode(storage, CORE, true)]
            .into_iter()
            .flatten()
            .collect()
    } else {
        mcp_mode(storage, name, false).into_iter().collect()
    };
    let mode_mismatch = if declared_mode.is_empty() {
        "unknown"
    } else if observed.iter().any(|m| *m != rendered_mode(&declared_mode)) {
        "mismatch"
    } else {
        "clean"
    };
    let minimum = declared
        .get("minimum_version")
        .and_then(Value::as_str)
        .unwrap_or_default();
    // Only vaultspec-core's running version is known here.
    let floor = if name == CORE
        && !minimum.is_empty()
        && version_key(CURRENT_VERSION) < version_key(minimum)
    {
        ("below", CURRENT_VERSION.to_owned(), minimum.to_owned())
    } else {
        ("ok", String::new(), String::new())
    };
    Package {
        name: name.to_owned(),
        declared_mode,
        mode_mismatch,
        floor,
    }
}

/// The doctor's `mode_mismatch`, `version_floor*` and `packages` keys.
pub fn keys(storage: &dyn Storage) -> Map<String, Value> {
    let declared = read_json(storage, DECLARATION);
    let mut packages: Vec<Package> = declared
        .as_ref()
        .and_then(|d| d.get("packages"))
        .and_then(Value::as_object)
        .map(|map| {
            map.iter()
                .filter(|(_, v)| v.is_object())
                .map(|(name, v)| package(storage, &canonical(name), v))
                .collect()
        })
        .unwrap_or_default();
    packages.sort_by(|a, b| a.name.cmp(&b.name));
    let core = packages.iter().find(|p| p.name == CORE);
    // A workspace from before the packages map set its floor at the top.
    let legacy_floor = declared
        .as_ref()
        .and_then(|d| d.get("minimum_vaultspec_version"))
        .and_then(Value::as_str)
        .map(|minimum| {
            package(
                storage,
                CORE,
                &json!({ "minimum_version": minimum, "install_mode": "" }),
            )
            .floor
        });
    let floor = core.map(|p| p.floor.clone()).or(legacy_floor).unwrap_or((
        "ok",
        String::new(),
        String::new(),
    ));
    // A declaration that does not read leaves nothing to compare with;
    // the reference then calls the modes clean.
    let unreadable = declared.is_none() && storage.exists(DECLARATION).unwrap_or(false);
    let mode = match core {
        Some(p) => p.mode_mismatch,
        None if unreadable => "clean",
        None => "unknown",
    };
    let mut out = Map::new();
    out.insert("mode_mismatch".into(), json!(mode));
    out.insert("version_floor".into(), json!(floor.0));
    out.insert("version_floor_running".into(), json!(floor.1));
    out.insert("version_floor_minimum".into(), json!(floor.2));
    let map: Map<String, Value> = packages
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                json!({
                    "package": p.name,
                    "declared_mode": p.declared_mode,
                    "mode_mismatch": p.mode_mismatch,
                    "version_floor": p.floor.0,
                    "version_floor_running": p.floor.1,
                    "version_floor_minimum": p.floor.2,
                }),
            )
        })
        .collect();
    out.insert("packages".into(), Value::Object(map));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use vaultspec_vault::MemStorage;

    #[test]
    fn a_reference_launch_of_the_other_mode_is_a_mismatch_and_ours_is_none() {
        let s = MemStorage::new();
        s.insert(
            ".vaultspec/workspace.json",
            r#"{"packages": {"VaultSpec_Core": {"install_mode": "tool", "minimum_version": "9.9.0"}}}"#,
        );
        s.insert(
            ".mcp.json",
            r#"{"mcpServers": {"vaultspec-core": {"command": "vaultspec", "args": ["mcp"]}}}"#,
        );
        let keys = keys(&s);
        assert_eq!(keys["mode_mismatch"], "clean");
        assert_eq!(keys["version_floor"], "below");
        assert_eq!(keys["version_floor_running"], CURRENT_VERSION);
        assert_eq!(keys["packages"]["vaultspec-core"]["declared_mode"], "tool");

        s.insert(
            ".mcp.json",
            r#"{"mcpServers": {"vaultspec-core": {"command": "uv", "args": ["run", "python", "-m", "vaultspec_core.mcp_server.app"]}}}"#,
        );
        assert_eq!(super::keys(&s)["mode_mismatch"], "mismatch");
    }

    #[test]
    fn without_a_declaration_the_mode_is_unknown() {
        let keys = keys(&MemStorage::new());
        assert_eq!(keys["mode_mismatch"], "unknown");
        assert_eq!(keys["packages"], json!({}));
        assert_eq!(keys["version_floor"], "ok");
    }
}

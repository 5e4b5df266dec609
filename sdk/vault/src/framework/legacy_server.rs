//! The MCP server entry `vaultspec-core` (the Python reference) writes into
//! agents' files, recognised by its launch, so that a workspace moving to
//! vaultspec is told its agents still start the old server and is offered
//! the takeover.
//!
//! The reference launches its server as `uvx --from vaultspec-core python
//! -P -m vaultspec_core.mcp_server.app` (installed as a tool) or `uv run
//! --no-sync python -P -m vaultspec_core.mcp_server.app` (a dependency),
//! older releases without `-P` or `--no-sync`; a plain `python -m …` runs
//! the same module. An entry is the reference's when it runs that module
//! with one of those commands and carries nothing else a person might have
//! added (no `env`, no `cwd`).

use serde_json::Value;

use crate::storage::Storage;

/// The module the reference's server runs.
pub const MODULE: &str = "vaultspec_core.mcp_server.app";

/// The project-scope MCP files the reference writes its entry into, for
/// Claude, Antigravity and Codex.
pub const AGENT_FILES: [&str; 3] = [".mcp.json", ".agents/mcp_config.json", ".codex/config.toml"];

/// Whether `entry` (`{"command": …, "args": […]}`) launches the
/// reference's MCP server and nothing more.
pub fn is_reference_launch(entry: &Value) -> bool {
    let Some(entry) = entry.as_object() else {
        return false;
    };
    if entry
        .keys()
        .any(|k| !matches!(k.as_str(), "command" | "args" | "type"))
    {
        return false;
    }
    if entry.get("type").is_some_and(|t| t != "stdio") {
        return false;
    }
    let command = entry
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let program = command.rsplit('/').next().unwrap_or_default();
    let args: Vec<&str> = entry
        .get("args")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(before) = args.strip_suffix(&["-m", MODULE]) else {
        return false;
    };
    let before = before.strip_suffix(&["-P"]).unwrap_or(before);
    match program {
        "uvx" => matches!(before, ["--from", package, "python"] if is_reference_package(package)),
        "uv" => matches!(before, ["run", "python"] | ["run", "--no-sync", "python"]),
        "python" | "python3" => before.is_empty(),
        _ => false,
    }
}

/// `vaultspec-core`, perhaps pinned (`vaultspec-core==0.3.9`,
/// `vaultspec-core@0.3.9`).
fn is_reference_package(package: &str) -> bool {
    package
        .strip_prefix("vaultspec-core")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['=', '@', '<', '>', '~', '[']))
}

/// The agents' files in the workspace behind `storage` that still launch
/// the reference's server, by their workspace paths. A file that cannot be
/// read counts as not launching it; Codex's TOML is searched as text for
/// the module (its block holds nothing else of the reference's).
pub fn files_launching_reference(storage: &dyn Storage) -> Vec<String> {
    AGENT_FILES
        .iter()
        .filter(|path| {
            let Ok(bytes) = storage.read(path) else {
                return false;
            };
            if path.ends_with(".toml") {
                return String::from_utf8_lossy(&bytes).contains(MODULE);
            }
            serde_json::from_slice::<Value>(&bytes)
                .ok()
                .and_then(|file| file.get("mcpServers").and_then(Value::as_object).cloned())
                .is_some_and(|servers| servers.values().any(is_reference_launch))
        })
        .map(|path| (*path).to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_references_launches_are_recognised() {
        for entry in [
            json!({"command": "uvx", "args": ["--from", "vaultspec-core", "python", "-P", "-m", MODULE]}),
            json!({"command": "uvx", "args": ["--from", "vaultspec-core==0.3.9", "python", "-m", MODULE]}),
            json!({"command": "uv", "args": ["run", "--no-sync", "python", "-P", "-m", MODULE]}),
            json!({"command": "uv", "args": ["run", "python", "-m", MODULE]}),
            json!({"command": "/usr/bin/python3", "args": ["-m", MODULE], "type": "stdio"}),
        ] {
            assert!(is_reference_launch(&entry), "{entry}");
        }
    }

    #[test]
    fn anything_a_person_changed_or_another_server_is_not() {
        for entry in [
            json!({"command": "uvx", "args": ["--from", "vaultspec-core", "python", "-m", MODULE], "env": {"K": "v"}}),
            json!({"command": "uvx", "args": ["--from", "vaultspec-core-fork", "python", "-m", MODULE]}),
            json!({"command": "uvx", "args": ["--from", "vaultspec-core", "python", "-m", "other.app"]}),
            json!({"command": "node", "args": ["-m", MODULE]}),
            json!({"command": "vaultspec", "args": ["mcp"]}),
            json!({"url": "http://127.0.0.1:8756/mcp"}),
            json!("uvx"),
        ] {
            assert!(!is_reference_launch(&entry), "{entry}");
        }
    }
}

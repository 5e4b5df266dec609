//! The `companion` of both `status` surfaces and of `spec doctor`: whether
//! the semantic-search package `vaultspec-rag` is provisioned in this
//! workspace, probed as the reference probes it, and where it was seen.
//!
//! The reference's signal comes from one place, the `vaultspec-rag` entry of
//! the root `.mcp.json`: none is `absent`, one is `declared` (a version is
//! never visible from here: the package runs in its own Python tool
//! environment), its launch command tells the mode (`uvx` a tool, `uv` a
//! dependency). On top of that, `found` names every place the package was
//! seen (the key only when it names something), so a person learns why the
//! answer is what it is: its enrollment, its definition in
//! `.vaultspec/mcps/` (written, not yet enrolled), and, where the caller can
//! look (the host, not a sandboxed verb), its command on `PATH`. The probe reads and runs nothing else: it reports
//! provisioning, never liveness, which the package's own doctor answers.

use serde_json::{Value, json};

use crate::storage::Storage;

/// The companion package, which is also its MCP server's name.
pub const PACKAGE: &str = "vaultspec-rag";

/// The reference's advisory version floor for the companion.
pub const FLOOR: &str = "0.4.4";

/// The companion's own command that answers whether it is alive.
pub const HEALTH_AUTHORITY: &str = "vaultspec-rag server doctor";

/// Where the companion's enrollment is read, as the reference reads it.
pub const ENROLLMENT_FILE: &str = ".mcp.json";

/// Where a definition of the companion's server would sit.
pub const DEFINITION_FILE: &str = ".vaultspec/mcps/vaultspec-rag.json";

/// The probe's answer for the workspace behind `storage`; `command` is the
/// companion's command found on `PATH`, when the caller could look.
pub fn probe(storage: &dyn Storage, command: Option<&str>) -> Value {
    let entry = storage
        .read(ENROLLMENT_FILE)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|file| file.get("mcpServers")?.get(PACKAGE).cloned());
    let mode = entry
        .as_ref()
        .and_then(|e| e.get("command"))
        .and_then(Value::as_str)
        .and_then(|command| match command {
            "uvx" => Some("tool"),
            "uv" => Some("dependency"),
            _ => None,
        });
    let mut found = Vec::new();
    if entry.is_some() {
        found.push(json!({ "by": "enrollment", "at": ENROLLMENT_FILE }));
    }
    if storage.read(DEFINITION_FILE).is_ok() {
        found.push(json!({ "by": "definition", "at": DEFINITION_FILE }));
    }
    if let Some(command) = command {
        found.push(json!({ "by": "command", "at": command }));
    }
    let mut probe = json!({
        "package": PACKAGE,
        "signal": if entry.is_some() { "declared" } else { "absent" },
        "mode": mode,
        "version": null,
        "floor": FLOOR,
        "health_authority": HEALTH_AUTHORITY,
    });
    // Only where there is something to say, so that a workspace without
    // the companion answers field for field as the reference does.
    if !found.is_empty() {
        probe["found"] = json!(found);
    }
    probe
}

/// One line for a person: provisioned or not, how it was found, and what
/// to run next.
pub fn line(companion: &Value) -> String {
    let seen: Vec<String> = companion["found"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            let at = f["at"].as_str().unwrap_or_default();
            match f["by"].as_str() {
                Some("enrollment") => format!("enrolled in {at}"),
                Some("definition") => format!("defined in {at}"),
                _ => format!("command at {at}"),
            }
        })
        .collect();
    let mode = companion["mode"]
        .as_str()
        .map(|m| format!(", {m} mode"))
        .unwrap_or_default();
    if companion["signal"] == "absent" {
        if seen.is_empty() {
            return format!("{PACKAGE} not provisioned");
        }
        let defined = seen.iter().any(|s| s.starts_with("defined"));
        let next = if defined {
            "; enroll it with `vaultspec spec mcps sync`"
        } else {
            ""
        };
        return format!("{PACKAGE} not enrolled here ({}){next}", seen.join(", "));
    }
    format!(
        "{PACKAGE} provisioned ({}{mode}); whether it runs: {HEALTH_AUTHORITY}",
        seen.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::CapStorage;

    /// A workspace holding `files`, opened as verbs open it.
    fn with(files: &[(&str, &str)]) -> (tempfile::TempDir, CapStorage) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let storage = CapStorage::open(dir.path()).unwrap();
        (dir, storage)
    }

    #[test]
    fn nothing_provisioned_is_absent_as_the_reference_says() {
        let (_dir, storage) = with(&[(".mcp.json", r#"{"mcpServers":{"vaultspec-core":{}}}"#)]);
        let probe = probe(&storage, None);
        assert_eq!(probe["signal"], "absent");
        assert_eq!(probe["mode"], Value::Null);
        assert_eq!(probe.get("found"), None);
        assert_eq!(line(&probe), "vaultspec-rag not provisioned");
    }

    #[test]
    fn an_enrolled_companion_is_declared_with_its_mode_and_where_it_was_seen() {
        let tool = r#"{"mcpServers":{"vaultspec-rag":{"command":"uvx","args":["--from","vaultspec-rag[mcp]","python","-m","vaultspec_rag.mcp"]}}}"#;
        let (_dir, storage) = with(&[(".mcp.json", tool)]);
        let probe = probe(&storage, Some("/home/u/.local/bin/vaultspec-rag"));
        assert_eq!(probe["signal"], "declared");
        assert_eq!(probe["mode"], "tool");
        assert_eq!(probe["version"], Value::Null);
        assert_eq!(
            line(&probe),
            "vaultspec-rag provisioned (enrolled in .mcp.json, command at \
             /home/u/.local/bin/vaultspec-rag, tool mode); whether it runs: vaultspec-rag server doctor"
        );
        let dependency = r#"{"mcpServers":{"vaultspec-rag":{"command":"uv","args":[]}}}"#;
        assert_eq!(probe_of(dependency)["mode"], "dependency");
        let other = r#"{"mcpServers":{"vaultspec-rag":{"command":"/opt/rag","args":[]}}}"#;
        assert_eq!(probe_of(other)["mode"], Value::Null);
        assert_eq!(probe_of(other)["signal"], "declared");
    }

    fn probe_of(mcp: &str) -> Value {
        let (_dir, storage) = with(&[(".mcp.json", mcp)]);
        probe(&storage, None)
    }

    #[test]
    fn a_definition_not_yet_enrolled_says_how_to_enroll_it() {
        let (_dir, storage) = with(&[(DEFINITION_FILE, "{}")]);
        let probe = probe(&storage, None);
        assert_eq!(probe["signal"], "absent");
        assert!(line(&probe).contains("defined in .vaultspec/mcps/vaultspec-rag.json"));
        assert!(line(&probe).contains("vaultspec spec mcps sync"));
        let (_empty, storage) = with(&[]);
        let installed = super::probe(&storage, Some("/usr/bin/vaultspec-rag"));
        assert_eq!(
            line(&installed),
            "vaultspec-rag not enrolled here (command at /usr/bin/vaultspec-rag)"
        );
    }

    #[test]
    fn an_unreadable_enrollment_file_is_no_enrollment() {
        assert_eq!(probe_of("{not json")["signal"], "absent");
    }
}

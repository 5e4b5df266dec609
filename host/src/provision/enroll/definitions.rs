//! The workspace's MCP server definitions, `.vaultspec/mcps/*.json`: read,
//! checked for each provider, and rendered to the launch an agent runs.
//!
//! A file is one stdio server; its name is the file name without
//! `.builtin.json` or `.json`. Only `command`, `args` and `env` may be
//! given. The builtin definition carries the reference's mode-neutral
//! placeholders, which this host renders to itself: `vaultspec mcp`, or the
//! absolute path of this binary when the `vaultspec` on `PATH` is another
//! file or there is none, so an agent always starts the vaultspec that
//! enrolled it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::targets::Provider;

/// The folder of the definitions, under the workspace root.
pub const FOLDER: &str = ".vaultspec/mcps";

/// The reference's placeholder for the launch command.
pub const COMMAND_PLACEHOLDER: &str = "@@VAULTSPEC_INSTALL_MODE_COMMAND@@";
/// The reference's placeholder for the launch arguments.
pub const ARGS_PLACEHOLDER: &str = "@@VAULTSPEC_INSTALL_MODE_ARGS@@";

/// Keys of a definition that choose how its placeholders render; they are
/// consumed, never written to an agent's file.
const MODE_KEYS: [&str; 3] = [
    "_vaultspec_mode_package",
    "_vaultspec_mode_module",
    "_vaultspec_mode_tool_spec",
];

/// One definition file.
#[derive(Debug, Clone)]
pub struct Definition {
    /// The server's name.
    pub name: String,
    /// The file, absolute.
    pub file: PathBuf,
    /// Shipped by vaultspec (`*.builtin.json`).
    pub builtin: bool,
    /// A custom definition hides a builtin of the same name.
    pub shadows_builtin: bool,
    /// `sha256:` and the hex digest of the file's bytes, as read.
    pub digest: String,
    /// The parsed object; `None` when the file is not a JSON object (a
    /// warning says why).
    pub body: Option<Map<String, Value>>,
}

/// The command an agent runs for one server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    pub command: String,
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
    /// Whether the definition gave `args` and `env`: an entry carries only
    /// the keys its definition has.
    pub has_args: bool,
    pub has_env: bool,
}

impl Launch {
    /// The entry written into a JSON target: `command`, then `args` and
    /// `env` where the definition gives them.
    pub fn entry(&self) -> Value {
        let mut entry = Map::new();
        entry.insert("command".into(), json!(self.command));
        if self.has_args {
            entry.insert("args".into(), json!(self.args));
        }
        if self.has_env {
            entry.insert("env".into(), json!(self.env));
        }
        Value::Object(entry)
    }

    /// The launch as one line: command and arguments, spaces between.
    pub fn line(&self) -> String {
        std::iter::once(self.command.as_str())
            .chain(self.args.iter().map(String::as_str))
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The server name a definition file stands for, if it is one.
pub fn server_name(file_name: &str) -> Option<(&str, bool)> {
    if let Some(name) = file_name.strip_suffix(".builtin.json") {
        Some((name, true))
    } else {
        file_name.strip_suffix(".json").map(|name| (name, false))
    }
}

/// Every definition under `root`, by name, in name order; warnings for the
/// files that cannot be used.
pub fn collect(root: &Path) -> (Vec<Definition>, Vec<String>) {
    let dir = root.join(FOLDER);
    let mut warnings = Vec::new();
    // Read through the storage: no link followed, a FIFO or device refused
    // at once, 1 MiB at most (a sparse 3 GiB file is refused by its size).
    let storage = vaultspec_vault::CapStorage::open(root).ok();
    let listed = storage
        .as_ref()
        .and_then(|s| vaultspec_vault::Storage::list(s, FOLDER).ok())
        .unwrap_or_default();
    let mut files: Vec<String> = listed
        .into_iter()
        .filter_map(|entry| {
            let name = entry.path.strip_prefix(FOLDER)?.strip_prefix('/')?;
            (!name.contains('/')).then(|| name.to_owned())
        })
        // A definition is a file of its own, never a link to another.
        .filter(|name| {
            std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| !m.file_type().is_symlink())
        })
        .filter(|name| server_name(name).is_some_and(|(n, _)| !n.is_empty()))
        .collect();
    // Sorted by file name, a later file wins: `x.json` follows and hides
    // `x.builtin.json`.
    files.sort();
    let mut by_name: BTreeMap<String, Definition> = BTreeMap::new();
    for file_name in files {
        let (name, builtin) = server_name(&file_name).expect("filtered above");
        let file = dir.join(&file_name);
        let read = storage
            .as_ref()
            .map(|s| vaultspec_vault::Storage::read(s, &format!("{FOLDER}/{file_name}")));
        let bytes = match read {
            Some(Ok(bytes)) => bytes,
            Some(Err(err)) => {
                warnings.push(format!(
                    "Failed to read/parse MCP definition {}: {err}",
                    file.display()
                ));
                continue;
            }
            None => continue,
        };
        let digest = format!("sha256:{}", hex::encode(Sha256::digest(&bytes)));
        let body = match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(map)) => Some(map),
            Ok(_) => {
                warnings.push(format!(
                    "MCP definition {} is not a JSON object",
                    file.display()
                ));
                None
            }
            Err(err) => {
                warnings.push(format!(
                    "Failed to read/parse MCP definition {}: {err}",
                    file.display()
                ));
                None
            }
        };
        let shadows_builtin = !builtin && by_name.get(name).is_some_and(|d| d.builtin);
        by_name.insert(
            name.to_owned(),
            Definition {
                name: name.to_owned(),
                file,
                builtin,
                shadows_builtin,
                digest,
                body,
            },
        );
    }
    (by_name.into_values().collect(), warnings)
}

/// The launch of `definition` for `provider`, or the reference's warning
/// when the definition cannot be enrolled there.
pub fn normalise(definition: &Definition, provider: Provider) -> Result<Launch, String> {
    let name = &definition.name;
    let body = definition.body.as_ref().ok_or_else(|| {
        format!("MCP server '{name}' has no readable definition; skipping {provider}.")
    })?;
    let mut body = body.clone();
    for key in MODE_KEYS {
        body.remove(key);
    }
    let unsupported: Vec<&String> = body
        .keys()
        .filter(|k| !matches!(k.as_str(), "command" | "args" | "env"))
        .collect();
    if !unsupported.is_empty() {
        let keys: Vec<String> = unsupported.iter().map(|k| format!("'{k}'")).collect();
        return Err(format!(
            "MCP server '{name}' has fields unsupported by {provider}: [{}]; skipping this target.",
            keys.join(", ")
        ));
    }
    let Some(Value::String(command)) = body.get("command") else {
        return Err(format!(
            "MCP server '{name}' has a non-string command; skipping {provider}."
        ));
    };
    let args = match body.get("args") {
        None => None,
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => Some(
            items
                .iter()
                .map(|v| v.as_str().unwrap_or_default().to_owned())
                .collect::<Vec<_>>(),
        ),
        Some(_) => {
            return Err(format!(
                "MCP server '{name}' has non-string args; skipping {provider}."
            ));
        }
    };
    let env = match body.get("env") {
        None => None,
        Some(Value::Object(map)) if map.values().all(Value::is_string) => Some(
            map.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                .collect::<BTreeMap<_, _>>(),
        ),
        Some(_) => {
            return Err(format!(
                "MCP server '{name}' has a non-string environment map; skipping {provider}."
            ));
        }
    };
    let mut launch = Launch {
        command: command.clone(),
        has_args: args.is_some(),
        args: args.unwrap_or_default(),
        has_env: env.is_some(),
        env: env.unwrap_or_default(),
    };
    if launch.command == COMMAND_PLACEHOLDER {
        launch.command = own_command();
    }
    if launch.args == [ARGS_PLACEHOLDER] {
        launch.args = vec!["mcp".to_owned()];
    }
    Ok(launch)
}

/// How an agent starts this binary: `vaultspec` when that name on `PATH` is
/// this very file, else this file's absolute path.
pub fn own_command() -> String {
    let Ok(me) = std::env::current_exe().and_then(|p| p.canonicalize()) else {
        return "vaultspec".to_owned();
    };
    match crate::env::on_path("vaultspec").and_then(|p| p.canonicalize().ok()) {
        Some(found) if found == me => "vaultspec".to_owned(),
        _ => me.to_string_lossy().into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn definition(body: Value) -> Definition {
        Definition {
            name: "x".into(),
            file: PathBuf::from("/ws/.vaultspec/mcps/x.json"),
            builtin: false,
            shadows_builtin: false,
            digest: String::new(),
            body: body.as_object().cloned(),
        }
    }

    #[test]
    fn unsupported_keys_and_bad_types_get_the_reference_warnings() {
        let warn = |body| normalise(&definition(body), Provider::Claude).unwrap_err();
        assert_eq!(
            warn(json!({"command": "a", "url": "u", "type": "t"})),
            "MCP server 'x' has fields unsupported by claude: ['url', 'type']; skipping this target."
        );
        assert!(warn(json!({"command": 1})).contains("non-string command"));
        assert!(warn(json!({"command": "a", "args": [1]})).contains("non-string args"));
        assert!(warn(json!({"command": "a", "env": {"K": 1}})).contains("environment map"));
    }

    #[test]
    fn the_placeholders_render_to_this_binary_and_mode_keys_are_dropped() {
        let launch = normalise(
            &definition(json!({
                "command": COMMAND_PLACEHOLDER,
                "args": [ARGS_PLACEHOLDER],
                "_vaultspec_mode_package": "vaultspec-core",
            })),
            Provider::Codex,
        )
        .unwrap();
        assert_eq!(launch.args, ["mcp"]);
        assert_eq!(launch.command, own_command());
        assert_eq!(
            launch.entry(),
            json!({"command": own_command(), "args": ["mcp"]})
        );
    }

    #[test]
    fn a_custom_file_shadows_the_builtin_of_its_name() {
        let ws = tempfile::tempdir().unwrap();
        let dir = ws.path().join(FOLDER);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("s.builtin.json"), r#"{"command": "a"}"#).unwrap();
        std::fs::write(dir.join("s.json"), r#"{"command": "b"}"#).unwrap();
        std::fs::write(dir.join("bad.json"), "[1]").unwrap();
        let (defs, warnings) = collect(ws.path());
        assert_eq!(defs.len(), 2);
        let s = defs.iter().find(|d| d.name == "s").unwrap();
        assert!(s.shadows_builtin && !s.builtin);
        assert_eq!(s.body.as_ref().unwrap()["command"], "b");
        assert!(warnings[0].contains("is not a JSON object"), "{warnings:?}");
    }
}

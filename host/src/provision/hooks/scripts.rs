//! The files of `.vaultspec/hooks/` and `.vaultspec/triggers/`: each one a
//! command a person approves by its exact bytes, read through the checked
//! reader (no link followed, no FIFO, 1 MiB at most) and parsed as YAML.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use vaultspec_vault::frontmatter::yaml::{self, Value};
use vaultspec_vault::{CapStorage, Storage};

/// Which folder of scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folder {
    /// `.vaultspec/hooks/`: rendered into the agents' settings.
    Hooks,
    /// `.vaultspec/triggers/`: run by vaultspec on its own events.
    Triggers,
}

impl Folder {
    /// The folder's path in the workspace.
    pub fn path(self) -> &'static str {
        match self {
            Folder::Hooks => ".vaultspec/hooks",
            Folder::Triggers => ".vaultspec/triggers",
        }
    }

    /// The command group's word (`spec hooks`, `spec triggers`).
    pub fn group(self) -> &'static str {
        match self {
            Folder::Hooks => "hooks",
            Folder::Triggers => "triggers",
        }
    }

    /// What one file is called in messages.
    pub fn noun(self) -> &'static str {
        match self {
            Folder::Hooks => "Hook",
            Folder::Triggers => "Trigger",
        }
    }
}

/// One file of a script folder, read and parsed.
#[derive(Debug, Clone)]
pub struct Script {
    /// The name: the file name without `.yaml` or `.yml`.
    pub name: String,
    /// The file name, as approvals record it.
    pub file_name: String,
    /// Its path in the workspace.
    pub path: String,
    /// `sha256:<hex>` of its bytes, as approvals record it.
    pub digest: String,
    /// Its top-level keys.
    pub keys: Vec<(String, Value)>,
}

impl Script {
    /// The value of `key`, if the file has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.keys
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The string at `key`, trimmed; `None` when missing, not text or blank.
    pub fn text(&self, key: &str) -> Option<String> {
        self.get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
    }

    /// `enabled:`, true unless it says false (`false`, `no`, `off`, or an
    /// empty string), as the reference reads it.
    pub fn enabled(&self) -> bool {
        match self.get("enabled") {
            None => true,
            Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            // Numbers stay text here: a plain `0` is the reference's false.
            Some(Value::Str(s)) => !s.is_empty() && s != "0",
            Some(Value::List(l)) => !l.is_empty(),
            Some(Value::Map(m)) => !m.is_empty(),
        }
    }

    /// The shell commands of `actions: [{type: shell, command: …}]`.
    pub fn shell_actions(&self) -> Vec<String> {
        let Some(Value::List(actions)) = self.get("actions") else {
            return Vec::new();
        };
        actions
            .iter()
            .filter_map(|action| {
                let Value::Map(keys) = action else {
                    return None;
                };
                let field = |name: &str| {
                    keys.iter()
                        .rev()
                        .find(|(k, _)| k == name)
                        .and_then(|(_, v)| v.as_str())
                };
                (field("type") == Some("shell"))
                    .then(|| field("command").map(str::trim).filter(|c| !c.is_empty()))
                    .flatten()
                    .map(str::to_owned)
            })
            .collect()
    }
}

/// `sha256:<hex>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

/// The name of a script file, if it is one (`x.yaml`, `x.yml`).
pub fn name_of(file_name: &str) -> Option<&str> {
    file_name
        .strip_suffix(".yaml")
        .or_else(|| file_name.strip_suffix(".yml"))
        .filter(|n| !n.is_empty())
}

/// The absolute folder of `folder` in the workspace at `root`, as approvals
/// are keyed (links resolved where the folder exists).
pub fn scope_dir(root: &Path, folder: Folder) -> PathBuf {
    let dir = root.join(folder.path());
    dir.canonicalize().unwrap_or(dir)
}

/// Every script in `folder` of the workspace at `root`, sorted by file
/// name (`.yaml` before `.yml` of the same name), with a warning for each
/// file that cannot be read or parsed.
pub fn load(root: &Path, folder: Folder) -> (Vec<Script>, Vec<String>) {
    let mut warnings = Vec::new();
    let Ok(storage) = CapStorage::open(root) else {
        return (Vec::new(), warnings);
    };
    let listed = storage.list(folder.path()).unwrap_or_default();
    let mut files: Vec<String> = listed
        .into_iter()
        .filter_map(|entry| {
            let name = entry.path.strip_prefix(folder.path())?.strip_prefix('/')?;
            (!name.contains('/') && name_of(name).is_some()).then(|| name.to_owned())
        })
        .collect();
    files.sort_by(|a, b| {
        let key = |f: &str| (name_of(f).unwrap_or(f).to_owned(), f.ends_with(".yml"));
        key(a).cmp(&key(b))
    });
    let mut scripts = Vec::new();
    for file_name in files {
        let path = format!("{}/{file_name}", folder.path());
        let bytes = match storage.read(&path) {
            Ok(bytes) => bytes,
            Err(err) => {
                warnings.push(format!("Failed to read {}: {err}", file_name));
                continue;
            }
        };
        let Ok(text) = std::str::from_utf8(&bytes) else {
            warnings.push(format!("Failed to parse {file_name}: it is not UTF-8 text"));
            continue;
        };
        let keys = match yaml::parse_strict(text) {
            Ok(Value::Map(keys)) => keys,
            // An empty file or a list names no command: nothing to load.
            Ok(_) => continue,
            Err(err) => {
                warnings.push(format!("Failed to parse {file_name}: {err}"));
                continue;
            }
        };
        scripts.push(Script {
            name: name_of(&file_name).unwrap_or_default().to_owned(),
            digest: digest(&bytes),
            file_name,
            path,
            keys,
        });
    }
    (scripts, warnings)
}

/// Whether `name` may name a script file: letters, digits, `-`, `_` and
/// `.`, not starting with a dot, at most 100 characters.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(yaml_text: &str) -> Script {
        let Ok(Value::Map(keys)) = yaml::parse_strict(yaml_text) else {
            panic!("not a mapping: {yaml_text}");
        };
        Script {
            name: "x".into(),
            file_name: "x.yaml".into(),
            path: ".vaultspec/hooks/x.yaml".into(),
            digest: digest(yaml_text.as_bytes()),
            keys,
        }
    }

    #[test]
    fn enabled_reads_as_the_reference_reads_it() {
        assert!(script("event: stop\n").enabled());
        assert!(!script("enabled: false\n").enabled());
        assert!(!script("enabled: no\n").enabled());
        assert!(script("enabled: \"no\"\n").enabled());
        assert!(!script("enabled:\n").enabled());
    }

    #[test]
    fn shell_actions_are_the_shell_commands_in_order() {
        let s = script(
            "actions:\n- type: shell\n  command: echo a\n- type: other\n  command: x\n- type: shell\n  command: ' '\n- type: shell\n  command: echo b\n",
        );
        assert_eq!(s.shell_actions(), ["echo a", "echo b"]);
    }

    #[test]
    fn names_are_plain_file_names() {
        assert!(valid_name("pre-bash_1.v2"));
        for bad in ["", ".hidden", "../x", "a/b", "a b", &"x".repeat(101)] {
            assert!(!valid_name(bad), "{bad:?}");
        }
        assert_eq!(name_of("a.yml"), Some("a"));
        assert_eq!(name_of(".yaml"), None);
        assert_eq!(name_of("a.json"), None);
    }
}

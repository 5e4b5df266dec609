//! The team's git policy, kept where the reference keeps it: the committed
//! `.vaultspec/workspace.json`, so every clone and every later `install`
//! honours it.
//!
//! - `hooks.pre_commit: false`: vaultspec does not scaffold
//!   `.pre-commit-config.yaml` with its commit gate (and its `.gitignore`
//!   block then ignores that file);
//! - `blocks.gitignore` / `blocks.gitattributes: false`: vaultspec leaves
//!   that file alone, its block included, as it is.
//!
//! A default is never written: `enable` takes the key out (and `blocks`
//! once both are on), so a workspace that declined nothing keeps the file
//! it always had. Every other key of the file stays as it was.

use clap::{Args, Subcommand};
use serde_json::{Map, Value, json};
use vaultspec_vault::storage::StorageError;
use vaultspec_vault::{CapStorage, Storage};

use crate::report::{Reporter, exit};

/// Where the policy lives.
pub const FILE: &str = ".vaultspec/workspace.json";

/// The choices `install` follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Scaffold `.pre-commit-config.yaml` with the commit gate.
    pub pre_commit: bool,
    /// Keep vaultspec's block in `.gitignore`.
    pub gitignore: bool,
    /// Keep vaultspec's block in `.gitattributes`.
    pub gitattributes: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            pre_commit: true,
            gitignore: true,
            gitattributes: true,
        }
    }
}

/// One choice of the policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    PreCommit,
    Gitignore,
    Gitattributes,
}

impl Setting {
    /// Its place in the file: the object, then the key.
    fn place(self) -> (&'static str, &'static str) {
        match self {
            Setting::PreCommit => ("hooks", "pre_commit"),
            Setting::Gitignore => ("blocks", "gitignore"),
            Setting::Gitattributes => ("blocks", "gitattributes"),
        }
    }

    /// The command group that sets it, and its schema word.
    fn command(self) -> &'static str {
        match self {
            Setting::PreCommit => "precommit",
            Setting::Gitignore => "gitignore",
            Setting::Gitattributes => "gitattributes",
        }
    }

    /// The key its JSON reply carries (the reference's).
    fn reply_key(self) -> &'static str {
        match self {
            Setting::PreCommit => "pre_commit",
            Setting::Gitignore => "gitignore",
            Setting::Gitattributes => "gitattributes",
        }
    }

    /// What the setting now means, in a sentence.
    fn said(self, on: bool) -> &'static str {
        match (self, on) {
            (Setting::PreCommit, true) => {
                "vaultspec scaffolds .pre-commit-config.yaml with its commit gate in this workspace \
                 (the next `vaultspec install` writes it if it is missing)."
            }
            (Setting::PreCommit, false) => {
                "vaultspec will not scaffold .pre-commit-config.yaml in this workspace. \
                 An existing one stays as it is; delete it yourself if you no longer want it."
            }
            (Setting::Gitignore, true) => {
                "vaultspec keeps its block in .gitignore (the next `vaultspec install` puts it back if it is missing)."
            }
            (Setting::Gitignore, false) => {
                "vaultspec will leave .gitignore alone in this workspace, its block included. \
                 The choice is committed in .vaultspec/workspace.json, so every clone follows it."
            }
            (Setting::Gitattributes, true) => {
                "vaultspec keeps its block in .gitattributes (the next `vaultspec install` puts it back if it is missing)."
            }
            (Setting::Gitattributes, false) => {
                "vaultspec will leave .gitattributes alone in this workspace, its block included. \
                 The choice is committed in .vaultspec/workspace.json, so every clone follows it."
            }
        }
    }
}

/// `spec precommit|gitignore|gitattributes enable|disable`.
#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Let vaultspec manage it again (the default).
    Enable(PolicyArgs),
    /// Record that this workspace declines it; every later `install` honours that.
    Disable(PolicyArgs),
}

/// The arguments of a policy command.
#[derive(Debug, Args)]
pub struct PolicyArgs {
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The workspace's policy; a missing file or key is the default.
pub fn read(storage: &dyn Storage) -> Result<Policy, String> {
    let Some(file) = read_file(storage)? else {
        return Ok(Policy::default());
    };
    let get = |setting: Setting| -> Result<bool, String> {
        let (object, key) = setting.place();
        match file.get(object).and_then(|o| o.get(key)) {
            None => Ok(true),
            Some(Value::Bool(on)) => Ok(*on),
            Some(other) => Err(format!(
                "`{object}.{key}` in {FILE} is {other}, not true or false; set it to one of them, \
                 or run `vaultspec spec {} enable`",
                setting.command()
            )),
        }
    };
    Ok(Policy {
        pre_commit: get(Setting::PreCommit)?,
        gitignore: get(Setting::Gitignore)?,
        gitattributes: get(Setting::Gitattributes)?,
    })
}

fn read_file(storage: &dyn Storage) -> Result<Option<Map<String, Value>>, String> {
    let bytes = match storage.read(FILE) {
        Ok(bytes) => bytes,
        Err(StorageError::NotFound { .. }) => return Ok(None),
        Err(err) => return Err(format!("reading {FILE}: {err}")),
    };
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(file)) => Ok(Some(file)),
        Ok(_) => Err(format!("{FILE} is not a JSON object")),
        Err(err) => Err(format!("{FILE} is not JSON: {err}")),
    }
}

/// `file` with `setting` turned `on` or off, defaults left out; `None`
/// when nothing changes.
fn with_setting(
    mut file: Map<String, Value>,
    setting: Setting,
    on: bool,
) -> Option<Map<String, Value>> {
    let before = file.clone();
    let (object, key) = setting.place();
    match setting {
        Setting::PreCommit => {
            let mut hooks = file
                .remove(object)
                .and_then(|h| h.as_object().cloned())
                .unwrap_or_default();
            if on {
                hooks.remove(key);
            } else {
                hooks.insert(key.to_owned(), Value::Bool(false));
            }
            if !hooks.is_empty() {
                file.insert(object.to_owned(), Value::Object(hooks));
            }
        }
        Setting::Gitignore | Setting::Gitattributes => {
            // Both keys are written once either is off, as the reference
            // writes them; neither once both are on.
            let blocks = file.get(object).cloned().unwrap_or_default();
            let value = |name: &str| blocks.get(name).and_then(Value::as_bool).unwrap_or(true);
            let mut gitignore = value("gitignore");
            let mut gitattributes = value("gitattributes");
            match setting {
                Setting::Gitignore => gitignore = on,
                _ => gitattributes = on,
            }
            if gitignore && gitattributes {
                file.remove(object);
            } else {
                file.insert(
                    object.to_owned(),
                    json!({"gitattributes": gitattributes, "gitignore": gitignore}),
                );
            }
        }
    }
    (file != before).then(|| sorted(file))
}

/// The `workspace.json` vaultspec ships (`shipped`), carrying forward every
/// other key of the workspace's own file (its git policy first of all), so
/// that `install --force`, which puts the shipped file back, never undoes a
/// team's choice.
pub fn shipped_with_choices(storage: &dyn Storage, shipped: &str) -> Result<Vec<u8>, String> {
    let Some(existing) = read_file(storage)? else {
        return Ok(shipped.as_bytes().to_vec());
    };
    let mut file: Map<String, Value> =
        serde_json::from_str(shipped).expect("the shipped workspace.json is a JSON object");
    for (key, value) in existing {
        file.entry(key).or_insert(value);
    }
    let mut text = serde_json::to_string_pretty(&sorted(file)).expect("a JSON object serialises");
    text.push('\n');
    Ok(text.into_bytes())
}

/// `file` with its keys in order, as the reference writes the file.
fn sorted(file: Map<String, Value>) -> Map<String, Value> {
    let mut entries: Vec<(String, Value)> = file.into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries.into_iter().collect()
}

/// Run `spec <setting> enable|disable` in the workspace at `storage`
/// (opened with `WriteScope::Setup`: `workspace.json` is protected).
pub fn run(
    storage: &CapStorage,
    root: &std::path::Path,
    setting: Setting,
    command: &PolicyCommand,
) -> u8 {
    let (on, args) = match command {
        PolicyCommand::Enable(args) => (true, args),
        PolicyCommand::Disable(args) => (false, args),
    };
    let reporter = Reporter { json: args.json };
    let framework = std::fs::symlink_metadata(root.join(".vaultspec"));
    if !framework.is_ok_and(|meta| meta.is_dir()) {
        return reporter.fail(
            exit::FINDINGS,
            &format!(
                "`{}` has no `.vaultspec/`: run `vaultspec install` there first",
                root.display()
            ),
        );
    }
    let file = match read_file(storage) {
        Ok(file) => file.unwrap_or_else(|| {
            let mut fresh = Map::new();
            fresh.insert("packages".to_owned(), json!({}));
            fresh
        }),
        Err(message) => return reporter.fail(exit::FINDINGS, &message),
    };
    let changed = with_setting(file, setting, on);
    if let Some(file) = &changed {
        let mut text = serde_json::to_string_pretty(file).expect("a JSON object serialises");
        text.push('\n');
        if let Err(err) = storage.write(FILE, text.as_bytes()) {
            return reporter.fail(exit::FINDINGS, &format!("writing {FILE}: {err}"));
        }
    }
    let status = if changed.is_some() {
        "updated"
    } else {
        "unchanged"
    };
    let verb = if on { "enable" } else { "disable" };
    if args.json {
        let data = json!({
            setting.reply_key(): on,
            "workspace": root.display().to_string(),
        });
        let schema = format!("spec.{}.{verb}", setting.command());
        if let Err(err) = super::print_envelope(&schema, status, data) {
            eprintln!(
                "{} printing the reply: {err:#}",
                crate::display::error_label()
            );
            return exit::INTERNAL;
        }
    } else {
        let _ = crate::report::write_stdout(&format!("{status}: {}\n", setting.said(on)));
    }
    exit::OK
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn declining_the_hook_writes_one_key_and_enabling_takes_it_out_again() {
        let start = file(
            r#"{"schema_version":"2.2","packages":{"vaultspec-core":{"install_mode":"tool"}},"x":1}"#,
        );
        let off = with_setting(start.clone(), Setting::PreCommit, false).unwrap();
        assert_eq!(off["hooks"], json!({"pre_commit": false}));
        assert_eq!(off["x"], 1, "a key of someone else's stays");
        let keys: Vec<&String> = off.keys().collect();
        assert_eq!(keys, ["hooks", "packages", "schema_version", "x"]);
        assert!(
            with_setting(off.clone(), Setting::PreCommit, false).is_none(),
            "unchanged"
        );
        let on = with_setting(off, Setting::PreCommit, true).unwrap();
        assert_eq!(on, sorted(start), "back to the file that declined nothing");
    }

    #[test]
    fn a_block_declined_writes_both_keys_and_both_on_writes_none() {
        let off = with_setting(file(r#"{"packages":{}}"#), Setting::Gitignore, false).unwrap();
        assert_eq!(
            off["blocks"],
            json!({"gitattributes": true, "gitignore": false})
        );
        let on = with_setting(off, Setting::Gitignore, true).unwrap();
        assert!(on.get("blocks").is_none(), "{on:?}");
    }

    #[test]
    fn a_value_that_is_not_a_boolean_is_refused_naming_the_fix() {
        let storage = vaultspec_vault::storage::MemStorage::default();
        storage.insert(FILE, &br#"{"hooks":{"pre_commit":"no"}}"#[..]);
        let err = read(&storage).unwrap_err();
        assert!(
            err.contains("hooks.pre_commit") && err.contains("spec precommit enable"),
            "{err}"
        );
    }
}

//! Lifecycle triggers (`.vaultspec/triggers/<name>.yaml`): commands
//! vaultspec itself runs when one of its events happens, today only
//! `config.synced` (after a full `sync`).
//!
//! ```yaml
//! event: config.synced
//! enabled: true
//! actions:
//! - type: shell
//!   command: ./scripts/after-sync.sh {root}
//! ```
//!
//! A command is split into words as a shell would (quotes honoured) and
//! run without one, in the workspace root, after `{root}`, `{event}` and
//! `{path}` are filled in. Each action has 60 seconds, after which it and
//! every process it started are killed; its output is kept up to 64 KiB a
//! stream. Only approved triggers run (see [`super::ledger`]).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::scripts::{self, Folder, Script};

/// The events a trigger can name.
pub const EVENTS: [&str; 1] = ["config.synced"];

/// How long one action may run.
pub const ACTION_TIMEOUT: Duration = Duration::from_secs(60);

/// The most output kept of one stream of one action.
const OUTPUT_CAP: u64 = 64 * 1024;

/// One trigger, read.
#[derive(Debug, Clone)]
pub struct Trigger {
    pub script: Script,
    pub event: String,
    pub enabled: bool,
    /// Its shell commands, in order.
    pub actions: Vec<String>,
}

/// Every trigger in the workspace at `root` (a `.yaml` hides a `.yml` of
/// the same name), with a warning for each file that is not one.
pub fn load(root: &Path) -> (Vec<Trigger>, Vec<String>) {
    let (scripts, mut warnings) = scripts::load(root, Folder::Triggers);
    let mut triggers: Vec<Trigger> = Vec::new();
    for script in scripts {
        if triggers.iter().any(|t| t.script.name == script.name) {
            warnings.push(format!(
                "Two triggers are named '{}': {} is used, {} is not.",
                script.name,
                triggers
                    .iter()
                    .find(|t| t.script.name == script.name)
                    .map_or("", |t| t.script.file_name.as_str()),
                script.file_name
            ));
            continue;
        }
        match script.text("event") {
            None => warnings.push(format!("Trigger '{}' has no event; skipping.", script.file_name)),
            Some(event) if !EVENTS.contains(&event.as_str()) => warnings.push(format!(
                "Trigger '{}' has event '{event}', which vaultspec never fires (one of: {}); skipping.",
                script.file_name,
                EVENTS.join(", ")
            )),
            Some(event) => triggers.push(Trigger {
                enabled: script.enabled(),
                actions: script.shell_actions(),
                event,
                script,
            }),
        }
    }
    (triggers, warnings)
}

/// The result of one action.
#[derive(Debug, Clone)]
pub struct Ran {
    pub trigger: String,
    pub success: bool,
    pub output: String,
    pub error: String,
}

impl Ran {
    /// The reference's JSON row.
    pub fn row(&self) -> Value {
        json!({
            "trigger_name": self.trigger,
            "action_type": "shell",
            "success": self.success,
            "output": self.output,
            "error": self.error,
        })
    }
}

/// Run every action of `triggers`, in order, for `event` in the workspace
/// at `root`; `path` fills `{path}` when given.
pub fn fire(root: &Path, triggers: &[&Trigger], event: &str, path: Option<&str>) -> Vec<Ran> {
    let mut ran = Vec::new();
    for trigger in triggers {
        for action in &trigger.actions {
            let mut command = action
                .replace("{root}", &root.to_string_lossy())
                .replace("{event}", event);
            if let Some(path) = path.filter(|p| !p.is_empty()) {
                command = command.replace("{path}", path);
            }
            let (success, output, error) = match run_action(root, &command) {
                Ok(done) => done,
                Err(err) => (false, String::new(), err),
            };
            ran.push(Ran {
                trigger: trigger.script.name.clone(),
                success,
                output,
                error,
            });
        }
    }
    ran
}

/// Run one command: success, its stdout and its stderr, trimmed.
fn run_action(root: &Path, command: &str) -> Result<(bool, String, String), String> {
    let words = shell_words::split(command).map_err(|e| format!("reading `{command}`: {e}"))?;
    let (program, args) = words
        .split_first()
        .ok_or_else(|| "the command is empty".to_owned())?;
    let mut child = Command::new(program);
    child
        .args(args)
        .current_dir(root)
        .env("VAULTSPEC_TARGET_DIR", root);
    let ran = crate::bounded_command::run(child, Instant::now() + ACTION_TIMEOUT, OUTPUT_CAP)
        .map_err(|e| format!("starting `{program}`: {e}"))?;
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).trim().to_owned();
    match ran.status {
        Some(status) => Ok((status.success(), text(&ran.stdout), text(&ran.stderr))),
        None => Ok((
            false,
            String::new(),
            format!("Trigger timed out ({}s)", ACTION_TIMEOUT.as_secs()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_runs_without_a_shell_with_its_placeholders_filled() {
        let dir = tempfile::tempdir().unwrap();
        let (ok, out, err) = run_action(
            dir.path(),
            "echo 'a b' | grep {event}".replace("{event}", "x").as_str(),
        )
        .unwrap();
        assert!(ok, "{err}");
        assert_eq!(out, "a b | grep x");
        let (ok, _, err) = run_action(dir.path(), "sh -c 'echo oops >&2; exit 3'").unwrap();
        assert!(!ok);
        assert_eq!(err, "oops");
        assert!(run_action(dir.path(), "no-such-program-xyz").is_err());
        assert!(run_action(dir.path(), "echo 'unclosed").is_err());
    }

    #[test]
    fn a_background_child_does_not_hold_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let started = Instant::now();
        let (ok, out, _) = run_action(dir.path(), "sh -c 'sleep 30 & echo started'").unwrap();
        assert!(ok);
        assert_eq!(out, "started");
        assert!(started.elapsed() < Duration::from_secs(20));
    }
}

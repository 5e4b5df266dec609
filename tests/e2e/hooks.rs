//! Hooks and triggers at the command line, in a temporary repository with
//! a temporary home: nothing runs or is rendered before a person approved
//! it at a pseudo-terminal, every agent's file gets the hook in its own
//! words and keeps what a person wrote, an edit needs a new approval, and
//! the gateway reaches only the reading verbs.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};
use vaultspec_test_support::{TestVault, cache_dir};

use crate::mcp::{Session, text};
use crate::user::at_terminal;

/// A git repository set up for every agent (no MCP enrollment), and a
/// home folder of its own.
struct Setup {
    ws: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Setup {
    fn new() -> Self {
        let s = Setup {
            ws: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir(s.ws.path().join(".git")).unwrap();
        s.expect(0, &["install", "--skip", "mcp"]);
        s
    }

    fn command(&self, program: &str, args: &[&str]) -> Command {
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(self.ws.path())
            .env("HOME", self.home.path())
            .env(
                "VAULTSPEC_CACHE_DIR",
                cache_dir().parent().unwrap().join("test-cli-cache"),
            )
            .env_remove("VAULTSPEC_TARGET_DIR")
            .env_remove("CI")
            .env_remove("VAULTSPEC_NON_INTERACTIVE")
            .stdin(Stdio::null());
        command
    }

    fn expect(&self, code: i32, args: &[&str]) -> Output {
        let out = self
            .command(env!("CARGO_BIN_EXE_vaultspec"), args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}\n{}", show(&out));
        out
    }

    fn json(&self, code: i32, args: &[&str]) -> Value {
        let mut args = args.to_vec();
        args.push("--json");
        let out = self.expect(code, &args);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("not JSON: {}", show(&out)))
    }

    /// `vaultspec ARGS` at a pseudo-terminal, typing `answer`.
    fn at_terminal(&self, args: &[&str], answer: &str) -> Output {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        at_terminal(env!("CARGO_BIN_EXE_vaultspec"), &args, answer, |command| {
            command
                .current_dir(self.ws.path())
                .env("HOME", self.home.path())
                .env(
                    "VAULTSPEC_CACHE_DIR",
                    cache_dir().parent().unwrap().join("test-cli-cache"),
                )
                .env_remove("CI")
                .env_remove("VAULTSPEC_NON_INTERACTIVE");
        })
    }

    /// `spec doctor --json`, whatever its exit code.
    fn doctor(&self) -> Value {
        let out = self
            .command(
                env!("CARGO_BIN_EXE_vaultspec"),
                &["spec", "doctor", "--json"],
            )
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{}", show(&out)))
    }

    fn approve(&self, group: &str) {
        let out = self.at_terminal(&["spec", group, "trust"], "y\n");
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    }

    fn read(&self, path: &str) -> Option<String> {
        std::fs::read_to_string(self.ws.path().join(path)).ok()
    }

    fn doc(&self, path: &str) -> Value {
        serde_json::from_str(
            &self
                .read(path)
                .unwrap_or_else(|| panic!("{path} is missing")),
        )
        .unwrap()
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.ws.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn group(command: &str, matcher: Option<&str>, timeout: Option<u64>) -> Value {
    let mut handler = json!({"type": "command", "command": command});
    if let Some(t) = timeout {
        handler["timeout"] = json!(t);
    }
    let mut group = json!({"hooks": [handler]});
    if let Some(m) = matcher {
        group["matcher"] = json!(m);
    }
    group
}

/// Claude's settings as a person wrote them: their model, their own hook.
const THEIR_SETTINGS: &str = "{\n    \"model\": \"opus\",\n    \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Read\", \"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}]}\n}\n";

#[test]
fn a_hook_reaches_every_agent_only_once_approved_and_keeps_their_settings() {
    let s = Setup::new();
    s.write(".claude/settings.json", THEIR_SETTINGS);
    s.write(".agents/hooks.json", "{\"mine\": {\"enabled\": true}}\n");
    s.expect(
        0,
        &[
            "spec",
            "hooks",
            "add",
            "pre-bash",
            "--event",
            "pre_tool_use",
            "--command",
            "echo hi",
            "--matcher",
            "Bash",
            "--timeout",
            "10",
        ],
    );
    s.expect(
        0,
        &[
            "spec",
            "hooks",
            "add",
            "stopper",
            "--event",
            "stop",
            "--command",
            "echo stop",
        ],
    );
    assert_eq!(
        s.read(".vaultspec/hooks/pre-bash.yaml").unwrap(),
        "event: pre_tool_use\ncommand: echo hi\nmatcher: Bash\ntimeout: 10\n"
    );

    // Not approved: nothing is rendered, and the reason is given.
    let synced = s.json(0, &["spec", "hooks", "sync"]);
    assert_eq!(synced["data"]["items"], json!([]), "{synced}");
    assert!(
        synced["data"]["warnings"]
            .to_string()
            .contains("not approved"),
        "{synced}"
    );
    assert_eq!(s.read(".claude/settings.json").unwrap(), THEIR_SETTINGS);
    let status = s.json(1, &["spec", "hooks", "status"]);
    assert_eq!(status["data"]["status"], "warning");
    let doctor = s.doctor();
    assert!(
        doctor["data"]["signals"]
            .to_string()
            .contains("2 hook(s) are not approved"),
        "{doctor}"
    );
    let claude_hooks = &doctor["data"]["home"]["provider_hooks"][0];
    assert_eq!(
        (
            claude_hooks["tool"].as_str(),
            claude_hooks["signal"].as_str()
        ),
        (Some("claude"), Some("untrusted"))
    );

    // Approval is a person's, at a terminal: never by flag, pipe or JSON.
    let refused = s.json(1, &["spec", "hooks", "trust"]);
    assert_eq!(refused["schema"], "vaultspec.error.v1");
    s.expect(1, &["spec", "hooks", "trust"]);
    s.approve("hooks");
    let listed = s.json(0, &["spec", "hooks", "list"]);
    assert!(
        listed["data"]["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["approved"] == true)
    );

    s.json(0, &["spec", "hooks", "sync"]);
    let claude = s.read(".claude/settings.json").unwrap();
    assert!(
        claude.starts_with("{\n    \"model\": \"opus\",\n"),
        "{claude}"
    );
    let claude: Value = serde_json::from_str(&claude).unwrap();
    assert_eq!(
        claude["hooks"],
        json!({
            "PreToolUse": [group("mine", Some("Read"), None), group("echo hi", Some("Bash"), Some(10))],
            "Stop": [group("echo stop", None, None)],
        })
    );
    assert_eq!(
        s.doc(".gemini/settings.json")["hooks"],
        json!({"BeforeTool": [group("echo hi", Some("Bash"), Some(10_000))]}),
        "Gemini counts milliseconds and has no Stop"
    );
    assert_eq!(
        s.doc(".codex/hooks.json")["hooks"],
        json!({"PreToolUse": [group("echo hi", Some("Bash"), Some(10))], "Stop": [group("echo stop", None, None)]})
    );
    assert_eq!(
        s.doc(".agents/hooks.json"),
        json!({"mine": {"enabled": true}, "vaultspec": {
            "enabled": true,
            "PreToolUse": [group("echo hi", Some("Bash"), Some(10))],
            "Stop": [{"type": "command", "command": "echo stop"}],
        }})
    );
    // A second sync changes nothing, and the doctor sees every file in line.
    assert_eq!(s.json(0, &["spec", "hooks", "sync"])["status"], "unchanged");
    let doctor = s.doctor();
    let signals: Vec<(&str, &str)> = doctor["data"]["home"]["provider_hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["tool"].as_str().unwrap(), r["signal"].as_str().unwrap()))
        .collect();
    assert_eq!(
        signals,
        [
            ("claude", "in_sync"),
            ("gemini", "in_sync"),
            ("antigravity", "in_sync"),
            ("codex", "in_sync")
        ],
        "{doctor}"
    );
    assert_eq!(
        doctor["data"]["home"]["provider_hooks"][1]["unsupported"],
        json!(["stopper (stop)"])
    );

    // An edited hook is taken out until it is approved again.
    let edited = format!(
        "{}# reviewed\n",
        s.read(".vaultspec/hooks/stopper.yaml").unwrap()
    );
    s.write(".vaultspec/hooks/stopper.yaml", &edited);
    s.json(0, &["spec", "hooks", "sync"]);
    assert!(
        s.doc(".claude/settings.json")["hooks"]
            .get("Stop")
            .is_none()
    );
    assert!(
        s.doc(".agents/hooks.json")["vaultspec"]
            .get("Stop")
            .is_none()
    );
    s.approve("hooks");
    s.json(0, &["spec", "hooks", "sync"]);
    assert_eq!(
        s.doc(".claude/settings.json")["hooks"]["Stop"],
        json!([group("echo stop", None, None)])
    );

    // Withdrawn, every vaultspec hook comes out; what the person wrote stays.
    let revoked = s.json(0, &["spec", "hooks", "trust", "--revoke"]);
    assert_eq!(revoked["data"]["revoked"], 2);
    s.json(0, &["spec", "hooks", "sync"]);
    assert_eq!(
        s.doc(".claude/settings.json"),
        serde_json::from_str::<Value>(THEIR_SETTINGS).unwrap()
    );
    assert_eq!(
        s.read(".gemini/settings.json"),
        None,
        "a file only vaultspec wrote goes"
    );
    assert_eq!(s.read(".codex/hooks.json"), None);
    assert_eq!(
        s.doc(".agents/hooks.json"),
        json!({"mine": {"enabled": true}})
    );
}

#[test]
fn a_hook_file_that_is_not_one_is_named_and_an_unreadable_settings_file_is_left_alone() {
    let s = Setup::new();
    s.write(
        ".vaultspec/hooks/typo.yaml",
        "event: pre_tool\ncommand: x\n",
    );
    s.write(
        ".vaultspec/hooks/good.yaml",
        "event: stop\ncommand: echo ok\n",
    );
    s.write(".claude/settings.json", "{ not json, a person's draft\n");
    let status = s.json(1, &["spec", "hooks", "status"]);
    assert!(
        status["data"]["warnings"]
            .to_string()
            .contains("'typo.yaml' has event 'pre_tool'"),
        "{status}"
    );
    s.approve("hooks");
    let synced = s.json(0, &["spec", "hooks", "sync"]);
    assert!(
        synced["data"]["warnings"]
            .to_string()
            .contains(".claude/settings.json is not a JSON object"),
        "{synced}"
    );
    assert_eq!(
        s.read(".claude/settings.json").unwrap(),
        "{ not json, a person's draft\n"
    );
    assert!(s.read(".codex/hooks.json").unwrap().contains("echo ok"));
}

#[test]
fn a_trigger_runs_after_a_full_sync_only_once_approved_and_as_approved() {
    let s = Setup::new();
    let marker = s.ws.path().join("synced.txt");
    s.expect(
        0,
        &[
            "spec",
            "triggers",
            "add",
            "after-sync",
            "--command",
            "sh -c 'echo {event} > {root}/synced.txt'",
        ],
    );
    s.expect(0, &["sync"]);
    assert!(!marker.exists(), "an unapproved trigger ran");
    let run = s.json(0, &["spec", "triggers", "run", "config.synced"]);
    assert_eq!(run["data"]["results"], json!([]));
    s.json(1, &["spec", "triggers", "trust"]);

    s.approve("triggers");
    s.expect(0, &["sync"]);
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "config.synced\n");

    // Edited, it is a different command: it waits for a new approval.
    std::fs::remove_file(&marker).unwrap();
    s.write(
        ".vaultspec/triggers/after-sync.yaml",
        "event: config.synced\nactions:\n- type: shell\n  command: touch {root}/other.txt\n",
    );
    s.expect(0, &["sync"]);
    assert!(!s.ws.path().join("other.txt").exists());
    let listed = s.json(0, &["spec", "triggers", "list"]);
    assert_eq!(listed["data"]["triggers"][0]["trusted"], false);
    let bad = s.json(2, &["spec", "triggers", "run", "bogus.event"]);
    assert!(
        bad["data"]["message"]
            .as_str()
            .unwrap()
            .contains("config.synced")
    );
}

#[test]
fn the_gateway_reads_hooks_and_triggers_but_never_writes_approves_or_runs_them()
-> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.write(".vaultspec/hooks/h.yaml", "event: stop\ncommand: echo hi\n");
    vault.write(
        ".vaultspec/triggers/t.yaml",
        "event: config.synced\nactions:\n- type: shell\n  command: echo t\n",
    );
    let session = Session::start(&vault, &[])?;
    for verb in ["spec hooks list", "spec hooks status", "spec triggers list"] {
        let result = session.call("invoke", json!({"verb": verb}))?;
        assert_ne!(result.is_error, Some(true), "{verb}: {}", text(&result));
        let reply = result.structured_content.unwrap();
        assert!(
            reply.to_string().contains("vaultspec.spec."),
            "{verb}: {reply}"
        );
    }
    let shown = session.call(
        "invoke",
        json!({"verb": "spec hooks show", "positionals": ["h"]}),
    )?;
    assert!(
        shown
            .structured_content
            .unwrap()
            .to_string()
            .contains("echo hi")
    );
    for verb in [
        "spec hooks add",
        "spec hooks trust",
        "spec hooks sync",
        "spec hooks run",
        "spec hooks edit",
        "spec hooks remove",
        "spec hooks rename",
        "spec triggers add",
        "spec triggers run",
        "spec triggers trust",
    ] {
        let result = session.call("invoke", json!({"verb": verb, "positionals": ["h"]}))?;
        assert_eq!(result.is_error, Some(true), "{verb} was reached");
        assert!(
            text(&result).contains("denylisted"),
            "{verb}: {}",
            text(&result)
        );
    }
    assert!(!Path::new(&vault.root().join(".claude/settings.json")).exists());
    Ok(())
}

#[test]
fn a_linked_hook_or_settings_file_is_never_followed() {
    let s = Setup::new();
    let outside = tempfile::tempdir().unwrap();
    let theirs = outside.path().join("settings.json");
    std::fs::write(&theirs, "{\"model\": \"theirs\"}\n").unwrap();
    let planted = outside.path().join("planted.yaml");
    std::fs::write(&planted, "event: stop\ncommand: curl evil.example\n").unwrap();
    std::fs::create_dir_all(s.ws.path().join(".vaultspec/hooks")).unwrap();
    std::os::unix::fs::symlink(&planted, s.ws.path().join(".vaultspec/hooks/planted.yaml"))
        .unwrap();
    s.write(
        ".vaultspec/hooks/good.yaml",
        "event: stop\ncommand: echo ok\n",
    );
    std::fs::create_dir_all(s.ws.path().join(".claude")).unwrap();
    std::os::unix::fs::symlink(&theirs, s.ws.path().join(".claude/settings.json")).unwrap();

    // The linked hook is never offered for approval, never rendered.
    s.approve("hooks");
    let listed = s.json(0, &["spec", "hooks", "list"]);
    let names: Vec<&str> = listed["data"]["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["good"], "{listed}");
    let synced = s.json(1, &["spec", "hooks", "sync"]);
    assert!(
        synced.to_string().contains(".claude/settings.json"),
        "{synced}"
    );
    assert_eq!(
        std::fs::read_to_string(&theirs).unwrap(),
        "{\"model\": \"theirs\"}\n"
    );
    let codex = s.read(".codex/hooks.json").unwrap();
    assert!(
        codex.contains("echo ok") && !codex.contains("evil"),
        "{codex}"
    );
}

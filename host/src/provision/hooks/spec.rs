//! A provider hook as the team wrote it (`.vaultspec/hooks/<name>.yaml`),
//! its events, and what each coding agent is given for it.
//!
//! ```yaml
//! event: pre_tool_use      # one of EVENTS
//! command: ./scripts/check-bash.sh
//! matcher: Bash            # optional: which tools
//! timeout: 10              # optional, seconds
//! enabled: true            # optional
//! ```
//!
//! `actions: [{type: shell, command: …}]` in place of `command:` is read
//! too (the first shell action), as the reference reads it.

use serde_json::{Map, Value, json};

use super::scripts::Script;

/// The events a provider hook can name.
pub const EVENTS: [&str; 7] = [
    "pre_tool_use",
    "post_tool_use",
    "user_prompt_submit",
    "session_start",
    "session_end",
    "stop",
    "notification",
];

/// The agents that take hooks, in the order their files are reported.
pub const PROVIDERS: [&str; 4] = ["claude", "gemini", "antigravity", "codex"];

/// `event`'s name in `provider`'s settings, if it has one.
pub fn native_event(provider: &str, event: &str) -> Option<&'static str> {
    let names: [Option<&'static str>; 4] = match event {
        "pre_tool_use" => [
            Some("PreToolUse"),
            Some("BeforeTool"),
            Some("PreToolUse"),
            Some("PreToolUse"),
        ],
        "post_tool_use" => [
            Some("PostToolUse"),
            Some("AfterTool"),
            Some("PostToolUse"),
            Some("PostToolUse"),
        ],
        "user_prompt_submit" => [
            Some("UserPromptSubmit"),
            None,
            None,
            Some("UserPromptSubmit"),
        ],
        "session_start" => [
            Some("SessionStart"),
            Some("SessionStart"),
            None,
            Some("SessionStart"),
        ],
        "session_end" => [
            Some("SessionEnd"),
            Some("SessionEnd"),
            None,
            Some("SessionEnd"),
        ],
        "stop" => [Some("Stop"), None, Some("Stop"), Some("Stop")],
        "notification" => [Some("Notification"), Some("Notification"), None, None],
        _ => return None,
    };
    let column = PROVIDERS.iter().position(|p| *p == provider)?;
    names[column]
}

/// One hook, read.
#[derive(Debug, Clone)]
pub struct Hook {
    /// The file it came from.
    pub script: Script,
    /// One of [`EVENTS`].
    pub event: String,
    /// The shell command an agent runs.
    pub command: String,
    /// Which tools it applies to (empty: all).
    pub matcher: String,
    /// Seconds an agent waits for it.
    pub timeout: Option<u64>,
    /// Whether it is rendered at all.
    pub enabled: bool,
}

impl Hook {
    /// Read `script` as a hook; the error says why it is skipped.
    pub fn read(script: Script) -> Result<Hook, String> {
        let file = &script.file_name;
        let Some(event) = script.text("event") else {
            return Err(format!("Provider hook '{file}' has no event; skipping."));
        };
        if event == "config.synced" {
            return Err(format!(
                "Provider hook '{file}' has the lifecycle event '{event}', which agents never \
                 fire; move it to .vaultspec/triggers/ (see `vaultspec spec triggers`)."
            ));
        }
        if !EVENTS.contains(&event.as_str()) {
            return Err(format!(
                "Provider hook '{file}' has event '{event}', which is not a provider hook event \
                 (one of: {}); skipping.",
                EVENTS.join(", ")
            ));
        }
        let command = script
            .text("command")
            .or_else(|| script.shell_actions().into_iter().next());
        let Some(command) = command else {
            return Err(format!("Provider hook '{file}' has no command; skipping."));
        };
        let matcher = script.text("matcher").unwrap_or_default();
        let timeout = script
            .get("timeout")
            .and_then(|t| t.as_str())
            .and_then(|t| t.trim().parse::<u64>().ok());
        let enabled = script.enabled();
        Ok(Hook {
            script,
            event,
            command,
            matcher,
            timeout,
            enabled,
        })
    }

    /// The providers among `installed` that have this hook's event.
    pub fn providers<'p>(&self, installed: &'p [String]) -> Vec<&'p str> {
        installed
            .iter()
            .map(String::as_str)
            .filter(|p| native_event(p, &self.event).is_some())
            .collect()
    }

    /// What `provider` runs: `{"type": "command", "command", "timeout"}`
    /// (Gemini counts milliseconds).
    fn handler(&self, provider: &str) -> Value {
        let mut handler = json!({"type": "command", "command": self.command});
        if let Some(seconds) = self.timeout {
            let timeout = if provider == "gemini" {
                seconds.saturating_mul(1000)
            } else {
                seconds
            };
            handler["timeout"] = json!(timeout);
        }
        handler
    }

    /// Its group in `provider`'s settings: `{"matcher"?, "hooks": [handler]}`.
    fn group(&self, provider: &str) -> Value {
        let mut group = Map::new();
        if !self.matcher.is_empty() {
            group.insert("matcher".into(), json!(self.matcher));
        }
        group.insert("hooks".into(), json!([self.handler(provider)]));
        Value::Object(group)
    }
}

/// What `provider` is given for `hooks` (enabled and approved ones):
/// native event → its entries, events in the order they first appear,
/// with a warning for each hook whose event the provider lacks.
/// Antigravity's `Stop` takes handlers, not groups.
pub fn payload(provider: &str, hooks: &[&Hook]) -> (Map<String, Value>, Vec<String>) {
    let mut events = Map::new();
    let mut warnings = Vec::new();
    for hook in hooks {
        let Some(native) = native_event(provider, &hook.event) else {
            warnings.push(format!(
                "Hook '{}': event '{}' has no {provider} equivalent; skipping.",
                hook.script.name, hook.event
            ));
            continue;
        };
        let entry = if provider == "antigravity" && native == "Stop" {
            hook.handler(provider)
        } else {
            hook.group(provider)
        };
        let list = events
            .entry(native.to_owned())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            list.push(entry);
        }
    }
    (events, warnings)
}

/// Every hook in the workspace at `root`, with a warning for each file
/// that is not one.
pub fn load(root: &std::path::Path) -> (Vec<Hook>, Vec<String>) {
    let (scripts, mut warnings) = super::scripts::load(root, super::scripts::Folder::Hooks);
    let mut hooks = Vec::new();
    for script in scripts {
        match Hook::read(script) {
            Ok(hook) => hooks.push(hook),
            Err(warning) => warnings.push(warning),
        }
    }
    (hooks, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use vaultspec_vault::frontmatter::yaml;

    fn hook(text: &str) -> Result<Hook, String> {
        let Ok(yaml::Value::Map(keys)) = yaml::parse_strict(text) else {
            panic!("not a mapping");
        };
        Hook::read(Script {
            name: "h".into(),
            file_name: "h.yaml".into(),
            path: ".vaultspec/hooks/h.yaml".into(),
            digest: super::super::scripts::digest(text.as_bytes()),
            keys,
        })
    }

    #[test]
    fn each_provider_gets_its_own_names_and_units() {
        let pre = hook("event: pre_tool_use\ncommand: ' echo hi '\nmatcher: Bash\ntimeout: 10\n")
            .unwrap();
        let stop = hook("event: stop\nactions:\n- type: shell\n  command: echo stop\n").unwrap();
        let (claude, warnings) = payload("claude", &[&pre, &stop]);
        assert!(warnings.is_empty());
        assert_eq!(
            Value::Object(claude),
            json!({
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi", "timeout": 10}]}],
                "Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}],
            })
        );
        let (gemini, warnings) = payload("gemini", &[&pre, &stop]);
        assert_eq!(gemini["BeforeTool"][0]["hooks"][0]["timeout"], 10_000);
        assert_eq!(
            warnings,
            ["Hook 'h': event 'stop' has no gemini equivalent; skipping."]
        );
        let (antigravity, _) = payload("antigravity", &[&stop]);
        assert_eq!(
            antigravity["Stop"],
            json!([{"type": "command", "command": "echo stop"}])
        );
    }

    #[test]
    fn a_file_that_is_not_a_hook_says_why() {
        assert!(hook("command: x\n").unwrap_err().contains("has no event"));
        assert!(
            hook("event: pre_tool\ncommand: x\n")
                .unwrap_err()
                .contains("not a provider hook event")
        );
        assert!(
            hook("event: config.synced\ncommand: x\n")
                .unwrap_err()
                .contains(".vaultspec/triggers/")
        );
        assert!(
            hook("event: stop\ncommand: '  '\n")
                .unwrap_err()
                .contains("has no command")
        );
        assert!(
            !hook("event: stop\ncommand: x\nenabled: false\n")
                .unwrap()
                .enabled
        );
    }
}

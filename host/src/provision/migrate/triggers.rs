//! `trigger_split` (0.2.4): releases before it kept lifecycle triggers
//! (commands vaultspec itself runs on its own events) in
//! `.vaultspec/hooks/` beside the agents' hooks. Each file whose `event:`
//! is a lifecycle event moves to `.vaultspec/triggers/`; it then needs a
//! fresh approval (`vaultspec spec triggers trust`) before it runs, as any
//! new trigger does.

use vaultspec_vault::Storage;
use vaultspec_vault::frontmatter::yaml::{self, Value};

use super::Done;
use crate::provision::hooks::spec::EVENTS;

const HOOKS: &str = ".vaultspec/hooks";
const TRIGGERS: &str = ".vaultspec/triggers";

/// The events vaultspec fires itself.
const LIFECYCLE: [&str; 3] = ["vault.document.created", "config.synced", "audit.completed"];

/// The `event:` of a hook or trigger file; `Err` when it is not a YAML
/// mapping.
fn event(text: &str) -> Result<Option<String>, ()> {
    match yaml::parse_strict(text) {
        Ok(Value::Map(keys)) => Ok(keys.into_iter().find_map(|(k, v)| match (k.as_str(), v) {
            ("event", Value::Str(s)) => Some(s),
            _ => None,
        })),
        _ => Err(()),
    }
}

pub fn run(storage: &dyn Storage) -> Result<Done, String> {
    let files = storage.list(HOOKS).map_err(|e| e.to_string())?;
    let mut names: Vec<&str> = Vec::new();
    for ext in [".yaml", ".yml"] {
        names.extend(files.iter().filter_map(|e| {
            let name = e.path.strip_prefix(HOOKS)?.strip_prefix('/')?;
            (!name.contains('/') && name.ends_with(ext)).then_some(name)
        }));
    }
    if files.is_empty() {
        return Ok(Done::said("no .vaultspec/hooks/ files; nothing to move"));
    }
    let (mut moving, mut unknown, mut unreadable) = (Vec::new(), 0, 0);
    for name in names {
        let path = format!("{HOOKS}/{name}");
        let text = storage
            .read(&path)
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        match text.as_deref().map(event) {
            Some(Ok(Some(e))) if LIFECYCLE.contains(&e.as_str()) => moving.push(name),
            Some(Ok(Some(e))) if EVENTS.contains(&e.as_str()) => {}
            Some(Ok(_)) => unknown += 1,
            _ => unreadable += 1,
        }
    }
    let mut left = Vec::new();
    if unknown > 0 {
        left.push(format!(
            "{unknown} file(s) with an event that is neither an agent hook's nor a trigger's left in place"
        ));
    }
    if unreadable > 0 {
        left.push(format!(
            "{unreadable} file(s) that do not read as YAML left in place"
        ));
    }
    let note = if left.is_empty() {
        String::new()
    } else {
        format!(" ({})", left.join("; "))
    };
    if moving.is_empty() {
        return Ok(Done::said(format!(
            "no lifecycle triggers in .vaultspec/hooks/; nothing to move{note}"
        )));
    }
    for name in &moving {
        let to = format!("{TRIGGERS}/{name}");
        if storage.exists(&to).map_err(|e| e.to_string())? {
            return Err(format!(
                "cannot move `{HOOKS}/{name}`: `{to}` already exists; move or remove one of them \
                 and run again"
            ));
        }
    }
    let mut changes = Vec::new();
    for name in &moving {
        let from = format!("{HOOKS}/{name}");
        storage
            .rename(&from, &format!("{TRIGGERS}/{name}"))
            .map_err(|e| e.to_string())?;
        changes.push(from);
    }
    let n = moving.len();
    Ok(Done {
        summary: format!(
            "moved {n} lifecycle trigger{} to .vaultspec/triggers/; approve {} with `vaultspec \
             spec triggers trust` before {} run{note}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "it" } else { "them" },
            if n == 1 { "it can" } else { "they can" },
        ),
        changes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vaultspec_vault::{MemStorage, WriteScope};

    #[test]
    fn lifecycle_triggers_move_and_agent_hooks_stay() {
        let s = MemStorage::new().with_scope(WriteScope::Setup);
        s.insert(
            ".vaultspec/hooks/audit.yaml",
            "event: vault.document.created\nenabled: false\n",
        );
        s.insert(".vaultspec/hooks/lint.yaml", "event: post_tool_use\n");
        s.insert(".vaultspec/hooks/typo.yml", "event: on_save\n");
        s.insert(".vaultspec/hooks/bad.yaml", "- a\n- b\n");
        let done = run(&s).unwrap();
        assert_eq!(done.changes, [".vaultspec/hooks/audit.yaml"]);
        assert!(
            done.summary.contains("(1 file(s) with an event"),
            "{}",
            done.summary
        );
        assert!(s.exists(".vaultspec/triggers/audit.yaml").unwrap());
        assert!(s.exists(".vaultspec/hooks/lint.yaml").unwrap());
    }

    #[test]
    fn a_trigger_already_in_place_stops_the_move() {
        let s = MemStorage::new().with_scope(WriteScope::Setup);
        s.insert(".vaultspec/hooks/a.yaml", "event: config.synced\n");
        s.insert(".vaultspec/triggers/a.yaml", "event: config.synced\n");
        assert!(run(&s).unwrap_err().contains("already exists"));
        assert!(s.exists(".vaultspec/hooks/a.yaml").unwrap());
    }
}

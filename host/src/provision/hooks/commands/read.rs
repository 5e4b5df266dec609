//! The reading commands: `list`, `show` and `status` of hooks and
//! triggers, and what `spec doctor` says of them. They print into a
//! [`Printed`], so the gateway serves them as host verbs.

use super::*;

/// `list` of hooks.
pub fn list_hooks(root: &Path, homes: &Homes, json: bool) -> Printed {
    let (hooks, warnings) = spec::load(root);
    let installed = hook_providers(root);
    let ledger = Ledger::read(homes);
    let dir = scope_dir(root, Folder::Hooks);
    let rows: Vec<Value> = hooks
        .iter()
        .map(|h| {
            json!({
                "name": h.script.name,
                "event": h.event,
                "matcher": h.matcher,
                "enabled": h.enabled,
                "timeout": h.timeout,
                "providers": h.providers(&installed),
                "approved": ledger.approves(&dir, &h.script),
            })
        })
        .collect();
    let mut printed = Printed::new(exit::OK);
    if json {
        printed.envelope(
            &schema(Folder::Hooks, "list"),
            "unchanged",
            json!({
                "hooks": rows,
                "hooks_dir": root.join(Folder::Hooks.path()).display().to_string(),
                "providers": installed,
                "warnings": warnings,
            }),
        );
        return printed;
    }
    for w in &warnings {
        printed.warn(w);
    }
    if hooks.is_empty() {
        printed.stdout = "No hooks yet. Add one with `vaultspec spec hooks add NAME --event \
                          pre_tool_use --command CMD`.\n"
            .to_owned();
        return printed;
    }
    let mut out = String::new();
    for (hook, row) in hooks.iter().zip(&rows) {
        let providers: Vec<&str> = row["providers"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push_str(&format!(
            "{}  {}  {}{}  {}  -> {}\n",
            Escaped::new(&hook.script.name),
            hook.event,
            if hook.enabled { "enabled" } else { "disabled" },
            if hook.matcher.is_empty() {
                String::new()
            } else {
                format!("  matcher {}", Escaped::new(&hook.matcher))
            },
            if row["approved"] == true {
                "approved"
            } else {
                "NOT APPROVED"
            },
            if providers.is_empty() {
                "no agent here".to_owned()
            } else {
                providers.join(", ")
            }
        ));
    }
    out.push_str(&format!("{} hook(s)\n", hooks.len()));
    if rows.iter().any(|r| r["approved"] == false) {
        out.push_str(
            "A hook that is not approved is not given to any agent: review it, then run \
             `vaultspec spec hooks trust` at a terminal.\n",
        );
    }
    printed.stdout = out;
    printed
}

/// `list` of triggers.
pub fn list_triggers(root: &Path, homes: &Homes, json: bool) -> Printed {
    let (found, warnings) = triggers::load(root);
    let ledger = Ledger::read(homes);
    let dir = scope_dir(root, Folder::Triggers);
    let rows: Vec<Value> = found
        .iter()
        .map(|t| {
            json!({
                "name": t.script.name,
                "enabled": t.enabled,
                "event": t.event,
                "actions": t.actions.join(", "),
                "trusted": ledger.approves(&dir, &t.script),
            })
        })
        .collect();
    let mut printed = Printed::new(exit::OK);
    if json {
        printed.envelope(
            &schema(Folder::Triggers, "list"),
            "unchanged",
            json!({
                "triggers": rows,
                "supported_events": triggers::EVENTS,
                "triggers_dir": Folder::Triggers.path(),
                "warnings": warnings,
            }),
        );
        return printed;
    }
    for w in &warnings {
        printed.warn(w);
    }
    if found.is_empty() {
        printed.stdout = format!(
            "No triggers yet. Add one with `vaultspec spec triggers add NAME --command CMD`.\n\
             Events: {}\n",
            triggers::EVENTS.join(", ")
        );
        return printed;
    }
    let mut out = String::new();
    for (t, row) in found.iter().zip(&rows) {
        out.push_str(&format!(
            "{}  {}  {}  {}  {}\n",
            Escaped::new(&t.script.name),
            t.event,
            if t.enabled { "enabled" } else { "disabled" },
            if row["trusted"] == true {
                "approved"
            } else {
                "NOT APPROVED"
            },
            Escaped::new(&t.actions.join("; "))
        ));
    }
    out.push_str(&format!("{} trigger(s)\n", found.len()));
    if rows.iter().any(|r| r["trusted"] == false) {
        out.push_str(
            "A trigger that is not approved never runs: review it, then run \
             `vaultspec spec triggers trust` at a terminal.\n",
        );
    }
    printed.stdout = out;
    printed
}

/// `show`: the file as it is.
pub fn show(root: &Path, folder: Folder, name: &str, json: bool) -> Printed {
    let storage = match CapStorage::open(root) {
        Ok(s) => s,
        Err(err) => return failed(json, exit::FINDINGS, &err.to_string()),
    };
    let path = match file_of(&storage, folder, name) {
        Ok(p) => p,
        Err(message) => return failed(json, exit::USAGE, &message),
    };
    let text = match storage.read(&path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(StorageError::NotFound { .. }) => {
            return failed(json, exit::FINDINGS, &not_found(folder, name));
        }
        Err(err) => return failed(json, exit::FINDINGS, &format!("reading `{path}`: {err}")),
    };
    let mut printed = Printed::new(exit::OK);
    if json {
        printed.envelope(
            &schema(folder, "show"),
            "unchanged",
            json!({"name": name, "content": text}),
        );
    } else {
        printed.stdout = Escaped::text(&text).to_string();
        if !printed.stdout.ends_with('\n') {
            printed.stdout.push('\n');
        }
    }
    printed
}

/// `status` of hooks.
pub fn hooks_status(root: &Path, homes: &Homes, json: bool) -> Printed {
    let (hooks, mut warnings) = spec::load(root);
    let installed = hook_providers(root);
    let enabled: Vec<&Hook> = hooks.iter().filter(|h| h.enabled).collect();
    let (somewhere, nowhere): (Vec<&Hook>, Vec<&Hook>) = enabled
        .iter()
        .partition(|h| !h.providers(&installed).is_empty());
    for hook in nowhere {
        warnings.push(format!(
            "Hook '{}': no agent set up here has the event '{}', so it goes nowhere.",
            hook.script.name, hook.event
        ));
    }
    let (_, unapproved) = hook_sync::approved(root, homes, &hooks);
    warnings.extend(unapproved);
    for provider in &installed {
        warnings.extend(spec::payload(provider, &somewhere).1);
    }
    let status = if warnings.is_empty() { "ok" } else { "warning" };
    let code = if warnings.is_empty() {
        exit::OK
    } else {
        exit::FINDINGS
    };
    let mut printed = Printed::new(code);
    let definitions: Vec<&str> = hooks.iter().map(|h| h.script.name.as_str()).collect();
    let dir = root.join(Folder::Hooks.path()).display().to_string();
    if json {
        printed.envelope(
            &schema(Folder::Hooks, "status"),
            status,
            json!({"status": status, "hooks_dir": dir, "definitions": definitions,
                   "warnings": warnings, "providers": installed}),
        );
        return printed;
    }
    let none = |v: &[&str]| {
        if v.is_empty() {
            "none".to_owned()
        } else {
            v.join(", ")
        }
    };
    let providers: Vec<&str> = installed.iter().map(String::as_str).collect();
    let mut out = format!(
        "hooks: {status}\n  folder: {}\n  hooks: {}\n  agents: {}\n",
        Escaped::new(&dir),
        Escaped::new(&none(&definitions)),
        none(&providers)
    );
    for w in &warnings {
        out.push_str(&format!("  - {}\n", Escaped::new(w)));
    }
    printed.stdout = out;
    printed
}

/// `status` of triggers.
pub fn triggers_status(root: &Path, json: bool) -> Printed {
    let (found, mut warnings) = triggers::load(root);
    let exists = root.join(Folder::Triggers.path()).is_dir();
    if !exists {
        warnings.push("There is no .vaultspec/triggers/ folder.".to_owned());
    }
    for t in &found {
        if t.actions.is_empty() {
            warnings.push(format!(
                "Trigger '{}' has no shell action, so it does nothing.",
                t.script.file_name
            ));
        }
    }
    // A missing folder is not a fault: nothing is set up.
    let faults = warnings.len() - usize::from(!exists);
    let status = if faults == 0 { "ok" } else { "warning" };
    let code = if faults == 0 {
        exit::OK
    } else {
        exit::FINDINGS
    };
    let definitions: Vec<&str> = found.iter().map(|t| t.script.file_name.as_str()).collect();
    let dir = root.join(Folder::Triggers.path()).display().to_string();
    let mut printed = Printed::new(code);
    if json {
        printed.envelope(
            &schema(Folder::Triggers, "status"),
            status,
            json!({"status": status, "triggers_dir": dir, "definitions": definitions,
                   "warnings": warnings, "errors": []}),
        );
        return printed;
    }
    let mut out = format!(
        "triggers: {status}\n  folder: {}\n  triggers: {}\n",
        Escaped::new(&dir),
        if definitions.is_empty() {
            "none".to_owned()
        } else {
            Escaped::new(&definitions.join(", ")).to_string()
        }
    );
    for w in &warnings {
        out.push_str(&format!("  - {}\n", Escaped::new(w)));
    }
    printed.stdout = out;
    printed
}

/// What `spec doctor` says of the hooks and triggers: files that are not
/// what their folder holds (warnings), and enabled ones not approved on
/// this machine (notes: approving is a person's choice, not a fault).
pub fn doctor_findings(root: &Path, homes: &Homes) -> Vec<(&'static str, String)> {
    let mut findings = Vec::new();
    let (hooks, warnings) = spec::load(root);
    let (found, trigger_warnings) = triggers::load(root);
    for w in warnings.into_iter().chain(trigger_warnings) {
        findings.push(("warning", w));
    }
    let (_, unapproved) = hook_sync::approved(root, homes, &hooks);
    if !unapproved.is_empty() {
        findings.push((
            "info",
            format!(
                "{} hook(s) are not approved on this machine, so no agent gets them: review them, \
                 then `vaultspec spec hooks trust` and `vaultspec spec hooks sync`",
                unapproved.len()
            ),
        ));
    }
    let ledger = Ledger::read(homes);
    let dir = scope_dir(root, Folder::Triggers);
    let waiting = found
        .iter()
        .filter(|t| t.enabled && !ledger.approves(&dir, &t.script))
        .count();
    if waiting > 0 {
        findings.push((
            "info",
            format!(
                "{waiting} trigger(s) are not approved on this machine, so they never run: review \
                 them, then `vaultspec spec triggers trust`"
            ),
        ));
    }
    findings
}

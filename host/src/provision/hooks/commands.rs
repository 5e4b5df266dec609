//! Running `spec hooks …` and `spec triggers …`: the reading commands print
//! into a [`Printed`] (the gateway serves them too); the others write the
//! team's files, the agents' settings or the person's approvals, at the
//! command line only.

use std::path::Path;

use anyhow::Context;
use serde_json::{Value, json};
use vaultspec_vault::{CapStorage, Storage, StorageError, WriteScope};

use super::args::*;
use super::ledger::Ledger;
use super::scripts::{self, Folder, Script, scope_dir, valid_name};
use super::spec::{self, Hook, PROVIDERS};
use super::sync::{self as hook_sync, hook_providers};
use super::triggers::{self, Trigger};
use crate::display::Escaped;
use crate::provision::enroll::print_report;
use crate::provision::enroll::targets::Homes;
use crate::report::{Printed, Reporter, exit, print_envelope, write_stdout};
use crate::trust::{Terminal, cannot_ask};

/// Run one `spec hooks` command in the workspace at `root`.
pub fn run_hooks(command: &HooksCommand, root: &Path) -> anyhow::Result<u8> {
    let homes = || Homes::from_env().context("no home folder: set HOME");
    match command {
        HooksCommand::List(a) => Ok(list_hooks(root, &homes()?, a.json).emit()?),
        HooksCommand::Show(a) => Ok(show(root, Folder::Hooks, &a.name, a.json).emit()?),
        HooksCommand::Status(a) => Ok(hooks_status(root, &homes()?, a.json).emit()?),
        HooksCommand::Sync(a) => sync_hooks(root, &homes()?, a),
        HooksCommand::Trust(a) => trust(root, &homes()?, Folder::Hooks, a),
        HooksCommand::Add(a) => {
            let mut text = format!(
                "event: {}\ncommand: {}\n",
                scalar(&a.event),
                scalar(&a.command)
            );
            if let Some(matcher) = &a.matcher {
                text.push_str(&format!("matcher: {}\n", scalar(matcher)));
            }
            if let Some(timeout) = a.timeout {
                text.push_str(&format!("timeout: {timeout}\n"));
            }
            if a.write.disabled {
                text.push_str("enabled: false\n");
            }
            if !spec::EVENTS.contains(&a.event.as_str()) {
                return Ok(Reporter { json: a.write.json }.fail(
                    exit::USAGE,
                    &format!(
                        "'{}' is not a hook event; choose one of: {} (vaultspec's own \
                         events are for `spec triggers add`)",
                        a.event,
                        spec::EVENTS.join(", ")
                    ),
                ));
            }
            add(root, Folder::Hooks, &a.name, &text, &a.write)
        }
        HooksCommand::Edit(a) => edit(root, Folder::Hooks, a),
        HooksCommand::Remove(a) => remove(root, Folder::Hooks, a),
        HooksCommand::Rename(a) => rename(root, Folder::Hooks, a),
        HooksCommand::Run(a) => {
            eprintln!(
                "note: `spec hooks run` fires vaultspec's own events; it is `spec triggers run`."
            );
            run_triggers_now(root, &homes()?, a)
        }
    }
}

/// Run one `spec triggers` command in the workspace at `root`.
pub fn run_triggers(command: &TriggersCommand, root: &Path) -> anyhow::Result<u8> {
    let homes = || Homes::from_env().context("no home folder: set HOME");
    match command {
        TriggersCommand::List(a) => Ok(list_triggers(root, &homes()?, a.json).emit()?),
        TriggersCommand::Show(a) => Ok(show(root, Folder::Triggers, &a.name, a.json).emit()?),
        TriggersCommand::Status(a) => Ok(triggers_status(root, a.json).emit()?),
        TriggersCommand::Run(a) => run_triggers_now(root, &homes()?, a),
        TriggersCommand::Trust(a) => trust(root, &homes()?, Folder::Triggers, a),
        TriggersCommand::Add(a) => {
            let text = format!(
                "event: {}\nenabled: {}\nactions:\n- type: shell\n  command: {}\n",
                scalar(&a.event),
                !a.write.disabled,
                scalar(&a.command)
            );
            if !triggers::EVENTS.contains(&a.event.as_str()) {
                return Ok(Reporter { json: a.write.json }.fail(
                    exit::USAGE,
                    &format!(
                        "'{}' is not an event vaultspec fires; choose one of: {} (the agents' \
                         events are for `spec hooks add`)",
                        a.event,
                        triggers::EVENTS.join(", ")
                    ),
                ));
            }
            add(root, Folder::Triggers, &a.name, &text, &a.write)
        }
        TriggersCommand::Edit(a) => edit(root, Folder::Triggers, a),
        TriggersCommand::Remove(a) => remove(root, Folder::Triggers, a),
        TriggersCommand::Rename(a) => rename(root, Folder::Triggers, a),
    }
}

/// A YAML scalar that reads back as `value`.
fn scalar(value: &str) -> String {
    vaultspec_vault::framework::front::scalar(value)
}

/// The schema of `verb` in `folder`'s group.
fn schema(folder: Folder, verb: &str) -> String {
    format!("vaultspec.spec.{}.{verb}.v1", folder.group())
}

/// A failure as [`Printed`]: the error envelope, or `error:` on stderr.
fn failed(json: bool, code: u8, message: &str) -> Printed {
    let mut printed = Printed::new(code);
    if json {
        printed.envelope(
            "vaultspec.error.v1",
            "failed",
            json!({"message": message, "exit_code": code}),
        );
    } else {
        printed.stderr = format!("error: {}\n", Escaped::new(message));
    }
    printed
}

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

/// The workspace path of `name` in `folder`: `<name>.yaml`, or the
/// `.yml` file when only that exists. `Err` names what is wrong.
fn file_of(storage: &CapStorage, folder: Folder, name: &str) -> Result<String, String> {
    let stem = scripts::name_of(name).unwrap_or(name);
    if !valid_name(stem) {
        return Err(format!(
            "'{name}' is not a file name vaultspec writes: use letters, digits, `-`, `_` and `.`"
        ));
    }
    if name.ends_with(".yaml") || name.ends_with(".yml") {
        return Ok(format!("{}/{name}", folder.path()));
    }
    let yaml = format!("{}/{stem}.yaml", folder.path());
    let yml = format!("{}/{stem}.yml", folder.path());
    if !storage.exists(&yaml).unwrap_or(false) && storage.exists(&yml).unwrap_or(false) {
        return Ok(yml);
    }
    Ok(yaml)
}

fn not_found(folder: Folder, name: &str) -> String {
    format!(
        "{} '{name}' not found; `vaultspec spec {} list` lists them.",
        folder.noun(),
        folder.group()
    )
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

/// `spec hooks sync`.
fn sync_hooks(root: &Path, homes: &Homes, args: &HookSyncArgs) -> anyhow::Result<u8> {
    let reporter = Reporter { json: args.json };
    let installed = hook_providers(root);
    let chosen = match args.provider.as_str() {
        "all" => installed,
        name if PROVIDERS.contains(&name) => {
            if !installed.iter().any(|i| i == name) {
                return Ok(reporter.fail(
                    exit::FINDINGS,
                    &format!("{name} is not set up in this workspace; set it up with `vaultspec install {name}`"),
                ));
            }
            vec![name.to_owned()]
        }
        other => {
            return Ok(reporter.fail(
                exit::USAGE,
                &format!(
                    "unknown agent '{other}': choose all, {}",
                    PROVIDERS.join(", ")
                ),
            ));
        }
    };
    let report = hook_sync::sync(root, homes, &chosen, args.dry_run);
    print_report("spec.hooks.sync", &report, args.json, args.dry_run)?;
    Ok(report.exit_code())
}

/// What a person reviews of one file: its path and what it would run.
fn review_lines(root: &Path, folder: Folder) -> Vec<(Script, Vec<String>)> {
    match folder {
        Folder::Hooks => spec::load(root)
            .0
            .into_iter()
            .map(|h| {
                let on = if h.matcher.is_empty() {
                    h.event.clone()
                } else {
                    format!("{} [{}]", h.event, h.matcher)
                };
                let line = format!("on {on}: {}", h.command);
                (h.script, vec![line])
            })
            .collect(),
        Folder::Triggers => triggers::load(root)
            .0
            .into_iter()
            .map(|t| {
                let lines = t
                    .actions
                    .iter()
                    .map(|a| format!("on {}: {a}", t.event))
                    .collect();
                (t.script, lines)
            })
            .collect(),
    }
}

/// `trust`: review and approve at the terminal, or `--revoke`.
fn trust(root: &Path, homes: &Homes, folder: Folder, args: &TrustArgs) -> anyhow::Result<u8> {
    let reporter = Reporter { json: args.json };
    let dir = scope_dir(root, folder);
    let noun = folder.noun().to_ascii_lowercase();
    if args.revoke {
        let revoked = Ledger::update(homes, |ledger| ledger.revoke(&dir))?;
        if args.json {
            print_envelope(
                &schema(folder, "trust"),
                if revoked > 0 { "removed" } else { "unchanged" },
                json!({"revoked": revoked}),
            )?;
        } else {
            write_stdout(&format!(
                "Withdrew {revoked} {noun} approval(s); run `vaultspec sync` to take hooks out of the agents' settings.\n"
            ))?;
        }
        return Ok(exit::OK);
    }
    if cannot_ask(args.json) {
        return Ok(reporter.fail(
            exit::FINDINGS,
            &format!(
                "approving a {noun} needs a person at an interactive terminal (not --json, CI, \
                 VAULTSPEC_NON_INTERACTIVE or a pipe): each one is a command that runs as you"
            ),
        ));
    }
    let ledger = Ledger::read(homes);
    let mut pending: Vec<(Script, Vec<String>)> = review_lines(root, folder)
        .into_iter()
        .filter(|(s, _)| args.name.as_deref().is_none_or(|n| s.name == n))
        .collect();
    if let Some(name) = &args.name
        && pending.is_empty()
    {
        return Ok(reporter.fail(exit::FINDINGS, &not_found(folder, name)));
    }
    pending.retain(|(s, _)| !ledger.approves(&dir, s));
    if pending.is_empty() {
        write_stdout(&format!(
            "Every {noun} here is already approved as it is.\n"
        ))?;
        return Ok(exit::OK);
    }
    let mut review = format!("These {noun} files would run commands as you:\n\n");
    for (script, lines) in &pending {
        review.push_str(&format!("  {}  ({})\n", script.name, script.path));
        for line in lines {
            review.push_str(&format!("    {line}\n"));
        }
    }
    review.push_str(match folder {
        Folder::Hooks => "\nAn agent runs each command above, as you, whenever its event happens. \
                          Approve only commands you recognise; an edit to a file asks again.\n",
        Folder::Triggers => "\nvaultspec runs each command above, as you, whenever its event \
                             happens. Approve only commands you recognise; an edit to a file asks again.\n",
    });
    let mut terminal = Terminal::open()?;
    terminal.say(&review)?;
    if !terminal.confirm(&format!("Approve these {noun}s?"))? {
        return Ok(reporter.fail(exit::FINDINGS, &format!("no {noun} was approved")));
    }
    let names: Vec<String> = pending.iter().map(|(s, _)| s.file_name.clone()).collect();
    Ledger::update(homes, |ledger| {
        for (script, _) in &pending {
            ledger.grant(&dir, script);
        }
    })?;
    let next = match folder {
        Folder::Hooks => "run `vaultspec spec hooks sync` to give them to the agents",
        Folder::Triggers => "they run on their next event",
    };
    write_stdout(&format!(
        "Approved {}: {}; {next}.\n",
        names.len(),
        names.join(", ")
    ))?;
    Ok(exit::OK)
}

/// The workspace opened for writing the team's files.
fn setup_storage(root: &Path) -> anyhow::Result<CapStorage> {
    Ok(CapStorage::open(root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(WriteScope::Setup))
}

/// `add`: write `text` as `name` in `folder`.
fn add(
    root: &Path,
    folder: Folder,
    name: &str,
    text: &str,
    write: &WriteArgs,
) -> anyhow::Result<u8> {
    let WriteArgs {
        force,
        dry_run,
        json,
        ..
    } = *write;
    let reporter = Reporter { json };
    let storage = setup_storage(root)?;
    let path = match file_of(&storage, folder, name) {
        Ok(p) => p,
        Err(message) => return Ok(reporter.fail(exit::USAGE, &message)),
    };
    let exists = storage.exists(&path).unwrap_or(false);
    if exists && !force {
        return Ok(reporter.fail(
            exit::FINDINGS,
            &format!("`{path}` exists; pass --force to replace it, or edit it with `vaultspec spec {} edit {name}`",
                folder.group()),
        ));
    }
    if !dry_run {
        storage
            .write(&path, text.as_bytes())
            .with_context(|| format!("writing `{path}`"))?;
    }
    let status = match (dry_run, exists) {
        (true, _) => "unchanged",
        (false, true) => "updated",
        (false, false) => "created",
    };
    if json {
        print_envelope(
            &schema(folder, "add"),
            status,
            json!({"path": path, "content": text, "dry_run": dry_run}),
        )?;
    } else if dry_run {
        write_stdout(&format!("Would write `{path}`:\n{text}"))?;
    } else {
        write_stdout(&format!(
            "Wrote `{path}`. It runs nowhere until approved: `vaultspec spec {} trust {name}` at a terminal{}.\n",
            folder.group(),
            if folder == Folder::Hooks {
                ", then `vaultspec spec hooks sync`"
            } else {
                ""
            }
        ))?;
    }
    Ok(exit::OK)
}

/// `edit`: the file in the person's editor.
fn edit(root: &Path, folder: Folder, args: &EditArgs) -> anyhow::Result<u8> {
    let storage = setup_storage(root)?;
    let path = file_of(&storage, folder, &args.name).map_err(anyhow::Error::msg)?;
    if !storage.exists(&path).unwrap_or(false) {
        anyhow::bail!(not_found(folder, &args.name));
    }
    let next = match folder {
        Folder::Hooks => {
            "It needs a new approval: `vaultspec spec hooks trust`, then `vaultspec spec hooks sync`."
        }
        Folder::Triggers => "It needs a new approval: `vaultspec spec triggers trust`.",
    };
    crate::provision::framework::edit_file(&storage, &path, args.editor.as_deref(), next)
}

/// `remove`: delete the file, after asking (or with `--yes`).
fn remove(root: &Path, folder: Folder, args: &RemoveArgs) -> anyhow::Result<u8> {
    let reporter = Reporter { json: args.json };
    let storage = setup_storage(root)?;
    let path = match file_of(&storage, folder, &args.name) {
        Ok(p) => p,
        Err(message) => return Ok(reporter.fail(exit::USAGE, &message)),
    };
    if !storage.exists(&path).unwrap_or(false) {
        return Ok(reporter.fail(exit::FINDINGS, &not_found(folder, &args.name)));
    }
    if !args.yes {
        if cannot_ask(args.json) {
            return Ok(reporter.fail(
                exit::USAGE,
                &format!("removing `{path}` needs --yes when no one is at a terminal"),
            ));
        }
        let mut terminal = Terminal::open()?;
        if !terminal.confirm(&format!("Remove `{path}`?"))? {
            return Ok(reporter.fail(exit::FINDINGS, &format!("`{path}` is kept")));
        }
    }
    storage
        .remove(&path)
        .with_context(|| format!("removing `{path}`"))?;
    if args.json {
        print_envelope(
            &schema(folder, "remove"),
            "removed",
            json!({"removed": args.name, "path": path}),
        )?;
    } else {
        write_stdout(&format!(
            "Removed `{path}`.{}\n",
            if folder == Folder::Hooks {
                " `vaultspec spec hooks sync` takes it out of the agents' settings."
            } else {
                ""
            }
        ))?;
    }
    Ok(exit::OK)
}

/// `rename`: move the file within its folder.
fn rename(root: &Path, folder: Folder, args: &RenameArgs) -> anyhow::Result<u8> {
    let reporter = Reporter { json: args.json };
    let storage = setup_storage(root)?;
    let (from, new_stem) = match (
        file_of(&storage, folder, &args.old),
        scripts::name_of(&args.new).map_or(Some(args.new.as_str()), Some),
    ) {
        (Ok(from), Some(stem)) if valid_name(stem) => (from, stem.to_owned()),
        (Err(message), _) => return Ok(reporter.fail(exit::USAGE, &message)),
        _ => return Ok(reporter.fail(
            exit::USAGE,
            &format!(
                "'{}' is not a file name vaultspec writes: use letters, digits, `-`, `_` and `.`",
                args.new
            ),
        )),
    };
    if !storage.exists(&from).unwrap_or(false) {
        return Ok(reporter.fail(exit::FINDINGS, &not_found(folder, &args.old)));
    }
    let extension =
        if args.new.ends_with(".yml") || (!args.new.ends_with(".yaml") && from.ends_with(".yml")) {
            "yml"
        } else {
            "yaml"
        };
    let to = format!("{}/{new_stem}.{extension}", folder.path());
    let taken = [
        format!("{}/{new_stem}.yaml", folder.path()),
        format!("{}/{new_stem}.yml", folder.path()),
    ];
    if taken.iter().any(|t| storage.exists(t).unwrap_or(false)) {
        return Ok(reporter.fail(
            exit::FINDINGS,
            &format!(
                "there is already a {} named '{new_stem}'",
                folder.noun().to_ascii_lowercase()
            ),
        ));
    }
    storage
        .rename(&from, &to)
        .with_context(|| format!("renaming `{from}` to `{to}`"))?;
    if args.json {
        print_envelope(
            &schema(folder, "rename"),
            "updated",
            json!({"old_name": args.old, "new_name": new_stem, "path": to}),
        )?;
    } else {
        write_stdout(&format!(
            "Renamed `{from}` to `{to}`; approvals are by file, so approve it again: `vaultspec spec {} trust {new_stem}`.\n",
            folder.group()
        ))?;
    }
    Ok(exit::OK)
}

/// `run EVENT`: fire the approved, enabled triggers of the event.
fn run_triggers_now(root: &Path, homes: &Homes, args: &RunArgs) -> anyhow::Result<u8> {
    let reporter = Reporter { json: args.json };
    if !triggers::EVENTS.contains(&args.event.as_str()) {
        return Ok(reporter.fail(
            exit::USAGE,
            &format!(
                "'{}' is not an event vaultspec fires; choose one of: {}",
                args.event,
                triggers::EVENTS.join(", ")
            ),
        ));
    }
    let (found, warnings) = triggers::load(root);
    let runnable = approved_triggers(root, homes, &found, &args.event, warnings);
    let ran = triggers::fire(root, &runnable, &args.event, args.path.as_deref());
    if args.json {
        let rows: Vec<Value> = ran.iter().map(triggers::Ran::row).collect();
        print_envelope(
            &schema(Folder::Triggers, "run"),
            "unchanged",
            json!({"results": rows}),
        )?;
        return Ok(exit::OK);
    }
    if ran.is_empty() {
        write_stdout(&format!(
            "No approved, enabled trigger runs on {}.\n",
            args.event
        ))?;
        return Ok(exit::OK);
    }
    let mut out = String::new();
    for r in &ran {
        out.push_str(&format!(
            "  {} (shell): {}\n",
            Escaped::new(&r.trigger),
            if r.success { "OK" } else { "FAIL" }
        ));
        for line in r.output.lines().take(5) {
            out.push_str(&format!("    {}\n", Escaped::new(line)));
        }
        if !r.error.is_empty() {
            out.push_str(&format!("    error: {}\n", Escaped::new(&r.error)));
        }
    }
    write_stdout(&out)?;
    Ok(exit::OK)
}

/// The enabled triggers of `event` that a person approved as they are;
/// each one left out is named on stderr with what to do.
pub fn approved_triggers<'t>(
    root: &Path,
    homes: &Homes,
    found: &'t [Trigger],
    event: &str,
    warnings: Vec<String>,
) -> Vec<&'t Trigger> {
    for w in &warnings {
        eprintln!("{} {}", crate::display::warning_label(), Escaped::new(w));
    }
    let ledger = Ledger::read(homes);
    let dir = scope_dir(root, Folder::Triggers);
    let (runnable, skipped): (Vec<&Trigger>, Vec<&Trigger>) = found
        .iter()
        .filter(|t| t.enabled && t.event == event)
        .partition(|t| ledger.approves(&dir, &t.script));
    if !skipped.is_empty() {
        let names: Vec<&str> = skipped.iter().map(|t| t.script.name.as_str()).collect();
        eprintln!(
            "Skipped {} trigger(s) not approved on this machine (or changed since): {}\n  \
             Review them, then run `vaultspec spec triggers trust` at a terminal.",
            skipped.len(),
            Escaped::new(&names.join(", "))
        );
    }
    runnable
}

/// After a full `sync`: fire `config.synced`; the results are not shown
/// (as the reference), failures and skips are named on stderr.
pub fn after_sync(root: &Path) {
    let Some(homes) = Homes::from_env() else {
        return;
    };
    // Approvals are keyed by the resolved folder.
    let root = &root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let (found, warnings) = triggers::load(root);
    if found.is_empty() && warnings.is_empty() {
        return;
    }
    let runnable = approved_triggers(root, &homes, &found, "config.synced", warnings);
    for r in triggers::fire(root, &runnable, "config.synced", None) {
        if !r.success {
            eprintln!(
                "{} trigger '{}' failed: {}",
                crate::display::warning_label(),
                Escaped::new(&r.trigger),
                Escaped::new(&r.error)
            );
        }
    }
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

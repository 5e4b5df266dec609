//! Writing the team's files: `add`, `edit`, `remove` and `rename`, in
//! `.vaultspec/hooks/` or `.vaultspec/triggers/` only.

use super::*;

/// A YAML scalar that reads back as `value`.
fn scalar(value: &str) -> String {
    vaultspec_vault::framework::front::scalar(value)
}

/// `spec hooks add`: a hook file of the given event and command.
pub(super) fn add_hook(root: &Path, a: &HookAddArgs) -> anyhow::Result<u8> {
    if let Some(code) = refuse_event(
        &a.event,
        &spec::EVENTS,
        "a hook event",
        "spec triggers add",
        a.write.json,
    ) {
        return Ok(code);
    }
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
    add(root, Folder::Hooks, &a.name, &text, &a.write)
}

/// `spec triggers add`: a trigger file with one shell action.
pub(super) fn add_trigger(root: &Path, a: &TriggerAddArgs) -> anyhow::Result<u8> {
    if let Some(code) = refuse_event(
        &a.event,
        &triggers::EVENTS,
        "an event vaultspec fires",
        "spec hooks add",
        a.write.json,
    ) {
        return Ok(code);
    }
    let text = format!(
        "event: {}\nenabled: {}\nactions:\n- type: shell\n  command: {}\n",
        scalar(&a.event),
        !a.write.disabled,
        scalar(&a.command)
    );
    add(root, Folder::Triggers, &a.name, &text, &a.write)
}

/// The usage error for an `event` not among `events`, naming the command
/// that takes the other folder's events; `None` when it is one of them.
fn refuse_event(event: &str, events: &[&str], what: &str, other: &str, json: bool) -> Option<u8> {
    (!events.contains(&event)).then(|| {
        Reporter { json }.fail(
            exit::USAGE,
            &format!(
                "'{event}' is not {what}; choose one of: {} (the others are for `{other}`)",
                events.join(", ")
            ),
        )
    })
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
pub(super) fn edit(root: &Path, folder: Folder, args: &EditArgs) -> anyhow::Result<u8> {
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
pub(super) fn remove(root: &Path, folder: Folder, args: &RemoveArgs) -> anyhow::Result<u8> {
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
pub(super) fn rename(root: &Path, folder: Folder, args: &RenameArgs) -> anyhow::Result<u8> {
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

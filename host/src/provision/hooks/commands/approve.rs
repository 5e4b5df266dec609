//! `trust`: a person reviews each file's exact commands at the terminal
//! and approves them, or `--revoke` withdraws this folder's approvals.

use super::*;

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
pub(super) fn trust(
    root: &Path,
    homes: &Homes,
    folder: Folder,
    args: &TrustArgs,
) -> anyhow::Result<u8> {
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

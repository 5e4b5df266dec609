//! What acts: `spec hooks sync` into the agents' settings, `spec
//! triggers run`, and the triggers a full `sync` fires.

use super::*;

/// `spec hooks sync`.
pub(super) fn sync_hooks(root: &Path, homes: &Homes, args: &HookSyncArgs) -> anyhow::Result<u8> {
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

/// `run EVENT`: fire the approved, enabled triggers of the event.
pub(super) fn run_triggers_now(root: &Path, homes: &Homes, args: &RunArgs) -> anyhow::Result<u8> {
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

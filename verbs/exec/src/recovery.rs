//! `vault exec relink|retire|detach`: repairing a legacy per-Step execution
//! record whose Step moved, was retired, or no longer exists.
//!
//! The model's recovery operations write directly; `--dry-run` runs them
//! over a [`DryRun`] storage that keeps the writes in memory.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::output::{self, status};
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::ledger::{self, LedgerError, RecoveryReport};
use vaultspec_sdk::vault::{Date, Storage};

use crate::dry_run::DryRun;
use crate::exports::vaultspec::exec::vault_exec::{DetachOptions, RelinkOptions, RetireOptions};

/// The record path, or a message when it is not a live file under `.vault/exec/`.
fn record_path(storage: &dyn Storage, raw: &str) -> Result<String, String> {
    let path = raw.trim().trim_start_matches("./").replace('\\', "/");
    if !path.starts_with(".vault/exec/") || !path.ends_with(".md") {
        return Err(format!(
            "record `{raw}` is not accepted: give the workspace path of a record under `.vault/exec/` (e.g. `.vault/exec/2026-03-05-cache-layer/2026-03-05-cache-layer-S01.md`)"
        ));
    }
    match storage.exists(&path) {
        Ok(true) => Ok(path),
        _ => Err(format!(
            "record `{raw}` does not exist: give the path of a live record under `.vault/exec/`"
        )),
    }
}

/// Runs `op` for real or over a dry-run overlay and prints its report.
fn run(
    json: bool,
    verb: &str,
    raw: &str,
    dry_run: bool,
    op: impl Fn(&dyn Storage, &str) -> Result<RecoveryReport, LedgerError>,
) -> u8 {
    let ws = WritableWorkspace::open();
    let path = match record_path(&ws, raw) {
        Ok(p) => p,
        Err(message) => return output::fail(json, &message),
    };
    let overlay = DryRun::new(&ws);
    let storage: &dyn Storage = if dry_run { &overlay } else { &ws };
    let report = match op(storage, &path) {
        Ok(r) => r,
        Err(err) => return output::fail(json, err),
    };
    if json {
        let word = if report.changed && !dry_run {
            status::UPDATED
        } else {
            status::UNCHANGED
        };
        // The reference's keys; `archive_path` only when the record moved.
        let mut data = json!({
            "record": report.path,
            "previous_step_id": report.previous_step_id,
            "step_id": report.step_id,
            "dry_run": dry_run,
            "changed": report.changed,
        });
        if report.new_path != report.path {
            data["archive_path"] = json!(report.new_path);
        }
        output::print_json(&output::envelope(
            &format!("vaultspec.vault.exec.{verb}.v1"),
            word,
            data,
        ));
    } else {
        let what = match (report.changed, dry_run) {
            (false, _) => "unchanged",
            (true, true) => "would change",
            (true, false) => "changed",
        };
        println!("{what} {}", report.path);
        if report.new_path != report.path {
            println!("  now at {}", report.new_path);
        }
        match &report.step_id {
            Some(s) => println!("  step_id: {s}"),
            None => println!("  no step_id"),
        }
    }
    output::EXIT_OK
}

pub fn relink(o: RelinkOptions) -> u8 {
    let today = Date::today_utc();
    run(o.json, "relink", &o.record, o.dry_run, |s, p| {
        ledger::relink(s, p, &o.step, today)
    })
}

pub fn retire(o: RetireOptions) -> u8 {
    run(o.json, "retire", &o.record, o.dry_run, ledger::retire)
}

pub fn detach(o: DetachOptions) -> u8 {
    let today = Date::today_utc();
    run(o.json, "detach", &o.record, o.dry_run, |s, p| {
        ledger::detach(s, p, today)
    })
}

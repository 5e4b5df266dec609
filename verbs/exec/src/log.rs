//! `vault exec log` and `vault exec fold`: writing a plan's execution ledger.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::output;
use vaultspec_sdk::serde_json::{self, Value, json};
use vaultspec_sdk::vault::Date;
use vaultspec_sdk::vault::ledger::{self, LogOptions as ModelLogOptions, LogRequest};

use crate::exports::vaultspec::exec::vault_exec::{FoldOptions, LogOptions};

/// Prints `value` indented, as the reference always does for `exec log`.
fn print_pretty(value: &Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

pub fn log(options: LogOptions) -> u8 {
    let json = options.json;
    let req = LogRequest {
        feature: options.feature.clone(),
        plan_stem: options
            .related
            .as_deref()
            .unwrap_or_default()
            .trim()
            .trim_start_matches("[[")
            .trim_end_matches("]]")
            .trim_end_matches(".md")
            .to_string(),
        step: options.step.clone(),
        rows: options.row.clone(),
        verify: options.verify.clone(),
        by: options.by.clone(),
        notes: options.note.clone(),
    };
    let opts = ModelLogOptions {
        today: Date::today_utc(),
        dry_run: options.dry_run,
        expected_blob_hash: options
            .expected_blob_hash
            .clone()
            .filter(|h| !h.trim().is_empty()),
    };
    let r = match ledger::log(&WritableWorkspace::open(), &req, &opts) {
        Ok(r) => r,
        Err(err) => return output::fail(json, err),
    };
    if json {
        let data = json!({
            "path": r.path,
            "step": r.step,
            "rows": r.rows,
            "notes": r.notes,
            "changed": r.changed,
            "created": r.created,
            "appended_rows": r.appended_rows,
            "appended_notes": r.appended_notes,
            "blob_hash": r.blob_hash,
            "dry_run": options.dry_run,
        });
        print_pretty(&output::envelope(
            "vaultspec.vault.exec.log.v1",
            "logged",
            data,
        ));
    } else {
        let verb = match (r.changed, options.dry_run, r.created) {
            (false, _, _) => "already logged in",
            (true, true, _) => "would log to",
            (true, false, true) => "created and logged to",
            (true, false, false) => "logged to",
        };
        println!("{} {verb} {}", r.step, r.path);
        println!(
            "  {} new row(s), {} new note(s) (of {} and {} given)",
            r.appended_rows, r.appended_notes, r.rows, r.notes
        );
    }
    output::EXIT_OK
}

pub fn fold(options: FoldOptions) -> u8 {
    let json = options.json;
    let feature = vaultspec_sdk::vault::doc::feature_arg(&options.feature).to_string();
    let report = match ledger::fold(
        &WritableWorkspace::open(),
        &feature,
        Date::today_utc(),
        options.force,
        options.dry_run,
    ) {
        Ok(r) => r,
        Err(err) => return output::fail(json, err),
    };
    if json {
        // The reference's word for every fold that ran, written or not.
        let word = "folded";
        let data = serde_json::to_value(&report).unwrap_or_default();
        output::print_json(&output::envelope(
            "vaultspec.vault.exec.fold.v1",
            word,
            data,
        ));
    } else {
        let verb = match (report.changed, report.dry_run) {
            (false, _) => "nothing to fold into",
            (true, true) => "would fold into",
            (true, false) => "folded into",
        };
        println!(
            "{verb} {}: {} row(s), {} note(s)",
            report.ledger, report.rows, report.notes
        );
        for r in &report.records {
            match &r.reason {
                Some(why) => println!("  {} {}: {why}", r.status, r.path),
                None => println!("  {} {}", r.status, r.path),
            }
        }
    }
    output::EXIT_OK
}

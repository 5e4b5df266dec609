//! `vault plan check [--fix]`: lint one plan against the plan conventions and
//! optionally apply the safe autofixes.
//!
//! It lives in the writing component because `--fix` writes; without
//! `--fix` it only reads.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::output::{self, status};
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::style::{self, Tone};
use vaultspec_sdk::vault::plan::{
    Finding, Severity, WriteOptions, check_plan, fix_plan, has_errors,
};
use vaultspec_sdk::vault::{Date, Storage};

use crate::exports::vaultspec::plan_write::vault_plan::CheckOptions;
use vaultspec_verbs_shared::plan_common::{done, fail, fail_message, resolve, schema};

pub fn check(options: CheckOptions, target: &str) -> u8 {
    let json = options.json;
    let sch = schema("check");
    let ws = WritableWorkspace::open();
    let path = match resolve(&ws, target) {
        Ok(p) => p,
        Err(err) => return fail(json, &sch, &err),
    };
    if options.fix {
        let opts = WriteOptions {
            today: Date::today_utc(),
            expected_blob_hash: options
                .expected_blob_hash
                .clone()
                .filter(|h| !h.trim().is_empty()),
            dry_run: options.dry_run,
            canonicalise: false,
        };
        let report = match fix_plan(&ws, &path, &opts) {
            Ok(r) => r,
            Err(err) => return fail(json, &sch, &err),
        };
        let word = if report.changed && !options.dry_run {
            status::UPDATED
        } else {
            status::UNCHANGED
        };
        let data = json!({
            "path": path,
            "findings": report.after,
            "fixed": report.changed,
            "dry_run": options.dry_run,
            "findings_before": report.before.len(),
            "blob_hash": report.blob_hash,
        });
        let code = exit(&report.after);
        let status_word = if has_errors(&report.after) {
            status::FAILED
        } else {
            word
        };
        done(json, &sch, status_word, data, || {
            let verb = match (report.changed, options.dry_run) {
                (false, _) => "nothing to fix in",
                (true, true) => "would fix",
                (true, false) => "fixed",
            };
            println!("{verb} {path} (blob {})", report.blob_hash);
            print_findings(&report.after);
        });
        return code;
    }
    let text = match ws.read(&path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(err) => return fail_message(json, &sch, &format!("cannot read `{path}`: {err}")),
    };
    let findings = check_plan(&text);
    let word = if has_errors(&findings) {
        status::FAILED
    } else {
        status::UNCHANGED
    };
    done(
        json,
        &sch,
        word,
        json!({ "path": path, "findings": findings }),
        || {
            println!("{path}");
            print_findings(&findings);
        },
    );
    exit(&findings)
}

fn exit(findings: &[Finding]) -> u8 {
    if has_errors(findings) {
        output::EXIT_FAILURE
    } else {
        output::EXIT_OK
    }
}

fn print_findings(findings: &[Finding]) {
    if findings.is_empty() {
        println!("  clean: the plan follows every convention");
    }
    for f in findings {
        let sev = match f.severity {
            Severity::Error => style::paint(Tone::Error, "error"),
            Severity::Warning => style::paint(Tone::Warning, "warning"),
            Severity::Info => style::paint(Tone::Quiet, "info"),
        };
        let fix = if f.autofixable {
            " (--fix repairs it)"
        } else {
            ""
        };
        println!("  line {}: {sev} {}: {}{fix}", f.line, f.code, f.message);
        if !f.fix_hint.is_empty() {
            println!("    {}", f.fix_hint);
        }
    }
}

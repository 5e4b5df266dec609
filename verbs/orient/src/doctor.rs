//! `doctor`: one read-only diagnosis of the workspace's setup and of the
//! vault (every check). Exits 2 on any error, 1 on warnings only, else 0.
//!
//! The setup half is the host's `spec doctor` when the host hands it over
//! ([`handoff::SPEC_DOCTOR`]: at a terminal and through the gateway), as
//! the reference nests it; otherwise what this component can read itself
//! (framework folder, migrations, annotations, unreadable files, rule
//! names).

use vaultspec_sdk::Workspace;
use vaultspec_sdk::output;
use vaultspec_sdk::serde_json::Value;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::style::{self, Tone};
use vaultspec_sdk::vault::checks::report::{Page, all_data};
use vaultspec_sdk::vault::checks::{Check, CheckResult, Options, Severity, run_all};
use vaultspec_sdk::vault::handoff;
use vaultspec_sdk::vault::{Date, Storage};

use crate::DoctorOptions;
use crate::report::fail;
use vaultspec_verbs_shared::migration_table::state;

fn count(results: &[CheckResult], check: Check, severity: Option<Severity>) -> usize {
    results
        .iter()
        .filter(|r| r.check == check)
        .flat_map(|r| &r.findings)
        .filter(|f| severity.is_none_or(|s| f.severity == s))
        .count()
}

pub fn doctor(options: DoctorOptions) -> u8 {
    let json = options.json;
    let ws = Workspace::open();
    let results = match run_all(&ws, &Options::check(Date::today_utc())) {
        Ok(r) => r,
        Err(err) => return fail(json, err),
    };
    let migrations = match state(&ws) {
        Ok(m) => m,
        Err(message) => return fail(json, message),
    };
    let framework = match ws.list(".vaultspec") {
        Ok(files) if files.is_empty() => "missing",
        Ok(files)
            if files
                .iter()
                .any(|f| f.path.starts_with(".vaultspec/templates/")) =>
        {
            "present"
        }
        Ok(_) => "partial",
        Err(err) => return fail(json, err),
    };
    let vault_content = ws
        .list(".vault")
        .map(|f| f.iter().any(|e| e.path.ends_with(".md")))
        .unwrap_or(false);
    let annotations = count(&results, Check::Annotations, None);
    let unreadable = count(&results, Check::Encoding, Some(Severity::Error));
    let renames = count(&results, Check::RenameIntegrity, Some(Severity::Error));
    let errors: usize = results.iter().map(CheckResult::error_count).sum();
    let mut warnings: usize = results.iter().map(CheckResult::warning_count).sum();
    warnings += usize::from(framework != "present") + usize::from(!migrations.pending.is_empty());
    let code = if errors > 0 {
        output::EXIT_USAGE
    } else if warnings > 0 {
        output::EXIT_FAILURE
    } else {
        output::EXIT_OK
    };
    // The host's full report, when it handed one over: its findings weigh
    // as they do in `spec doctor`.
    let spec: Option<Value> = std::env::var(handoff::SPEC_DOCTOR)
        .ok()
        .and_then(|text| vaultspec_sdk::serde_json::from_str(&text).ok());
    let code = match spec.as_ref().and_then(|s| s["exit"].as_u64()) {
        Some(spec_code) => {
            let vault_code = if errors > 0 {
                output::EXIT_USAGE
            } else if results
                .iter()
                .map(CheckResult::warning_count)
                .sum::<usize>()
                > 0
            {
                output::EXIT_FAILURE
            } else {
                output::EXIT_OK
            };
            vault_code.max(spec_code.min(2) as u8)
        }
        None => code,
    };
    let pending: Vec<&str> = migrations.pending.iter().map(|(n, _)| *n).collect();
    let page = Page {
        limit: None,
        offset: 0,
        info: false,
    };
    let own_spec = json!({
            "framework": framework,
            "builtin_version": vaultspec_verbs_shared::migration_table::CURRENT_VERSION,
            "migration_status": migrations.status_word(),
            "manifest_version": migrations.manifest_version,
            "pending_migrations": pending,
            "vault_content": if vault_content { "present" } else { "empty" },
            "vault_annotation_count": annotations,
            "vault_unreadable_count": unreadable,
            "rename_integrity": if renames == 0 { "ok" } else { "mismatch" },
            "rename_mismatch_count": renames,
    });
    let data = json!({
        "spec": spec.as_ref().map_or(own_spec, |s| s["data"].clone()),
        "vault": all_data(&results, page),
    });
    if json {
        let status = if code == output::EXIT_USAGE {
            output::status::FAILED
        } else {
            output::status::UNCHANGED
        };
        output::print_json(&output::envelope("vaultspec.doctor.v1", status, data));
        return code;
    }
    if let Some(spec) = &spec {
        let signals = spec["data"]["signals"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let weighed: Vec<&Value> = signals
            .iter()
            .filter(|s| matches!(s["level"].as_str(), Some("error" | "warning")))
            .collect();
        let said = if weighed.is_empty() {
            "in order".to_owned()
        } else {
            format!("{} finding(s)", weighed.len())
        };
        println!("setup: {said} (run `vaultspec spec doctor` for the details)");
        for s in weighed {
            let tone = if s["level"] == "error" {
                Tone::Error
            } else {
                Tone::Warning
            };
            println!(
                "  {}: {}",
                style::paint(tone, s["level"].as_str().unwrap_or_default()),
                s["message"].as_str().unwrap_or_default()
            );
        }
    }
    println!("framework (.vaultspec/): {framework}");
    println!(
        "migrations: {}{}",
        migrations.status_word(),
        if pending.is_empty() {
            String::new()
        } else {
            format!(" ({})", pending.join(", "))
        }
    );
    println!("template annotations: {annotations}");
    println!("unreadable documents: {unreadable}");
    println!("rule/skill/agent name mismatches: {renames}");
    for r in results
        .iter()
        .filter(|r| r.error_count() + r.warning_count() > 0)
    {
        let tone = if r.error_count() > 0 {
            Tone::Error
        } else {
            Tone::Warning
        };
        println!(
            "check {}: {}",
            r.check.as_str(),
            style::paint(
                tone,
                &format!("{} errors, {} warnings", r.error_count(), r.warning_count())
            )
        );
        for f in r
            .findings
            .iter()
            .filter(|f| f.severity != Severity::Info)
            .take(5)
        {
            println!("  {}: {}", f.path.as_deref().unwrap_or("vault"), f.message);
        }
    }
    let (verdict, tone) = match code {
        0 => ("healthy", Tone::Good),
        1 => ("warnings only", Tone::Warning),
        _ => ("errors found", Tone::Error),
    };
    println!(
        "{}: {errors} errors, {warnings} warnings in the vault",
        style::paint(tone, verdict)
    );
    if spec.is_none() {
        // The other doctor, named so the two never seem to disagree.
        println!(
            "(the vault and its framework folder; for what coding agents were given, run `vaultspec spec doctor`)"
        );
    }
    code
}

//! `check`: the whole check suite, optionally fixing (`spec/mcp-tools.md` §6.6),
//! and the shape of its result (spec/checks.md §5).

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::{Value, json};
use vaultspec_vault::CapStorage;
use vaultspec_vault::checks::{self, CheckResult, Finding, Options, Severity, Snapshot, total};

use super::parse;
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Reply, ToolResult};

#[derive(Deserialize)]
struct Args {
    feature: Option<String>,
    #[serde(default)]
    fix: bool,
}

/// Run `check all` over the workspace, fixing under the write lock if asked.
/// Without `fix`, the reply is kept until a file it read changes.
pub fn call(context: &ServerContext, args: Value) -> ToolResult {
    let raw = args.clone();
    let args: Args = parse(args)?;
    let storage = context.storage()?;
    let today = context.today();
    let mut options = Options::check(today).with_feature(args.feature.as_deref());
    if !args.fix {
        let root = context.workspace.root();
        let loaded = context.vault.get(root, &storage)?;
        return loaded.replies.get_or(root, today, "check", &raw, || {
            // The checks read the kept load instead of the vault again, and
            // judge again only the documents that changed since the last run.
            let snapshot = Snapshot::of(
                &storage,
                Cow::Borrowed(&loaded.graph),
                Cow::Borrowed(&loaded.listing),
            );
            let mut findings = loaded.findings.lock().expect("findings lock poisoned");
            Ok(reply(&findings.check_all(&snapshot, &options)?, false))
        });
    }
    options.fix = true;
    let _lock = context.lock_writes()?;
    let _sentinel = context.lock_docs_domain()?;
    run(&storage, &options)
}

/// Run every check with `options` and shape the reply.
fn run(storage: &CapStorage, options: &Options) -> ToolResult {
    Ok(reply(&checks::run_all(storage, options)?, options.fix))
}

fn reply(results: &[CheckResult], fix: bool) -> Reply {
    Reply {
        summary: summary(results),
        structured: result(results, fix).into(),
    }
}

/// How many findings the tool returns at most.
pub const FINDINGS_CAP: usize = 50;

/// The tool's structured result: totals, one row per check, and the first
/// [`FINDINGS_CAP`] findings that are not INFO.
pub fn result(results: &[CheckResult], fix: bool) -> Value {
    let errors = total(results, Severity::Error);
    let findings: Vec<&Finding> = results
        .iter()
        .flat_map(|r| &r.findings)
        .filter(|f| f.severity != Severity::Info)
        .collect();
    let checks: Vec<Value> = results
        .iter()
        .map(|r| {
            json!({
                "check": r.check,
                "error_count": r.error_count(),
                "warning_count": r.warning_count(),
                "info_count": r.info_count(),
                "fixed_count": r.fixed_count,
                "clean": r.is_clean(),
            })
        })
        .collect();
    let capped: Vec<Value> = findings
        .iter()
        .take(FINDINGS_CAP)
        .map(|f| json!({"check": f.check, "path": f.path, "message": f.message, "severity": f.severity, "fixable": f.fixable}))
        .collect();
    json!({
        "status": if errors > 0 { "failed" } else { "ok" },
        "fixed": fix,
        "total_errors": errors,
        "total_warnings": total(results, Severity::Warning),
        "total_fixed": results.iter().map(|r| r.fixed_count).sum::<usize>(),
        "checks": checks,
        "findings": capped,
        "findings_total": findings.len(),
        "findings_truncated": findings.len() > FINDINGS_CAP,
    })
}

/// The tool's one-line text: `"<errors> errors, <warnings> warnings"`.
pub fn summary(results: &[CheckResult]) -> String {
    format!(
        "{} errors, {} warnings",
        total(results, Severity::Error),
        total(results, Severity::Warning)
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use vaultspec_vault::{CapStorage, Date, WriteScope};

    use super::*;

    #[test]
    fn the_result_has_the_reference_keys() -> anyhow::Result<()> {
        // Golden vector 90's broken vault, checked in place: without --fix
        // nothing is written.
        let before =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/90-check-all-json/before");
        let storage = CapStorage::open(&before)?.with_scope(WriteScope::ReadOnly);
        let today = Date::new(2026, 11, 30).expect("a date");
        let results = checks::run_all(&storage, &Options::check(today))?;
        let r = result(&results, false);
        assert_eq!(r["status"], "failed");
        assert_eq!(r["checks"].as_array().map(Vec::len), Some(20));
        assert_eq!(r["checks"][0]["check"], "structure");
        assert_eq!(
            (r["total_errors"].as_u64(), r["total_warnings"].as_u64()),
            (Some(5), Some(13))
        );
        assert_eq!(r["findings_total"].as_u64(), Some(18));
        let findings = r["findings"].as_array().expect("a list");
        assert!(findings.iter().all(|f| f.get("path").is_some()));
        assert_eq!(summary(&results), "5 errors, 13 warnings");
        Ok(())
    }
}

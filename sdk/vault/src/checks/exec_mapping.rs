//! The `exec-mapping` checker (read-only): ledger rows against their plans'
//! Steps (spec/exec-ledger.md §7), computed by [`crate::ledger::exec_mapping`]
//! and reported here in the checks' result model.

use crate::error::{Error, Result};
use crate::ledger::MappingMemo;
use crate::plan;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};
use super::view::SnapshotStorage;

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    run_kept(snap, opts, &mut MappingMemo::once())
}

/// Runs the checker, parsing again only the plans and ledgers whose bytes
/// changed since `memo` last saw them.
pub fn run_kept(
    snap: &Snapshot<'_>,
    opts: &Options,
    memo: &mut MappingMemo,
) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::ExecMapping);
    // The mapping reads every plan and ledger; the snapshot already holds them.
    let storage = SnapshotStorage::new(snap);
    let found = crate::ledger::exec_mapping_kept(&storage, opts.feature.as_deref(), memo)
        .map_err(|e| Error::Invalid(e.to_string()))?;
    for f in found {
        let severity = match f.severity {
            plan::Severity::Error => Severity::Error,
            plan::Severity::Warning => Severity::Warning,
            plan::Severity::Info => Severity::Info,
        };
        result.findings.push(Finding::new(
            "exec-mapping",
            severity,
            Some(&f.path),
            f.message,
        ));
    }
    Ok(result)
}

//! `commit-gate`: the read-only check of the files a commit stages. Every
//! checker runs once; findings on the staged paths that are errors block
//! the commit, and staged per-machine runtime files (`.vaultspec/.env`,
//! `.vault/data/`, `.vault/logs/`) are named so they stay out of history.

use serde_json::{Value, json};

use crate::date::Date;
use crate::error::Result;
use crate::storage::Storage;

use super::context::Options;
use super::model::{CheckResult, Finding, Severity};
use super::report::{Page, result_data};
use super::run::run_all;

/// What `commit-gate` found (`vaultspec.commit-gate.v1` data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateReport {
    /// Error findings on the staged paths.
    pub blocking: Vec<Finding>,
    /// Staged files that belong to one machine, not to the repository.
    pub per_machine: Vec<String>,
    /// Every checker's findings restricted to the staged paths.
    pub results: Vec<CheckResult>,
}

impl GateReport {
    /// Whether the commit must be refused (exit 1).
    pub fn is_blocking(&self) -> bool {
        !self.blocking.is_empty() || !self.per_machine.is_empty()
    }

    /// The JSON `data`: `{blocking, per_machine, results}`.
    pub fn to_json(&self) -> Value {
        json!({
            "blocking": self.blocking,
            "per_machine": self.per_machine,
            "results": self.results.iter().map(|r| result_data(r, Page::default())).collect::<Vec<_>>(),
        })
    }
}

fn per_machine(path: &str) -> bool {
    matches!(path, ".vaultspec/.env" | ".vaultspec/config.toml")
        || path.starts_with(".vault/data/")
        || path.starts_with(".vault/logs/")
        || path.ends_with(".lock")
}

/// Checks the vault for a commit of `paths` (workspace-relative; empty means
/// every file). Writes nothing.
pub fn commit_gate(storage: &dyn Storage, paths: &[String], today: Date) -> Result<GateReport> {
    let staged: Vec<String> = paths
        .iter()
        .map(|p| p.trim_start_matches("./").replace('\\', "/"))
        .collect();
    let in_scope =
        |f: &Finding| staged.is_empty() || f.path.as_ref().is_some_and(|p| staged.contains(p));
    let mut results = run_all(storage, &Options::check(today))?;
    for r in &mut results {
        r.findings.retain(|f| in_scope(f));
    }
    let blocking = results
        .iter()
        .flat_map(|r| &r.findings)
        .filter(|f| f.severity == Severity::Error)
        .cloned()
        .collect();
    Ok(GateReport {
        blocking,
        per_machine: staged.iter().filter(|p| per_machine(p)).cloned().collect(),
        results,
    })
}

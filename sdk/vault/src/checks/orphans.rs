//! The `orphans` checker (read-only): documents with no links in or out and
//! no feature sibling (spec/graph-and-search.md §3), generated indexes and
//! `readme` excepted.

use crate::error::Result;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Orphans);
    for id in snap.graph.orphans() {
        let Some(doc) = snap
            .doc(id)
            .filter(|d| !d.generated() && snap.node_in_scope(id, opts))
        else {
            continue;
        };
        let kind = doc.doc_type.map_or("unknown", |t| t.as_str());
        result.findings.push(Finding::new(
            "orphans",
            Severity::Warning,
            Some(&doc.path),
            format!("Isolated {kind} document - no links or feature siblings"),
        ));
    }
    Ok(result)
}

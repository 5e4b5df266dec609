//! The `references` checker (read-only): in a feature that has both research
//! and at least one ADR, a research document nothing links to is research
//! the decisions never cite.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::doc::DocType;
use crate::error::Result;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::References);
    let with_adr: HashSet<Cow<'_, str>> = snap
        .all_docs()
        .filter(|d| d.doc_type == Some(DocType::Adr))
        .filter_map(|d| d.feature_text())
        .collect();
    for (id, doc) in snap.docs() {
        if doc.doc_type != Some(DocType::Research) {
            continue;
        }
        let Some(feature) = doc.feature_text().filter(|f| with_adr.contains(f)) else {
            continue;
        };
        if !snap.node_in_scope(id, opts) || !snap.graph.in_links(id).is_empty() {
            continue;
        }
        result.findings.push(
            Finding::new(
                "references",
                Severity::Warning,
                Some(&doc.path),
                format!("Research doc not referenced by any ADR in feature '{feature}'"),
            )
            .hint("Link it from the ADR it informs (`vault link add`)"),
        );
    }
    Ok(result)
}

//! The `schema` checker (read-only): every ADR is grounded in at least one
//! research, reference or audit document it links to; and an approved plan
//! that is still open may only rely on ADRs that are `accepted` and not
//! superseded.

use crate::adr::{self, AdrStatus};
use crate::doc::DocType;
use crate::error::Result;
use crate::graph::NodeId;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "schema";

/// Whether a plan body (comments masked) carries an approval line right
/// after its `## Description` heading (blank lines allowed between): a bare
/// `Approved yyyy-mm-dd` with nothing after the date but blanks, as the
/// reference's pattern `Approved \d{4}-\d{2}-\d{2}\s*$` reads it. A line
/// that goes on (`Approved 2026-03-01. Implements …`) is prose, not an
/// approval; the date's digits are not judged as a calendar date.
pub fn is_approved(body: &str) -> bool {
    // Masking turns bytes into spaces in place, never into letters: a body
    // without both words has no approval (most plans, on every run).
    if !crate::text::contains(body, "Description") || !crate::text::contains(body, "Approved") {
        return false;
    }
    let masked = crate::graph::markdown::mask_code_and_comments(body);
    let mut after_description = false;
    for line in masked.lines().map(str::trim) {
        if after_description {
            if line.is_empty() {
                continue;
            }
            return line
                .strip_prefix("Approved ")
                .is_some_and(crate::date::is_ymd_dashed_shape);
        }
        after_description = line == "## Description";
    }
    false
}

fn targets<'a>(
    snap: &'a Snapshot<'_>,
    id: NodeId,
) -> impl Iterator<Item = &'a crate::doc::Document> + 'a {
    snap.graph.out_links(id).filter_map(|t| snap.doc(t))
}

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Schema);
    for (id, doc) in snap.docs().filter(|&(id, _)| snap.node_in_scope(id, opts)) {
        match doc.doc_type {
            Some(DocType::Adr) => {
                // By the linked file's folder, so a research note that
                // cannot be read still grounds the ADR that cites it.
                let grounded = snap.graph.out_links(id).any(|t| {
                    snap.graph.doc(t).is_some_and(|g| {
                        matches!(g.type_name(), "research" | "reference" | "audit")
                    })
                });
                if !grounded {
                    result.findings.push(
                        Finding::new(NAME, Severity::Error, Some(&doc.path), "ADR has no grounding references: link at least one research, reference or audit document in `related:`")
                            .hint("vaultspec vault link add <adr> <research>"),
                    );
                }
            }
            Some(DocType::Plan) if is_approved(doc.body()) => {
                let plan = match crate::plan::parse_plan(&doc.text) {
                    Ok(p) => p,
                    Err(e) => {
                        result.findings.push(Finding::new(
                            NAME,
                            Severity::Error,
                            Some(&doc.path),
                            format!("Cannot assess plan authority: {e}"),
                        ));
                        continue;
                    }
                };
                if !(plan.steps.is_empty() || plan.steps.iter().any(|s| !s.checked)) {
                    continue;
                }
                for adr_doc in targets(snap, id).filter(|t| t.doc_type == Some(DocType::Adr)) {
                    let ok = adr::status(adr_doc) == Some(AdrStatus::Accepted)
                        && adr_doc.meta().superseded_by().is_none();
                    if !ok {
                        result.findings.push(Finding::new(
                            NAME,
                            Severity::Error,
                            Some(&doc.path),
                            format!(
                                "Active approved plan references non-accepted ADR '{}'",
                                adr_doc.stem()
                            ),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approval_follows_the_description_heading() {
        assert!(is_approved(
            "# p\n\n## Description\n\nApproved 2026-03-01  \n\nMore.\n"
        ));
        // The reference matches digits, not a calendar date.
        assert!(is_approved("## Description\n\nApproved 2026-13-45\n"));
        // What `vaultspec-core` 0.3.9 does not count as approved (observed):
        // anything after the date on the line.
        assert!(!is_approved(
            "# p\n\n## Description\n\nApproved 2026-03-01 by the lead\n"
        ));
        assert!(!is_approved(
            "# p\n\n## Description\n\nApproved 2026-11-30. Implements the cache.\n"
        ));
        assert!(!is_approved(
            "# p\n\n## Description\n\nDraft.\nApproved 2026-03-01\n"
        ));
        assert!(!is_approved(
            "## Description\n\n<!-- Approved 2026-03-01 -->\n"
        ));
    }
}

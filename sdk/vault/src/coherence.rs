//! Coherence: a document derived from another is stale when what it was
//! derived from moved on after it was written.
//!
//! Each `related:` link from a document D to a document U says D was
//! written from U (a plan from its ADR, a ledger from its plan, an ADR from
//! its research). U is *stale for D* when U's content last changed after D
//! was last written. When each changed is the caller's to say ([`When`]):
//! from the repository's history where there is one, else from the
//! documents' `modified:` dates (a day's resolution: only a later day
//! counts). Nothing is written into any document; editing D (or
//! re-stamping it after review) is what clears it.
//!
//! An ADR superseded by another is not reported here: the supersede links
//! already say it moved on, and `check` reports documents that still lean
//! on it.

use crate::adr::{self, AdrStatus};
use crate::date::Date;
use crate::graph::{Graph, GraphDoc};

/// When a document last changed, and how that is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct When {
    /// Seconds since the epoch (a date counts from its midnight, UTC).
    pub time: i64,
    /// What says so: a commit id, `uncommitted`, or a `modified:` date.
    pub by: String,
}

impl When {
    /// From a document's `modified:` date, else its `date:`.
    pub fn of_dates(doc: &GraphDoc) -> Option<When> {
        let meta = doc.meta();
        let written = meta
            .modified()
            .and_then(|d| d.parse::<Date>().ok())
            .or_else(|| doc.date())?;
        Some(When {
            time: written.to_days() * 86_400,
            by: written.to_string(),
        })
    }
}

/// One stale link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stale {
    /// The derived document's workspace path.
    pub document: String,
    /// The document it was derived from, which changed since.
    pub upstream: String,
    /// When the derived document was last written.
    pub document_changed: When,
    /// When the upstream last changed.
    pub upstream_changed: When,
}

/// Every stale `related:` link of the corpus of `graph` (of the documents
/// of `feature` alone, when given), by document path then upstream path;
/// `changed` says when a document last changed (`None`: unknown, never
/// stale either way).
pub fn stale(
    graph: &Graph,
    feature: Option<&str>,
    changed: &dyn Fn(&GraphDoc) -> Option<When>,
) -> Vec<Stale> {
    let mut found = Vec::new();
    for (id, doc) in graph.docs().iter().enumerate() {
        if doc.problem.is_some() || feature.is_some_and(|f| !doc.has_feature_tag(f)) {
            continue;
        }
        let mut written = None;
        for edge in graph.out_edges(id).iter().filter(|e| e.related > 0) {
            let Some(upstream) = graph.doc(edge.target) else {
                continue;
            };
            if upstream.path == doc.path || upstream.problem.is_some() || superseded(upstream) {
                continue;
            }
            let Some(document_changed) = written.get_or_insert_with(|| changed(doc)).clone() else {
                break;
            };
            let Some(upstream_changed) = changed(upstream) else {
                continue;
            };
            if upstream_changed.time > document_changed.time {
                found.push(Stale {
                    document: doc.path.clone(),
                    upstream: upstream.path.clone(),
                    document_changed,
                    upstream_changed,
                });
            }
        }
    }
    found
}

fn superseded(doc: &GraphDoc) -> bool {
    doc.meta().superseded_by().is_some_and(|s| !s.is_empty())
        || adr::status(doc) == Some(AdrStatus::Superseded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::GraphDoc;

    fn doc(path: &str, modified: &str, related: &[&str]) -> GraphDoc {
        let related: String = related.iter().map(|r| format!("  - '[[{r}]]'\n")).collect();
        GraphDoc::from_text(
            path,
            &format!(
                "---\ntags:\n  - '#x'\ndate: '2026-01-01'\nmodified: '{modified}'\nrelated:\n{related}---\n# t\n"
            ),
        )
    }

    #[test]
    fn a_later_upstream_is_stale_and_a_superseded_one_is_not() {
        let docs = vec![
            doc(".vault/adr/2026-01-01-x-a-adr.md", "2026-01-05", &[]),
            doc(".vault/adr/2026-01-01-x-old-adr.md", "2026-01-09", &[]),
            doc(
                ".vault/plan/2026-01-02-x-plan.md",
                "2026-01-03",
                &["2026-01-01-x-a-adr", "2026-01-01-x-old-adr"],
            ),
            doc(
                ".vault/research/2026-01-01-x-r-research.md",
                "2026-01-02",
                &["2026-01-01-x-a-adr"],
            ),
        ];
        let mut docs = docs;
        docs[1] = GraphDoc::from_text(
            &docs[1].path.clone(),
            "---\ntags:\n  - '#x'\ndate: '2026-01-01'\nmodified: '2026-01-09'\nsuperseded_by: '2026-01-01-x-a-adr'\n---\n# t\n",
        );
        docs.sort_by(|a, b| a.path.cmp(&b.path));
        let graph = Graph::build(docs, &[]);
        let found = stale(&graph, None, &When::of_dates);
        let pairs: Vec<(&str, &str)> = found
            .iter()
            .map(|s| (s.document.as_str(), s.upstream.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                (
                    ".vault/plan/2026-01-02-x-plan.md",
                    ".vault/adr/2026-01-01-x-a-adr.md"
                ),
                (
                    ".vault/research/2026-01-01-x-r-research.md",
                    ".vault/adr/2026-01-01-x-a-adr.md"
                ),
            ]
        );
        assert_eq!(found[0].upstream_changed.by, "2026-01-05");
        assert_eq!(found[0].document_changed.by, "2026-01-03");
        assert!(stale(&graph, Some("y"), &When::of_dates).is_empty());
    }
}

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

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::adr::{self, AdrStatus};
use crate::date::Date;
use crate::graph::{Graph, GraphDoc};

/// When a document last changed, and how that is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct When {
    /// Seconds since the epoch (a date counts from its midnight, UTC).
    pub time: i64,
    /// What says so: a commit id, `uncommitted`, or a `modified:` date
    /// (shared by the documents dated alike, see [`stale_links`]).
    pub by: Arc<str>,
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
            by: written.to_string().into(),
        })
    }
}

/// The files of a vault at `HEAD` and the commits that last changed them,
/// as the host reads them from the repository (a verb through the
/// `vault-history` interface).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    /// By workspace path (`.vault/adr/x.md`), the commit that last changed
    /// the file's content, for the files there at `HEAD`.
    pub changed: HashMap<String, Changed>,
    /// By workspace path, the blob id (hex) of each file at `HEAD`.
    pub at_head: HashMap<String, String>,
    /// Whether the walk reached the first commit (not stopped by a budget).
    pub complete: bool,
}

/// The commit that last changed a file's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changed {
    /// The commit's time, in seconds since the epoch.
    pub time: i64,
    /// The commit's id (hex).
    pub commit: String,
}

impl History {
    /// When `doc` last changed: its modification time (`modified`) when
    /// its text differs from `HEAD` (an uncommitted edit counts as made
    /// then), else the commit that last changed it, else its dates.
    /// `raw_blob` hashes the file's bytes where the loaded text was
    /// normalised and no longer is them.
    pub fn when(
        &self,
        doc: &GraphDoc,
        raw_blob: impl FnOnce() -> Option<String>,
        modified: impl FnOnce() -> Option<i64>,
    ) -> Option<When> {
        let blob = doc.blob_oid().or_else(raw_blob);
        if blob.is_some() && blob.as_ref() != self.at_head.get(&doc.path) {
            return Some(When {
                time: modified()?,
                by: "uncommitted".into(),
            });
        }
        match self.changed.get(&doc.path) {
            Some(changed) => Some(When {
                time: changed.time,
                by: changed.commit[..12.min(changed.commit.len())].into(),
            }),
            None => When::of_dates(doc),
        }
    }
}

/// The day of `when` (`YYYY-MM-DD`), for people.
pub fn day(when: &When) -> String {
    Date::from_days(when.time.div_euclid(86_400)).map_or_else(String::new, |d| d.to_string())
}

/// One side of a stale link as reports show it: what dates it and its day.
pub fn side(when: &When) -> serde_json::Value {
    serde_json::json!({"by": &*when.by, "date": day(when), "time": when.time})
}

/// The `stale` section of a status report: the first `limit` stale links
/// and how many there are; `None` when there is none, so a report with
/// nothing stale keeps the reference's shape. `dated_by` says where the
/// dates came from (`git` or `dates`).
pub fn status_section(
    found: &[Stale],
    graph: &Graph,
    limit: usize,
    dated_by: &str,
) -> Option<serde_json::Value> {
    if found.is_empty() {
        return None;
    }
    let links: Vec<serde_json::Value> = found
        .iter()
        .take(limit)
        .map(|s| {
            serde_json::json!({
                "document": s.document(graph),
                "upstream": s.upstream(graph),
                "document_changed": side(&s.document_changed),
                "upstream_changed": side(&s.upstream_changed),
            })
        })
        .collect();
    Some(serde_json::json!({
        "total": found.len(),
        "more": found.len() - links.len(),
        "dated_by": dated_by,
        "links": links,
    }))
}

/// The documents (graph node ids) with at least one stale upstream.
pub fn stale_documents(found: &[Stale]) -> HashSet<usize> {
    found.iter().map(|s| s.document_id as usize).collect()
}

/// One stale link of a graph, its two documents by their node ids there
/// (a server keeps every stale link of its vault, as many as its
/// `related:` links at worst: two paths copied into each took more room
/// than the links themselves). A document's node id is its place in the
/// graph's documents, which are in path order, so the ids' order is the
/// paths'.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stale {
    /// The derived document's node.
    pub document_id: u32,
    /// The node of the document it was derived from, which changed since.
    pub upstream_id: u32,
    /// When the derived document was last written.
    pub document_changed: When,
    /// When the upstream last changed.
    pub upstream_changed: When,
}

impl Stale {
    /// The derived document's workspace path, in the `graph` it was found in.
    pub fn document<'g>(&self, graph: &'g Graph) -> &'g str {
        path_of(graph, self.document_id)
    }

    /// The upstream's workspace path, in the `graph` it was found in.
    pub fn upstream<'g>(&self, graph: &'g Graph) -> &'g str {
        path_of(graph, self.upstream_id)
    }
}

fn path_of(graph: &Graph, node: u32) -> &str {
    let doc = graph.doc(node as usize);
    &doc.expect("a stale link joins two documents").path
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
    let ids = graph
        .docs()
        .iter()
        .enumerate()
        .filter(|(_, doc)| feature.is_none_or(|f| doc.has_feature_tag(f)))
        .map(|(id, _)| id);
    stale_from(graph, ids, changed)
}

/// The stale `related:` links from the documents `ids` of `graph` alone
/// (a page of `find` rows), dated as [`stale`] dates them.
pub fn stale_from(
    graph: &Graph,
    ids: impl IntoIterator<Item = usize>,
    changed: &dyn Fn(&GraphDoc) -> Option<When>,
) -> Vec<Stale> {
    let links = ids.into_iter().flat_map(|id| {
        graph
            .out_edges(id)
            .iter()
            .filter(|e| e.related > 0)
            .map(move |e| (id, e.target))
    });
    stale_links(graph, links, changed)
}

/// The stale ones of `links`, each a `related:` link of `graph` as
/// (document, upstream) node ids, in the order given, dated as [`stale`]
/// dates them.
pub fn stale_links(
    graph: &Graph,
    links: impl IntoIterator<Item = (usize, usize)>,
    changed: &dyn Fn(&GraphDoc) -> Option<When>,
) -> Vec<Stale> {
    let mut found = Vec::new();
    // Each document is dated once, however many link to it, and documents
    // dated alike share the text of what dates them (a day, a commit).
    let mut dated: HashMap<usize, Option<When>> = HashMap::new();
    let mut said: HashSet<Arc<str>> = HashSet::new();
    let mut date = |id: usize, doc: &GraphDoc| {
        let when = dated.entry(id).or_insert_with(|| {
            let mut when = changed(doc)?;
            match said.get(&*when.by) {
                Some(by) => when.by = by.clone(),
                None => {
                    said.insert(when.by.clone());
                }
            }
            Some(when)
        });
        when.clone()
    };
    for (id, target) in links {
        let Some(doc) = graph.doc(id).filter(|doc| doc.problem.is_none()) else {
            continue;
        };
        let Some(upstream) = graph.doc(target) else {
            continue;
        };
        if upstream.path == doc.path || upstream.problem.is_some() {
            continue;
        }
        let Some(document_changed) = date(id, doc) else {
            continue;
        };
        let Some(upstream_changed) = date(target, upstream) else {
            continue;
        };
        // Whether it was superseded is read last: it scans the body.
        if upstream_changed.time > document_changed.time && !superseded(upstream) {
            found.push(Stale {
                document_id: id as u32,
                upstream_id: target as u32,
                document_changed,
                upstream_changed,
            });
        }
    }
    found.shrink_to_fit();
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
            .map(|s| (s.document(&graph), s.upstream(&graph)))
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
        assert_eq!(&*found[0].upstream_changed.by, "2026-01-05");
        assert_eq!(&*found[0].document_changed.by, "2026-01-03");
        assert!(stale(&graph, Some("y"), &When::of_dates).is_empty());
    }
}

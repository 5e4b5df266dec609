//! One loaded vault: the graph, the listing it was read from, and what is
//! derived from the same files on first use (search index, plan statuses,
//! the checkers' findings, stale links, kept replies).
//!
//! A load renewed after documents were edited in place carries its plan
//! statuses and stale links over with the paths that changed, and brings
//! them up to date on first use by working out again only what those
//! paths touch.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use vaultspec_vault::checks::{self, DocFindings};
use vaultspec_vault::graph::{self, Graph, GraphDoc, VaultRead};
use vaultspec_vault::search::SearchIndex;
use vaultspec_vault::status::PlanStatuses;
use vaultspec_vault::storage::FileEntry;
use vaultspec_vault::{CapStorage, Storage};

use super::Replies;
use crate::coherence::Findings;

/// A loaded vault: the graph, and what is derived from the same files on
/// first use.
pub struct LoadedVault {
    /// The document graph.
    pub graph: Graph,
    /// Every file under `.vault/` as listed for this load.
    pub listing: Vec<FileEntry>,
    index: OnceLock<SearchIndex>,
    plans: OnceLock<Arc<PlanStatuses>>,
    /// The plan statuses of the load this one renewed, while not brought
    /// up to date.
    plans_before: Mutex<Option<Carried<PlanStatuses>>>,
    /// The replies of read-only tools made from this load.
    pub replies: Replies,
    /// The per-document findings of `check`, carried over from the load
    /// before for every document read from the same text.
    pub findings: Mutex<DocFindings>,
    /// The stale `related:` links, with the repository state they were
    /// dated under (and the paths edited in place since, when carried
    /// over from the load this one renewed).
    stale: Mutex<Option<Carried<Findings>>>,
}

/// What was worked out from a load, and the paths read again since (with
/// their links as they were): empty while it is current.
struct Carried<T> {
    value: Arc<T>,
    changed: BTreeSet<String>,
}

impl<T> Carried<T> {
    fn current(value: Arc<T>) -> Self {
        Carried {
            value,
            changed: BTreeSet::new(),
        }
    }

    /// The same value, with `changed` read again since.
    fn and(mut self, changed: &BTreeSet<String>) -> Self {
        self.changed.extend(changed.iter().cloned());
        self
    }
}

impl LoadedVault {
    pub(super) fn new(read: VaultRead, findings: DocFindings) -> Self {
        Self {
            graph: Graph::build(read.docs, &read.archived),
            listing: read.listing,
            index: OnceLock::new(),
            plans: OnceLock::new(),
            plans_before: Mutex::new(None),
            replies: Replies::default(),
            findings: Mutex::new(findings),
            stale: Mutex::new(None),
        }
    }

    /// The graph, listing and findings, what was derived from the files
    /// (the index, the plans, the replies) let go.
    pub(super) fn into_parts(self) -> (Graph, Vec<FileEntry>, DocFindings) {
        let LoadedVault {
            graph,
            listing,
            index,
            plans,
            plans_before,
            replies,
            findings,
            stale,
        } = self;
        discard((index, plans, plans_before, replies, stale));
        let findings = findings.into_inner().expect("findings lock poisoned");
        (graph, listing, findings)
    }

    /// The same load after the files `changed` were read again and put in
    /// place (their links as they were), without the index and the replies
    /// made before; the plan statuses and stale links carry over, to be
    /// brought up to date on first use.
    pub(super) fn renewed(self, changed: &BTreeSet<String>) -> Self {
        let LoadedVault {
            graph,
            listing,
            index,
            plans,
            plans_before,
            replies,
            findings,
            stale,
        } = self;
        let plans_before = match plans.into_inner() {
            Some(value) => Some(Carried::current(value)),
            None => plans_before.into_inner().unwrap_or_else(|e| e.into_inner()),
        };
        let stale = stale.into_inner().unwrap_or_else(|e| e.into_inner());
        discard((index, replies));
        Self {
            graph,
            listing,
            index: OnceLock::new(),
            plans: OnceLock::new(),
            plans_before: Mutex::new(plans_before.map(|c| c.and(changed))),
            replies: Replies::default(),
            findings,
            stale: Mutex::new(stale.map(|c| c.and(changed))),
        }
    }

    /// The document this load read for the corpus file at `path`.
    pub(super) fn doc(&self, path: &str) -> Option<&GraphDoc> {
        let docs = self.graph.docs();
        graph::position(docs, path).map(|i| &docs[i])
    }

    /// The BM25 index over the graph's documents, built once.
    pub fn index(&self) -> &SearchIndex {
        self.index
            .get_or_init(|| SearchIndex::build(self.graph.docs()))
    }

    /// Every plan's status, read once: the plans and ledgers from the texts
    /// this load holds, anything else from `storage` (the workspace the
    /// graph was loaded from). Carried over from the load this one renewed,
    /// only the plans edited since are read again.
    pub fn plans(&self, storage: &dyn Storage) -> &PlanStatuses {
        self.plans.get_or_init(|| {
            let snapshot = checks::SnapshotStorage::over(storage, &self.graph, &self.listing);
            let before = self
                .plans_before
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            let updated = before.and_then(|before| {
                let changed = before.changed.iter().map(String::as_str);
                Some(match before.value.updated(&snapshot, changed)? {
                    Cow::Borrowed(_) => before.value.clone(),
                    Cow::Owned(next) => Arc::new(next),
                })
            });
            updated.unwrap_or_else(|| Arc::new(PlanStatuses::read(&snapshot)))
        })
    }

    /// The stale `related:` links of this load, dated under the
    /// repository's state now ([`crate::git_history::head_state`], which
    /// the findings carry); worked out once per state, and after an edit
    /// in place only for the documents it touched.
    pub fn stale(&self, root: &Path, storage: &CapStorage) -> Arc<Findings> {
        let head = crate::git_history::head_state(root);
        let mut kept = self.stale.lock().unwrap_or_else(|e| e.into_inner());
        let findings = match kept.take() {
            Some(carried) if carried.value.state == head => {
                if carried.changed.is_empty() {
                    carried.value
                } else {
                    // Nothing else holds the findings of a renewed load
                    // (its replies went with it): they are moved, not copied.
                    let findings = Arc::unwrap_or_clone(carried.value);
                    Arc::new(findings.updated(root, storage, &self.graph, &carried.changed))
                }
            }
            _ => Arc::new(crate::coherence::find(root, storage, &self.graph, None)),
        };
        *kept = Some(Carried::current(findings.clone()));
        findings
    }
}

/// Let `stale` go on a thread of its own: what was derived from the files
/// before can be large (the search index holds every term of every
/// document), and freeing it need not hold up the call that replaced it.
pub(super) fn discard<T: Send + 'static>(stale: T) {
    // Should no thread start, `stale` is freed here instead.
    let _ = std::thread::Builder::new()
        .name("vaultspec-discard".into())
        .spawn(move || drop(stale));
}

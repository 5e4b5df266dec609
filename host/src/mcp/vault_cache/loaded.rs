//! One loaded vault: the graph, the listing it was read from, and what is
//! derived from the same files on first use (search index, plan statuses,
//! the checkers' findings, kept replies).

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
    plans: OnceLock<PlanStatuses>,
    /// The replies of read-only tools made from this load.
    pub replies: Replies,
    /// The per-document findings of `check`, carried over from the load
    /// before for every document read from the same text.
    pub findings: Mutex<DocFindings>,
    /// The stale `related:` links, with the repository state they were
    /// dated under.
    stale: Mutex<Option<Arc<Findings>>>,
}

impl LoadedVault {
    pub(super) fn new(read: VaultRead, findings: DocFindings) -> Self {
        Self {
            graph: Graph::build(read.docs, &read.archived),
            listing: read.listing,
            index: OnceLock::new(),
            plans: OnceLock::new(),
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
            replies,
            findings,
            stale,
        } = self;
        discard((index, plans, replies, stale));
        let findings = findings.into_inner().expect("findings lock poisoned");
        (graph, listing, findings)
    }

    /// The same load, without what was derived from the files before (the
    /// index, the plans, the replies).
    pub(super) fn renewed(self) -> Self {
        let (graph, listing, findings) = self.into_parts();
        Self {
            graph,
            listing,
            index: OnceLock::new(),
            plans: OnceLock::new(),
            replies: Replies::default(),
            findings: Mutex::new(findings),
            stale: Mutex::new(None),
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
    /// graph was loaded from).
    pub fn plans(&self, storage: &dyn Storage) -> &PlanStatuses {
        self.plans.get_or_init(|| {
            PlanStatuses::read(&checks::SnapshotStorage::over(
                storage,
                &self.graph,
                &self.listing,
            ))
        })
    }
}

impl LoadedVault {
    /// The stale `related:` links of this load, dated under the
    /// repository's state now ([`crate::git_history::head_state`], which
    /// the findings carry); worked out once per state.
    pub fn stale(&self, root: &Path, storage: &CapStorage) -> Arc<Findings> {
        let head = crate::git_history::head_state(root);
        let mut kept = self.stale.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(findings) = kept.as_ref()
            && findings.state == head
        {
            return findings.clone();
        }
        let findings = Arc::new(crate::coherence::find(root, storage, &self.graph, None));
        *kept = Some(findings.clone());
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

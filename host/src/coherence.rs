//! `vault check coherence`: the `related:` links whose upstream document
//! changed after the document that links it was written
//! ([`vaultspec_vault::coherence`]), dated from the repository's history
//! ([`crate::git_history`]) where there is one, else from `modified:`.
//!
//! A host verb, not a component: the history is read in process from
//! `.git`, which no verb may reach. At a terminal and through the gateway
//! alike it only reads. The findings are warnings: a run exits 0 with
//! them, as `check code-boundary` does.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use vaultspec_vault::CapStorage;
use vaultspec_vault::coherence::{self, History, Stale, When, day, side};
use vaultspec_vault::doc::stem_of;
use vaultspec_vault::graph::{self, Graph, GraphDoc};

use crate::checked_file::Owner;
use crate::git_history;
use crate::report::{Printed, exit};

/// The largest document hashed again to compare it with `HEAD`.
const MAX_DOC_BYTES: u64 = 16 << 20;

/// The envelope's schema.
pub const SCHEMA: &str = "vaultspec.vault.check.coherence.v1";

/// The stale links of a vault and how its documents were dated.
#[derive(Clone)]
pub struct Findings {
    /// Every stale `related:` link, by document then upstream.
    pub stale: Vec<Stale>,
    /// The history the dates came from, or why `modified:` dates did.
    dating: Arc<Result<History, String>>,
    /// The repository state the history was read under
    /// ([`git_history::head_state`]).
    pub state: String,
}

impl Findings {
    /// Where the dates came from, for a report: `{"source": "git",
    /// "complete": …}` or `{"source": "dates", "reason": …}`.
    pub fn dated_by(&self) -> Value {
        match self.dating.as_ref() {
            Ok(history) => json!({"source": "git", "complete": history.complete}),
            Err(why) => json!({"source": "dates", "reason": why}),
        }
    }

    /// `git` or `dates`.
    pub fn source(&self) -> &'static str {
        if self.dating.is_ok() { "git" } else { "dates" }
    }

    /// These findings of the whole vault, found under the repository state
    /// they carry, brought up to `graph` after the files at `changed` were
    /// read again with their links as they were (so every document keeps
    /// its node): the links from each changed document and those into it
    /// are dated again, the rest kept. Equal to [`find`] of `graph` under
    /// the same state.
    pub fn updated(
        mut self,
        root: &Path,
        storage: &CapStorage,
        graph: &Graph,
        changed: &BTreeSet<String>,
    ) -> Findings {
        let docs = graph.docs();
        let ids: BTreeSet<usize> = changed
            .iter()
            .filter_map(|path| graph::position(docs, path))
            .collect();
        let mut links = Vec::new();
        for &id in &ids {
            let out = graph.out_edges(id).iter().filter(|e| e.related > 0);
            links.extend(out.map(|e| (id, e.target)));
            let into = graph.in_links(id).iter().filter(|&&s| {
                !ids.contains(&s) && graph.edge(s, id).is_some_and(|e| e.related > 0)
            });
            links.extend(into.map(|&s| (s, id)));
        }
        let touched = |node: u32| ids.contains(&(node as usize));
        self.stale
            .retain(|s| !touched(s.document_id) && !touched(s.upstream_id));
        let dating = self.dating.clone();
        let when = |doc: &GraphDoc| when(root, storage, &dating, doc);
        self.stale
            .extend(coherence::stale_links(graph, links, &when));
        // As a full run finds them: by document, then upstream (the ids'
        // order is the paths').
        self.stale.sort_by_key(|s| (s.document_id, s.upstream_id));
        self.stale.shrink_to_fit();
        self
    }
}

/// The stale links of the vault `graph` was read from (of `feature`'s
/// documents alone, when given), dated from the history of the repository
/// at `root` where there is one (kept while `HEAD` stays put, see
/// [`git_history::read_vault_cached`]).
pub fn find(root: &Path, storage: &CapStorage, graph: &Graph, feature: Option<&str>) -> Findings {
    let (state, dating) = git_history::read_vault_cached(root, git_history::TIME_BUDGET);
    let feature = feature.map(vaultspec_vault::doc::feature_arg);
    let stale = coherence::stale(graph, feature, &|doc| when(root, storage, &dating, doc));
    Findings {
        stale,
        dating,
        state,
    }
}

/// Run the check on the workspace at `root`.
pub fn run(root: &Path, feature: Option<&str>, json: bool) -> Printed {
    let failed = |message: String| {
        let mut printed = Printed::new(exit::FINDINGS);
        printed.stderr = format!("error: {message}\n");
        printed
    };
    let storage = match CapStorage::open(root) {
        Ok(storage) => storage,
        Err(err) => return failed(format!("opening `{}`: {err}", root.display())),
    };
    let graph = match graph::load_graph(&storage) {
        Ok(graph) => graph,
        Err(err) => return failed(format!("reading the vault: {err}")),
    };
    report(&find(root, &storage, &graph, feature), &graph, json)
}

/// The stale links from the documents `ids` of `graph` alone, dated from
/// `dating` (as [`git_history::read_vault_cached`] gives it).
pub fn stale_from(
    root: &Path,
    storage: &CapStorage,
    graph: &Graph,
    ids: impl IntoIterator<Item = usize>,
    dating: &Result<History, String>,
) -> Vec<Stale> {
    coherence::stale_from(graph, ids, &|doc| when(root, storage, dating, doc))
}

/// When `doc` last changed, by the history where there is one, else by
/// its dates.
fn when(
    root: &Path,
    storage: &CapStorage,
    dating: &Result<History, String>,
    doc: &GraphDoc,
) -> Option<When> {
    let Ok(history) = dating else {
        return When::of_dates(doc);
    };
    history.when(
        doc,
        || {
            let path = root.join(&doc.path);
            let bytes = crate::checked_file::read(&path, MAX_DOC_BYTES, Owner::Anyone).ok()??;
            Some(vaultspec_vault::hash::blob_oid(&bytes))
        },
        || storage.modified_time(&doc.path).ok(),
    )
}

fn message(stale: &Stale, graph: &Graph) -> String {
    let upstream = stem_of(stale.upstream(graph));
    format!(
        "`{upstream}` changed after this document was written ({} on {}; this document {} on {}): review it against [[{upstream}]]",
        stale.upstream_changed.by,
        day(&stale.upstream_changed),
        stale.document_changed.by,
        day(&stale.document_changed),
    )
}

fn report(findings: &Findings, graph: &Graph, json: bool) -> Printed {
    let mut printed = Printed::new(exit::OK);
    let found = &findings.stale;
    let source = findings.dated_by();
    if json {
        let items: Vec<Value> = found
            .iter()
            .map(|s| {
                let (document, upstream) = (s.document(graph), s.upstream(graph));
                json!({
                    "path": document,
                    "message": message(s, graph),
                    "severity": "warning",
                    "fixable": false,
                    "fix_description": format!("review `{document}` against `{upstream}`, then edit it (or re-stamp it with `vaultspec vault check modified-stamp --fix`)"),
                    "upstream": upstream,
                    "document_changed": side(&s.document_changed),
                    "upstream_changed": side(&s.upstream_changed),
                })
            })
            .collect();
        let data = json!({
            "check_name": "coherence",
            "diagnostics": {"returned": items.len(), "total": items.len(), "truncated": false, "items": items},
            "fixed_count": 0,
            "supports_fix": false,
            "dated_by": source,
        });
        printed.envelope(SCHEMA, "unchanged", data);
        return printed;
    }
    if let Err(why) = findings.dating.as_ref() {
        printed
            .stdout
            .push_str(&format!("Dated by `modified:` ({why}).\n"));
    }
    if found.is_empty() {
        printed
            .stdout
            .push_str("coherence: every related document is older than what links it.\n");
        return printed;
    }
    for stale in found {
        printed.stdout.push_str(&format!(
            "warning: {}: {}\n",
            stale.document(graph),
            message(stale, graph)
        ));
    }
    printed.stdout.push_str(&format!(
        "coherence: {} stale link{}.\n",
        found.len(),
        if found.len() == 1 { "" } else { "s" }
    ));
    printed
}

//! An in-memory cache of the loaded vault (graph, search index, plan
//! statuses) for one server, so repeated reads do not re-parse an unchanged
//! vault.
//!
//! The cache lives in memory only (nothing is written to the workspace). It
//! is valid while no file under `.vault/` changed: a [`watch::Watch`] on the
//! tree answers that without touching a file; when it saw anything (or
//! cannot watch), the [`fingerprint`] of every file decides, and a
//! fingerprint that differs reloads everything.
//!
//! Neither the watch nor the fingerprint follows a symlink. A `.vault` that
//! is itself a symlink is not watched, walked or cached: it is reported once
//! (naming it) and read afresh on every use.

mod fingerprint;
mod replies;
#[cfg(target_os = "linux")]
mod watch;

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

pub use fingerprint::fingerprint;
pub use replies::Replies;

use super::context::Context;
use vaultspec_vault::Storage;
use vaultspec_vault::graph::{self, Graph};
use vaultspec_vault::search::SearchIndex;
use vaultspec_vault::status::PlanStatuses;

/// A loaded vault: the graph, and what is derived from the same files on
/// first use.
pub struct Loaded {
    /// The document graph.
    pub graph: Graph,
    index: OnceLock<SearchIndex>,
    plans: OnceLock<PlanStatuses>,
    /// The replies of read-only tools made from this load.
    pub replies: Replies,
}

impl Loaded {
    /// The BM25 index over the graph's documents, built once.
    pub fn index(&self) -> &SearchIndex {
        self.index
            .get_or_init(|| SearchIndex::build(self.graph.docs()))
    }

    /// Every plan's status, read once from `storage` (the workspace the graph
    /// was loaded from).
    pub fn plans(&self, storage: &dyn Storage) -> &PlanStatuses {
        self.plans.get_or_init(|| PlanStatuses::read(storage))
    }
}

#[cfg(not(target_os = "linux"))]
mod watch {
    //! Without inotify every use of the cache takes the fingerprint.
    pub struct Watch;
    impl Watch {
        pub fn new() -> Option<Self> {
            None
        }
        pub fn arm(&self, _: &std::path::Path) -> std::io::Result<()> {
            Ok(())
        }
        pub fn quiet(&self) -> bool {
            false
        }
    }
}

#[derive(Default)]
struct State {
    /// The last load and the fingerprint it was taken at.
    last: Option<([u8; 32], Arc<Loaded>)>,
    /// Armed over `.vault/` before `last` was fingerprinted.
    watch: Option<watch::Watch>,
    /// Whether a symlinked `.vault` was reported already.
    link_reported: bool,
}

/// The last loaded vault, and how to tell it is still current.
#[derive(Default)]
pub struct VaultCache {
    state: Mutex<State>,
}

impl VaultCache {
    /// The loaded vault at `root`: the cached one while nothing under
    /// `.vault/` changed, else a fresh `load()`.
    ///
    /// Calls wait for each other here, so concurrent first calls load once.
    pub fn get<E>(
        &self,
        root: &Path,
        load: impl FnOnce() -> Result<Graph, E>,
    ) -> Result<Arc<Loaded>, E> {
        let mut state = self.state.lock().expect("cache lock poisoned");
        if let (Some(watch), Some((_, loaded))) = (&state.watch, &state.last)
            && watch.quiet()
        {
            return Ok(loaded.clone());
        }
        // Something may have changed. Arm the watch before taking the
        // fingerprint, so a change made after it is seen next time.
        let previous = state.last.take();
        let vault = root.join(".vault");
        if std::fs::symlink_metadata(&vault).is_ok_and(|m| m.file_type().is_symlink()) {
            // Never watched or walked: a link may lead anywhere on the
            // machine. Load afresh on every use instead of caching.
            if !state.link_reported {
                state.link_reported = true;
                tracing::warn!(
                    "`{}` is a symbolic link; the vault is not watched or cached, only read afresh on each use",
                    vault.display()
                );
            }
            state.watch = None;
            return Ok(Arc::new(Loaded {
                graph: load()?,
                index: OnceLock::new(),
                plans: OnceLock::new(),
                replies: Replies::default(),
            }));
        }
        let watch = state.watch.take().or_else(watch::Watch::new);
        state.watch = watch.filter(|w| {
            w.quiet();
            w.arm(&vault).is_ok()
        });
        let print = fingerprint(&vault);
        let loaded = match previous {
            Some((cached, loaded)) if cached == print => loaded,
            _ => Arc::new(Loaded {
                graph: load()?,
                index: OnceLock::new(),
                plans: OnceLock::new(),
                replies: Replies::default(),
            }),
        };
        state.last = Some((print, loaded.clone()));
        Ok(loaded)
    }
}

/// Build `discover`'s ranking index and load the vault of `context` (graph
/// and plan statuses) ahead of the first tool that needs them, on a thread
/// of their own; a tool that comes meanwhile waits for this work instead of
/// starting it again. A vault that does not load is left for the tools to
/// report.
pub fn preload(context: Arc<Context>) {
    let spawned = std::thread::Builder::new()
        .name("vaultspec-preload".into())
        .spawn(move || {
            context.catalog.discover_index();
            let Ok(storage) = context.storage() else {
                return;
            };
            match context
                .vault
                .get(context.workspace.root(), || graph::load_graph(&storage))
            {
                Ok(loaded) => {
                    loaded.plans(&storage);
                }
                Err(err) => tracing::debug!("the vault was not preloaded: {err}"),
            }
        });
    if let Err(err) = spawned {
        tracing::debug!("the vault was not preloaded: {err}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn load_count(cache: &VaultCache, root: &Path, loads: &Cell<usize>) -> Arc<Loaded> {
        cache
            .get(root, || {
                loads.set(loads.get() + 1);
                vaultspec_vault::graph::load_graph(
                    &vaultspec_vault::CapStorage::open(root).unwrap(),
                )
            })
            .unwrap()
    }

    #[test]
    fn reloads_exactly_when_a_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".vault/adr")).unwrap();
        std::fs::write(root.join(".vault/adr/2026-01-01-a-adr.md"), "one").unwrap();
        let cache = VaultCache::default();
        let loads = Cell::new(0);
        load_count(&cache, root, &loads);
        load_count(&cache, root, &loads);
        assert_eq!(loads.get(), 1, "an unchanged vault is loaded once");

        std::fs::write(root.join(".vault/adr/2026-01-01-a-adr.md"), "two").unwrap();
        load_count(&cache, root, &loads);
        assert_eq!(loads.get(), 2, "a write in place reloads");

        std::fs::create_dir_all(root.join(".vault/plan")).unwrap();
        load_count(&cache, root, &loads);
        assert_eq!(
            loads.get(),
            2,
            "an empty new folder holds no file: the fingerprint is unchanged"
        );
        std::fs::write(root.join(".vault/plan/2026-01-01-a-plan.md"), "x").unwrap();
        load_count(&cache, root, &loads);
        assert_eq!(
            loads.get(),
            3,
            "a file in a folder made after the first load reloads"
        );
        load_count(&cache, root, &loads);
        assert_eq!(loads.get(), 3);
    }
}

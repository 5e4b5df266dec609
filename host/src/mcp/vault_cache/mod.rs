//! An in-memory cache of the loaded vault (graph, search index, plan
//! statuses) for one server, so repeated reads do not re-parse an unchanged
//! vault, and a vault that changed is read again only where it changed.
//!
//! The cache lives in memory only (nothing is written to the workspace). It
//! is valid while no file under `.vault/` changed: a [`watch::Watch`] on the
//! tree answers that without touching a file. When it names the files that
//! changed, only they are looked at again ([`Survey::update`]); when it saw
//! something it cannot name (or cannot watch), a [`Survey`] of every file's
//! stamp decides. An unchanged survey keeps the load; otherwise only the
//! files whose stamp moved (or that were racy when last read, see
//! [`Survey`]) are read again; the rest keep the documents parsed before.
//! When the same files are there and no changed document's links moved,
//! the new documents are put in place in the graph; otherwise the graph is
//! built anew over them all.
//!
//! Neither the watch nor the survey follows a symlink. A `.vault` that
//! is itself a symlink is not watched, walked or cached: it is reported once
//! (naming it) and read afresh on every use.

mod loaded;
mod refresh;
mod replies;
#[cfg(target_os = "linux")]
pub(super) mod watch;

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

pub use crate::workspace::survey::fingerprint;
use crate::workspace::survey::{Survey, survey_entering};
pub use loaded::LoadedVault;
use refresh::{Since, refresh};
pub use replies::Replies;
use watch::Seen;

use super::context::ServerContext;
use vaultspec_vault::Storage;
use vaultspec_vault::checks::DocFindings;
use vaultspec_vault::graph::{self, LoadError, default_threads};

#[cfg(not(target_os = "linux"))]
pub(super) mod watch {
    //! Without inotify every use of the cache takes the survey.
    pub struct Watch;
    pub enum Seen {
        Nothing,
        Files(std::collections::BTreeSet<String>),
        Unknown,
    }
    impl Watch {
        pub fn new() -> Option<Self> {
            None
        }
        pub fn watch_dir(&mut self, _: &std::path::Path, _: Option<&str>) -> std::io::Result<()> {
            Ok(())
        }
        pub fn arm(&mut self, _: &std::path::Path, _: &str) -> std::io::Result<()> {
            Ok(())
        }
        pub fn wait(&self, _: std::time::Duration) -> bool {
            false
        }
        pub fn seen(&mut self) -> Seen {
            Seen::Unknown
        }
    }
}

#[derive(Default)]
struct State {
    /// The last load and the survey taken just before it.
    last: Option<(Survey, Arc<LoadedVault>)>,
    /// Armed over `.vault/` before `last` was surveyed.
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
    /// The loaded vault at `root`, read through `storage` (the workspace at
    /// `root`): the cached one while nothing under `.vault/` changed, else
    /// one that reads again only the files that changed.
    ///
    /// Calls wait for each other here, so concurrent first calls load once.
    pub fn get(&self, root: &Path, storage: &dyn Storage) -> Result<Arc<LoadedVault>, LoadError> {
        let mut state = self.state.lock().expect("cache lock poisoned");
        let state = &mut *state;
        let seen = match (&mut state.watch, &state.last) {
            (Some(watch), Some(_)) => watch.seen(),
            _ => Seen::Unknown,
        };
        if let (Seen::Nothing, Some((_, loaded))) = (&seen, &state.last) {
            return Ok(loaded.clone());
        }
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
            let read = graph::read_vault(storage, default_threads())?;
            return Ok(Arc::new(LoadedVault::new(read, DocFindings::default())));
        }
        // The watch named every file that changed: only those are looked at
        // again. Otherwise arm the watch before the survey, so a change made
        // after it is seen next time, and survey the whole tree.
        let (now, before) = match (seen, previous) {
            (Seen::Files(paths), Some((mut then, loaded))) => {
                let had: Vec<bool> = paths.iter().map(|p| then.stamps.contains_key(p)).collect();
                let racy = then.racy.clone();
                if then.update(&vault, &paths) {
                    let same_files = then.irregular == 0
                        && paths
                            .iter()
                            .zip(had)
                            .all(|(p, had)| then.stamps.contains_key(p) == had);
                    let mut maybe: BTreeSet<String> = racy.into_iter().collect();
                    maybe.extend(paths);
                    let since = Since::Named {
                        paths: maybe,
                        same_files,
                    };
                    (then, Some((since, loaded)))
                } else {
                    (state.resurvey(&vault), Some((Since::Survey(then), loaded)))
                }
            }
            (_, previous) => (
                state.resurvey(&vault),
                previous.map(|(then, loaded)| (Since::Survey(then), loaded)),
            ),
        };
        let loaded = refresh(&now, before, storage)?;
        state.last = Some((now, loaded.clone()));
        Ok(loaded)
    }
}

impl State {
    /// Arm the watch over `vault` (so a change made from now on is seen next
    /// time), then survey every file under it.
    fn resurvey(&mut self, vault: &Path) -> Survey {
        let mut watch = self.watch.take().or_else(watch::Watch::new);
        if let Some(watch) = &mut watch {
            watch.seen();
        }
        // One walk: each folder is watched before the survey lists it.
        let mut armed = watch.is_some();
        let now = survey_entering(vault, &mut |dir, relative| {
            if let (Some(watch), true) = (&mut watch, armed) {
                let name = std::str::from_utf8(relative)
                    .ok()
                    .map(|rest| format!(".vault{rest}"));
                armed = watch.watch_dir(dir, name.as_deref()).is_ok();
            }
        });
        self.watch = watch.filter(|_| armed);
        now
    }
}

/// Load the vault of `context` (graph and plan statuses), then make the
/// answer a first call most likely wants (`warm`), then build `discover`'s
/// ranking index, ahead of the first tool that needs them, on a thread of
/// their own; a tool that comes meanwhile waits for this work instead of
/// starting it again. A vault that does not load is left for the tools to
/// report. `then` runs last on the same thread: start-up work no call
/// waits for.
pub fn preload(
    context: Arc<ServerContext>,
    warm: fn(&ServerContext),
    then: impl FnOnce() + Send + 'static,
) {
    let spawned = std::thread::Builder::new()
        .name("vaultspec-preload".into())
        .spawn(move || {
            // The vault first: the hot tools wait for it, and a first call
            // comes sooner to them than to `discover`.
            if let Ok(storage) = context.storage() {
                match context.vault.get(context.workspace.root(), &storage) {
                    Ok(loaded) => {
                        loaded.plans(&storage);
                        drop(loaded);
                        warm(&context);
                    }
                    Err(err) => tracing::debug!("the vault was not preloaded: {err}"),
                }
            }
            context.gateway.index();
            then();
        });
    if let Err(err) = spawned {
        tracing::debug!("the vault was not preloaded: {err}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::survey::survey;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use vaultspec_vault::storage::FileEntry;
    use vaultspec_vault::{CapStorage, StorageError};

    /// A workspace that counts the files read through it.
    struct Counting {
        inner: CapStorage,
        reads: AtomicUsize,
    }

    impl Counting {
        fn open(root: &Path) -> Self {
            Self {
                inner: CapStorage::open(root).unwrap(),
                reads: AtomicUsize::new(0),
            }
        }
        fn reads(&self) -> usize {
            self.reads.swap(0, Ordering::SeqCst)
        }
    }

    impl Storage for Counting {
        fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
            self.reads.fetch_add(1, Ordering::SeqCst);
            self.inner.read(path)
        }
        fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
            self.inner.list(dir)
        }
        fn exists(&self, path: &str) -> Result<bool, StorageError> {
            self.inner.exists(path)
        }
        fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
            self.inner.write(path, bytes)
        }
        fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
            self.inner.rename(from, to)
        }
        fn remove(&self, path: &str) -> Result<(), StorageError> {
            self.inner.remove(path)
        }
    }

    /// Let every file written so far settle past the racy window, as if the
    /// last survey had been taken long after them.
    fn settle(cache: &VaultCache) {
        if let Some((survey, _)) = &mut cache.state.lock().unwrap().last {
            survey.racy.clear();
        }
    }

    fn write(root: &Path, path: &str, text: &str) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn reads_again_exactly_the_files_that_changed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, ".vault/adr/2026-01-01-a-adr.md", "one");
        write(
            root,
            ".vault/adr/2026-01-01-b-adr.md",
            "[[2026-01-01-a-adr]]",
        );
        let storage = Counting::open(root);
        let cache = VaultCache::default();
        cache.get(root, &storage).unwrap();
        assert_eq!(storage.reads(), 2, "the first load reads every file");
        #[cfg(target_os = "linux")]
        {
            // The survey's walk armed the watch on every folder it listed.
            write(root, ".vault/adr/2026-01-01-c-adr.md", "new");
            let seen = cache.state.lock().unwrap().watch.as_mut().unwrap().seen();
            let named = [".vault/adr/2026-01-01-c-adr.md".to_owned()];
            assert_eq!(seen, Seen::Files(named.into_iter().collect()));
            std::fs::remove_file(root.join(".vault/adr/2026-01-01-c-adr.md")).unwrap();
            cache.state.lock().unwrap().watch.as_mut().unwrap().seen();
        }
        settle(&cache);
        cache.get(root, &storage).unwrap();
        assert_eq!(storage.reads(), 0, "an unchanged vault is not read again");

        write(root, ".vault/adr/2026-01-01-a-adr.md", "two");
        let loaded = cache.get(root, &storage).unwrap();
        assert_eq!(storage.reads(), 1, "a write in place reads that file alone");
        assert_eq!(
            &*loaded.doc(".vault/adr/2026-01-01-a-adr.md").unwrap().text,
            "two"
        );
        assert!(loaded.graph.dangling_links().is_empty());
        settle(&cache);

        // A call still holds the load while a link is added: the next load
        // is built anew over copies, and the link is in its graph.
        write(root, ".vault/adr/2026-01-01-a-adr.md", "[[ghost]]");
        let next = cache.get(root, &storage).unwrap();
        assert_eq!(storage.reads(), 1);
        assert_eq!(next.graph.dangling_links().len(), 1, "a's link dangles");
        drop((loaded, next));
        settle(&cache);
        // Nobody holds it, and a link goes: the graph is built anew.
        write(root, ".vault/adr/2026-01-01-a-adr.md", "three");
        let loaded = cache.get(root, &storage).unwrap();
        assert_eq!(
            storage.reads(),
            2,
            "read in place, then again for the build"
        );
        assert!(loaded.graph.dangling_links().is_empty());
        settle(&cache);

        std::fs::create_dir_all(root.join(".vault/plan")).unwrap();
        cache.get(root, &storage).unwrap();
        assert_eq!(storage.reads(), 0, "an empty new folder holds no file");
        settle(&cache);
        write(root, ".vault/plan/2026-01-01-a-plan.md", "x");
        let loaded = cache.get(root, &storage).unwrap();
        assert_eq!(storage.reads(), 1, "a new file in a new folder is read");
        assert_eq!(loaded.graph.docs().len(), 3);
        settle(&cache);

        std::fs::remove_file(root.join(".vault/adr/2026-01-01-a-adr.md")).unwrap();
        let loaded = cache.get(root, &storage).unwrap();
        assert_eq!(storage.reads(), 0, "a removal reads nothing");
        assert_eq!(loaded.graph.docs().len(), 2);
        assert_eq!(
            loaded.graph.dangling_links().len(),
            1,
            "b's link now dangles"
        );
    }

    #[test]
    fn findings_are_kept_for_every_document_that_reads_as_before() {
        use std::borrow::Cow;
        use vaultspec_vault::Date;
        use vaultspec_vault::checks::{Options, Snapshot};

        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, ".vault/adr/2026-01-01-a-adr.md", "one");
        write(root, ".vault/adr/2026-01-01-b-adr.md", "two");
        let storage = Counting::open(root);
        let cache = VaultCache::default();
        let opts = Options::check(Date::new(2026, 12, 5).unwrap());
        let loaded = cache.get(root, &storage).unwrap();
        let snap = Snapshot::of(
            &storage,
            Cow::Borrowed(&loaded.graph),
            Cow::Borrowed(&loaded.listing),
        );
        loaded
            .findings
            .lock()
            .unwrap()
            .check_all(&snap, &opts)
            .unwrap();
        drop(snap);
        drop(loaded);
        storage.reads();

        // Both files are racy still: b is read again with a, reads as it
        // did, and keeps what was found about it.
        write(root, ".vault/adr/2026-01-01-a-adr.md", "three");
        let loaded = cache.get(root, &storage).unwrap();
        assert_eq!(storage.reads(), 2, "a changed, b was racy");
        let kept = loaded.findings.lock().unwrap().kept();
        assert_eq!(kept, 1, "b's findings are kept, a's forgotten");
        assert_eq!(&*loaded.graph.docs()[0].text, "three", "a was read again");
    }

    #[test]
    fn plan_statuses_and_stale_links_carried_over_equal_fresh_ones() {
        use vaultspec_vault::CapStorage;
        use vaultspec_vault::status::PlanStatuses;
        use vaultspec_vault::testgen::XorShift;

        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let doc = |kind: &str, stem: &str, day: u32, related: &[&str], body: &str| {
            let related: String = related.iter().map(|r| format!("  - '[[{r}]]'\n")).collect();
            let path = match kind {
                "exec" => format!(".vault/exec/2026-01-01-a/{stem}.md"),
                _ => format!(".vault/{kind}/{stem}.md"),
            };
            write(
                root,
                &path,
                &format!(
                    "---\ntags:\n  - '#{kind}'\n  - '#a'\ndate: '2026-01-01'\nmodified: '2026-01-{day:02}'\ntier: L2\nrelated:\n{related}---\n\n# t\n\n{body}"
                ),
            );
            path
        };
        let steps = "## Steps\n\n### Phase `P01` - one\n\nWork.\n\n- [ ] `P01.S01` - a; `x`.\n- [x] `P01.S02` - b; `y`.\n- [ ] `P01.S03` - c; `z`.\n";
        let paths = [
            doc("adr", "2026-01-01-a-adr", 3, &[], "Chosen.\n"),
            doc("research", "2026-01-01-a-research", 2, &[], "Found.\n"),
            doc(
                "plan",
                "2026-01-01-a-plan",
                4,
                &["2026-01-01-a-adr", "2026-01-01-a-research"],
                steps,
            ),
            doc(
                "plan",
                "2026-01-01-a-two-plan",
                5,
                &["2026-01-01-a-adr"],
                steps,
            ),
            doc(
                "exec",
                "2026-01-01-a-ledger",
                6,
                &["2026-01-01-a-plan"],
                "## Changes\n\n- `S02` `A` `src/y.rs`\n",
            ),
            doc(
                "adr",
                "2026-01-01-a-b-adr",
                7,
                &["2026-01-01-a-adr"],
                "Also.\n",
            ),
        ];
        let storage = CapStorage::open(root).unwrap();
        let cache = VaultCache::default();
        let mut numbers = XorShift::new(0x51a1e);
        let mut stale_seen = 0;
        for step in 0..80 {
            let loaded = cache.get(root, &storage).unwrap();
            // Not every load is asked: what changed piles up between asks.
            if numbers.below(3) != 0 {
                let kept = loaded.stale(root, &storage);
                let fresh = crate::coherence::find(root, &storage, &loaded.graph, None);
                assert_eq!(kept.stale, fresh.stale, "stale links at step {step}");
                stale_seen += fresh.stale.len();
                assert_eq!(
                    loaded.plans(&storage).entries(),
                    PlanStatuses::read(&storage).entries(),
                    "plan statuses at step {step}"
                );
            }
            drop(loaded);
            settle(&cache);
            // An edit in place: the links stay, so the load is renewed.
            let path = &paths[numbers.below(paths.len())];
            let text = std::fs::read_to_string(root.join(path)).unwrap();
            let text = match numbers.below(3) {
                0 => {
                    let at = text.find("modified: '2026-01-").unwrap() + 19;
                    let day = format!("{:02}", 1 + numbers.below(28));
                    format!("{}{day}{}", &text[..at], &text[at + 2..])
                }
                1 if text.contains("- [ ]") && numbers.below(2) == 0 => {
                    text.replacen("- [ ]", "- [x]", 1)
                }
                1 => text.replacen("- [x]", "- [ ]", 1),
                _ => format!("{text}- `S0{}` `M` `src/x.rs`\n", 1 + numbers.below(3)),
            };
            write(root, path, &text);
        }
        assert!(
            stale_seen > 0,
            "no link was ever stale: the test tests nothing"
        );
    }

    #[test]
    fn a_kept_listing_follows_the_sizes_and_the_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let a = ".vault/adr/2026-01-01-a-adr.md";
        write(root, a, "one");
        let storage = Counting::open(root);
        let cache = VaultCache::default();
        cache.get(root, &storage).unwrap();
        settle(&cache);
        let size = |loaded: &LoadedVault, path: &str| {
            loaded
                .listing
                .iter()
                .find(|e| e.path == path)
                .map(|e| e.size)
        };
        write(root, a, "a longer text");
        let loaded = cache.get(root, &storage).unwrap();
        assert_eq!(size(&loaded, a), Some(13), "the edited file's new size");
        assert_eq!(loaded.listing, storage.list(".vault").unwrap());
        settle(&cache);
        write(root, ".vault/adr/notes.txt", "x");
        let loaded = cache.get(root, &storage).unwrap();
        assert_eq!(
            size(&loaded, ".vault/adr/notes.txt"),
            Some(1),
            "a new file is listed"
        );
    }

    #[test]
    fn a_file_racy_when_read_is_read_again_though_its_stamp_held() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, ".vault/adr/2026-01-01-a-adr.md", "one");
        let storage = Counting::open(root);
        let vault = root.join(".vault");
        let then = survey(&vault);
        assert!(then.racy.contains(".vault/adr/2026-01-01-a-adr.md"));
        let first = refresh(&then, None, &storage).unwrap();

        // A same-size edit within one tick of the clock leaves the stamp as
        // it was: the survey after it is the survey before it.
        write(root, ".vault/adr/2026-01-01-a-adr.md", "two");
        let now = then.clone();
        let text = |loaded: &LoadedVault| {
            loaded
                .doc(".vault/adr/2026-01-01-a-adr.md")
                .unwrap()
                .text
                .to_string()
        };
        let racy = refresh(
            &now,
            Some((Since::Survey(then.clone()), first.clone())),
            &storage,
        )
        .unwrap();
        assert_eq!(text(&racy), "two", "the racy file was read again");

        // Had it settled before it was read, the stamp would vouch for it
        // (which is why a file is trusted only once it settled).
        let mut settled = then.clone();
        settled.racy.clear();
        let trusted = refresh(
            &now,
            Some((Since::Survey(settled), first.clone())),
            &storage,
        )
        .unwrap();
        assert_eq!(text(&trusted), "one");
    }
}

//! Bringing a kept load up to date with the files now: kept as it is while
//! nothing moved, changed in place when the same files are there and no
//! changed document's links moved, else built anew over the documents that
//! still hold and those read again.

use std::collections::BTreeSet;
use std::sync::Arc;

use vaultspec_vault::Storage;
use vaultspec_vault::checks::DocFindings;
use vaultspec_vault::graph::{self, Graph, GraphDoc, LoadError, default_threads};
use vaultspec_vault::storage::FileEntry;

use super::LoadedVault;
use crate::workspace::survey::Survey;

/// What may differ between the files a load was read from and the files
/// now.
pub(super) enum Since {
    /// Only `paths` may differ: the files the watch named and those that
    /// were racy when last read. `same_files` when none came or went.
    Named {
        paths: BTreeSet<String>,
        same_files: bool,
    },
    /// Any file may: this is the survey taken before the load, to compare.
    Survey(Survey),
}

impl Since {
    /// Whether what was read of the file at `path` still holds by `now`.
    fn unchanged(&self, now: &Survey, path: &str) -> bool {
        match self {
            Since::Named { paths, .. } => !paths.contains(path),
            Since::Survey(then) => now.unchanged_since(then, path),
        }
    }

    /// Whether `now` has the same files, by path, all regular.
    fn same_files(&self, now: &Survey) -> bool {
        match self {
            Since::Named { same_files, .. } => *same_files,
            Since::Survey(then) => now.same_files_as(then),
        }
    }

    /// Every file (of the same files `now` has) that may have changed,
    /// in the corpus or not.
    fn changed_files(&self, now: &Survey) -> BTreeSet<String> {
        match self {
            Since::Named { paths, .. } => paths.clone(),
            Since::Survey(_) => now
                .stamps
                .keys()
                .filter(|p| !self.unchanged(now, p))
                .cloned()
                .collect(),
        }
    }

    /// The corpus documents of `graph` whose files may have changed.
    fn changed_docs(&self, now: &Survey, graph: &Graph) -> Vec<String> {
        match self {
            Since::Named { paths, .. } => {
                let docs = graph.docs();
                paths
                    .iter()
                    .filter(|p| graph::position(docs, p).is_some())
                    .cloned()
                    .collect()
            }
            Since::Survey(_) => graph
                .docs()
                .iter()
                .filter(|d| !self.unchanged(now, &d.path))
                .map(|d| d.path.clone())
                .collect(),
        }
    }
}

/// The load that holds by the survey `now`, given the `previous` load and
/// what may have changed since it was read: the previous one if nothing
/// moved, else one that reads again only what `now` cannot vouch for.
pub(super) fn refresh(
    now: &Survey,
    previous: Option<(Since, Arc<LoadedVault>)>,
    storage: &dyn Storage,
) -> Result<Arc<LoadedVault>, LoadError> {
    let Some((since, loaded)) = previous else {
        let read = match now.listing() {
            Some(listing) => {
                graph::read_vault_listed(storage, default_threads(), listing, &mut |_| None)?
            }
            None => graph::read_vault(storage, default_threads())?,
        };
        return Ok(Arc::new(LoadedVault::new(read, DocFindings::default())));
    };
    if let Since::Survey(then) = &since
        && still_current(now, then, &loaded, storage)
    {
        return Ok(loaded);
    }
    // No call holds the load and the same files are there: put the changed
    // documents in place, when their links stay as they were.
    let loaded = match Arc::try_unwrap(loaded) {
        Ok(mut owned) => {
            if since.same_files(now)
                && let Some(changed) = replaced_in_place(&mut owned, now, &since, storage)?
            {
                return Ok(Arc::new(owned.renewed(&changed)));
            }
            Arc::new(owned)
        }
        Err(shared) => shared,
    };
    let (mut previous, listing, mut findings) = Previous::take_apart(loaded);
    // While the same files are there, the listing holds but for the sizes
    // of those that changed; otherwise the survey has the new one.
    let listing = match since.same_files(now) {
        true => Some(resized(listing, now, &since)),
        false => now.listing(),
    };
    // The graph is built anew over every document; only the files whose
    // stamp moved, or that were racy when read, are read again.
    let mut read_again = Vec::new();
    let mut kept = |path: &str| {
        let doc = since
            .unchanged(now, path)
            .then(|| previous.take(path))
            .flatten()
            .filter(|d| d.problem.is_none());
        if doc.is_none() {
            read_again.push(path.to_owned());
        }
        doc
    };
    let read = match listing {
        Some(listing) => graph::read_vault_listed(storage, default_threads(), listing, &mut kept)?,
        None => graph::read_vault_keeping(storage, default_threads(), &mut kept)?,
    };
    // Findings carry over only for the documents kept as they were.
    for path in read_again {
        findings.forget(&path);
    }
    Ok(Arc::new(LoadedVault::new(read, findings)))
}

/// `listing`, of the same files `now` surveyed, with the sizes it found
/// for those that may have changed.
fn resized(mut listing: Vec<FileEntry>, now: &Survey, since: &Since) -> Vec<FileEntry> {
    let resize = |entry: &mut FileEntry| {
        if let Some(stamp) = now.stamps.get(&entry.path) {
            entry.size = u64::try_from(stamp[0]).unwrap_or(0);
        }
    };
    match since {
        // The few files named, found in the listing (sorted by path), not
        // every file of the vault asked whether it was named.
        Since::Named { paths, .. } => {
            for path in paths {
                if let Ok(at) = listing.binary_search_by(|e| e.path.as_str().cmp(path)) {
                    resize(&mut listing[at]);
                }
            }
        }
        Since::Survey(_) => listing
            .iter_mut()
            .filter(|entry| !since.unchanged(now, &entry.path))
            .for_each(resize),
    }
    listing
}

/// Bring `loaded` (of the same files as `now`, with what may differ
/// `since`) up to `now` without building its graph again: each document
/// that may have changed is read again and put in place of the one read
/// before. The paths of every file that may have changed (a file's time
/// may have moved while its text did not; a file outside the corpus may
/// be read by what is worked out from the load), or `None` when a
/// document's links changed: only a new build holds it then (the
/// documents put in place so far are among those read again).
fn replaced_in_place(
    loaded: &mut LoadedVault,
    now: &Survey,
    since: &Since,
    storage: &dyn Storage,
) -> Result<Option<BTreeSet<String>>, LoadError> {
    // A file with a problem is read again whether or not it changed.
    let mut changed = since.changed_docs(now, &loaded.graph);
    changed.extend(loaded.graph.problems().map(|d| d.path.clone()));
    changed.sort_unstable();
    changed.dedup();
    let mut moved = Vec::with_capacity(changed.len());
    for path in &changed {
        let doc = graph::read_doc(storage, path)?;
        // A file read again because it was racy may read as it did: what
        // was found about it holds.
        if loaded.doc(path) == Some(&doc) {
            continue;
        }
        if !loaded.graph.replace(doc) {
            return Ok(None);
        }
        moved.push(path);
    }
    let findings = loaded.findings.get_mut().expect("findings lock poisoned");
    for path in moved {
        findings.forget(path);
    }
    loaded.listing = resized(std::mem::take(&mut loaded.listing), now, since);
    let mut touched = since.changed_files(now);
    touched.extend(changed);
    Ok(Some(touched))
}

/// The documents of the load before, to carry into the next one.
enum Previous {
    /// No call holds the load any more: its documents (in path order) move
    /// into the next one instead of being copied.
    Owned(Vec<GraphDoc>),
    /// A call still reads it: the documents kept are copies.
    Shared(Arc<LoadedVault>),
}

impl Previous {
    /// The documents of `loaded`, its listing and its findings.
    fn take_apart(loaded: Arc<LoadedVault>) -> (Previous, Vec<FileEntry>, DocFindings) {
        match Arc::try_unwrap(loaded) {
            Ok(loaded) => {
                let (graph, listing, findings) = loaded.into_parts();
                (Previous::Owned(graph.into_docs()), listing, findings)
            }
            Err(shared) => {
                let findings =
                    std::mem::take(&mut *shared.findings.lock().expect("findings lock poisoned"));
                let listing = shared.listing.clone();
                (Previous::Shared(shared), listing, findings)
            }
        }
    }

    /// The document read before for the corpus file at `path`.
    fn take(&mut self, path: &str) -> Option<GraphDoc> {
        match self {
            Previous::Owned(docs) => graph::position(docs, path).map(|i| {
                // What stays behind keeps its path: the rest stay sorted.
                let stand_in = GraphDoc::from_text(&docs[i].path, "");
                std::mem::replace(&mut docs[i], stand_in)
            }),
            Previous::Shared(loaded) => loaded.doc(path).cloned(),
        }
    }
}

/// Whether `loaded` (read after the survey `then`) still holds by the
/// survey `now`: no file was added, removed or touched, and each file that
/// was racy when read reads the same again.
fn still_current(now: &Survey, then: &Survey, loaded: &LoadedVault, storage: &dyn Storage) -> bool {
    now.print.is_some()
        && now.print == then.print
        && then.racy.iter().all(|path| match loaded.doc(path) {
            // Outside the corpus (the archive, other files) the load holds
            // only names and sizes, which the fingerprint covers.
            None => true,
            Some(doc) => storage
                .read(path)
                .is_ok_and(|bytes| GraphDoc::from_vec(path, bytes) == *doc),
        })
}

//! Results a verb kept for single files of `.vault/` (`kept-results`): what
//! one call may recall from earlier runs, and what it asks to keep.
//!
//! A result stands for the bytes of one file, so it may be given back only
//! while that file is what it was. Each is stored with the file's
//! [`Stamp`] (size, modification and change times, inode) and given back
//! only when the walk before the call saw the same stamp on a file that was
//! *settled* then: unchanged for [`RACY`](crate::workspace::survey::RACY),
//! since a same-size edit within one clock tick leaves a stamp as it was.
//! A new result is taken only for a settled file the call read, and stored
//! only if the file still has its stamp when the call has ended
//! ([`KeptResults::settle`]): the host vouches for nothing it did not see.
//!
//! A verb that asks for more than [`MAX_VALUE`] bytes, a kind longer than
//! [`MAX_KIND`] or more than [`MAX_KINDS`] kinds for one file is not
//! refused; the extra is dropped. What the host holds for the call is
//! charged against the call's held budget like the paths it is handed.

use std::collections::BTreeMap;
use std::sync::Arc;

use vaultspec_vault::storage::FileEntry;

use crate::workspace::survey::Stamp;

/// The largest result kept for one file under one kind.
pub const MAX_VALUE: usize = 4096;
/// The longest kind.
pub const MAX_KIND: usize = 64;
/// Kinds kept for one file; past them, a file's later kinds are dropped.
pub const MAX_KINDS: usize = 4;

/// One kept result: what a verb worked out under `kind` from the file at
/// `path` when the file had `stamp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptEntry {
    /// Workspace-relative path (`.vault/adr/x.md`).
    pub path: String,
    /// The verb's name for what it kept.
    pub kind: String,
    /// The file's stamp when it was read.
    pub stamp: Stamp,
    /// The verb's bytes.
    pub value: Vec<u8>,
}

impl KeptEntry {
    fn key(&self) -> (&str, &str) {
        (&self.path, &self.kind)
    }
}

/// The results of earlier runs: read from where they are kept on first use
/// (most calls never recall or keep anything), then sorted by path and kind.
enum Earlier {
    Unread(Box<dyn FnOnce() -> Vec<KeptEntry> + Send>),
    Read(Vec<KeptEntry>),
}

impl Earlier {
    fn get(&mut self) -> &mut Vec<KeptEntry> {
        if let Earlier::Unread(_) = self {
            let Earlier::Unread(read) = std::mem::replace(self, Earlier::Read(Vec::new())) else {
                unreachable!("matched just above");
            };
            let mut earlier = read();
            earlier.sort_unstable_by(|a, b| a.key().cmp(&b.key()));
            earlier.dedup_by(|a, b| a.key() == b.key());
            *self = Earlier::Read(earlier);
        }
        match self {
            Earlier::Read(earlier) => earlier,
            Earlier::Unread(_) => unreachable!("read just above"),
        }
    }
}

impl std::fmt::Debug for Earlier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Earlier::Unread(_) => f.write_str("Unread"),
            Earlier::Read(earlier) => write!(f, "Read({} results)", earlier.len()),
        }
    }
}

/// One call's kept results: those of earlier runs it may recall, and those
/// it asked to keep.
#[derive(Debug)]
pub struct KeptResults {
    /// `.vault/` as the walk before the call listed it, by path.
    files: Arc<Vec<FileEntry>>,
    /// Each file's stamp, where it was settled.
    settled: Vec<Option<Stamp>>,
    /// Which of `files` the call read, and where the next read is looked
    /// for first (a verb reads a folder in listing order).
    read: Vec<bool>,
    next_read: usize,
    /// Results of earlier runs.
    earlier: Earlier,
    /// Results asked for and given back, for the log.
    recalls: (usize, usize),
    /// Results this call asked to keep, by the file's place in `files` and
    /// kind, with the file's stamp.
    fresh: BTreeMap<(usize, String), (Stamp, Vec<u8>)>,
}

impl KeptResults {
    /// A call's kept results over the listing walked before it (`files`,
    /// shared with the call's first listing of `.vault`, and the stamp of
    /// each settled one) and what earlier runs kept, as `earlier` reads it
    /// when the call first recalls or keeps.
    pub fn new(
        files: Arc<Vec<FileEntry>>,
        settled: Vec<Option<Stamp>>,
        earlier: impl FnOnce() -> Vec<KeptEntry> + Send + 'static,
    ) -> Self {
        assert_eq!(files.len(), settled.len(), "a stamp or none per file");
        Self {
            read: vec![false; files.len()],
            next_read: 0,
            settled,
            files,
            earlier: Earlier::Unread(Box::new(earlier)),
            recalls: (0, 0),
            fresh: BTreeMap::new(),
        }
    }

    /// The place of `path` in the listing.
    fn at(&self, path: &str) -> Option<usize> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
    }

    /// The stamp of the settled file at `path`.
    fn settled(&self, path: &str) -> Option<Stamp> {
        self.settled[self.at(path)?]
    }

    /// What earlier runs kept under `kind` for each of `paths`, for the
    /// files unchanged since.
    ///
    /// Paths asked in listing order (as a verb asks for a whole folder)
    /// are each found by one comparison after the last one found; any
    /// other is searched for.
    pub fn recall(&mut self, kind: &str, paths: &[String]) -> Vec<Option<Vec<u8>>> {
        // Where the next path and its result are looked for first.
        let (mut next_file, mut next_entry) = (0, 0);
        let earlier = self.earlier.get();
        let given: Vec<Option<Vec<u8>>> = paths
            .iter()
            .map(|path| {
                let file = next_or_search(&self.files, next_file, |f| f.path.as_str().cmp(path))?;
                next_file = file + 1;
                let stamp = self.settled[file]?;
                let entry = next_or_search(earlier, next_entry, |e| e.key().cmp(&(path, kind)))?;
                next_entry = entry + 1;
                let kept = &earlier[entry];
                (kept.stamp == stamp).then(|| kept.value.clone())
            })
            .collect();
        self.recalls.0 += paths.len();
        self.recalls.1 += given.iter().flatten().count();
        given
    }

    /// Results asked for so far, and how many were given back.
    pub fn recalls(&self) -> (usize, usize) {
        self.recalls
    }

    /// The call read the file at `path`.
    pub fn note_read(&mut self, path: &str) {
        let found = next_or_search(&self.files, self.next_read, |f| f.path.as_str().cmp(path));
        if let Some(at) = found {
            self.read[at] = true;
            self.next_read = at + 1;
        }
    }

    /// Take `value` for the file at `path` when the rules allow it (see the
    /// module's docs); a later value of the same kind replaces it.
    pub fn keep(&mut self, kind: String, path: &str, value: Vec<u8>) {
        if kind.len() > MAX_KIND || value.len() > MAX_VALUE {
            return;
        }
        let Some(at) = self.at(path) else { return };
        let Some(stamp) = self.settled[at].filter(|_| self.read[at]) else {
            return;
        };
        let kinds = self
            .fresh
            .range((at, String::new())..(at + 1, String::new()));
        let (count, same) = kinds.fold((0, false), |(n, same), ((_, k), _)| {
            (n + 1, same || *k == kind)
        });
        if same || count < MAX_KINDS {
            self.fresh.insert((at, kind), (stamp, value));
        }
    }

    /// What to store once the call has ended: this call's results whose
    /// files still have the stamp they were read with (`now` gives a file's
    /// stamp as it is now, `None` for anything but a plain file), and the
    /// earlier ones whose files the call found unchanged, at most
    /// [`MAX_KINDS`] per file, sorted. `None` when the call added nothing.
    pub fn settle(&mut self, now: impl Fn(&str) -> Option<Stamp>) -> Option<Vec<KeptEntry>> {
        let mut fresh: Vec<KeptEntry> = std::mem::take(&mut self.fresh)
            .into_iter()
            .map(|((at, kind), (stamp, value))| KeptEntry {
                path: self.files[at].path.clone(),
                kind,
                stamp,
                value,
            })
            .filter(|e| now(&e.path) == Some(e.stamp))
            .collect();
        if fresh.is_empty() {
            return None;
        }
        // This call's first: the stable sort keeps them ahead of an earlier
        // result of the same file and kind, which `dedup` then drops.
        let earlier = std::mem::take(self.earlier.get());
        fresh.extend(
            earlier
                .into_iter()
                .filter(|e| self.settled(&e.path) == Some(e.stamp)),
        );
        fresh.sort_by(|a, b| a.key().cmp(&b.key()));
        fresh.dedup_by(|a, b| a.key() == b.key());
        let mut kinds = 0;
        let mut last: Option<String> = None;
        fresh.retain(|e| {
            if last.as_deref() != Some(e.path.as_str()) {
                last = Some(e.path.clone());
                kinds = 0;
            }
            kinds += 1;
            kinds <= MAX_KINDS
        });
        Some(fresh)
    }
}

/// The place in `items` (sorted) where `order` finds equal: `at` when it is
/// there, else searched for; a walk in order that asks for the place after
/// the last one costs one comparison a step.
fn next_or_search<T>(
    items: &[T],
    at: usize,
    order: impl Fn(&T) -> std::cmp::Ordering,
) -> Option<usize> {
    match items.get(at).map(&order) {
        Some(std::cmp::Ordering::Equal) => Some(at),
        _ => items.binary_search_by(order).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: Stamp = [3, 100, 0, 100, 0, 7];
    const NEW: Stamp = [4, 200, 0, 200, 0, 7];

    /// A listing of `files`, given in path order as a walk lists them.
    fn listed(files: &[(&str, Option<Stamp>)]) -> (Arc<Vec<FileEntry>>, Vec<Option<Stamp>>) {
        assert!(files.is_sorted_by_key(|(path, _)| *path));
        let entries = files
            .iter()
            .map(|(path, _)| FileEntry {
                path: (*path).to_owned(),
                size: 3,
            })
            .collect();
        (Arc::new(entries), files.iter().map(|(_, s)| *s).collect())
    }

    fn entry(path: &str, kind: &str, stamp: Stamp, value: &str) -> KeptEntry {
        KeptEntry {
            path: path.to_owned(),
            kind: kind.to_owned(),
            stamp,
            value: value.as_bytes().to_vec(),
        }
    }

    fn strings(paths: &[&str]) -> Vec<String> {
        paths.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn a_result_comes_back_only_for_a_settled_file_of_the_same_stamp() {
        let (files, settled) = listed(&[
            (".vault/adr/edited.md", Some(NEW)),
            (".vault/adr/racy.md", None),
            (".vault/adr/same.md", Some(OLD)),
        ]);
        let earlier = vec![
            entry(".vault/adr/same.md", "row", OLD, "same"),
            entry(".vault/adr/edited.md", "row", OLD, "stale"),
            entry(".vault/adr/racy.md", "row", OLD, "unsure"),
            entry(".vault/adr/gone.md", "row", OLD, "gone"),
        ];
        let mut kept = KeptResults::new(files, settled, move || earlier);
        let asked = strings(&[
            ".vault/adr/same.md",
            ".vault/adr/edited.md",
            ".vault/adr/racy.md",
            ".vault/adr/gone.md",
        ]);
        assert_eq!(
            kept.recall("row", &asked),
            vec![Some(b"same".to_vec()), None, None, None]
        );
        assert_eq!(kept.recall("other", &asked), vec![None; 4], "by kind");
        // In any order, and asked twice over.
        let mixed = strings(&[
            ".vault/adr/gone.md",
            ".vault/adr/same.md",
            ".vault/adr/edited.md",
            ".vault/adr/same.md",
            ".vault/adr/same.md",
        ]);
        let same = Some(b"same".to_vec());
        assert_eq!(
            kept.recall("row", &mixed),
            vec![None, same.clone(), None, same.clone(), same]
        );
    }

    #[test]
    fn only_what_the_call_read_of_a_settled_file_still_the_same_is_stored() {
        let (files, settled) = listed(&[
            (".vault/a.md", Some(OLD)),
            (".vault/b.md", Some(OLD)),
            (".vault/c.md", None),
            (".vault/d.md", Some(OLD)),
            (".vault/e.md", Some(OLD)),
        ]);
        let earlier = vec![
            entry(".vault/d.md", "row", OLD, "kept before"),
            entry(".vault/e.md", "row", NEW, "stale"),
        ];
        let mut kept = KeptResults::new(files, settled, move || earlier);
        for path in [".vault/a.md", ".vault/c.md", ".vault/e.md"] {
            kept.note_read(path);
        }
        kept.keep("row".into(), ".vault/a.md", b"a1".to_vec());
        kept.keep("row".into(), ".vault/a.md", b"a2".to_vec());
        // Not read, racy, outside the listing, too large, kind too long.
        kept.keep("row".into(), ".vault/b.md", b"b".to_vec());
        kept.keep("row".into(), ".vault/c.md", b"c".to_vec());
        kept.keep("row".into(), ".vault/z.md", b"z".to_vec());
        kept.keep("big".into(), ".vault/a.md", vec![0; MAX_VALUE + 1]);
        kept.keep("k".repeat(MAX_KIND + 1), ".vault/a.md", b"a".to_vec());
        // Read, then changed during the call: not stored.
        kept.keep("row".into(), ".vault/e.md", b"e".to_vec());
        let stored = kept
            .settle(|path| (path != ".vault/e.md").then_some(OLD))
            .expect("something new was kept");
        assert_eq!(
            stored,
            vec![
                entry(".vault/a.md", "row", OLD, "a2"),
                entry(".vault/d.md", "row", OLD, "kept before"),
            ]
        );
    }

    #[test]
    fn a_file_keeps_at_most_its_kinds_and_a_call_that_added_nothing_stores_nothing() {
        let (files, settled) = listed(&[(".vault/a.md", Some(OLD))]);
        let mut kept = KeptResults::new(files.clone(), settled.clone(), Vec::new);
        kept.note_read(".vault/a.md");
        for kind in ["k1", "k2", "k3", "k4", "k5"] {
            kept.keep(kind.into(), ".vault/a.md", kind.as_bytes().to_vec());
        }
        let stored = kept.settle(|_| Some(OLD)).unwrap();
        let kinds: Vec<&str> = stored.iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(kinds, ["k1", "k2", "k3", "k4"]);

        let mut again = KeptResults::new(files, settled, move || stored);
        assert_eq!(again.settle(|_| Some(OLD)), None);
    }
}

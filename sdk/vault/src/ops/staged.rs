//! A [`Storage`] that reads through to another and keeps every change in
//! memory, so code that writes as it goes (the fixers of `check --fix`, the
//! phases of `repair`) can be applied all or nothing by [`Staged::commit`].
//!
//! Reads see the staged changes: a fixer finds the files as the previous
//! fixer left them. Moves are kept as moves (a moved file is read from its
//! old place until commit), so a file is never read only to be moved.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::Change;
use crate::error::Result;
use crate::storage::{FileEntry, Storage, StorageError, check_path};

/// The staged state of one path.
#[derive(Debug, Clone)]
enum Entry {
    /// New bytes.
    Bytes(Vec<u8>),
    /// The unchanged bytes of the base's file at `from` (a move), of `size`.
    Moved { from: String, size: u64 },
    /// Removed (or moved away).
    Gone,
}

#[derive(Debug, Default)]
struct State {
    files: BTreeMap<String, Entry>,
    log: Vec<Change>,
}

/// Changes staged over a base storage (see the module docs).
pub struct Staged<'s> {
    base: &'s dyn Storage,
    state: Mutex<State>,
}

impl std::fmt::Debug for Staged<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Staged")
            .field("state", &self.state)
            .finish()
    }
}

fn mentions(c: &Change, path: &str) -> bool {
    match c {
        Change::Write { path: p, .. } | Change::Remove { path: p } => p == path,
        Change::Rename { from, to } => from == path || to == path,
    }
}

fn under(dir: &str, path: &str) -> bool {
    dir.is_empty()
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

impl<'s> Staged<'s> {
    /// Nothing staged yet over `base`.
    pub fn new(base: &'s dyn Storage) -> Staged<'s> {
        Staged {
            base,
            state: Mutex::default(),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().expect("staged storage lock poisoned")
    }

    /// The changes staged so far, in order (a file written twice in a row
    /// appears once, with its last bytes).
    pub fn changes(&self) -> Vec<Change> {
        self.state().log.clone()
    }

    /// Applies every staged change to the base, all or nothing
    /// ([`super::apply`]).
    pub fn commit(self) -> Result<()> {
        let log = std::mem::take(&mut self.state().log);
        super::apply(self.base, &log)
    }

    /// Stages one planned change.
    pub fn stage(&self, change: &Change) -> Result<(), StorageError> {
        match change {
            Change::Write { path, bytes } => self.write(path, bytes),
            Change::Rename { from, to } => self.rename(from, to),
            Change::Remove { path } => self.remove(path),
        }
    }

    fn size_in_base(&self, path: &str) -> Result<u64, StorageError> {
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        Ok(self
            .base
            .list(dir)?
            .into_iter()
            .find(|e| e.path == path)
            .map_or(0, |e| e.size))
    }
}

impl Storage for Staged<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        check_path(path)?;
        let entry = self.state().files.get(path).cloned();
        match entry {
            None => self.base.read(path),
            Some(Entry::Bytes(b)) => Ok(b),
            Some(Entry::Moved { from, .. }) => self.base.read(&from),
            Some(Entry::Gone) => Err(StorageError::NotFound {
                path: path.to_owned(),
            }),
        }
    }

    fn read_many(&self, paths: &[&str]) -> Vec<Result<Vec<u8>, StorageError>> {
        let untouched: Vec<&str> = {
            let st = self.state();
            paths
                .iter()
                .copied()
                .filter(|p| !st.files.contains_key(*p))
                .collect()
        };
        let mut from_base = self.base.read_many(&untouched).into_iter();
        let st_files: Vec<bool> = {
            let st = self.state();
            paths.iter().map(|p| st.files.contains_key(*p)).collect()
        };
        paths
            .iter()
            .zip(st_files)
            .map(|(p, staged)| {
                if staged {
                    self.read(p)
                } else {
                    from_base.next().expect("one base read per untouched path")
                }
            })
            .collect()
    }

    fn read_batches(
        &self,
        paths: &[&str],
        each: &mut dyn FnMut(usize, Vec<Result<Vec<u8>, StorageError>>),
    ) {
        if self.state().files.is_empty() {
            return self.base.read_batches(paths, each);
        }
        for (i, batch) in paths.chunks(crate::storage::READ_BATCH).enumerate() {
            each(i * crate::storage::READ_BATCH, self.read_many(batch));
        }
    }

    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        let mut out = self.base.list(dir)?;
        let st = self.state();
        out.retain(|e| !st.files.contains_key(&e.path));
        for (path, entry) in st.files.iter().filter(|(p, _)| under(dir, p)) {
            let size = match entry {
                Entry::Bytes(b) => b.len() as u64,
                Entry::Moved { size, .. } => *size,
                Entry::Gone => continue,
            };
            out.push(FileEntry {
                path: path.clone(),
                size,
            });
        }
        out.sort();
        Ok(out)
    }

    fn exists(&self, path: &str) -> Result<bool, StorageError> {
        check_path(path)?;
        let entry = self
            .state()
            .files
            .get(path)
            .map(|e| !matches!(e, Entry::Gone));
        match entry {
            Some(there) => Ok(there),
            None => self.base.exists(path),
        }
    }

    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        check_path(path)?;
        let mut st = self.state();
        if let Some(i) = st.log.iter().rposition(|c| mentions(c, path))
            && matches!(st.log[i], Change::Write { .. })
        {
            st.log.remove(i);
        }
        st.log.push(Change::Write {
            path: path.to_owned(),
            bytes: bytes.to_vec(),
        });
        st.files
            .insert(path.to_owned(), Entry::Bytes(bytes.to_vec()));
        Ok(())
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        check_path(from)?;
        check_path(to)?;
        if !self.exists(from)? {
            return Err(StorageError::NotFound {
                path: from.to_owned(),
            });
        }
        if self.exists(to)? {
            return Err(StorageError::AlreadyExists {
                path: to.to_owned(),
            });
        }
        let current = self.state().files.get(from).cloned();
        let moved = match current {
            Some(e) => e,
            None => Entry::Moved {
                from: from.to_owned(),
                size: self.size_in_base(from)?,
            },
        };
        let mut st = self.state();
        st.files.insert(to.to_owned(), moved);
        st.files.insert(from.to_owned(), Entry::Gone);
        st.log.push(Change::Rename {
            from: from.to_owned(),
            to: to.to_owned(),
        });
        Ok(())
    }

    fn remove(&self, path: &str) -> Result<(), StorageError> {
        if !self.exists(path)? {
            return Err(StorageError::NotFound {
                path: path.to_owned(),
            });
        }
        let mut st = self.state();
        st.files.insert(path.to_owned(), Entry::Gone);
        st.log.push(Change::Remove {
            path: path.to_owned(),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;

    #[test]
    fn reads_see_staged_changes_and_the_base_sees_none_until_commit() {
        let base = MemStorage::new();
        base.insert(".vault/a.md", "a");
        base.insert(".vault/b.md", "b");
        let staged = Staged::new(&base);
        staged.rename(".vault/a.md", ".vault/x/a.md").unwrap();
        staged.write(".vault/b.md", b"b1").unwrap();
        staged.write(".vault/b.md", b"b2").unwrap();
        staged.write(".vault/c.md", b"c").unwrap();
        staged.remove(".vault/c.md").unwrap();
        assert_eq!(staged.read(".vault/x/a.md").unwrap(), b"a");
        assert!(!staged.exists(".vault/a.md").unwrap());
        let listed: Vec<(String, u64)> = staged
            .list(".vault")
            .unwrap()
            .into_iter()
            .map(|e| (e.path, e.size))
            .collect();
        assert_eq!(
            listed,
            [
                (".vault/b.md".to_string(), 2),
                (".vault/x/a.md".to_string(), 1)
            ]
        );
        assert_eq!(
            staged.read_many(&[".vault/b.md", ".vault/a.md", ".vault/x/a.md"])[0],
            Ok(b"b2".to_vec())
        );
        let before = base.snapshot();
        assert_eq!(staged.changes().len(), 4, "b.md's two writes are one");
        assert_eq!(base.snapshot(), before);
        staged.commit().unwrap();
        let after = base.snapshot();
        assert_eq!(
            after.keys().collect::<Vec<_>>(),
            [".vault/b.md", ".vault/x/a.md"]
        );
        assert_eq!(after[".vault/b.md"], b"b2");
    }
}

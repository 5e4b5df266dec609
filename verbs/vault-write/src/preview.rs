//! A storage that keeps writes in memory, so operations without a dry-run
//! mode of their own can be previewed: reads see the pending writes, the
//! workspace sees nothing.

use std::collections::BTreeMap;
use std::sync::Mutex;

use vaultspec_sdk::vault::{FileEntry, Storage, StorageError};

/// The workspace plus the writes an operation would make.
pub struct Preview<'a> {
    inner: &'a dyn Storage,
    /// Pending files: `Some(bytes)` written, `None` removed.
    files: Mutex<BTreeMap<String, Option<Vec<u8>>>>,
}

impl<'a> Preview<'a> {
    /// A preview over `inner`, with nothing pending.
    pub fn new(inner: &'a dyn Storage) -> Self {
        Preview {
            inner,
            files: Mutex::new(BTreeMap::new()),
        }
    }

    fn pending(&self, path: &str) -> Option<Option<Vec<u8>>> {
        self.files.lock().expect("preview lock").get(path).cloned()
    }
}

impl Storage for Preview<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        match self.pending(path) {
            Some(Some(bytes)) => Ok(bytes),
            Some(None) => Err(StorageError::NotFound {
                path: path.to_owned(),
            }),
            None => self.inner.read(path),
        }
    }

    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        let files = self.files.lock().expect("preview lock");
        let mut out: Vec<FileEntry> = self
            .inner
            .list(dir)?
            .into_iter()
            .filter(|e| !files.contains_key(&e.path))
            .collect();
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{}/", dir.trim_end_matches('/'))
        };
        for (path, bytes) in files.iter() {
            if let Some(bytes) = bytes
                && path.starts_with(&prefix)
            {
                out.push(FileEntry {
                    path: path.clone(),
                    size: bytes.len() as u64,
                });
            }
        }
        out.sort();
        Ok(out)
    }

    fn exists(&self, path: &str) -> Result<bool, StorageError> {
        match self.pending(path) {
            Some(bytes) => Ok(bytes.is_some()),
            None => self.inner.exists(path),
        }
    }

    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        self.files
            .lock()
            .expect("preview lock")
            .insert(path.to_owned(), Some(bytes.to_vec()));
        Ok(())
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        if self.exists(to)? {
            return Err(StorageError::AlreadyExists {
                path: to.to_owned(),
            });
        }
        let bytes = self.read(from)?;
        let mut files = self.files.lock().expect("preview lock");
        files.insert(to.to_owned(), Some(bytes));
        files.insert(from.to_owned(), None);
        Ok(())
    }

    fn remove(&self, path: &str) -> Result<(), StorageError> {
        if !self.exists(path)? {
            return Err(StorageError::NotFound {
                path: path.to_owned(),
            });
        }
        self.files
            .lock()
            .expect("preview lock")
            .insert(path.to_owned(), None);
        Ok(())
    }
}

//! A storage that reads the workspace and keeps every write in memory, so a
//! model operation without a dry-run mode of its own can preview its outcome.

use std::collections::BTreeMap;
use std::sync::Mutex;

use vaultspec_sdk::vault::{FileEntry, Storage, StorageError};

/// Reads fall through to `inner` unless this run wrote or removed the path;
/// writes, renames and removes change only the in-memory overlay.
pub struct DryRun<'a> {
    inner: &'a dyn Storage,
    overlay: Mutex<BTreeMap<String, Option<Vec<u8>>>>,
}

impl<'a> DryRun<'a> {
    pub fn new(inner: &'a dyn Storage) -> Self {
        DryRun {
            inner,
            overlay: Mutex::new(BTreeMap::new()),
        }
    }

    fn get(&self, path: &str) -> Option<Option<Vec<u8>>> {
        self.overlay.lock().ok()?.get(path).cloned()
    }

    fn set(&self, path: &str, bytes: Option<Vec<u8>>) {
        if let Ok(mut o) = self.overlay.lock() {
            o.insert(path.to_string(), bytes);
        }
    }
}

impl Storage for DryRun<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        match self.get(path) {
            Some(Some(bytes)) => Ok(bytes),
            Some(None) => Err(StorageError::NotFound {
                path: path.to_string(),
            }),
            None => self.inner.read(path),
        }
    }

    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        let mut files: BTreeMap<String, u64> = self
            .inner
            .list(dir)?
            .into_iter()
            .map(|f| (f.path, f.size))
            .collect();
        let prefix = format!("{}/", dir.trim_end_matches('/'));
        if let Ok(o) = self.overlay.lock() {
            for (path, bytes) in o.iter().filter(|(p, _)| p.starts_with(&prefix)) {
                match bytes {
                    Some(b) => files.insert(path.clone(), b.len() as u64),
                    None => files.remove(path),
                };
            }
        }
        Ok(files
            .into_iter()
            .map(|(path, size)| FileEntry { path, size })
            .collect())
    }

    fn exists(&self, path: &str) -> Result<bool, StorageError> {
        match self.get(path) {
            Some(b) => Ok(b.is_some()),
            None => self.inner.exists(path),
        }
    }

    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        self.set(path, Some(bytes.to_vec()));
        Ok(())
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        let bytes = self.read(from)?;
        self.set(to, Some(bytes));
        self.set(from, None);
        Ok(())
    }

    fn remove(&self, path: &str) -> Result<(), StorageError> {
        self.set(path, None);
        Ok(())
    }
}

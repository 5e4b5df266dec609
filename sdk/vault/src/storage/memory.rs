//! An in-memory [`Storage`], for tests and for building a vault in one go.

use std::collections::BTreeMap;
use std::sync::RwLock;

use super::budget::ReadBudget;
use super::{FileEntry, Storage, StorageError, WriteScope, check_path};

/// Files held in a sorted map, with the same path, scope and read rules as
/// the real workspace.
#[derive(Debug)]
pub struct MemStorage {
    files: RwLock<BTreeMap<String, Vec<u8>>>,
    scope: WriteScope,
    budget: ReadBudget,
}

impl Default for MemStorage {
    fn default() -> Self {
        Self::new()
    }
}

impl MemStorage {
    /// An empty, writable storage.
    pub fn new() -> Self {
        Self {
            files: RwLock::default(),
            scope: WriteScope::Vault,
            budget: ReadBudget::default(),
        }
    }

    /// The same storage with a read budget for all reads from now on.
    pub fn with_read_budget(mut self, budget: u64) -> Self {
        self.budget = ReadBudget::new(Some(budget));
        self
    }

    /// The same storage, refusing every write.
    pub fn read_only(mut self) -> Self {
        self.scope = WriteScope::ReadOnly;
        self
    }

    /// The same storage, writing where `scope` allows.
    pub fn with_scope(mut self, scope: WriteScope) -> Self {
        self.scope = scope;
        self
    }

    /// Put a file in place without any scope check (to set up fixtures).
    pub fn insert(&self, path: &str, bytes: impl Into<Vec<u8>>) {
        self.files
            .write()
            .expect("storage lock poisoned")
            .insert(path.to_owned(), bytes.into());
    }

    /// A copy of every file, by path.
    pub fn snapshot(&self) -> BTreeMap<String, Vec<u8>> {
        self.files.read().expect("storage lock poisoned").clone()
    }
}

fn under(dir: &str, path: &str) -> bool {
    dir.is_empty()
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

impl Storage for MemStorage {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        check_path(path)?;
        let files = self.files.read().expect("storage lock poisoned");
        let bytes = files.get(path).ok_or_else(|| StorageError::NotFound {
            path: path.to_owned(),
        })?;
        self.budget.charge(path, bytes.len() as u64)?;
        Ok(bytes.clone())
    }

    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        check_path(dir)?;
        let files = self.files.read().expect("storage lock poisoned");
        Ok(files
            .iter()
            .filter(|(path, _)| under(dir, path))
            .map(|(path, bytes)| FileEntry {
                path: path.clone(),
                size: bytes.len() as u64,
            })
            .collect())
    }

    fn exists(&self, path: &str) -> Result<bool, StorageError> {
        check_path(path)?;
        Ok(self
            .files
            .read()
            .expect("storage lock poisoned")
            .contains_key(path))
    }

    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        self.scope.check(path)?;
        self.insert(path, bytes);
        Ok(())
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        self.scope.check(from)?;
        self.scope.check(to)?;
        let mut files = self.files.write().expect("storage lock poisoned");
        if files.contains_key(to) {
            return Err(StorageError::AlreadyExists {
                path: to.to_owned(),
            });
        }
        let bytes = files.remove(from).ok_or_else(|| StorageError::NotFound {
            path: from.to_owned(),
        })?;
        files.insert(to.to_owned(), bytes);
        Ok(())
    }

    fn remove(&self, path: &str) -> Result<(), StorageError> {
        self.scope.check(path)?;
        let mut files = self.files.write().expect("storage lock poisoned");
        files
            .remove(path)
            .map(drop)
            .ok_or_else(|| StorageError::NotFound {
                path: path.to_owned(),
            })
    }
}

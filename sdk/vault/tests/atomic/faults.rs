//! A storage wrapper that fails its Nth change (write, rename or remove),
//! either once (a full disk: later calls work again) or for good (a killed
//! process: that call and every later one fails, so nothing is rolled back).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use vaultspec_vault::{FileEntry, Storage, StorageError};

/// How the Nth change fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Only the Nth change fails, like a full disk or a refused permission.
    Once,
    /// The Nth change and every call after it fail, like a killed process.
    Kill,
}

/// Counts the changes made through it and fails the `at`th (1-based).
pub struct Faulty<'s> {
    inner: &'s dyn Storage,
    at: usize,
    fault: Fault,
    changes: AtomicUsize,
    dead: AtomicBool,
}

impl<'s> Faulty<'s> {
    /// Fails change number `at` of `inner` as `fault` says.
    pub fn new(inner: &'s dyn Storage, at: usize, fault: Fault) -> Self {
        Faulty {
            inner,
            at,
            fault,
            changes: AtomicUsize::new(0),
            dead: AtomicBool::new(false),
        }
    }

    /// Counts changes and never fails.
    pub fn counting(inner: &'s dyn Storage) -> Self {
        Faulty::new(inner, usize::MAX, Fault::Once)
    }

    /// How many changes were attempted.
    pub fn changes(&self) -> usize {
        self.changes.load(Ordering::SeqCst)
    }

    fn injected(path: &str) -> StorageError {
        StorageError::Io {
            op: "writing",
            path: path.to_owned(),
            message: "injected fault: no space left on device".to_owned(),
        }
    }

    fn alive(&self, path: &str) -> Result<(), StorageError> {
        if self.dead.load(Ordering::SeqCst) {
            return Err(Self::injected(path));
        }
        Ok(())
    }

    fn change(&self, path: &str) -> Result<(), StorageError> {
        self.alive(path)?;
        let n = self.changes.fetch_add(1, Ordering::SeqCst) + 1;
        if n == self.at {
            if self.fault == Fault::Kill {
                self.dead.store(true, Ordering::SeqCst);
            }
            return Err(Self::injected(path));
        }
        Ok(())
    }
}

impl Storage for Faulty<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        self.alive(path)?;
        self.inner.read(path)
    }
    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        self.alive(dir)?;
        self.inner.list(dir)
    }
    fn exists(&self, path: &str) -> Result<bool, StorageError> {
        self.alive(path)?;
        self.inner.exists(path)
    }
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        self.change(path)?;
        self.inner.write(path, bytes)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        self.change(from)?;
        self.inner.rename(from, to)
    }
    fn remove(&self, path: &str) -> Result<(), StorageError> {
        self.change(path)?;
        self.inner.remove(path)
    }
}

//! A storage double for the bad files a test cannot make on disk as root: a
//! file the listing holds but whose read fails (permission denied, a FIFO
//! or device the storage refuses to open). Everything else is the real
//! workspace.

use vaultspec_vault::{CapStorage, FileEntry, Storage, StorageError};

/// The real storage, plus one listed file whose every read fails.
pub struct Failing {
    /// The workspace.
    pub inner: CapStorage,
    /// The file that cannot be read.
    pub path: String,
    /// What the storage says when reading it.
    pub message: String,
}

impl Failing {
    fn error(&self) -> StorageError {
        StorageError::Io {
            op: "reading",
            path: self.path.clone(),
            message: self.message.clone(),
        }
    }
}

impl Storage for Failing {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        if path == self.path {
            Err(self.error())
        } else {
            self.inner.read(path)
        }
    }
    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        let mut all = self.inner.list(dir)?;
        if self.path.starts_with(&format!("{dir}/")) {
            all.push(FileEntry {
                path: self.path.clone(),
                size: 0,
            });
            all.sort();
        }
        Ok(all)
    }
    fn exists(&self, path: &str) -> Result<bool, StorageError> {
        Ok(path == self.path || self.inner.exists(path)?)
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

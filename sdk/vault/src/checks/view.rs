//! A read-only [`Storage`] over a [`Snapshot`] (or the graph and listing a
//! snapshot is made of): code written against the storage (the exec-ledger
//! mapping and the plan statuses read plans and ledgers themselves) sees
//! the bytes already in memory instead of going back to the disk, which for
//! a large vault costs more than the work itself.
//!
//! Only answers the snapshot is sure of are served from memory: corpus
//! files whose text is still their exact bytes, listings inside `.vault/`,
//! and files the listing holds. Everything else (a normalised file, a miss,
//! a path the storage would refuse) is asked of the storage, so errors and
//! edge cases stay the storage's own. Writes are refused.

use crate::graph::Graph;
use crate::storage::{FileEntry, Storage, StorageError, check_path};

use super::context::Snapshot;

/// A loaded vault seen as a read-only storage.
pub struct SnapshotStorage<'a> {
    storage: &'a dyn Storage,
    graph: &'a Graph,
    listing: &'a [FileEntry],
}

impl<'a> SnapshotStorage<'a> {
    /// A view of `snap`.
    pub fn new(snap: &'a Snapshot<'_>) -> SnapshotStorage<'a> {
        SnapshotStorage::over(snap.storage, &snap.graph, &snap.listing)
    }

    /// A view of `graph` and `listing`, read from `storage`, which answers
    /// what they do not hold.
    pub fn over(
        storage: &'a dyn Storage,
        graph: &'a Graph,
        listing: &'a [FileEntry],
    ) -> SnapshotStorage<'a> {
        SnapshotStorage {
            storage,
            graph,
            listing,
        }
    }

    /// The exact bytes of a corpus file, when the snapshot holds them.
    fn cached(&self, path: &str) -> Option<&[u8]> {
        let docs = self.graph.docs();
        let i = crate::graph::position(docs, path)?;
        let d = &docs[i];
        (d.has_text() && !d.normalized).then_some(d.text.as_bytes())
    }

    /// Whether the listing of `.vault/` holds `path`.
    fn listed(&self, path: &str) -> bool {
        self.listing
            .binary_search_by(|e| e.path.as_str().cmp(path))
            .is_ok()
    }
}

impl Storage for SnapshotStorage<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        match self.cached(path) {
            Some(bytes) => Ok(bytes.to_vec()),
            None => self.storage.read(path),
        }
    }

    fn known_blob(&self, path: &str) -> Option<String> {
        // Worked out once per document and kept with it across reloads;
        // `None` for exactly the documents `cached` does not serve.
        let docs = self.graph.docs();
        docs[crate::graph::position(docs, path)?].blob_oid()
    }

    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        check_path(dir)?;
        let inside = dir
            .strip_prefix(crate::doc::VAULT_DIR)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
        if !inside {
            return self.storage.list(dir);
        }
        let prefix = format!("{dir}/");
        Ok(self
            .listing
            .iter()
            .filter(|e| e.path.starts_with(&prefix))
            .cloned()
            .collect())
    }

    fn exists(&self, path: &str) -> Result<bool, StorageError> {
        if self.listed(path) {
            return Ok(true);
        }
        self.storage.exists(path)
    }

    fn write(&self, path: &str, _bytes: &[u8]) -> Result<(), StorageError> {
        Err(read_only(path))
    }

    fn rename(&self, from: &str, _to: &str) -> Result<(), StorageError> {
        Err(read_only(from))
    }

    fn remove(&self, path: &str) -> Result<(), StorageError> {
        Err(read_only(path))
    }
}

fn read_only(path: &str) -> StorageError {
    StorageError::InvalidPath {
        path: path.to_string(),
        reason: "the snapshot view is read-only".to_string(),
    }
}

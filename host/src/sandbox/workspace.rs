//! The host side of `vaultspec:verb/workspace-read` and `workspace-write`.
//!
//! Each call is answered by the call's [`CapStorage`], so the path rules,
//! the write scope and the read budgets of `vaultspec-vault` apply unchanged.

use vaultspec_vault::{Storage, StorageError};
use wasmtime::component::Resource;

use super::read_ahead::{MAX_IN_FLIGHT, PendingReads};
use super::state::CallState;

wasmtime::component::bindgen!({
    path: "../wit",
    world: "vaultspec:verb/capabilities",
    with: { "vaultspec:verb/workspace-read.pending-reads": crate::sandbox::read_ahead::PendingReads },
    imports: {
        "vaultspec:verb/workspace-read.read-ahead": trappable,
        "vaultspec:verb/workspace-read.[static]pending-reads.finish": trappable,
    },
});

use vaultspec::verb::workspace_read::{self, ErrorKind, FileEntry, FsError};
use vaultspec::verb::workspace_write;

pub use Capabilities as Bindings;

fn fs_error(err: StorageError) -> FsError {
    let kind = match &err {
        StorageError::NotFound { .. } => ErrorKind::NotFound,
        StorageError::TooLarge { .. } => ErrorKind::TooLarge,
        StorageError::BudgetExceeded { .. } | StorageError::WriteBudgetExceeded { .. } => ErrorKind::BudgetExceeded,
        StorageError::InvalidPath { .. } => ErrorKind::InvalidPath,
        StorageError::Outside { .. } => ErrorKind::Outside,
        StorageError::Denied { .. } => ErrorKind::Denied,
        StorageError::AlreadyExists { .. } => ErrorKind::AlreadyExists,
        StorageError::Io { .. } => ErrorKind::Io,
    };
    FsError { kind, path: err.path().to_owned(), message: err.to_string() }
}

impl workspace_read::Host for CallState {
    fn read_file(&mut self, path: String) -> Result<Vec<u8>, FsError> {
        self.storage.read(&path).map_err(fs_error)
    }

    fn read_files(&mut self, paths: Vec<String>) -> Vec<Result<Vec<u8>, FsError>> {
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        self.storage.read_many(&paths).into_iter().map(|r| r.map_err(fs_error)).collect()
    }

    fn read_ahead(&mut self, paths: Vec<String>) -> wasmtime::Result<Resource<PendingReads>> {
        let reads = if self.in_flight < MAX_IN_FLIGHT {
            PendingReads::start(&self.storage, paths)
        } else {
            PendingReads::now(&self.storage, &paths)
        };
        self.in_flight += usize::from(reads.in_flight());
        Ok(self.table.push(reads)?)
    }

    fn list_files(&mut self, dir: String) -> Result<Vec<FileEntry>, FsError> {
        let entries = self.storage.list(&dir).map_err(fs_error)?;
        Ok(entries.into_iter().map(|e| FileEntry { path: e.path, size: e.size }).collect())
    }

    fn exists(&mut self, path: String) -> Result<bool, FsError> {
        self.storage.exists(&path).map_err(fs_error)
    }
}

impl workspace_read::HostPendingReads for CallState {
    fn finish(&mut self, reads: Resource<PendingReads>) -> wasmtime::Result<Vec<Result<Vec<u8>, FsError>>> {
        let reads = self.take_reads(reads)?;
        Ok(reads.finish().into_iter().map(|r| r.map_err(fs_error)).collect())
    }

    fn drop(&mut self, reads: Resource<PendingReads>) -> wasmtime::Result<()> {
        self.take_reads(reads).map(drop)
    }
}

impl CallState {
    /// Take a `pending-reads` handle out of the table, counting it out of
    /// the batches in flight.
    fn take_reads(&mut self, reads: Resource<PendingReads>) -> wasmtime::Result<PendingReads> {
        let reads = self.table.delete(reads)?;
        if reads.in_flight() {
            self.in_flight -= 1;
        }
        Ok(reads)
    }
}

impl workspace_write::Host for CallState {
    fn write_file(&mut self, path: String, contents: Vec<u8>) -> Result<(), FsError> {
        self.storage.write(&path, &contents).map_err(fs_error)?;
        self.changed.push(path);
        Ok(())
    }

    fn rename(&mut self, source: String, destination: String) -> Result<(), FsError> {
        self.storage.rename(&source, &destination).map_err(fs_error)?;
        self.changed.push(source);
        self.changed.push(destination);
        Ok(())
    }

    fn remove(&mut self, path: String) -> Result<(), FsError> {
        self.storage.remove(&path).map_err(fs_error)?;
        self.changed.push(path);
        Ok(())
    }
}

//! The workspace as a verb sees it: a [`Storage`] backed by host calls.
//!
//! [`Workspace`] only reads; [`WritableWorkspace`] also writes the vault and
//! [`FrameworkWorkspace`] the agents' framework files. Keeping them apart
//! keeps each write interface out of components that never use it, and a
//! component without one is given no such write access by the host.

use vaultspec_vault::storage::READ_BATCH;
use vaultspec_vault::{FileEntry, Storage, StorageError};

use crate::bindings::workspace_read::{self as read, ErrorKind, FsError};
use crate::bindings::{framework_write, workspace_write as write};

/// Read-only access to the workspace the verb runs in.
#[derive(Debug, Default, Clone, Copy)]
pub struct Workspace {
    _private: (),
}

/// Read and write access to the workspace (`.vault/` and `.vaultspec/`).
///
/// Using it makes the component import `vaultspec:verb/workspace-write`.
#[derive(Debug, Default, Clone, Copy)]
pub struct WritableWorkspace {
    _private: (),
}

/// Read access to the workspace, and write access to the coding agents'
/// framework files: their rule, skill and persona folders, their root files
/// and the sources under `.vaultspec/` (never `.vault/`).
///
/// Using it makes the component import `vaultspec:verb/framework-write`,
/// which the host grants to its builtin verbs only.
#[derive(Debug, Default, Clone, Copy)]
pub struct FrameworkWorkspace {
    _private: (),
}

impl FrameworkWorkspace {
    /// The workspace of the current call, with the agents' files writable.
    pub fn open() -> Self {
        Self::default()
    }
}

impl Workspace {
    /// The workspace of the current call.
    pub fn open() -> Self {
        Self::default()
    }
}

impl WritableWorkspace {
    /// The workspace of the current call, writable.
    pub fn open() -> Self {
        Self::default()
    }
}

fn convert(err: FsError) -> StorageError {
    let FsError {
        kind,
        path,
        message,
    } = err;
    // The host's message is a whole sentence; a reason carried inside our
    // own error would repeat its opening.
    let reason = |opening: String| {
        message
            .strip_prefix(&opening)
            .map_or(message.clone(), str::to_owned)
    };
    match kind {
        ErrorKind::NotFound => StorageError::NotFound { path },
        ErrorKind::TooLarge | ErrorKind::BudgetExceeded | ErrorKind::Io => StorageError::Io {
            op: "accessing",
            path,
            message,
        },
        ErrorKind::InvalidPath => {
            let reason = reason(format!("`{path}` is not a valid workspace path: "));
            StorageError::InvalidPath { path, reason }
        }
        ErrorKind::Outside => StorageError::Outside { path },
        ErrorKind::Denied => {
            let reason = reason(format!("writing `{path}` is not allowed: "));
            StorageError::Denied { path, reason }
        }
        ErrorKind::AlreadyExists => StorageError::AlreadyExists { path },
    }
}

fn read_file(path: &str) -> Result<Vec<u8>, StorageError> {
    read::read_file(path).map_err(convert)
}

fn read_files(paths: &[&str]) -> Vec<Result<Vec<u8>, StorageError>> {
    let paths: Vec<String> = paths.iter().map(|p| (*p).to_owned()).collect();
    read::read_files(&paths)
        .into_iter()
        .map(|r| r.map_err(convert))
        .collect()
}

/// Batches [`read_batches`] keeps reading on the host ahead of the one the
/// verb is parsing: two keep both cores of a small machine busy.
const AHEAD: usize = 2;

/// The size of the first batch; each next one doubles, up to [`READ_BATCH`].
/// The verb waits for the first batch with nothing to do, so it is small.
const FIRST_BATCH: usize = 32;

/// [`Storage::read_batches`] over host calls: the host reads the next
/// batches (`read-ahead`) while `each` works on the one in hand.
fn read_batches(paths: &[&str], each: &mut dyn FnMut(usize, Vec<Result<Vec<u8>, StorageError>>)) {
    let mut size = FIRST_BATCH;
    let mut offset = 0;
    let mut batches = std::iter::from_fn(|| {
        let batch: Vec<String> = paths
            .get(offset..)?
            .iter()
            .take(size)
            .map(|p| (*p).to_owned())
            .collect();
        if batch.is_empty() {
            return None;
        }
        let started = (offset, read::read_ahead(&batch));
        offset += batch.len();
        size = (size * 2).min(READ_BATCH);
        Some(started)
    });
    let mut pending: std::collections::VecDeque<_> = batches.by_ref().take(AHEAD).collect();
    while let Some((offset, reads)) = pending.pop_front() {
        pending.extend(batches.next());
        let results = read::PendingReads::finish(reads);
        each(
            offset,
            results.into_iter().map(|r| r.map_err(convert)).collect(),
        );
    }
}

fn list_files(dir: &str) -> Result<Vec<FileEntry>, StorageError> {
    let entries = read::list_files(dir).map_err(convert)?;
    Ok(entries
        .into_iter()
        .map(|e| FileEntry {
            path: e.path,
            size: e.size,
        })
        .collect())
}

fn exists(path: &str) -> Result<bool, StorageError> {
    read::exists(path).map_err(convert)
}

/// The read half of [`Storage`], the same for every kind of workspace.
macro_rules! reads {
    () => {
        fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
            read_file(path)
        }
        fn read_many(&self, paths: &[&str]) -> Vec<Result<Vec<u8>, StorageError>> {
            read_files(paths)
        }
        fn read_batches(
            &self,
            paths: &[&str],
            each: &mut dyn FnMut(usize, Vec<Result<Vec<u8>, StorageError>>),
        ) {
            read_batches(paths, each)
        }
        fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
            list_files(dir)
        }
        fn exists(&self, path: &str) -> Result<bool, StorageError> {
            exists(path)
        }
    };
}

impl Storage for Workspace {
    reads!();
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
    StorageError::Denied {
        path: path.to_owned(),
        reason: "this verb opened the workspace read-only".to_owned(),
    }
}

impl Storage for WritableWorkspace {
    reads!();
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        write::write_file(path, bytes).map_err(convert)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        write::rename(from, to).map_err(convert)
    }
    fn remove(&self, path: &str) -> Result<(), StorageError> {
        write::remove(path).map_err(convert)
    }
}

impl Storage for FrameworkWorkspace {
    reads!();
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        framework_write::write_file(path, bytes).map_err(convert)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        framework_write::rename(from, to).map_err(convert)
    }
    fn remove(&self, path: &str) -> Result<(), StorageError> {
        framework_write::remove(path).map_err(convert)
    }
}

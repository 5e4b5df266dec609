//! Storage: the small trait through which the vault model reads and writes.
//!
//! Paths are always workspace-relative and `/`-separated (`.vault/adr/x.md`).
//! [`check_path`] is the one place that decides which paths are acceptable, and
//! [`WriteScope`] the one place that decides where writes may land, so the
//! native implementation ([`CapStorage`]), the in-memory one ([`MemStorage`])
//! and the host's sandbox all enforce the same rules.

mod budget;
mod error;
#[cfg(not(target_arch = "wasm32"))]
mod lockfile;
mod memory;
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
mod nofollow;
mod path;
#[cfg(not(target_arch = "wasm32"))]
mod seal;
#[cfg(not(target_arch = "wasm32"))]
mod temp;
pub mod temp_name;

pub use budget::{ReadBudget, WriteBudget};
pub use error::StorageError;
#[cfg(not(target_arch = "wasm32"))]
pub use lockfile::open_no_follow;
pub use memory::MemStorage;
#[cfg(not(target_arch = "wasm32"))]
pub use native::{CapStorage, MAX_LIST_DEPTH};
pub use path::{WriteScope, check_path};
#[cfg(not(target_arch = "wasm32"))]
pub use seal::JournalKey;

/// Largest file any read returns: bigger files are refused with their size.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// The read budget of one `find` call (and of one verb call in the sandbox).
pub const CALL_READ_BUDGET: u64 = 128 * 1024 * 1024;

/// The bytes one verb call may write in all: as much as it may read
/// ([`CALL_READ_BUDGET`]), since what a verb writes is derived from the
/// vault it read — a rewrite of every document of a large vault fits, a
/// runaway loop filling the disk does not.
pub const CALL_WRITE_BUDGET_BYTES: u64 = CALL_READ_BUDGET;

/// The files one verb call may write, rename or remove in all: a
/// migration rewriting every document of the largest vault the model is
/// measured on (100,000 documents) fits, a loop making files until the
/// folder or the inodes give out does not.
pub const CALL_WRITE_BUDGET_FILES: u64 = 100_000;

/// One file found by [`Storage::list`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileEntry {
    /// Workspace-relative path, `/`-separated.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
}

/// Files per [`Storage::read_many`] call for a reader of the whole vault
/// (and per batch of [`Storage::read_batches`]):
/// enough to keep a host's threads busy, few enough that a batch in flight
/// stays small beside the vault.
pub const READ_BATCH: usize = 256;

/// Where the vault model reads and writes files.
///
/// Implementations must be safe to share between threads: reads may run in
/// parallel. Every method takes a workspace-relative path that passes
/// [`check_path`]; anything else is refused with [`StorageError::InvalidPath`].
pub trait Storage: Send + Sync {
    /// The whole content of a file. Files over [`MAX_FILE_BYTES`] are refused
    /// with [`StorageError::TooLarge`]; reads past the storage's read budget
    /// with [`StorageError::BudgetExceeded`].
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError>;

    /// The content of several files: one result per path, in order, each
    /// what [`Storage::read`] gives. An implementation may read them in
    /// parallel (the native one does; a verb's workspace asks the host to).
    fn read_many(&self, paths: &[&str]) -> Vec<Result<Vec<u8>, StorageError>> {
        paths.iter().map(|p| self.read(p)).collect()
    }

    /// Read `paths` a batch of [`READ_BATCH`] at a time, handing `each` the
    /// offset of the batch in `paths` and its results (as
    /// [`Storage::read_many`] gives them), batch after batch in order. A
    /// verb's workspace reads the next batch on the host while `each` works
    /// on this one; elsewhere this is `read_many` per batch.
    fn read_batches(
        &self,
        paths: &[&str],
        each: &mut dyn FnMut(usize, Vec<Result<Vec<u8>, StorageError>>),
    ) {
        for (i, batch) in paths.chunks(READ_BATCH).enumerate() {
            each(i * READ_BATCH, self.read_many(batch));
        }
    }

    /// Every file under `dir` (recursively), sorted by path: regular files,
    /// and FIFOs, sockets or devices, listed so that a reader reports them
    /// (reading one is refused at once). A missing `dir` lists nothing.
    /// Symlinked folders are not followed.
    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError>;

    /// Whether a regular file exists at `path`.
    fn exists(&self, path: &str) -> Result<bool, StorageError>;

    /// Replace (or create) a file atomically: a reader sees the old bytes or
    /// the new ones, never a mix. Missing parent folders are created. Only
    /// paths inside the [`WriteScope`] are accepted.
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError>;

    /// Move a file, creating the destination's parent folders. Both paths
    /// must be inside the [`WriteScope`]; an existing destination is refused.
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError>;

    /// Delete a file. Folders left empty are removed too, up to the scope root.
    fn remove(&self, path: &str) -> Result<(), StorageError>;

    /// The git blob id (lowercase hex, [`crate::hash::blob_oid`]) of the
    /// bytes [`Storage::read`] gives for `path`, when the storage knows it
    /// without reading them (a view of loaded documents does); `None`
    /// otherwise, and never a guess.
    fn known_blob(&self, _path: &str) -> Option<String> {
        None
    }
}

impl<S: Storage + ?Sized> Storage for &S {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        (**self).read(path)
    }
    fn read_many(&self, paths: &[&str]) -> Vec<Result<Vec<u8>, StorageError>> {
        (**self).read_many(paths)
    }
    fn read_batches(
        &self,
        paths: &[&str],
        each: &mut dyn FnMut(usize, Vec<Result<Vec<u8>, StorageError>>),
    ) {
        (**self).read_batches(paths, each)
    }
    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        (**self).list(dir)
    }
    fn exists(&self, path: &str) -> Result<bool, StorageError> {
        (**self).exists(path)
    }
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        (**self).write(path, bytes)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        (**self).rename(from, to)
    }
    fn remove(&self, path: &str) -> Result<(), StorageError> {
        (**self).remove(path)
    }
}

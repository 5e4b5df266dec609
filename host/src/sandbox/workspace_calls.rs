//! The host side of `vaultspec:verb/workspace-read`, `workspace-write` and
//! `framework-write`.
//!
//! Each call is answered by the call's [`CapStorage`], so the path rules,
//! the write scope and the read budgets of `vaultspec-vault` apply unchanged.
//! On top of them the host caps what it keeps for a call: at most
//! [`MAX_LIVE_READS`] unfinished `pending-reads` handles, and the path
//! strings handed in and the error texts handed back charged against
//! [`HELD_BUDGET`]. A guest past either is stopped with a trap. The writes
//! are async so the first one can wait for the docs-domain sentinel under
//! the call's deadline ([`super::write_guard`]).

use vaultspec_vault::{Storage, StorageError};
use wasmtime::component::Resource;

use super::read_ahead::{MAX_IN_FLIGHT, PendingReads};
use super::state::CallState;

/// Unfinished `pending-reads` handles one call may hold; our SDK keeps at
/// most three.
pub const MAX_LIVE_READS: usize = 64;

/// Bytes of path strings and error texts the host may keep for one call,
/// counted as they come in and never given back (the size of the call's
/// read budget, which counts the file contents).
pub const HELD_BUDGET: u64 = vaultspec_vault::storage::CALL_READ_BUDGET;

/// What one path is charged: the path held while it is read, its copy in
/// an error, and the rest of that error's text.
fn path_cost(path: &str) -> u64 {
    2 * path.len() as u64 + 256
}

wasmtime::component::bindgen!({
    path: "../wit",
    world: "vaultspec:verb/capabilities",
    with: { "vaultspec:verb/workspace-read.pending-reads": crate::sandbox::read_ahead::PendingReads },
    imports: {
        "vaultspec:verb/workspace-read.read-files": trappable,
        "vaultspec:verb/workspace-read.read-ahead": trappable,
        "vaultspec:verb/workspace-read.[static]pending-reads.finish": trappable,
        "vaultspec:verb/workspace-write.write-file": async,
        "vaultspec:verb/workspace-write.rename": async,
        "vaultspec:verb/workspace-write.remove": async,
        "vaultspec:verb/framework-write.write-file": async,
        "vaultspec:verb/framework-write.rename": async,
        "vaultspec:verb/framework-write.remove": async,
        "vaultspec:verb/vault-history.modified": trappable,
        "vaultspec:verb/kept-results.recall": trappable,
        "vaultspec:verb/kept-results.keep": trappable,
    },
});

use vaultspec::verb::workspace_read::{self, ErrorKind, FileEntry, FsError};
use vaultspec::verb::{framework_write, workspace_write};

pub use Capabilities as Bindings;

fn fs_error(err: StorageError) -> FsError {
    let kind = match &err {
        StorageError::NotFound { .. } => ErrorKind::NotFound,
        StorageError::TooLarge { .. } => ErrorKind::TooLarge,
        StorageError::BudgetExceeded { .. } | StorageError::WriteBudgetExceeded { .. } => {
            ErrorKind::BudgetExceeded
        }
        StorageError::InvalidPath { .. } => ErrorKind::InvalidPath,
        StorageError::Outside { .. } => ErrorKind::Outside,
        StorageError::Denied { .. } => ErrorKind::Denied,
        StorageError::AlreadyExists { .. } => ErrorKind::AlreadyExists,
        StorageError::Io { .. } => ErrorKind::Io,
    };
    FsError {
        kind,
        path: err.path().to_owned(),
        message: err.to_string(),
    }
}

impl workspace_read::Host for CallState {
    fn read_file(&mut self, path: String) -> Result<Vec<u8>, FsError> {
        self.note_reads(std::slice::from_ref(&path));
        if let Some(bytes) = self.inputs.get(&path) {
            return Ok(bytes.to_vec());
        }
        self.storage.read(&path).map_err(fs_error)
    }

    fn read_files(
        &mut self,
        paths: Vec<String>,
    ) -> wasmtime::Result<Vec<Result<Vec<u8>, FsError>>> {
        self.charge_paths("read-files", &paths)?;
        self.note_reads(&paths);
        if !self.inputs.is_empty() {
            return Ok(paths.into_iter().map(|p| self.read_file(p)).collect());
        }
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        Ok(self
            .storage
            .read_many(&paths)
            .into_iter()
            .map(|r| r.map_err(fs_error))
            .collect())
    }

    fn read_ahead(&mut self, paths: Vec<String>) -> wasmtime::Result<Resource<PendingReads>> {
        if self.live_reads >= MAX_LIVE_READS {
            wasmtime::bail!(
                "read-ahead refused: the call already holds {MAX_LIVE_READS} unfinished `pending-reads`; \
                 finish or drop one before starting another"
            );
        }
        self.charge_paths("read-ahead", &paths)?;
        self.note_reads(&paths);
        let reads = if self.in_flight < MAX_IN_FLIGHT {
            PendingReads::start(&self.storage, paths)
        } else {
            PendingReads::now(&self.storage, &paths)
        };
        self.in_flight += usize::from(reads.in_flight());
        let handle = self.table.push(reads)?;
        self.live_reads += 1;
        Ok(handle)
    }

    fn list_files(&mut self, dir: String) -> Result<Vec<FileEntry>, FsError> {
        self.journal.note_listing(&dir);
        if dir == ".vault"
            && let Some(listed) = self.vault_listing.take()
        {
            return Ok(listed
                .iter()
                .map(|e| FileEntry {
                    path: e.path.clone(),
                    size: e.size,
                })
                .collect());
        }
        let entries = self.storage.list(&dir).map_err(fs_error)?;
        Ok(entries
            .into_iter()
            .map(|e| FileEntry {
                path: e.path,
                size: e.size,
            })
            .collect())
    }

    fn exists(&mut self, path: String) -> Result<bool, FsError> {
        self.journal.note_file(&path);
        if self.inputs.get(&path).is_some() {
            return Ok(true);
        }
        self.storage.exists(&path).map_err(fs_error)
    }
}

impl workspace_read::HostPendingReads for CallState {
    fn finish(
        &mut self,
        reads: Resource<PendingReads>,
    ) -> wasmtime::Result<Vec<Result<Vec<u8>, FsError>>> {
        let reads = self.take_reads(reads)?;
        Ok(reads
            .finish()
            .into_iter()
            .map(|r| r.map_err(fs_error))
            .collect())
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
        self.live_reads -= 1;
        if reads.in_flight() {
            self.in_flight -= 1;
        }
        Ok(reads)
    }

    pub(super) fn note_files(&mut self, paths: &[String]) {
        for path in paths {
            self.journal.note_file(path);
        }
    }

    /// Files the call read: noted as [`CallState::note_files`] does, and
    /// for the results it may keep of them.
    fn note_reads(&mut self, paths: &[String]) {
        self.note_files(paths);
        if let Some(kept) = &self.kept {
            let mut kept = kept.lock().expect("kept results lock poisoned");
            for path in paths {
                kept.note_read(path);
            }
        }
    }

    /// Charge the paths of one read request against [`HELD_BUDGET`], or
    /// stop the call when they would pass it.
    pub(super) fn charge_paths(&mut self, what: &str, paths: &[String]) -> wasmtime::Result<()> {
        let cost = paths
            .iter()
            .map(|p| path_cost(p))
            .fold(0u64, u64::saturating_add);
        self.charge(what, cost, || format!("{} paths", paths.len()))
    }

    /// Charge `cost` bytes against [`HELD_BUDGET`], or stop the call when
    /// they would pass it (`things` names them, for the message).
    pub(super) fn charge(
        &mut self,
        what: &str,
        cost: u64,
        things: impl FnOnce() -> String,
    ) -> wasmtime::Result<()> {
        let total = self.held.saturating_add(cost);
        if total > HELD_BUDGET {
            wasmtime::bail!(
                "{what} refused: {} would take what the host holds for this call past {HELD_BUDGET} bytes \
                 ({} already held)",
                things(),
                self.held
            );
        }
        self.held = total;
        Ok(())
    }

    /// Wait (under the call's deadline) for the docs-domain sentinel before
    /// the call's first write; the error names the write refused.
    async fn before_write(&mut self, path: &str) -> Result<(), FsError> {
        self.journal.note_write();
        self.write_guard
            .before_write()
            .await
            .map_err(|message| FsError {
                kind: ErrorKind::Io,
                path: path.to_owned(),
                message: format!("cannot write `{path}`: {message}"),
            })
    }

    fn record_change(&self, path: String) {
        self.changed
            .lock()
            .expect("changed list poisoned")
            .push(path);
    }
}

impl workspace_write::Host for CallState {
    async fn write_file(&mut self, path: String, contents: Vec<u8>) -> Result<(), FsError> {
        self.before_write(&path).await?;
        self.storage.write(&path, &contents).map_err(fs_error)?;
        self.record_change(path);
        Ok(())
    }

    async fn rename(&mut self, source: String, destination: String) -> Result<(), FsError> {
        self.before_write(&source).await?;
        self.storage
            .rename(&source, &destination)
            .map_err(fs_error)?;
        self.record_change(source);
        self.record_change(destination);
        Ok(())
    }

    async fn remove(&mut self, path: String) -> Result<(), FsError> {
        self.before_write(&path).await?;
        self.storage.remove(&path).map_err(fs_error)?;
        self.record_change(path);
        Ok(())
    }
}

impl CallState {
    /// The storage `framework-write` goes through, or the refusal for a
    /// component that was not granted it.
    fn framework_storage(
        &self,
        path: &str,
    ) -> Result<std::sync::Arc<vaultspec_vault::CapStorage>, FsError> {
        self.framework.clone().ok_or_else(|| FsError {
            kind: ErrorKind::Denied,
            path: path.to_owned(),
            message: format!(
                "writing `{path}` is not allowed: only vaultspec's builtin verbs may write the agents' files"
            ),
        })
    }
}

impl framework_write::Host for CallState {
    async fn write_file(&mut self, path: String, contents: Vec<u8>) -> Result<(), FsError> {
        let storage = self.framework_storage(&path)?;
        self.before_write(&path).await?;
        storage.write(&path, &contents).map_err(fs_error)?;
        self.record_change(path);
        Ok(())
    }

    async fn rename(&mut self, source: String, destination: String) -> Result<(), FsError> {
        let storage = self.framework_storage(&source)?;
        self.before_write(&source).await?;
        storage.rename(&source, &destination).map_err(fs_error)?;
        self.record_change(source);
        self.record_change(destination);
        Ok(())
    }

    async fn remove(&mut self, path: String) -> Result<(), FsError> {
        let storage = self.framework_storage(&path)?;
        self.before_write(&path).await?;
        storage.remove(&path).map_err(fs_error)?;
        self.record_change(path);
        Ok(())
    }
}

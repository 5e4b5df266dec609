//! The undo journal of a multi-file change: what a later run needs to put
//! back every file an interrupted change touched, and the roll-back itself.
//!
//! A change to several files cannot be atomic on a file system: each write,
//! move and removal is atomic on its own, but a full disk, a refused
//! permission or a killed process can stop the batch half-way. So before the
//! first step, [`super::transaction`] writes this journal under
//! [`JOURNAL_DIR`]: a copy (`<n>.bak`) of every file the batch overwrites or
//! removes, and `journal.json` naming every touched path, the copy that holds
//! its old bytes (or none: the path did not exist), and every move.
//!
//! **Interrupted changes are rolled back, never finished.** The command that
//! was interrupted never reported success, so the state the user last saw
//! confirmed is the old one; undoing also needs only the old bytes, which the
//! change read anyway, where finishing would need a second copy of every new
//! byte. Roll-back sets each touched path to its old state whatever step the
//! batch reached, so it is idempotent: a roll-back that is itself interrupted
//! is simply run again by the next write command.
//!
//! The journal lives in `.vault/data/`, the per-machine runtime folder that
//! neither our readers nor the reference's look at (no file there ends in
//! `.md`), so a journal left by a crash never shows as a document. The
//! reference does not know the journal either: a vault a killed vaultspec
//! left half-changed should get a vaultspec write command (or an MCP server
//! start) before the reference writes to it, or the roll-back would put back
//! the old bytes over the reference's edits of the same files.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::storage::{Storage, StorageError};

/// The folder of the journal and its copies.
pub const JOURNAL_DIR: &str = ".vault/data/journal";

/// The journal itself: present exactly while a batch may be half-applied.
pub const JOURNAL_FILE: &str = ".vault/data/journal/journal.json";

/// The format version this build writes and reads.
const VERSION: u32 = 1;

/// One path the batch changes other than by a plain move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restore {
    /// Workspace-relative path.
    pub path: String,
    /// The name (in [`JOURNAL_DIR`]) of the copy of its old bytes, or `None`
    /// when the path did not exist before the batch.
    pub backup: Option<String>,
}

/// What `journal.json` holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// Every move of the batch, in order, as `[from, to]`. A move whose two
    /// paths nothing else in the batch touches is undone by moving the file
    /// back; it needs no copy.
    pub moves: Vec<(String, String)>,
    /// Every other path the batch touches, with its old state.
    pub restore: Vec<Restore>,
}

impl Journal {
    /// A journal of the given moves and restores.
    pub fn new(moves: Vec<(String, String)>, restore: Vec<Restore>) -> Journal {
        Journal {
            version: VERSION,
            moves,
            restore,
        }
    }

    /// Parses `journal.json`, refusing a format this build does not know.
    pub fn parse(bytes: &[u8]) -> Result<Journal> {
        let bad = |message: String| Error::Journal {
            path: JOURNAL_FILE.to_string(),
            message,
        };
        let journal: Journal = serde_json::from_slice(bytes)
            .map_err(|e| bad(format!("not valid journal JSON ({e})")))?;
        if journal.version != VERSION {
            return Err(bad(format!(
                "format version {} (this build reads version {VERSION})",
                journal.version
            )));
        }
        Ok(journal)
    }

    /// The bytes of `journal.json`.
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(self).expect("a journal always serialises")
    }

    /// Puts every touched path back in its state before the batch, whatever
    /// step the batch reached. Idempotent.
    pub fn roll_back(&self, storage: &dyn Storage) -> Result<()> {
        let restored: BTreeMap<&str, bool> = self
            .restore
            .iter()
            .map(|r| (r.path.as_str(), r.backup.is_some()))
            .collect();
        // A path only moved existed before (`from`) or did not (`to`).
        let existed = |p: &str, moved_from: bool| restored.get(p).copied().unwrap_or(moved_from);
        // First move files back, so a document keeps its file (and mode)
        // wherever the batch only moved it.
        for (from, to) in self.moves.iter().rev() {
            if existed(from, true)
                && !existed(to, false)
                && storage.exists(to)?
                && !storage.exists(from)?
            {
                storage.rename(to, from)?;
            }
        }
        for r in &self.restore {
            let current = match storage.exists(&r.path)? {
                true => Some(storage.read(&r.path)),
                false => None,
            };
            match &r.backup {
                None if current.is_some() => storage.remove(&r.path)?,
                None => {}
                Some(name) => {
                    let old = storage.read(&backup_path(name))?;
                    if !matches!(&current, Some(Ok(now)) if *now == old) {
                        storage.write(&r.path, &old)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The workspace path of the copy named `name`.
pub fn backup_path(name: &str) -> String {
    format!("{JOURNAL_DIR}/{name}")
}

/// What [`recover`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// No journal: nothing was interrupted.
    Clean,
    /// Copies were left by a batch that had not started (or had finished):
    /// they were removed and no document changed.
    Tidied,
    /// An interrupted batch was rolled back.
    RolledBack,
}

/// Rolls back a batch a killed process left half-applied, then removes the
/// journal; removes stray copies. Every write-capable operation calls this
/// before it reads the vault; read-only ones never do (see [`pending`]).
pub fn recover(storage: &dyn Storage) -> Result<Recovery> {
    let files = storage.list(JOURNAL_DIR)?;
    if files.is_empty() {
        return Ok(Recovery::Clean);
    }
    let mut outcome = Recovery::Tidied;
    if files.iter().any(|f| f.path == JOURNAL_FILE) {
        let journal = Journal::parse(&storage.read(JOURNAL_FILE)?)?;
        journal.roll_back(storage)?;
        storage.remove(JOURNAL_FILE)?;
        outcome = Recovery::RolledBack;
    }
    for f in files.iter().filter(|f| f.path != JOURNAL_FILE) {
        remove_if_there(storage, &f.path)?;
    }
    Ok(outcome)
}

/// Whether an interrupted batch waits for roll-back (for read-only commands,
/// which report it but never write).
pub fn pending(storage: &dyn Storage) -> Result<bool> {
    Ok(storage.exists(JOURNAL_FILE)?)
}

/// Removes `path`, accepting that it is already gone.
pub fn remove_if_there(storage: &dyn Storage, path: &str) -> Result<(), StorageError> {
    match storage.remove(path) {
        Err(StorageError::NotFound { .. }) => Ok(()),
        other => other,
    }
}

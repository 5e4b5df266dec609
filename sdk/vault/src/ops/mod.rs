//! Vault operations as plain functions over a [`Storage`]: each takes the
//! inputs of its verb and `today` explicitly, computes every change first,
//! and only then writes, all or nothing ([`transaction`]), so a failed (or
//! killed) operation leaves the vault unchanged. Every operation that may
//! write first calls [`recover`], which rolls back a batch an earlier killed
//! process left half-applied.
//!
//! Results are typed records the CLI verbs and MCP tools turn into JSON
//! (paths are workspace-relative; the caller makes them absolute where the
//! verb's JSON wants that).

pub mod add;
pub mod archive;
pub mod crossref;
pub mod edit;
pub mod feature;
pub mod journal;
pub mod link;
pub mod rename;
pub mod rule;
pub mod section;
pub mod staged;
pub mod transaction;

pub use journal::recover;
pub use transaction::apply;

use crate::error::Result;
use crate::storage::Storage;

/// The outcome word of an operation (cli-verbs.md §0 status vocabulary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A new file was written.
    Created,
    /// An existing file changed.
    Updated,
    /// Nothing needed to change; nothing was written.
    Unchanged,
    /// Something was removed (a link, an archived document).
    Removed,
    /// Archived documents came back.
    Restored,
}

/// One change to the storage, planned before any is applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Write (create or replace) a file.
    Write {
        /// Workspace-relative path.
        path: String,
        /// The new bytes.
        bytes: Vec<u8>,
    },
    /// Move a file.
    Rename {
        /// Current path.
        from: String,
        /// New path.
        to: String,
    },
    /// Delete a file.
    Remove {
        /// Workspace-relative path.
        path: String,
    },
}

/// The start of an operation that may write: unless it is a dry run (which
/// only reads, and so never writes a roll-back), rolls back a batch an
/// earlier killed process left half-applied, before anything is read.
pub fn begin(storage: &dyn Storage, dry_run: bool) -> Result<()> {
    if !dry_run {
        recover(storage)?;
    }
    Ok(())
}

/// Reads a document by workspace-relative path.
pub fn read_doc(storage: &dyn Storage, path: &str) -> Result<crate::doc::Document> {
    crate::doc::Document::from_bytes(path, storage.read(path)?)
}

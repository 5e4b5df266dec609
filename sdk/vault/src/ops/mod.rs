//! Vault operations as plain functions over a [`Storage`]: each takes the
//! inputs of its verb and `today` explicitly, computes every change first,
//! and only then writes, so a failed operation leaves the vault unchanged.
//!
//! Results are typed records the CLI verbs and MCP tools turn into JSON
//! (paths are workspace-relative; the caller makes them absolute where the
//! verb's JSON wants that).

pub mod add;
pub mod archive;
pub mod edit;
pub mod feature;
pub mod link;
pub mod rename;
pub mod section;

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

/// Applies `changes` in order. When one fails, the ones already applied are
/// undone as far as the storage allows, and the first error is returned.
pub fn apply(storage: &dyn Storage, changes: &[Change]) -> Result<()> {
    let mut undo: Vec<Change> = Vec::new();
    for c in changes {
        let before = match c {
            Change::Write { path, .. } | Change::Remove { path } => {
                if storage.exists(path)? {
                    Some(storage.read(path)?)
                } else {
                    None
                }
            }
            Change::Rename { .. } => None,
        };
        let res = match c {
            Change::Write { path, bytes } => storage.write(path, bytes),
            Change::Rename { from, to } => storage.rename(from, to),
            Change::Remove { path } => storage.remove(path),
        };
        if let Err(e) = res {
            for u in undo.iter().rev() {
                let _ = match u {
                    Change::Write { path, bytes } => storage.write(path, bytes),
                    Change::Rename { from, to } => storage.rename(from, to),
                    Change::Remove { path } => storage.remove(path),
                };
            }
            return Err(e.into());
        }
        undo.push(match (c, before) {
            (Change::Write { path, .. } | Change::Remove { path }, Some(bytes)) => Change::Write {
                path: path.clone(),
                bytes,
            },
            (Change::Write { path, .. }, None) => Change::Remove { path: path.clone() },
            (Change::Remove { path }, None) => Change::Remove { path: path.clone() },
            (Change::Rename { from, to }, _) => Change::Rename {
                from: to.clone(),
                to: from.clone(),
            },
        });
    }
    Ok(())
}

/// Reads a document by workspace-relative path.
pub fn read_doc(storage: &dyn Storage, path: &str) -> Result<crate::doc::Document> {
    crate::doc::Document::from_bytes(path, storage.read(path)?)
}

//! The reference's docs-domain sentinel for one write-capable call, taken
//! no later than the call's first write.
//!
//! A call that may write holds the sentinel from its start when the file is
//! already on disk (opening and locking it changes no byte and no mtime).
//! When it is missing, creating it would be a write of its own, so it is
//! created and locked just before the call's first `write-file`, `rename`
//! or `remove` instead: a call that writes nothing leaves the workspace as
//! it found it.

use cap_std::fs::Dir;

use crate::sentinel::{self, Open, Sentinel};

/// Whether a call holds the docs-domain sentinel yet.
#[derive(Debug)]
pub enum WriteGuard {
    /// Nothing to take: the call cannot write.
    ReadOnly,
    /// Taken, or found unnecessary (no `.vault/`), for the rest of the call;
    /// held until the guard is dropped with the call's store.
    Settled {
        /// The lock, released when dropped.
        _held: Option<Sentinel>,
    },
    /// To be created and taken at the first write, through this folder.
    Pending(Dir),
}

impl WriteGuard {
    /// Open and lock the sentinel if it exists (waiting for its holder);
    /// else leave it for the first write.
    pub async fn at_start(dir: Dir) -> anyhow::Result<Self> {
        match sentinel::docs_domain_async(&dir, Open::Existing).await? {
            Some(held) => Ok(Self::Settled { _held: Some(held) }),
            None => Ok(Self::Pending(dir)),
        }
    }

    /// Make sure the sentinel is held before a write; the error says why it
    /// could not be.
    pub async fn before_write(&mut self) -> Result<(), String> {
        let Self::Pending(dir) = self else {
            return Ok(());
        };
        let held = sentinel::docs_domain_async(dir, Open::Create)
            .await
            .map_err(|e| format!("{e:#}"))?;
        *self = Self::Settled { _held: held };
        Ok(())
    }
}

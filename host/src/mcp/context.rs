//! What every tool call of one server shares: the workspace, the mode, the
//! loaded vault and the gateway to the verbs.

use vaultspec_vault::storage::CALL_READ_BUDGET;
use vaultspec_vault::{CapStorage, Date, WriteScope};

use super::vault_cache::VaultCache;
use crate::gateway::Gateway;
use crate::sentinel::{self, Sentinel};
use crate::workspace::{Workspace, WriteLock};

/// The server's workspace, mode, vault cache and gateway.
pub struct ServerContext {
    /// The workspace root, opened.
    pub workspace: Workspace,
    /// Whether the server was started with `--read-only`.
    pub read_only: bool,
    /// Whether `invoke` replies may be kept (not under `--no-cache`).
    pub keep_replies: bool,
    /// The loaded vault, reused while no file under `.vault/` changes.
    pub vault: VaultCache,
    /// The verbs `discover` finds and `invoke` runs, and where they run.
    pub gateway: Gateway,
}

impl ServerContext {
    /// A fresh storage for one call: writable unless read-only, with the
    /// per-call read budget.
    pub fn storage(&self) -> anyhow::Result<CapStorage> {
        let dir = self.workspace.dir().try_clone()?;
        let scope = if self.read_only {
            WriteScope::ReadOnly
        } else {
            WriteScope::Vault
        };
        Ok(CapStorage::from_dir(dir)
            .with_scope(scope)
            .with_journal_key_from(crate::journal_key::key)
            .with_read_budget(CALL_READ_BUDGET))
    }

    /// Today's date (UTC), the stamp every write uses.
    pub fn today(&self) -> Date {
        Date::today_utc()
    }

    /// Take the workspace's write lock (blocking; tools run on blocking
    /// threads), giving up when the tool's deadline would have passed.
    pub fn lock_writes(&self) -> anyhow::Result<WriteLock> {
        self.workspace
            .lock_writes_blocking(super::server::TOOL_DEADLINE)
    }

    /// Hold the reference's sentinel of one vault document, as its Python
    /// writers do (take [`ServerContext::lock_writes`] first).
    pub fn lock_document(&self, path: &str) -> anyhow::Result<Option<Sentinel>> {
        sentinel::document(self.workspace.dir(), path)
    }

    /// Hold the reference's sentinel of one feature's index while it is
    /// regenerated (take [`ServerContext::lock_writes`] first).
    pub fn lock_feature_index(&self, feature: &str) -> anyhow::Result<Option<Sentinel>> {
        sentinel::feature_index(self.workspace.dir(), feature)
    }

    /// Hold the reference's docs-domain sentinel (ledgers, structure fixes).
    pub fn lock_docs_domain(&self) -> anyhow::Result<Option<Sentinel>> {
        sentinel::docs_domain(self.workspace.dir())
    }
}

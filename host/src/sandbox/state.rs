//! The data of one call's store: WASI context, limits and the workspace.

use std::sync::{Arc, Mutex};

use vaultspec_vault::CapStorage;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use super::limiter::CallLimiter;
use super::write_guard::WriteGuard;

/// Everything one verb call owns. A fresh one is made for every call, so
/// nothing a guest did can reach the next call; dropping it (with the
/// store) frees everything the host held for the call.
pub struct CallState {
    pub(super) wasi: WasiCtx,
    pub(super) table: ResourceTable,
    pub(super) limits: CallLimiter,
    /// The workspace, with the write scope the component was granted
    /// (shared with the threads of `read-ahead`).
    pub(super) storage: Arc<CapStorage>,
    /// The workspace held to [`vaultspec_vault::WriteScope::Framework`], for
    /// `framework-write`: present only for a builtin that imports it.
    pub(super) framework: Option<Arc<CapStorage>>,
    /// `read-ahead` batches being read on threads of their own.
    pub(super) in_flight: usize,
    /// `pending-reads` handles not yet finished or dropped.
    pub(super) live_reads: usize,
    /// Bytes of paths and error texts charged against the call's
    /// [`super::workspace_calls::HELD_BUDGET`].
    pub(super) held: u64,
    /// The docs-domain sentinel, held from the first write on.
    pub(super) write_guard: WriteGuard,
    /// Workspace paths this call wrote, renamed or removed, in order; shared
    /// with the caller, so a call stopped by its deadline still reports them.
    pub(super) changed: Arc<Mutex<Vec<String>>>,
    /// Files the user named at the command line, read before the call.
    pub(super) inputs: super::Inputs,
    /// The listing of `.vault/` taken just before the call, for its first
    /// listing of `.vault` ([`super::CallOptions::vault_listing`]).
    pub(super) vault_listing: Option<Arc<Vec<vaultspec_vault::storage::FileEntry>>>,
    /// The results the verb may recall and keep for files of `.vault/`
    /// ([`super::CallOptions::kept`]).
    pub(super) kept: Option<Arc<Mutex<super::KeptResults>>>,
    /// What the call looked at outside `.vault/`.
    pub(super) journal: super::Journal,
    /// The workspace's root folder, for the repository `vault-history` reads.
    pub(super) root: std::path::PathBuf,
    /// When the call's time is up, for host work that is not guest code.
    pub(super) deadline: Option<std::time::Instant>,
}

impl WasiView for CallState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

//! The data of one call's store: WASI context, limits and the workspace.

use std::sync::Arc;

use vaultspec_vault::CapStorage;
use wasmtime::StoreLimits;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// Everything one verb call owns. A fresh one is made for every call, so
/// nothing a guest did can reach the next call.
pub struct CallState {
    pub(super) wasi: WasiCtx,
    pub(super) table: ResourceTable,
    pub(super) limits: StoreLimits,
    /// The workspace, with the write scope the component was granted
    /// (shared with the threads of `read-ahead`).
    pub(super) storage: Arc<CapStorage>,
    /// `read-ahead` batches being read on threads of their own.
    pub(super) in_flight: usize,
    /// Workspace paths this call wrote, renamed or removed, in order.
    pub(super) changed: Vec<String>,
}

impl WasiView for CallState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

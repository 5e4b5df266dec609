//! Shared harness of the containment proofs: hostile workspace layouts, the
//! snapshot of what must never change, the watchdog that catches a call that
//! never returns, and the calls of the sandbox's workspace interface checked
//! one by one. Used by `tests/containment_props.rs` and by the
//! `workspace_calls` fuzz target (`fuzz/`), which includes it by path.
#![allow(dead_code)]

pub mod case;
pub mod layout;
pub mod ops;
pub mod snapshot;
pub mod watchdog;

/// Written into every file outside the workspace: no read may return it.
pub const OUTSIDE_MARKER: &str = "OUTSIDE-SECRET-c13";

/// Written into the workspace's own files outside `.vault/` and
/// `.vaultspec/`: reading them is allowed, changing them is not.
pub const WORKSPACE_MARKER: &str = "WORKSPACE-ONLY-c13";

//! The vault model of vaultspec: every rule about the files under `.vault/`.
//!
//! The crate is pure Rust and builds both natively (the host's hot tools) and
//! for `wasm32-wasip2` (the verb components). It never touches the file system
//! directly: everything goes through a [`Storage`], implemented natively over
//! cap-std by [`CapStorage`] and inside components over the host's workspace
//! interfaces by `vaultspec-sdk`.
#![deny(missing_docs)]

pub mod storage;

pub use storage::{FileEntry, MemStorage, Storage, StorageError, WriteScope};

#[cfg(not(target_arch = "wasm32"))]
pub use storage::CapStorage;

//! The vault model of vaultspec: every rule about the files under `.vault/`.
//!
//! The crate is pure Rust and builds both natively (the host's hot tools) and
//! for `wasm32-wasip2` (the verb components). It never touches the file system
//! directly: everything goes through a [`Storage`], implemented natively over
//! cap-std by [`CapStorage`] and inside components over the host's workspace
//! interfaces by `vaultspec-sdk`.
#![deny(missing_docs)]

pub mod adr;
pub mod body;
pub mod checks;
pub mod date;
pub mod doc;
pub mod error;
pub mod frontmatter;
pub mod graph;
pub mod hash;
pub mod index;
pub mod ledger;
pub mod migrations;
pub mod ops;
mod parallel;
pub mod pattern;
pub mod plan;
pub mod resolve;
pub mod search;
pub mod status;
pub mod storage;
pub mod template;
#[cfg(any(test, feature = "testgen"))]
pub mod testgen;
pub mod text;
pub mod window;

pub use date::Date;
pub use doc::{Corpus, DocType, Document};
pub use error::{Error, Result};
pub use storage::{FileEntry, MemStorage, Storage, StorageError, WriteScope};

#[cfg(not(target_arch = "wasm32"))]
pub use storage::CapStorage;

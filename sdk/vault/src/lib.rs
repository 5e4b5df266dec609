//! The vault model of vaultspec: every rule about the files under `.vault/`.
//!
//! The crate is pure Rust and builds both natively (the host's hot tools) and
//! for `wasm32-wasip2` (the verb components). It never touches the file system
//! directly: everything goes through a [`Storage`], implemented natively over
//! cap-std by [`CapStorage`] and inside components over the host's workspace
//! interfaces by `vaultspec-sdk`.
//!
//! # Which document record to use
//!
//! A vault is read into one of two records, each made for its job:
//!
//! - **Readers use [`graph::GraphDoc`]**, read by [`graph::read_vault`] (or
//!   [`graph::load_graph`]): listings, `status`, the graph, search and the
//!   checks. Its text is normalised (no BOM, `\n` newlines); a file that
//!   cannot be read, is not UTF-8 or has malformed frontmatter is still a
//!   document, with its [`doc::DocProblem`], so links to it resolve; reading
//!   runs on several threads and can keep the documents of unchanged files.
//! - **Writers use [`Document`] in a [`Corpus`]**, read by [`Corpus::load`]:
//!   its text is the file's exact decoded bytes (BOM and line endings kept)
//!   so an edit changes only what it means to, with the whole frontmatter
//!   model and the line of each key; a file that cannot be read is
//!   [`doc::Skipped`], never edited.
//!
//! Both take the same files ([`doc::place`]), find frontmatter with the same
//! [`frontmatter::split`] and read its keys with the same line scanner
//! ([`frontmatter::scan`]). A `GraphDoc` *is* a `Document` over its
//! normalised text (it derefs to one) plus the file's problem, so the
//! checkers read the graph's own documents ([`checks::Snapshot::doc`]) and
//! a writer holding a corpus builds the graph from it
//! ([`graph::Graph::from_corpus`]).
#![deny(missing_docs)]

pub mod adr;
pub mod body;
pub mod checks;
pub mod coherence;
pub mod date;
pub mod doc;
pub mod error;
pub mod framework;
pub mod frontmatter;
pub mod graph;
pub mod handoff;
pub mod hash;
pub mod index;
pub mod ledger;
pub mod migrations;
pub mod ops;
pub mod parallel;
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
pub mod trash;
pub mod window;

pub use date::Date;
pub use doc::{Corpus, DocType, Document};
pub use error::{Error, Result};
pub use storage::{FileEntry, MemStorage, Storage, StorageError, WriteScope};

#[cfg(not(target_arch = "wasm32"))]
pub use storage::CapStorage;

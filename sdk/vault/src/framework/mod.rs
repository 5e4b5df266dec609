//! The agent framework: the rules, skills, personas and system-prompt parts
//! under `.vaultspec/`, and what they become in each coding agent's files.
//!
//! [`Sources::read`] reads the sources through a [`Storage`](crate::storage::Storage);
//! [`render::render`] turns them into the desired provider files for some
//! [`Provider`]s; [`sync::plan`] compares that with what is on disk, by
//! each file's [`stamp`] mark, and [`sync::apply`] writes what may change.
//! [`builtin`] holds the framework vaultspec ships.

pub mod builtin;
pub mod front;
pub mod legacy_server;
pub mod provider;
pub mod region;
pub mod render;
pub mod run;
pub mod source;
pub mod stamp;
pub mod sync;

pub use front::{Front, Value};
pub use provider::Provider;
pub use source::{Kind, Problem, Source, Sources, shown, valid_name};

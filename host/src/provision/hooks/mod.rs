//! Hooks and triggers: commands a team keeps in `.vaultspec/hooks/` (given
//! to the coding agents, which run them on their events) and
//! `.vaultspec/triggers/` (run by vaultspec on its own), each run as the
//! person only after they approved its exact bytes at a terminal.
//!
//! - [`scripts`]: reading the two folders through the checked reader;
//! - [`spec`]: a hook, its events and each agent's rendering of it;
//! - [`render`] and [`sync`]: writing hooks into the agents' files, keeping
//!   what a person wrote there;
//! - [`triggers`]: a trigger, and running its commands with a time limit;
//! - [`ledger`]: the approvals, shared with the reference;
//! - [`state`]: how each agent's hook file stands, for `spec doctor`;
//! - [`commands`]: `spec hooks …` and `spec triggers …`.
//!
//! The reading commands (`list`, `show`, `status`) are host verbs the
//! gateway serves; everything else is for a person at the command line and
//! on the gateway's denylist.

pub mod args;
pub mod commands;
mod ledger;
mod render;
pub mod scripts;
pub(crate) mod spec;
pub mod state;
pub mod sync;
mod triggers;

pub use args::{HooksCommand, TriggersCommand};
pub use commands::{after_sync, run_hooks, run_triggers};

//! Provisioning: making a folder a workspace, enrolling its MCP server into
//! coding agents, and giving those agents vaultspec's framework (rules,
//! skills, personas and system prompt) in each one's own files.
//!
//! - [`setup`]: `install` and `uninstall`;
//! - [`enroll`]: `spec mcps …` and `spec doctor` (the read-only ones also
//!   for the gateway, as host verbs);
//! - [`hooks`]: `spec hooks …` and `spec triggers …`, and the hook pass
//!   of `sync`;
//! - [`migrate`]: the migrations of `migrations run` that change files no
//!   verb may write;
//! - [`framework`]: `sync`, `spec rules|skills|agents edit`, and the
//!   framework's part of `install` and `uninstall` (the other `spec
//!   rules|skills|agents|system` verbs are the builtin `framework` and
//!   `framework-write` components').
//!
//! Everything here runs natively in the host, run by a person at the
//! command line: it writes where no verb may (the agents' folders and root
//! files, the protected entries of `.vaultspec/`, files in the user's
//! home). The command line calls into it; it reports through
//! [`crate::report`] and never reaches back into the command line.

pub mod enroll;
pub mod framework;
pub mod hooks;
pub mod migrate;
pub mod setup;

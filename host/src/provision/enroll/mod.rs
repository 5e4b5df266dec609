//! MCP enrollment: writing this workspace's MCP servers into the files
//! coding agents read (`vaultspec spec mcps …`), and `vaultspec spec doctor`.
//!
//! These commands run natively in the host, never as verb components: they
//! write at the workspace root (`.mcp.json`, `.codex/config.toml`,
//! `.agents/mcp_config.json`) and in the user's home (`~/.claude.json`,
//! `$CODEX_HOME/config.toml`, `~/.vaultspec/`), where no verb may write,
//! and what they write is a command an agent will run as the user. A
//! component would need a capability naming each of those files, and the
//! consent step needs the terminal, which no sandbox has; natively, each
//! write is confined instead by its [`WriteScope`](vaultspec_vault::WriteScope)
//! (the three agent files in the workspace, one file in a home folder),
//! never follows a link and replaces its file atomically. None of them is
//! in the catalog, and the gateway's denylist names those that change
//! anything, so no tool call reaches them. A launch is approved only by a
//! person answering at the terminal ([`consent`]).
//!
//! The formats are the reference's (spec/mcp-enrollment.md): definitions in
//! `.vaultspec/mcps/`, ownership and approvals in `~/.vaultspec/`, so
//! either tool honours what the other recorded.

mod agents;
mod approve;
mod args;
mod codex_file;
mod commands;
mod consent;
mod definitions;
mod doctor;
mod edit;
pub(crate) mod files;
mod gateway;
pub(crate) mod json_file;
mod native;
pub(crate) mod ownership;
pub mod providers;
pub(crate) mod pyjson;
mod seeds;
mod status;
pub mod sync;
pub(crate) mod targets;

pub use args::SpecCommand;
pub use commands::{print_report, print_warnings, run, sync_installed, uninstall_installed};
pub use definitions::own_command;
pub use doctor::{diagnose, handoff as doctor_handoff};
pub use gateway::host_verbs;
pub use sync::Report;
pub use targets::Provider;

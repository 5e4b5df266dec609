//! The vaultspec host: the catalog of verb components, the sandbox that runs
//! them, and the command line in front of both.
//!
//! A verb travels through these modules in order: [`builtins`] holds the
//! components compiled into the binary; [`catalog`] reads their WIT
//! declarations into typed [`catalog::VerbSpec`]s; [`cli`] (or a tool call)
//! turns user input into an [`invocation::Invocation`]; [`sandbox`] checks it,
//! runs the verb in a fresh store and returns its [`sandbox::Outcome`].
//!
//! Two things run natively instead, never as components: [`setup`]
//! (`install`, `uninstall`) and [`enroll`] (`spec mcps …`, `spec doctor`).
//! They write where no verb may (the agents' MCP files at the workspace
//! root, `~/.claude.json`, `$CODEX_HOME`, `~/.vaultspec`), what they write
//! is a command an agent runs as the user, and approving it needs the
//! terminal, which no sandbox has. A component would need a capability
//! naming each of those files and a way to ask the person; natively, each
//! write is held to a [`vaultspec_vault::WriteScope`] that names just those
//! files, follows no link and replaces its file atomically, and the
//! gateway's denylist keeps every such command out of reach of tool calls.

pub mod builtins;
pub mod catalog;
pub mod cli;
pub mod display;
pub mod enroll;
pub mod env;
pub mod gateway;
pub mod invocation;
pub mod logging;
pub mod mcp;
pub mod sandbox;
pub mod sdk;
pub mod sentinel;
pub mod setup;
pub mod trust;
pub mod workspace;

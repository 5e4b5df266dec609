//! The vaultspec host: the catalog of verb components, the sandbox that runs
//! them, and the command line in front of both.
//!
//! A verb travels through these modules in order: [`builtins`] holds the
//! components compiled into the binary; [`catalog`] reads their WIT
//! declarations into typed [`catalog::VerbSpec`]s; [`cli`] (or a tool call)
//! turns user input into an [`invocation::Invocation`]; [`sandbox`] checks it,
//! runs the verb in a fresh store and returns its [`sandbox::Outcome`].
//!
//! # Parts and layers
//!
//! | layer | parts | what they hold |
//! |---|---|---|
//! | platform | [`env`], [`checked_file`], [`git_index`], [`git_history`], [`journal_key`], [`display`], [`logging`], [`file_lock`], [`workspace`], [`sentinel`], [`sdk`], [`report`], [`bounded_command`] | the environment, the checked reader of files opened by path, the repository's index and history read in process, the user's key for the undo journal, escaping for terminals, logs, locks, the workspace root and its survey, the reference's lock sentinels, the embedded SDK, exit codes and failure reports, outside programs run under a deadline |
//! | catalog | [`catalog`], [`trust`], [`builtins`], [`invocation`], [`coherence`], [`review`], [`project`] | what verbs exist, as declared in WIT; who trusts which component; a verb's arguments; the host's own reads of git (stale `related:` links, a review's passages, the work in hand) |
//! | sandbox | [`sandbox`] | running one verb call in wasmtime under every limit |
//! | gateway | [`gateway`] | `discover` and `invoke`: the catalog and the sandbox offered to a client |
//! | provisioning | [`provision`] | install, MCP enrollment, the agents' framework files |
//! | front | [`cli`], [`mcp`] | the command line, the MCP server |
//!
//! A part uses only the parts of its own layer and of the layers above it
//! in this table: the sandbox and the catalog know nothing of MCP or the
//! command line, and the vault model (`vaultspec-vault`) nothing of the
//! host. One rule narrows the table: [`mcp`] reaches verbs only through the
//! [`gateway::Gateway`], never the sandbox itself. A test reads the sources
//! and fails on a use against the table or that rule (`layers.rs`).
//!
//! [`provision`] runs natively instead, never as components: `install`,
//! `uninstall`, `sync`, `spec mcps …`, `spec rules|skills|agents|system …`
//! and `spec doctor`.
//! They write where no verb may (the agents' MCP files at the workspace
//! root, `~/.claude.json`, `$CODEX_HOME`, `~/.vaultspec`), what they write
//! is a command an agent runs as the user, and approving it needs the
//! terminal, which no sandbox has. A component would need a capability
//! naming each of those files and a way to ask the person; natively, each
//! write is held to a [`vaultspec_vault::WriteScope`] that names just those
//! files, follows no link and replaces its file atomically, and the
//! gateway's denylist keeps every such command out of reach of tool calls.

pub mod bounded_command;
pub mod builtins;
pub mod catalog;
pub mod checked_file;
pub mod cli;
pub mod coherence;
pub mod display;
pub mod env;
pub mod file_lock;
pub mod gateway;
pub mod git_history;
pub mod git_index;
pub mod invocation;
pub mod journal_key;
pub mod logging;
pub mod mcp;
pub mod project;
pub mod provision;
pub mod report;
pub mod review;
pub mod sandbox;
pub mod sdk;
pub mod sentinel;
pub mod trust;
pub mod workspace;

#[cfg(test)]
mod layers;

//! The vaultspec host: the catalog of verb components, the sandbox that runs
//! them, and the command line in front of both.
//!
//! A verb travels through these modules in order: [`builtins`] holds the
//! components compiled into the binary; [`catalog`] reads their WIT
//! declarations into typed [`catalog::VerbSpec`]s; [`cli`] (or a tool call)
//! turns user input into an [`invocation::Invocation`]; [`sandbox`] checks it,
//! runs the verb in a fresh store and returns its [`sandbox::Outcome`].

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

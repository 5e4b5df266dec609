//! End-to-end tests: hostile components in the sandbox, and the real binary
//! at the command line.

mod catalog;
mod golden_mcp;
mod mcp;
mod cli;
mod sandbox;
mod support;

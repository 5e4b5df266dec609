//! The checks on fixtures made for each checker, on what our own verbs
//! write, and through `vault repair`, `commit-gate` and the MCP result.

#[path = "../common/mod.rs"]
mod common;

mod fixtures;
mod own_output;
mod repair;

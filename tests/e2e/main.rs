//! End-to-end tests: hostile components in the sandbox, and the real binary
//! at the command line.

mod bad_input;
mod catalog;
mod containment_catalog;
mod containment_limits;
mod golden_cli;
mod discover_intents;
mod gateway;
mod golden_mcp;
mod plan_verbs;
mod mcp;
mod mcp_concurrency;
mod mcp_tools;
mod cli;
mod sandbox;
mod containment_storage;
mod sentinels;
mod third_party;
mod verbs;
mod support;

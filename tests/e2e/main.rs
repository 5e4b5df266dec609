//! End-to-end tests: hostile components in the sandbox, and the real binary
//! at the command line.

mod agreement;
mod bad_input;
mod binary;
mod catalog;
mod cli;
mod cli_conventions;
mod containment_catalog;
mod containment_limits;
mod containment_sentinel;
mod containment_storage;
mod discover_intents;
mod discovery;
mod example_vault;
mod gateway;
mod golden_cli;
mod golden_mcp;
mod hints;
mod input_files;
mod mcp;
mod mcp_concurrency;
mod mcp_protocol;
mod mcp_tools;
mod paged_listings;
mod plan_verbs;
mod reference_install;
mod sandbox;
mod sentinels;
mod setup;
mod status_interop;
mod support;
mod third_party;
mod user;
mod verb_author;
mod verbs;

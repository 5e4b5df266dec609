//! End-to-end tests: hostile components in the sandbox, and the real binary
//! at the command line and over MCP.
//!
//! The modules are grouped by what a reader comes looking for; each line
//! says what its module covers. A builtin verb's own tests are in the file
//! of its group under `verbs/` (`vault list`, `stats`, `graph`, `search`:
//! `verbs/read.rs`; `vault adr crossref`: `verbs/features.rs`) or in
//! `plan_verbs`; a hot tool's in `mcp_tools`. Tests that cut across verbs
//! (paging, hints, answers from the cache, bad files, the golden vectors,
//! the CLI and MCP agreeing) have modules of their own below.

// Shared helpers.
mod binary; // running the real binary at the CLI, with the tests' cache
mod support; // one sandbox, guest loading and calls for the sandbox tests
mod user; // a user with a home folder of their own, at a pseudo-terminal

// The sandbox and what a hostile component, vault or client can do.
mod catalog; // components the catalog refuses; typed declarations
mod containment_catalog; // component files that are links, FIFOs, huge; escapes
mod containment_limits; // deadlines, held locks, floods, memory and output caps
mod containment_sentinel; // links planted around the host's lock sentinels
mod containment_storage; // symlinks, hard links, FIFOs and temp-file traps
mod sandbox; // hostile guests contained, and the next call still served
mod sentinels; // the reference's lock sentinels, shared with vaultspec-core

// The command line.
mod answers; // read verbs answered from the cache, never stale
mod cli; // help and usage errors at a terminal
mod cli_conventions; // help texts, exit codes, JSON errors, completions, man
mod coherence; // stale related: links, dated from git history or modified: dates
mod discovery; // finding the workspace from any folder inside it
mod doctor_parity; // spec doctor against the reference on a workspace it installed
mod enroll; // MCP enrollment: approve at a terminal, sync, hand edits, uninstall
mod example_vault; // the README's example workspace stays complete and valid
mod exit_codes; // every verb's failure modes against the one exit-code table
mod framework; // rules, skills, personas and system prompt for every agent, kept in sync
mod framework_gateway; // the spec verbs through discover and invoke
mod hints; // next-step hints where the reference gives them
mod hooks; // hooks and triggers: approved at a terminal, rendered keeping a person's keys
mod input_files; // --body-file and --manifest from any path or stdin
mod migrations; // migrations run on workspaces older releases made, byte for byte
mod migrations_host; // the migrations outside the vault: at a terminal, never through the gateway
mod paged_listings; // listings page their JSON like the reference
mod plan_verbs; // every plan, exec and check verb on plans of every tier
mod project_context; // the work in hand: git items equal to the reference's, the vault's plans and stale links
mod review_context; // a review's passages, equal to the reference's on the same repository
mod setup; // vaultspec install and uninstall in a fresh repository
mod verbs; // every builtin vault verb through the real binary

// MCP: the hot tools, discover and invoke.
mod discover_intents; // discover finds the intended verb for people's words
mod gateway; // discover ranking, invoke refusals, folding a verb's writes
mod mcp; // the server over stdio, driven by rmcp's client
mod mcp_concurrency; // two servers on one vault, many calls at once
mod mcp_http; // the server over HTTP: token, Host and Origin, both revisions
mod mcp_incremental; // a warm server answers as a fresh one after edits behind its back
mod mcp_protocol; // parse errors, unknown arguments, resource URIs, logging
mod mcp_resources; // documents as resources, skills as prompts, completion, change notifications
mod mcp_tools; // every hot tool's happy path and documented refusals

// Agreement with vaultspec-core 0.3.9 and between our own entry points.
mod agreement; // the CLI verb and the MCP tool that do the same agree
mod bad_input; // bad files lose nothing, at the CLI and over MCP
mod golden_cli; // the CLI golden vectors 01–39 and 100–112
mod golden_mcp; // the MCP golden vectors 95–99
mod reference_install; // a workspace the reference installed checks clean
mod stale_status; // stale links in status and find, never hidden by a kept answer after a commit
mod status_interop; // status agrees with the reference field for field

// Third-party verbs.
mod second_hour; // a new user's second hour, from PATH to an agent's invoke
mod third_party; // scaffold, build, install, trust at a terminal, run
mod verb_author; // a verb author's first hour, from verbs new to output

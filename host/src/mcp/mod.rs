//! `vaultspec mcp`: the MCP server over stdio (or streamable HTTP, [`http`]),
//! with the ten hot tools, the vault as resources and the skills as prompts.
//!
//! [`server::VaultServer`] answers `tools/list` from [`tools::definitions`]
//! and runs `tools/call` through the argument checks of [`schema`] to the
//! tools in [`tools`], which call `vaultspec-vault` natively. [`reply`] and
//! [`batch`] package results the way the reference does; [`progress`]
//! reports a long call's progress to a client that asks; [`watchdog`] ends
//! the server when its client dies without closing stdin; [`stdio`] carries
//! the messages, answering a line that is not JSON with a parse error.
//! [`resources`], [`prompts`] and [`completion`] serve the rest of the
//! protocol, and [`notify`] tells clients when documents or skills change.

pub mod batch;
pub mod completion;
pub mod context;
#[cfg(feature = "conformance-fixtures")]
pub mod fixtures;
pub mod http;
pub mod http_bounds;
pub mod instructions;
pub mod notify;
pub mod progress;
pub mod prompts;
pub mod reply;
pub mod resources;
pub mod schema;
pub mod server;
pub mod splice;
pub mod stdio;
pub mod tools;
pub mod vault_cache;
pub mod watchdog;

use std::time::Duration;

use anyhow::Context as _;
use rmcp::ServiceExt;

pub use context::ServerContext;
pub use server::VaultServer;

use crate::env;
use crate::gateway::Gateway;
use crate::workspace::Workspace;

/// Verb calls (`invoke`) the server runs at once; more wait for a slot.
const SANDBOX_SLOTS: u32 = 16;

/// How the server was asked to run.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct McpArgs {
    /// Serve only the tools that never write (find, status, check, search, crossref).
    #[arg(long)]
    pub read_only: bool,
    /// Exit when this process (the client) is gone, in addition to stdin EOF.
    #[arg(long, value_name = "PID")]
    pub parent_pid: Option<i32>,
    /// Serve MCP over streamable HTTP at http://ADDR/mcp instead of stdio
    /// (default address: 127.0.0.1:8756). Every request needs the bearer token.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = http::DEFAULT_ADDR,
          value_parser = http::listen_address)]
    pub http: Option<String>,
    /// Read the bearer token from FILE instead of the one made on first start
    /// (kept in ~/.config/vaultspec/mcp-http-token).
    #[arg(long, value_name = "FILE", requires = "http")]
    pub token_file: Option<std::path::PathBuf>,
    /// Let --http listen on an address that is not loopback: anyone who can
    /// reach it and holds the token can read and change this vault.
    #[arg(long, requires = "http")]
    pub allow_remote: bool,
    /// Keep no `invoke` replies: every call runs its verb (the global
    /// `--no-cache`).
    #[arg(skip)]
    pub no_cache: bool,
}

/// Serve MCP on stdin/stdout until stdin closes (or the watchdog fires), or
/// over HTTP when asked.
pub async fn serve(workspace: Workspace, args: McpArgs) -> anyhow::Result<()> {
    tracing::info!(root = %workspace.root().display(), read_only = args.read_only, "vaultspec MCP server starting");
    if args.http.is_none() && watchdog::enabled() {
        let poll = std::env::var(env::WATCHDOG_POLL_MS)
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .map(Duration::from_millis)
            .unwrap_or(watchdog::POLL);
        watchdog::start(args.parent_pid, poll);
    }
    // Temp files of writes a crashed vaultspec left behind. Sweeping walks
    // the whole vault, so it runs in the background after the preload:
    // neither `initialize` nor a first call waits for it, and it removes
    // only the temp files of writers that are gone.
    let sweep = if args.read_only {
        None
    } else {
        let dir = workspace
            .dir()
            .try_clone()
            .context("opening the workspace to sweep stale temp files")?;
        Some(vaultspec_vault::CapStorage::from_dir(dir))
    };
    let loaded = crate::catalog::load_all(
        crate::builtins::catalog()?,
        Some(workspace.root()),
        std::env::home_dir().as_deref(),
    )?;
    for refusal in &loaded.refusals {
        tracing::warn!("{refusal}");
    }
    for warning in &loaded.warnings {
        tracing::warn!("{warning}");
    }
    let recover_in = (!args.read_only)
        .then(|| Workspace::open(workspace.root()).ok())
        .flatten();
    let notifier = notify::Notifier::new(workspace.root());
    let server = VaultServer::new(ServerContext {
        workspace,
        read_only: args.read_only,
        keep_replies: !args.no_cache,
        vault: vault_cache::VaultCache::default(),
        gateway: Gateway::pooled(loaded.catalog, SANDBOX_SLOTS)?
            .with_host_verbs(crate::provision::enroll::host_verbs())?,
    })
    .with_notifier(notifier)
    .start_once_answered(move || {
        // A read-only server changes nothing: no recovery, no sweep. The
        // roll-back of an interrupted change runs here, after `initialize`
        // has its answer; every write tool recovers first anyway.
        if let Some(workspace) = &recover_in {
            recover_interrupted(workspace);
        }
        if let Some(storage) = sweep {
            let removed = storage.sweep_stale_temps();
            tracing::info!(removed, "swept the temp files of interrupted writes");
        }
    });
    if let Some(addr) = args.http {
        let options = http::HttpOptions {
            addr,
            token_file: args.token_file,
            allow_remote: args.allow_remote,
        };
        return http::serve(server, &options).await;
    }
    // A person who ran `vaultspec mcp` at a terminal hears what it is for;
    // ending it there before any client spoke is no failure.
    let at_terminal = std::io::IsTerminal::is_terminal(&std::io::stdin());
    if at_terminal {
        eprintln!(
            "vaultspec mcp serves this vault to a coding agent over MCP on stdin and stdout; the \
             agent starts it (`vaultspec install` enrolls it, `vaultspec spec mcps status` shows \
             where). Waiting for an agent's JSON-RPC here: Ctrl-D ends it."
        );
    }
    let splice = splice::Splice::new();
    let service = match server
        .with_splice(splice.clone())
        .serve(stdio::StdioTransport::new(splice))
        .await
    {
        Ok(service) => service,
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) if at_terminal => {
            return Ok(());
        }
        Err(err) => return Err(err).context("starting the MCP session"),
    };
    service.waiting().await.context("serving MCP")?;
    Ok(())
}

/// Rolls back a batch of changes a killed earlier call left half-applied
/// (`vaultspec_vault::ops::journal`), so no tool reads a half-changed vault.
/// A failure is logged, not fatal: every write tool recovers again first,
/// so the start waits only briefly for a writer that holds the lock.
fn recover_interrupted(workspace: &Workspace) {
    let recovered = workspace
        .lock_writes_blocking(std::time::Duration::from_secs(5))
        .and_then(|_lock| {
            let storage = vaultspec_vault::CapStorage::from_dir(workspace.dir().try_clone()?)
                .with_journal_key_from(crate::journal_key::key)
                .with_read_budget(vaultspec_vault::storage::CALL_READ_BUDGET);
            Ok(vaultspec_vault::ops::recover(&storage)?)
        });
    match recovered {
        Ok(vaultspec_vault::ops::journal::Recovery::RolledBack(kept)) => {
            tracing::warn!(
                ?kept,
                "rolled back a batch of changes an interrupted call had left half-applied \
                 (files changed since were kept)"
            );
        }
        Ok(_) => {}
        Err(err) => tracing::warn!("cannot roll back an interrupted batch of changes: {err:#}"),
    }
}

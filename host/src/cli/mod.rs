//! The `vaultspec` command line: verbs from the catalog, run in the sandbox.
//!
//! At a terminal the verb's output streams straight through; the process
//! exits with the verb's own exit code (`spec/cli-verbs.md` §0): 0 success,
//! 1 a domain failure, 2 a usage error caught before the verb ran.

mod commands;
mod matches;

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Command, FromArgMatches};

pub use commands::command;
pub use matches::verb_invocation;

use crate::mcp::{self, McpArgs};
use crate::{builtins, logging};
use crate::sandbox::{CallError, CallOptions, CompileCache, Output, Sandbox};
use crate::workspace::Workspace;

/// Exit code for a usage error.
pub const EXIT_USAGE: u8 = 2;
/// Exit code for a failure outside the verb (no workspace, a crashed verb).
pub const EXIT_FAILURE: u8 = 1;

/// Parse `args` and run the chosen verb; returns the process exit code.
pub async fn run(args: impl IntoIterator<Item = OsString>) -> anyhow::Result<u8> {
    let catalog = builtins::catalog()?;
    let mcp = McpArgs::augment_args(
        Command::new("mcp").about("Serve the vault to an AI coding agent over MCP (stdio)"),
    );
    let matches = match command(&catalog).subcommand(mcp).try_get_matches_from(args) {
        Ok(matches) => matches,
        Err(err) => {
            let code = if err.use_stderr() { EXIT_USAGE } else { 0 };
            err.print().context("printing the usage message")?;
            return Ok(code);
        }
    };
    let target = matches.get_one::<PathBuf>("target").cloned();
    if let Some(("mcp", sub)) = matches.subcommand() {
        logging::init("info")?;
        let args = McpArgs::from_arg_matches(sub)?;
        let workspace = Workspace::resolve(target.as_deref())?;
        mcp::serve(workspace, args).await?;
        return Ok(0);
    }
    logging::init("warn")?;
    let (entry, invocation) = verb_invocation(&catalog, &matches).context("no verb was chosen")?;
    let verb = entry.spec.path_string();
    let workspace = Workspace::resolve(target.as_deref())?;
    let sandbox = Sandbox::new(CompileCache::from_env())?;
    let component = catalog.component_of(entry);
    let options = CallOptions { timeout: None, output: Output::Inherit, ..CallOptions::default() };
    let outcome = match sandbox.call(component, &entry.spec, &invocation, &workspace, &options).await {
        Ok(outcome) => outcome,
        Err(CallError::Arguments(err)) => {
            eprintln!("error: {err}");
            return Ok(EXIT_USAGE);
        }
        Err(err) => return Err(err).with_context(|| format!("running `{verb}`")),
    };
    match (outcome.exit_code, outcome.failure) {
        (Some(code), _) => Ok(code),
        (None, Some(failure)) => {
            eprintln!("error: `{verb}` stopped ({:?}): {}", failure.kind, failure.message);
            Ok(EXIT_FAILURE)
        }
        (None, None) => Ok(EXIT_FAILURE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_built_from_the_builtins_is_consistent() {
        let catalog = builtins::catalog().unwrap();
        command(&catalog).debug_assert();
    }
}

//! The `vaultspec` command line: verbs from the catalog, run in the sandbox.
//!
//! At a terminal the verb's output streams straight through; the process
//! exits with the verb's own exit code (`spec/cli-verbs.md` §0): 0 success,
//! 1 a domain failure, 2 a usage error caught before the verb ran.
//!
//! The catalog is built for the workspace before the command line is parsed
//! (its verbs are the subcommands), so `--target` is read ahead of clap.
//! Third-party components that are refused become warnings on stderr; an
//! untrusted component's verbs are on the command line but refuse to run.

mod commands;
mod inputs;
mod matches;
mod verbs;

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Command, FromArgMatches};

pub use commands::command;
pub use matches::verb_invocation;

use crate::catalog::{self, Loaded};
use crate::mcp::{self, McpArgs};
use crate::sandbox::{CallError, CallOptions, CompileCache, Output, Sandbox};
use crate::workspace::Workspace;
use crate::{logging, workspace};

/// Exit code for a usage error.
pub const EXIT_USAGE: u8 = 2;
/// Exit code for a failure outside the verb (no workspace, a crashed verb).
pub const EXIT_FAILURE: u8 = 1;

/// Parse `args` and run the chosen verb; returns the process exit code.
pub async fn run(args: impl IntoIterator<Item = OsString>) -> anyhow::Result<u8> {
    let args: Vec<OsString> = args.into_iter().collect();
    let cwd = std::env::current_dir().context("reading the current folder")?;
    let found = workspace::resolve_root(target_arg(&args).as_deref(), &cwd);
    let no_root = found.as_ref().err().map(|err| format!("{err:#}"));
    let root = found.ok();
    let home = std::env::home_dir();
    let loaded = catalog::load_all(root.as_deref(), home.as_deref())?;
    let catalog = &loaded.catalog;
    let mcp = McpArgs::augment_args(
        Command::new("mcp").about("Serve the vault to an AI coding agent over MCP (stdio)"),
    );
    let command = command(catalog)
        .subcommand(mcp)
        .subcommand(verbs::command());
    let matches = match command.try_get_matches_from(args) {
        Ok(matches) => matches,
        Err(err) => {
            let code = if err.use_stderr() { EXIT_USAGE } else { 0 };
            err.print().context("printing the usage message")?;
            return Ok(code);
        }
    };
    let target = matches.get_one::<PathBuf>("target").cloned();
    if let Some(("verbs", sub)) = matches.subcommand() {
        let context = verbs::Context {
            loaded: &loaded,
            root: root.as_deref(),
            no_root: no_root.as_deref(),
            home: home.as_deref(),
        };
        return verbs::run(sub, context).await;
    }
    report(&loaded);
    if let Some(("mcp", sub)) = matches.subcommand() {
        logging::init(logging::SERVER_DEFAULT)?;
        let args = McpArgs::from_arg_matches(sub)?;
        let workspace = Workspace::resolve(target.as_deref())?;
        mcp::serve(workspace, args).await?;
        return Ok(0);
    }
    logging::init(logging::CLI_DEFAULT)?;
    let (entry, mut invocation) =
        verb_invocation(catalog, &matches).context("no verb was chosen")?;
    let verb = entry.spec.path_string();
    let component = match catalog.runnable(entry) {
        Ok(component) => component,
        Err(untrusted) => {
            eprintln!("error: {untrusted}");
            return Ok(EXIT_FAILURE);
        }
    };
    let workspace = Workspace::resolve(target.as_deref())?;
    let inputs = match inputs::read(&entry.spec, &mut invocation, &cwd, &mut std::io::stdin()) {
        Ok(inputs) => inputs,
        Err(err) => {
            eprintln!("error: {err}");
            return Ok(EXIT_USAGE);
        }
    };
    let sandbox = Sandbox::new(CompileCache::from_env())?;
    // The same deadline as an `invoke` that names none.
    let timeout = Some(std::time::Duration::from_secs_f64(
        crate::gateway::invoke::DEFAULT_TIMEOUT,
    ));
    let options = CallOptions {
        timeout,
        output: Output::Inherit,
        inputs,
        ..CallOptions::default()
    };
    let outcome = match sandbox
        .call(component, &entry.spec, &invocation, &workspace, &options)
        .await
    {
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
            eprintln!(
                "error: `{verb}` stopped ({:?}): {}",
                failure.kind, failure.message
            );
            Ok(EXIT_FAILURE)
        }
        (None, None) => Ok(EXIT_FAILURE),
    }
}

/// Print the refused components and other load problems as warnings.
fn report(loaded: &Loaded) {
    for warning in &loaded.warnings {
        eprintln!("warning: {warning}");
    }
    for refusal in &loaded.refusals {
        eprintln!("warning: {refusal}");
    }
}

/// The value of `--target`/`-t` in `args`, read before clap parses them
/// (the catalog clap is built from depends on the workspace).
fn target_arg(args: &[OsString]) -> Option<PathBuf> {
    let mut iter = args.iter().skip(1);
    while let Some(arg) = iter.next() {
        let text = arg.to_string_lossy();
        if text == "--" {
            break;
        }
        if text == "--target" || text == "-t" {
            return iter.next().map(PathBuf::from);
        }
        if let Some(value) = text.strip_prefix("--target=") {
            return Some(PathBuf::from(value));
        }
        if let Some(value) = text.strip_prefix("-t")
            && !value.is_empty()
        {
            return Some(PathBuf::from(value.strip_prefix('=').unwrap_or(value)));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_built_from_the_builtins_is_consistent() {
        let catalog = crate::builtins::catalog().unwrap();
        command(&catalog)
            .subcommand(verbs::command())
            .debug_assert();
    }

    #[test]
    fn target_is_read_before_parsing_wherever_it_is() {
        let args = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(
            target_arg(&args(&["vs", "vault", "list", "--target", "/w"])),
            Some("/w".into())
        );
        assert_eq!(
            target_arg(&args(&["vs", "--target=/w", "vault"])),
            Some("/w".into())
        );
        assert_eq!(target_arg(&args(&["vs", "-t/w"])), Some("/w".into()));
        assert_eq!(target_arg(&args(&["vs", "vault", "list"])), None);
    }
}

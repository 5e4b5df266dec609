//! The `vaultspec` command line: verbs from the catalog, run in the sandbox.
//!
//! At a terminal the verb's output streams straight through; the process
//! exits with the verb's own exit code, or one of the host's; [`exit`] holds
//! them all and the table `--help` shows. With `--json`, any failure is one
//! JSON document on stdout ([`report`]).
//!
//! The catalog is built for the workspace before the command line is parsed
//! (its verbs are the subcommands), so `--target` is read ahead of clap.
//! Third-party components that are refused become warnings on stderr; an
//! untrusted component's verbs are on the command line but refuse to run.

mod answers;
mod cache_files;
mod commands;
mod docs;
mod handoff;
mod inputs;
mod kept_store;
mod matches;
mod spelling;
mod verbs_command;

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Command, FromArgMatches};

pub use commands::{NO_CACHE, NO_HINTS, command};

use crate::report::{self, Reporter, exit, json_requested};
use answers::Answers;
use kept_store::KeptStore;
pub use matches::verb_invocation;

use crate::catalog::{self, LoadedCatalog};
use crate::invocation::{FlagValue, arguments};
use crate::mcp::{self, McpArgs};
use crate::sandbox::{CallOptions, Chunk, CompileCache, HostOutput, Output, Sandbox};
use crate::workspace::Workspace;
use crate::workspace::survey::Listed;
use crate::{logging, workspace};

/// The `mcp` command: what it serves and to whom.
fn mcp_command() -> Command {
    // After the derive, whose doc comment would otherwise be the about.
    McpArgs::augment_args(Command::new("mcp"))
        .about("Serve this workspace's vault to an AI coding agent over MCP on stdin/stdout.")
        .long_about(mcp_long_help())
}

/// `mcp --help`: what it serves, and the bounds of `--http` from the
/// constants that enforce them.
fn mcp_long_help() -> String {
    use crate::mcp::http_bounds::*;
    format!(
        "Serve this workspace's vault to an AI coding agent over MCP on stdin/stdout.\n\n\
         The agent's client starts `vaultspec mcp` and speaks JSON-RPC on its stdin and \
         stdout: tools to find, create and edit documents, plans and ledgers, check the \
         vault, and `discover`/`invoke` for every other verb. Logs go to stderr.\n\n\
         With --http the same tools are served over streamable HTTP at \
         http://ADDR/mcp to any number of clients at once, on loopback unless \
         --allow-remote is given; every request needs the bearer token, made on first \
         start into ~/.config/vaultspec/mcp-http-token (or read from --token-file).\n\n\
         Its bounds: {MAX_CONNECTIONS} connections at once (more wait their turn), \
         {MAX_SESSIONS} sessions (an `initialize` past them is answered 503), a session \
         unused for {} s is ended, {} s to send a request's headers (also the longest a \
         connection idles between requests), {} s and {} MiB for its body; out of file \
         descriptors, it pauses accepting (up to 1 s) instead of spinning.",
        SESSION_IDLE.as_secs(),
        HEADER_TIMEOUT.as_secs(),
        BODY_TIMEOUT.as_secs(),
        MAX_BODY_BYTES / (1024 * 1024),
    )
}

/// The whole command line: the catalog's verbs and the host's own commands
/// (the host's `spec` commands join the catalog's `spec` verbs).
pub fn full_command(catalog: &catalog::Catalog) -> Command {
    let setup = crate::provision::setup::augment(Command::new("setup"));
    commands::graft(command(catalog), &setup)
        .subcommand(mcp_command())
        .subcommand(verbs_command::command())
        .subcommand(docs::completions_command())
        .subcommand(docs::man_command())
}

/// Parse `args` and run the chosen verb; returns the process exit code
/// (see [`exit`]). Every failure is reported here, as JSON on stdout when
/// `--json` is among the arguments.
pub async fn run(args: impl IntoIterator<Item = OsString>) -> u8 {
    let args = spelling::normalise(args.into_iter().collect());
    let reporter = Reporter {
        json: json_requested(&args),
    };
    match run_parsed(args, reporter).await {
        Ok(code) => code,
        Err(err) => reporter.fail(exit::INTERNAL, &format!("{err:#}")),
    }
}

/// [`run`], with failures of the host itself (loading the catalog, starting
/// the sandbox) left to the caller as errors.
async fn run_parsed(args: Vec<OsString>, reporter: Reporter) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir().context("reading the current folder")?;
    let found = workspace::resolve_root(target_arg(&args).as_deref(), &cwd);
    let no_root = found.as_ref().err().map(|err| format!("{err:#}"));
    let root = found.ok();
    let home = std::env::home_dir();
    let loaded = catalog::load_all(
        crate::builtins::catalog()?,
        root.as_deref(),
        home.as_deref(),
    )?;
    let catalog = &loaded.catalog;
    let matches = match full_command(catalog).try_get_matches_from(&args) {
        Ok(matches) => matches,
        Err(mut err) => {
            closest_suggestions(&mut err);
            return Ok(parse_failure(&err, reporter));
        }
    };
    let target = matches.get_one::<PathBuf>("target").cloned();
    // A catalog verb first: `spec rules list` is the framework component's,
    // `spec rules edit` the host's.
    let chosen = verb_invocation(catalog, &matches);
    match matches.subcommand() {
        Some((name, sub)) if chosen.is_none() && crate::provision::setup::is_setup(name) => {
            let no_hints = sub.get_flag(NO_HINTS) || hints_silenced_by_env();
            return Ok(
                match crate::provision::setup::run(&matches, target.as_deref(), no_hints, catalog) {
                    Ok(code) => code,
                    Err(err) => reporter.fail(exit::FINDINGS, &format!("{err:#}")),
                },
            );
        }
        Some(("verbs", sub)) => {
            let context = verbs_command::VerbsContext {
                loaded: &loaded,
                root: root.as_deref(),
                no_root: no_root.as_deref(),
                home: home.as_deref(),
            };
            return Ok(match verbs_command::run(sub, context).await {
                Ok(code) => code,
                Err(err) => reporter.fail(exit::FINDINGS, &format!("{err:#}")),
            });
        }
        Some(("completions", sub)) => {
            let shell = *sub
                .get_one::<clap_complete::Shell>("shell")
                .context("no shell was given")?;
            docs::completions(full_command(catalog), shell)?;
            return Ok(exit::OK);
        }
        Some(("man", sub)) => {
            let words: Vec<&String> = sub
                .get_many::<String>("command")
                .into_iter()
                .flatten()
                .collect();
            return Ok(match docs::man(full_command(catalog), &words) {
                Ok(()) => exit::OK,
                Err(problem) => reporter.fail(exit::USAGE, &problem),
            });
        }
        _ => {}
    }
    report(&loaded);
    if let Some(("mcp", sub)) = matches.subcommand() {
        logging::init(logging::SERVER_DEFAULT)?;
        let mut args = McpArgs::from_arg_matches(sub)?;
        args.no_cache = matches.get_flag(NO_CACHE);
        let workspace = match Workspace::resolve(target.as_deref()) {
            Ok(workspace) => workspace,
            Err(err) => return Ok(reporter.fail(exit::FINDINGS, &format!("{err:#}"))),
        };
        mcp::serve(workspace, args).await?;
        return Ok(exit::OK);
    }
    logging::init(logging::CLI_DEFAULT)?;
    let (entry, mut invocation) = chosen.context("no verb was chosen")?;
    let reporter = Reporter {
        json: reporter.json || invocation.json,
    };
    if entry.spec.flag(NO_HINTS).is_some() && hints_silenced_by_env() {
        invocation
            .flags
            .insert(NO_HINTS.to_owned(), FlagValue::Switch(true));
    }
    let verb = entry.spec.path_string();
    let component = match catalog.runnable(entry) {
        Ok(component) => component,
        Err(untrusted) => return Ok(reporter.fail(exit::FINDINGS, &untrusted.to_string())),
    };
    let workspace = match Workspace::resolve(target.as_deref()) {
        Ok(workspace) => workspace,
        Err(err) => return Ok(reporter.fail(exit::FINDINGS, &format!("{err:#}"))),
    };
    let inputs = match inputs::read(&entry.spec, &mut invocation, &cwd, &mut std::io::stdin()) {
        Ok(inputs) => inputs,
        Err(err) => return Ok(reporter.fail(exit::USAGE, &err.to_string())),
    };
    let args = match arguments(&entry.spec, &invocation) {
        Ok(args) => args,
        Err(err) => return Ok(reporter.fail(exit::USAGE, &err.to_string())),
    };
    let builtin_env = if component.origin == catalog::Origin::Builtin {
        match handoff::prepare(&verb, &invocation, workspace.root()) {
            Ok(env) => env,
            Err(err) => return Ok(reporter.fail(exit::FINDINGS, &err)),
        }
    } else {
        Vec::new()
    };
    let colour = !reporter.json && crate::display::colour_wanted(std::io::stdout().is_terminal());
    // A kept answer vouches only for the workspace files the verb read,
    // never for what the host handed it.
    let answers = if matches.get_flag(NO_CACHE) || !builtin_env.is_empty() {
        None
    } else {
        Answers::for_call(
            &component,
            &entry.spec,
            &invocation,
            &workspace,
            !inputs.is_empty(),
            colour,
        )
    };
    let mut before = match answers.as_ref().map(Answers::lookup) {
        Some(Ok(answer)) => {
            answer
                .replay(reporter.json.then_some(verb.as_str()))
                .with_context(|| format!("writing the kept answer of `{verb}`"))?;
            return Ok(answer.exit);
        }
        Some(Err(before)) => Some(before),
        None => None,
    };
    if component.capabilities.writes() {
        // What a killed write left behind goes before this one writes.
        workspace.sweep_stale_temps();
    }
    // The listing walked for the answer cache: the call's first listing of
    // `.vault`, and the stamps its kept results are checked against. A
    // writer lists afresh, as it always has, and keeps nothing.
    let listed = before
        .as_mut()
        .filter(|_| !component.capabilities.writes())
        .and_then(answers::Before::take_listing);
    let (vault_listing, kept) = match listed {
        Some(Listed { files, settled }) => {
            let files = Arc::new(files);
            let kept = KeptStore::for_call(&component, workspace.root())
                .map(|store| (store.open(files.clone(), settled), store));
            (Some(files), kept)
        }
        None => (None, None),
    };
    let sandbox = Sandbox::new(CompileCache::from_env())?;
    // The same deadline as an `invoke` that names none.
    let timeout = Some(std::time::Duration::from_secs_f64(
        crate::gateway::invoke::DEFAULT_TIMEOUT,
    ));
    let options = CallOptions {
        timeout,
        // Under `--json` the document waits for the exit code to fold in.
        output: if reporter.json {
            Output::InheritStderr
        } else {
            Output::Inherit
        },
        inputs,
        record: answers.is_some(),
        colour,
        builtin_env,
        vault_listing,
        kept: kept.as_ref().map(|(results, _)| results.clone()),
        ..CallOptions::default()
    };
    let outcome = match sandbox.call(&component, &args, &workspace, &options).await {
        Ok(outcome) => outcome,
        Err(err) => return Err(err).with_context(|| format!("running `{verb}`")),
    };
    if let (Some(answers), Some(before)) = (&answers, before) {
        answers.keep(before, &outcome);
    }
    if let (Some((results, store)), Some(_)) = (&kept, outcome.exit_code) {
        store.save(results);
    }
    Ok(match (outcome.exit_code, outcome.failure) {
        (Some(code), _) if reporter.json => {
            print_held_json(&outcome.stdout, code, &verb)
                .with_context(|| format!("printing the answer of `{verb}`"))?;
            code
        }
        (Some(code), _) => code,
        (None, Some(failure)) => reporter.fail(
            exit::INTERNAL,
            &format!("`{verb}` stopped ({:?}): {}", failure.kind, failure.message),
        ),
        (None, None) => reporter.fail(
            exit::INTERNAL,
            &format!("`{verb}` ended without an exit code"),
        ),
    })
}

/// Print what a `--json` call held back of its stdout, with its exit code
/// folded in ([`report::fold_exit_code`]): escaped for a terminal, quiet on
/// a closed pipe. The verb's bytes were counted against the cap as it wrote
/// them; the fold adds a few.
pub(crate) fn print_held_json(stdout: &[u8], code: u8, verb: &str) -> std::io::Result<()> {
    let folded = report::fold_exit_code(stdout, code, verb);
    HostOutput::new(usize::MAX).replay(&[Chunk {
        stderr: false,
        bytes: folded,
    }])
}

/// Keep only the closest of clap's suggestions for a mistyped subcommand,
/// counting a swap of two letters as one edit: `stauts` is `status`, not
/// also `vault`.
fn closest_suggestions(err: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::String(typed)) = err.get(ContextKind::InvalidSubcommand).cloned() else {
        return;
    };
    let Some(ContextValue::Strings(offered)) = err.get(ContextKind::SuggestedSubcommand).cloned()
    else {
        return;
    };
    let distance = |word: &String| strsim::osa_distance(&typed, word);
    let Some(best) = offered.iter().map(distance).min() else {
        return;
    };
    let kept: Vec<String> = offered
        .into_iter()
        .filter(|w| distance(w) == best)
        .collect();
    err.insert(
        ContextKind::SuggestedSubcommand,
        ContextValue::Strings(kept),
    );
}

/// Report what clap could not parse, or print the help or version it was
/// asked for. Help goes to stdout in one write, and a reader that stops
/// early (`vaultspec -h | head -1`) ends it quietly with 0.
fn parse_failure(err: &clap::Error, reporter: Reporter) -> u8 {
    if !err.use_stderr() {
        let rendered = err.render();
        let text = if std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
            rendered.ansi().to_string()
        } else {
            rendered.to_string()
        };
        return match report::write_stdout(&text) {
            Ok(()) => exit::OK,
            Err(write) => {
                eprintln!("error: printing the help: {write}");
                exit::INTERNAL
            }
        };
    }
    if reporter.json {
        // The error and clap's tips (`a similar subcommand exists`), without
        // the usage lines meant for a person.
        let rendered = err.render().to_string();
        let message: Vec<&str> = rendered
            .lines()
            .take_while(|line| !line.starts_with("Usage:"))
            .map(|line| line.trim().trim_start_matches("error: "))
            .filter(|line| !line.is_empty())
            .collect();
        return reporter.fail(exit::USAGE, &message.join("; "));
    }
    let _ = err.print();
    exit::USAGE
}

/// Whether the environment turns hints off, as the reference's does: a true
/// `VAULTSPEC_NO_HINTS`, or running inside a git hook (`GIT_INDEX_FILE`).
fn hints_silenced_by_env() -> bool {
    let truthy = |v: &str| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    };
    std::env::var("VAULTSPEC_NO_HINTS").is_ok_and(|v| truthy(&v))
        || std::env::var_os("GIT_INDEX_FILE").is_some()
}

/// Print the refused components and other load problems as warnings.
fn report(loaded: &LoadedCatalog) {
    for warning in &loaded.warnings {
        eprintln!("{} {warning}", crate::display::warning_label());
    }
    for refusal in &loaded.refusals {
        eprintln!("{} {refusal}", crate::display::warning_label());
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
        full_command(&catalog).debug_assert();
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

//! `vaultspec verbs …`: the host's own commands for verb components.
//!
//! [`VerbsCommand`] is a clap derive enum, one file per command: `list`
//! shows every component with its digest, capabilities and trust; `trust`
//! asks a person at a terminal to approve components (or `--revoke`s them);
//! `inspect` tells what a component file would add and why it would be
//! refused; `new` scaffolds a verb crate. They all work on the catalog
//! [`crate::catalog::load_all`] built for the workspace.

mod describe;
mod inspect;
mod list;
mod new;
mod trust;

use std::path::Path;

use clap::{ArgMatches, Command, FromArgMatches, Subcommand};

use crate::catalog::LoadedCatalog;

/// The `verbs` commands.
#[derive(Debug, Subcommand)]
pub enum VerbsCommand {
    /// List every verb component: its verbs, digest, capabilities and trust.
    List(list::ListArgs),
    /// Review third-party components at the terminal and trust them for this workspace.
    Trust(trust::TrustArgs),
    /// Show what a component file would add to the catalog and every reason it would be refused.
    Inspect(inspect::InspectArgs),
    /// Scaffold a verb crate that builds as it is.
    New(new::NewArgs),
}

/// What the commands work on.
pub struct VerbsContext<'a> {
    /// The catalog of the workspace, with its refusals.
    pub loaded: &'a LoadedCatalog,
    /// The workspace root, when one was found.
    pub root: Option<&'a Path>,
    /// Why no workspace was found (the folders looked at), when none was.
    pub no_root: Option<&'a str>,
    /// The user's home folder.
    pub home: Option<&'a Path>,
}

/// The `verbs` subcommand of the root command.
pub fn command() -> Command {
    // After the derive, whose doc comment would otherwise be the about.
    VerbsCommand::augment_subcommands(Command::new("verbs"))
        .about("Manage verb components: list, trust, inspect and scaffold them.")
        .subcommand_required(true)
        .arg_required_else_help(true)
}

/// Run the `verbs` command chosen in `matches`; returns the exit code.
pub async fn run(matches: &ArgMatches, context: VerbsContext<'_>) -> anyhow::Result<u8> {
    match VerbsCommand::from_arg_matches(matches)? {
        VerbsCommand::List(args) => list::run(&args, &context),
        VerbsCommand::Trust(args) => trust::run(&args, &context),
        VerbsCommand::Inspect(args) => inspect::run(&args, &context),
        VerbsCommand::New(args) => new::run(&args, context.home, context.root),
    }
}

/// Print one JSON envelope on stdout.
fn print_envelope(verb: &str, status: &str, data: serde_json::Value) -> anyhow::Result<()> {
    crate::report::print_envelope(&format!("vaultspec.verbs.{verb}.v1"), status, data)?;
    Ok(())
}

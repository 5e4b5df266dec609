//! The `vault` commands the host runs itself at the command line; the
//! `vault` verbs of the builtin components join them.

use anyhow::Context as _;
use clap::{Args, Subcommand};

/// The host's `vault` commands.
#[derive(Debug, Subcommand)]
pub enum VaultCommand {
    // No about text: the catalog's `vault check` group keeps its own.
    #[command(subcommand, about = None, long_about = None)]
    Check(CheckCommand),
}

/// The host's `vault check` commands.
#[derive(Debug, Subcommand)]
pub enum CheckCommand {
    /// Find documents written from a `related:` document that changed after
    /// them: a plan behind its amended ADR, a ledger behind its plan's
    /// steps. Dated from the repository's history (or `modified:` without
    /// one); warnings only, so it exits 0.
    Coherence(CoherenceArgs),
}

#[derive(Debug, Args)]
pub struct CoherenceArgs {
    /// Only the documents of this feature (with or without the leading `#`).
    #[arg(long, short = 'f', value_name = "FEATURE")]
    pub feature: Option<String>,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The host's `review` commands.
#[derive(Debug, Subcommand)]
pub enum ReviewCommand {
    /// Read the passages a review should look at, exactly and bounded:
    /// each `--candidate PATH[:START[-END]]` from the commit `--head` names
    /// (from the tracked working tree without it). No verdict, no writes.
    Context(ReviewArgs),
}

#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// What the change under review is meant to do (1 to 1,000 bytes).
    pub objective: String,
    /// The commit the change starts from.
    #[arg(long, value_name = "REV")]
    pub base: String,
    /// The commit the change ends at (the tracked working tree when absent).
    #[arg(long, value_name = "REV")]
    pub head: Option<String>,
    /// A passage to read: a tracked file, whole or `PATH:START-END` (up to 12).
    #[arg(long, value_name = "PATH[:START[-END]]", required = true)]
    pub candidate: Vec<String>,
    /// How many passages to show whole (1 to 6; 3 unless given).
    #[arg(long, value_name = "N")]
    pub limit: Option<u32>,
    /// Ask no hosted ranker (vaultspec never does; kept for the reference's scripts).
    #[arg(long)]
    pub no_hosted: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The folder `target` names, or the current one: the context verbs
/// need no workspace, only a repository.
fn folder(target: Option<&std::path::Path>) -> anyhow::Result<std::path::PathBuf> {
    match target {
        Some(target) => Ok(target.to_path_buf()),
        None => std::env::current_dir().context("reading the current folder"),
    }
}

/// Run `review context` on the repository `target` names (or the
/// current folder).
pub fn run_review(command: &ReviewCommand, target: Option<&std::path::Path>) -> anyhow::Result<u8> {
    let root = folder(target)?;
    let ReviewCommand::Context(args) = command;
    let request = crate::review::Request {
        objective: args.objective.clone(),
        base: args.base.clone(),
        head: args.head.clone(),
        candidates: args.candidate.clone(),
        limit: args.limit,
        no_hosted: args.no_hosted,
    };
    Ok(crate::review::run(&root, &request, args.json).emit()?)
}

/// The host's `project` commands.
#[derive(Debug, Subcommand)]
pub enum ProjectCommand {
    /// What work is in hand and where to look first before assigning more:
    /// branches, worktrees, open GitHub issues and pull requests (`--repo`),
    /// the vault's live plans and stale links, in attention order. Reads only.
    Context(ProjectArgs),
}

#[derive(Debug, Args)]
pub struct ProjectArgs {
    /// The work about to be assigned (1 to 1,000 bytes).
    pub objective: String,
    /// Also read the open issues and pull requests of this github.com
    /// repository (`OWNER/REPO`, through the `gh` tool and its login).
    #[arg(long, value_name = "OWNER/REPO")]
    pub repo: Option<String>,
    /// An earlier `--json` answer of this command, checked before use.
    #[arg(long, value_name = "FILE")]
    pub previous: Option<std::path::PathBuf>,
    /// How many items to return (1 to 10; 5 unless given).
    #[arg(long, value_name = "N")]
    pub limit: Option<u32>,
    /// Ask no hosted ranker (vaultspec never does; kept for the reference's scripts).
    #[arg(long)]
    pub no_hosted: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Run `project context` on the repository `target` names (or the
/// current folder).
pub fn run_project(
    command: &ProjectCommand,
    target: Option<&std::path::Path>,
) -> anyhow::Result<u8> {
    let root = folder(target)?;
    let ProjectCommand::Context(args) = command;
    let request = crate::project::Request {
        objective: args.objective.clone(),
        repo: args.repo.clone(),
        previous: args.previous.clone(),
        limit: args.limit,
        no_hosted: args.no_hosted,
    };
    Ok(crate::project::run(&root, &request, crate::project::Caller::Person, args.json).emit()?)
}

/// Run one of them on the workspace `target` names (or the current
/// folder's).
pub fn run(command: &VaultCommand, target: Option<&std::path::Path>) -> anyhow::Result<u8> {
    let workspace = crate::workspace::Workspace::resolve(target)?;
    match command {
        VaultCommand::Check(CheckCommand::Coherence(args)) => {
            let printed =
                crate::coherence::run(workspace.root(), args.feature.as_deref(), args.json);
            Ok(printed.emit()?)
        }
    }
}

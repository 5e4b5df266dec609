//! The `vault` commands the host runs itself at the command line; the
//! `vault` verbs of the builtin components join them.

use clap::{Args, Subcommand};

/// The host's `vault` commands.
#[derive(Debug, Subcommand)]
pub enum VaultCommand {
    /// Check the vault.
    #[command(subcommand)]
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

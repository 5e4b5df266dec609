//! The command line of `sync` and `spec rules|skills|agents edit`: their
//! flags and their help.

use clap::{Args, Subcommand};

/// The `spec rules|skills|agents` verb the host runs itself: the rest of
/// each family is the builtin `framework` component's.
#[derive(Debug, Subcommand)]
pub enum FamilyCommand {
    /// Open a source in your editor (`--editor`, else `editor` in
    /// `.vaultspec/config.toml`, else $VISUAL or $EDITOR); at a terminal only.
    Edit(EditArgs),
}

#[derive(Debug, Args)]
pub struct EditArgs {
    /// The source's name.
    pub name: String,
    /// The editor command to run (split like a shell would).
    #[arg(long, value_name = "COMMAND")]
    pub editor: Option<String>,
}

#[derive(Debug, Args)]
pub struct SyncArgs {
    /// Which agent: `all` (every one the workspace is set up for),
    /// `claude`, `gemini`, `antigravity` or `codex`.
    #[arg(default_value = "all", value_parser = ["all", "claude", "gemini", "antigravity", "codex"])]
    pub provider: String,
    /// Show what would change, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Also replace files a person edited or vaultspec did not write.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `vaultspec sync`.
#[derive(Debug, Args)]
pub struct FullSyncArgs {
    #[command(flatten)]
    pub sync: SyncArgs,
    /// Leave a part out: an agent (`claude`, …), `mcp` (no MCP
    /// enrollment) or `hooks` (no hooks; `precommit` is accepted for
    /// compatibility). Repeat it to leave out several.
    #[arg(long, value_name = "PART", value_parser = ["claude", "gemini", "antigravity", "codex", "mcp", "hooks", "precommit"])]
    pub skip: Vec<String>,
}

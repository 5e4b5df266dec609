//! The command line of `sync`, `spec rules|skills|agents …` and
//! `spec system …`: their flags and their help.

use clap::{Args, Subcommand};

/// `spec rules …`, `spec skills …`, `spec agents …`: one family of sources.
#[derive(Debug, Subcommand)]
pub enum FamilyCommand {
    /// List the sources in `.vaultspec/`, builtin or the team's own.
    List(JsonArg),
    /// Add a source of the team's own, from `--body`, `--from-file` or
    /// standard input; `sync` then gives it to every agent.
    Add(AddArgs),
    /// Print a source's text.
    Show(NameArgs),
    /// Open a source in your editor (`--editor`, else `editor` in
    /// `.vaultspec/config.toml`, else $VISUAL or $EDITOR).
    Edit(EditArgs),
    /// Delete a source (asks first at a terminal; `--yes` does not ask).
    Remove(RemoveArgs),
    /// Rename a source; its name in the frontmatter follows.
    Rename(RenameArgs),
    /// Render this family into the agents' folders; `sync` does every
    /// family at once.
    Sync(SyncArgs),
    /// Put a builtin source back as vaultspec ships it.
    Restore(RestoreArgs),
    /// Compare each agent's files with the sources: missing, drifted,
    /// stale or up to date. Exits 1 unless all are up to date.
    Status(JsonArg),
}

/// `spec system …`: the system-prompt parts.
#[derive(Debug, Subcommand)]
pub enum SystemCommand {
    /// List the system-prompt parts in order, and where the composed
    /// prompt goes for each agent.
    Show(JsonArg),
    /// Compose the parts into each agent's system prompt.
    Sync(SyncArgs),
}

#[derive(Debug, Args)]
pub struct JsonArg {
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct NameArgs {
    /// The source's name (`team-style`, or its file name).
    pub name: String,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The new source's name: letters, digits, `.`, `_` and `-`.
    pub name: String,
    /// The source's text after its frontmatter.
    #[arg(long, conflicts_with = "from_file")]
    pub body: Option<String>,
    /// Read that text from a file (`-` for standard input).
    #[arg(long, value_name = "PATH")]
    pub from_file: Option<std::path::PathBuf>,
    /// A one-line description (skills and agents: when to use it).
    #[arg(long)]
    pub description: Option<String>,
    /// Start from a builtin skill's text (skills only): its name.
    #[arg(long, value_name = "SKILL")]
    pub template: Option<String>,
    /// Replace a source of that name.
    #[arg(long)]
    pub force: bool,
    /// Show what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
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
pub struct RemoveArgs {
    /// The source's name.
    pub name: String,
    /// Do not ask.
    #[arg(long, short = 'y', visible_alias = "force")]
    pub yes: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RenameArgs {
    /// The current name.
    pub old_name: String,
    /// The new name.
    pub new_name: String,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The builtin's name or file name (`vaultspec.builtin.md`).
    pub filename: String,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
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
    /// Leave a part out: an agent (`claude`, …) or `mcp` (no MCP
    /// enrollment); `hooks` and `precommit` are accepted for
    /// compatibility. Repeat it to leave out several.
    #[arg(long, value_name = "PART", value_parser = ["claude", "gemini", "antigravity", "codex", "mcp", "hooks", "precommit"])]
    pub skip: Vec<String>,
}

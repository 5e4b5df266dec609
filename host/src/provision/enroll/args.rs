//! The command line of `spec mcps …` and `spec doctor`: their flags and
//! their help.

use clap::{Args, Subcommand};

/// The `spec` commands of MCP enrollment.
#[derive(Debug, Subcommand)]
pub enum SpecCommand {
    /// MCP servers: their definitions, and their enrollment into coding agents.
    #[command(subcommand)]
    Mcps(McpsCommand),
    /// Diagnose this workspace's setup: the framework, the agents it is set
    /// up for and their MCP enrollment. Exits 2 on an error, 1 on a warning.
    Doctor(DoctorArgs),
}

/// `spec mcps …`.
#[derive(Debug, Subcommand)]
pub enum McpsCommand {
    /// List the MCP server definitions in `.vaultspec/mcps/`.
    List(JsonArg),
    /// Show how each agent's MCP file stands against the definitions;
    /// exits 0 only when every one is `ok`.
    Status(TargetArgs),
    /// Add or replace an MCP server definition.
    Add(AddArgs),
    /// Remove an MCP server definition (agents' files are not touched:
    /// `sync --prune` or `uninstall` does that).
    Remove(RemoveArgs),
    /// Write the approved definitions into the agents' MCP files.
    Sync(SyncArgs),
    /// Review the exact commands agents would launch, and approve them (at
    /// a terminal only), or `--revoke` every approval of this workspace.
    Trust(TrustArgs),
    /// Remove the entries vaultspec wrote from the agents' MCP files.
    Uninstall(UninstallArgs),
}

#[derive(Debug, Args)]
pub struct JsonArg {
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct TargetArgs {
    /// Which agent: `all` (every one the workspace is set up for), `claude`,
    /// `codex` or `antigravity`.
    #[arg(default_value = "all")]
    pub provider: String,
    /// Whose file: `project` (the workspace's), `local` (yours, for this
    /// workspace; Claude only) or `user` (yours, for every workspace).
    #[arg(long, default_value = "project")]
    pub scope: String,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The server's name (the file is `.vaultspec/mcps/<NAME>.json`).
    #[arg(long)]
    pub name: String,
    /// The definition, a JSON object: `{"command": "...", "args": [...], "env": {...}}`.
    #[arg(long)]
    pub config: Option<String>,
    /// Replace a definition of that name.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The server's name.
    pub name: String,
    /// Remove without asking.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SyncArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Show what would change, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Overwrite entries that differ from their definition, and adopt ones
    /// vaultspec did not write. Never approves a launch.
    #[arg(long)]
    pub force: bool,
    /// Also remove entries vaultspec wrote whose definition file is gone.
    #[arg(long)]
    pub prune: bool,
}

#[derive(Debug, Args)]
pub struct TrustArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Remove every approval of this workspace instead.
    #[arg(long)]
    pub revoke: bool,
}

#[derive(Debug, Args)]
pub struct UninstallArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Show what would be removed, and remove nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Remove for real: this is destructive, so it asks for this.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Exit non-zero for errors only, not for warnings.
    #[arg(long)]
    pub gate_errors: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

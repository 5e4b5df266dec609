//! The command line of `spec hooks …` and `spec triggers …`.

use clap::{Args, Subcommand};

/// `spec hooks …`.
#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// List the hooks in `.vaultspec/hooks/`: event, matcher, whether each
    /// is approved, and which agents get it.
    List(JsonArg),
    /// Print one hook's file as it is.
    Show(NameArgs),
    /// Check the hooks: files that are not hooks, events no agent here
    /// has, hooks not approved. Exits 1 when something is off.
    Status(JsonArg),
    /// Write the approved hooks into each agent's settings, and take out
    /// the ones no longer approved or there.
    Sync(HookSyncArgs),
    /// Review each hook's exact command and approve it for this machine
    /// (at a terminal only), or `--revoke` every approval of this folder.
    Trust(TrustArgs),
    /// Write a new hook file.
    Add(HookAddArgs),
    /// Open a hook file in your editor (an edited hook needs a new approval).
    Edit(EditArgs),
    /// Delete a hook file (`sync` then takes it out of the agents' settings).
    Remove(RemoveArgs),
    /// Rename a hook file (the renamed file needs a new approval).
    Rename(RenameArgs),
    /// Fire a lifecycle event: the same as `spec triggers run`.
    Run(RunArgs),
}

/// `spec triggers …`.
#[derive(Debug, Subcommand)]
pub enum TriggersCommand {
    /// List the triggers in `.vaultspec/triggers/` and whether each is approved.
    List(JsonArg),
    /// Print one trigger's file as it is.
    Show(NameArgs),
    /// Check the trigger files: events, actions, files that cannot be read.
    /// Exits 1 when something is off.
    Status(JsonArg),
    /// Run the approved, enabled triggers of an event now.
    Run(RunArgs),
    /// Review each trigger's exact commands and approve them for this
    /// machine (at a terminal only), or `--revoke` every approval of this folder.
    Trust(TrustArgs),
    /// Write a new trigger file.
    Add(TriggerAddArgs),
    /// Open a trigger file in your editor (an edited trigger needs a new approval).
    Edit(EditArgs),
    /// Delete a trigger file.
    Remove(RemoveArgs),
    /// Rename a trigger file (the renamed file needs a new approval).
    Rename(RenameArgs),
}

#[derive(Debug, Args)]
pub struct JsonArg {
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct NameArgs {
    /// The file's name, without `.yaml` (or with it).
    pub name: String,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct HookSyncArgs {
    /// Which agent: `all` (every one set up here), `claude`, `gemini`,
    /// `antigravity` or `codex`.
    #[arg(default_value = "all")]
    pub provider: String,
    /// Show what would change, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct TrustArgs {
    /// Approve only this one (by name); all of them by default.
    pub name: Option<String>,
    /// Withdraw every approval of this folder instead (no terminal needed).
    #[arg(long)]
    pub revoke: bool,
    /// Print one JSON document (schema, status, data) instead of text;
    /// approving needs a terminal, so only `--revoke` takes it.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct HookAddArgs {
    /// The hook's name (the file is `.vaultspec/hooks/<NAME>.yaml`).
    pub name: String,
    /// When agents run it: pre_tool_use, post_tool_use, user_prompt_submit,
    /// session_start, session_end, stop or notification.
    #[arg(long)]
    pub event: String,
    /// The shell command agents run.
    #[arg(long)]
    pub command: String,
    /// Which tools it applies to (a tool name or pattern, for the tool events).
    #[arg(long)]
    pub matcher: Option<String>,
    /// Seconds an agent waits for it.
    #[arg(long)]
    pub timeout: Option<u64>,
    #[command(flatten)]
    pub write: WriteArgs,
}

/// How `add` writes the file.
#[derive(Debug, Clone, Copy, Args)]
pub struct WriteArgs {
    /// Write it switched off (`enabled: false`).
    #[arg(long)]
    pub disabled: bool,
    /// Replace a file of that name.
    #[arg(long)]
    pub force: bool,
    /// Show the file that would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct TriggerAddArgs {
    /// The trigger's name (the file is `.vaultspec/triggers/<NAME>.yaml`).
    pub name: String,
    /// The event it runs on (config.synced: after a full `sync`).
    #[arg(long, default_value = "config.synced")]
    pub event: String,
    /// The command it runs; `{root}`, `{event}` and `{path}` are filled in.
    #[arg(long, default_value = "echo \"Trigger triggered\"")]
    pub command: String,
    #[command(flatten)]
    pub write: WriteArgs,
}

#[derive(Debug, Args)]
pub struct EditArgs {
    /// The file's name.
    pub name: String,
    /// The editor to use (else `editor` in `.vaultspec/config.toml`,
    /// $VISUAL or $EDITOR).
    #[arg(long)]
    pub editor: Option<String>,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The file's name.
    pub name: String,
    /// Remove without asking (needed when no one is at a terminal).
    #[arg(long, short = 'y', alias = "force")]
    pub yes: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RenameArgs {
    /// The file's name now.
    pub old: String,
    /// Its new name.
    pub new: String,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The event: config.synced.
    pub event: String,
    /// What fills `{path}` in the commands.
    #[arg(long)]
    pub path: Option<String>,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

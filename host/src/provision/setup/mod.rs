//! `vaultspec install` and `vaultspec uninstall`: make a folder a workspace,
//! and take vaultspec out of one again (with `vaultspec spec …`, the MCP
//! enrollment of [`crate::provision::enroll`], on the same command line).
//!
//! They run natively in the host, never as verb components, because they
//! write what no verb may: the protected entries of `.vaultspec/` (the MCP
//! definition, `workspace.json`) and vaultspec's managed blocks in the root's
//! `.gitignore` and `.gitattributes`. They are not in the catalog, so MCP's
//! `invoke` cannot reach them: only a person at the command line runs them.
//! Every write goes through [`CapStorage`] with [`WriteScope::Setup`], so no
//! link is followed on the way, each file is replaced atomically, and
//! nothing outside those paths can change.
//!
//! `install` is idempotent: what is already there is kept (a file the user
//! edited included) and a second run says nothing changed. `--upgrade`
//! refreshes what vaultspec ships (the MCP definition, the managed blocks);
//! `--force` also puts back the templates and `workspace.json`.

mod git_state;
pub(crate) mod hook_file;
mod install;
pub(crate) mod managed_block;
pub(crate) mod policy;
pub(crate) mod prek;
pub(crate) use install::shell_word;
pub(crate) mod scaffold;
mod uninstall;
mod vault;

use anyhow::Context;
use clap::{ArgMatches, Command, FromArgMatches, Subcommand};
use vaultspec_vault::framework::Kind;

pub use git_state::{GitState, read as git_state};
pub use install::{InstallArgs, utc_timestamp};
pub use uninstall::UninstallArgs;

// The setup commands. (A line comment: the derive would make a doc comment
// here the about text of the command these are added to, the root's.)
#[derive(Debug, Subcommand)]
pub enum SetupCommand {
    /// Set this folder up as a vaultspec workspace: `.vaultspec/`, `.vault/` and the git settings.
    Install(InstallArgs),
    /// Take vaultspec out of this workspace: `.vaultspec/`, and with `--remove-vault` the vault too.
    Uninstall(UninstallArgs),
    /// Render the framework (rules, skills, personas, system prompt) into
    /// every agent set up here, then sync their MCP enrollment.
    Sync(crate::provision::framework::FullSyncArgs),
    /// The workspace's setup: the framework sources agents follow, MCP servers and their enrollment, and a diagnosis.
    #[command(subcommand)]
    Spec(SpecCommand),
    // `vault` commands of the host's own (`vault check coherence`), with
    // no about text: the catalog's `vault` group keeps its own.
    #[command(subcommand, about = None, long_about = None)]
    Vault(vault::VaultCommand),
    /// What a code review should look at.
    #[command(subcommand)]
    Review(vault::ReviewCommand),
    /// What work is in hand across the repository and the vault.
    #[command(subcommand)]
    Project(vault::ProjectCommand),
}

/// The `spec` commands the host runs itself; the `spec` verbs of the
/// builtin `framework` component join them on the command line.
#[derive(Debug, Subcommand)]
pub enum SpecCommand {
    #[command(flatten)]
    Enroll(crate::provision::enroll::SpecCommand),
    /// Rules every agent follows: `.vaultspec/rules/`, rendered into each
    /// agent's rules folder and root file by `sync`.
    #[command(subcommand)]
    Rules(crate::provision::framework::FamilyCommand),
    /// Skills agents can call up: `.vaultspec/skills/<name>/SKILL.md`.
    #[command(subcommand)]
    Skills(crate::provision::framework::FamilyCommand),
    /// Personas agents can hand work to: `.vaultspec/agents/`.
    #[command(subcommand)]
    Agents(crate::provision::framework::FamilyCommand),
    /// Commands the coding agents run on their events (`.vaultspec/hooks/`),
    /// given to each agent once a person approved them.
    #[command(subcommand)]
    Hooks(crate::provision::hooks::HooksCommand),
    /// Commands vaultspec runs on its own events (`.vaultspec/triggers/`),
    /// once a person approved them.
    #[command(subcommand)]
    Triggers(crate::provision::hooks::TriggersCommand),
    /// Whether `install` scaffolds `.pre-commit-config.yaml` with vaultspec's
    /// commit gate, and moving the gate into `prek.toml`.
    #[command(subcommand)]
    Precommit(prek::PrecommitCommand),
    /// Whether vaultspec keeps its block in `.gitignore`.
    #[command(subcommand)]
    Gitignore(policy::PolicyCommand),
    /// Whether vaultspec keeps its block in `.gitattributes`.
    #[command(subcommand)]
    Gitattributes(policy::PolicyCommand),
}

/// Add the setup commands to `root`.
pub fn augment(root: Command) -> Command {
    SetupCommand::augment_subcommands(root)
}

/// Whether `name` is one of the setup commands.
pub fn is_setup(name: &str) -> bool {
    SetupCommand::has_subcommand(name)
}

/// Run the setup command in `matches` (the root's); returns the exit code.
/// `catalog` is the command line's (the builtins' verbs go into the
/// reference files `install` writes).
pub fn run(
    matches: &ArgMatches,
    target: Option<&std::path::Path>,
    no_hints: bool,
    catalog: &crate::catalog::Catalog,
) -> anyhow::Result<u8> {
    // What a killed write left behind goes before these commands write.
    if let Ok(workspace) = crate::workspace::Workspace::resolve(target) {
        workspace.sweep_stale_temps();
    }
    match SetupCommand::from_arg_matches(matches)? {
        SetupCommand::Vault(command) => vault::run(&command, target),
        SetupCommand::Review(command) => vault::run_review(&command, target),
        SetupCommand::Project(command) => vault::run_project(&command, target),
        SetupCommand::Install(args) => install::run(&args, target, no_hints, catalog),
        SetupCommand::Uninstall(args) => uninstall::run(&args, target),
        SetupCommand::Sync(args) => crate::provision::framework::run_sync(&args, target),
        SetupCommand::Spec(SpecCommand::Enroll(command)) => {
            crate::provision::enroll::run(&command, target)
        }
        SetupCommand::Spec(SpecCommand::Rules(command)) => {
            crate::provision::framework::run_family(Kind::Rule, &command, target)
        }
        SetupCommand::Spec(SpecCommand::Skills(command)) => {
            crate::provision::framework::run_family(Kind::Skill, &command, target)
        }
        SetupCommand::Spec(SpecCommand::Agents(command)) => {
            crate::provision::framework::run_family(Kind::Agent, &command, target)
        }
        SetupCommand::Spec(SpecCommand::Hooks(command)) => {
            crate::provision::hooks::run_hooks(&command, &resolved_root(target)?)
        }
        SetupCommand::Spec(SpecCommand::Triggers(command)) => {
            crate::provision::hooks::run_triggers(&command, &resolved_root(target)?)
        }
        SetupCommand::Spec(SpecCommand::Precommit(command)) => match command.policy() {
            Some(policy) => run_policy(policy::Setting::PreCommit, &policy, target),
            None => {
                let prek::PrecommitCommand::Migrate(args) = &command else {
                    unreachable!("only migrate is not a policy command")
                };
                let workspace = crate::workspace::Workspace::resolve(target)?;
                let root = workspace.root();
                let storage = vaultspec_vault::CapStorage::open(root)
                    .with_context(|| format!("opening `{}`", root.display()))?
                    .with_scope(vaultspec_vault::WriteScope::Setup);
                Ok(prek::run(&storage, args))
            }
        },
        SetupCommand::Spec(SpecCommand::Gitignore(command)) => {
            run_policy(policy::Setting::Gitignore, &command, target)
        }
        SetupCommand::Spec(SpecCommand::Gitattributes(command)) => {
            run_policy(policy::Setting::Gitattributes, &command, target)
        }
    }
}

/// The workspace root `target` names (or the current folder's), links
/// resolved: approvals and ownership records are keyed by it, as the
/// reference keys them.
fn resolved_root(target: Option<&std::path::Path>) -> anyhow::Result<std::path::PathBuf> {
    let workspace = crate::workspace::Workspace::resolve(target)?;
    let root = workspace.root();
    root.canonicalize()
        .with_context(|| format!("resolving `{}`", root.display()))
}

/// Run a policy command in the workspace `target` names (or the current
/// folder's).
fn run_policy(
    setting: policy::Setting,
    command: &policy::PolicyCommand,
    target: Option<&std::path::Path>,
) -> anyhow::Result<u8> {
    let workspace = crate::workspace::Workspace::resolve(target)?;
    let root = workspace.root();
    let storage = vaultspec_vault::CapStorage::open(root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(vaultspec_vault::WriteScope::Setup);
    Ok(policy::run(&storage, root, setting, command))
}

/// Print a `vaultspec.<name>.v1` envelope on stdout.
fn print_envelope(name: &str, status: &str, data: serde_json::Value) -> anyhow::Result<()> {
    crate::report::print_envelope(&format!("vaultspec.{name}.v1"), status, data)?;
    Ok(())
}

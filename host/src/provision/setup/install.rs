//! `vaultspec install`: compare the workspace with the core's items, then
//! make what is missing and report each change.

use std::path::Path;

use anyhow::Context;
use clap::Args;
use serde_json::json;
use vaultspec_vault::{CapStorage, Storage, StorageError, WriteScope};

use super::managed_block;
use super::scaffold::{self, Item, Want};
use crate::display::Escaped;
use crate::provision::enroll::{Report, providers};
use crate::provision::framework::{Installed, SyncReport};
use crate::workspace::setup_root;

/// The `install` flags.
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// What to set up: `all` (the default: the core and every coding
    /// agent), `core` (the workspace's folders, templates, MCP definition
    /// and git settings only), or one agent: `claude`, `codex`,
    /// `antigravity` or `gemini` (with the core).
    #[arg(default_value = "all", value_parser = ["all", "core", "claude", "codex", "antigravity", "gemini"])]
    provider: String,
    /// Leave a part out: `core`, `mcp` (no MCP enrollment), `hooks` (no hooks) or an agent.
    /// Repeat it to leave out several.
    #[arg(long, value_name = "PART", value_parser = ["core", "mcp", "hooks", "claude", "codex", "antigravity", "gemini"])]
    skip: Vec<String>,
    /// Show what would change, and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Refresh what vaultspec ships (the MCP definition and the managed
    /// blocks in `.gitignore` and `.gitattributes`) where it differs.
    #[arg(long)]
    upgrade: bool,
    /// Like `--upgrade`, and also put back the default templates and
    /// `workspace.json`, overwriting edits to them.
    #[arg(long)]
    force: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    json: bool,
}

/// What `install` does to one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// Missing: made.
    Create,
    /// Present and different: replaced (or, for a block, added or refreshed).
    Update,
    /// Present and different, left as it is (the user's edit).
    Keep,
    /// Present and as it should be.
    Same,
}

/// One item and what happens to it.
struct Step {
    item: Item,
    change: Change,
    /// What is written, for a file or a block.
    bytes: Option<Vec<u8>>,
}

/// Run `install`; returns the exit code.
pub fn run(
    args: &InstallArgs,
    target: Option<&Path>,
    no_hints: bool,
    catalog: &crate::catalog::Catalog,
) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir().context("reading the current folder")?;
    let root = setup_root(target, &cwd)?;
    let storage = CapStorage::open(&root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(WriteScope::Setup);
    let skipped = |part: &str| args.skip.iter().any(|s| s == part);
    // The team's git policy, committed in `workspace.json`: a declined
    // hook file or block is never made again.
    let policy = super::policy::read(&storage).map_err(anyhow::Error::msg)?;
    // How the person runs this binary again: its name, or its path when
    // `vaultspec` on PATH is another file (or none).
    let me = shell_word(&crate::provision::enroll::own_command());
    let mut items = if skipped("core") {
        Vec::new()
    } else {
        scaffold::core(&policy, &me)
    };
    for item in &mut items {
        if item.path == super::policy::FILE
            && let Want::File(shipped) = &item.want
        {
            let shipped = String::from_utf8_lossy(shipped).into_owned();
            let kept = super::policy::shipped_with_choices(&storage, &shipped)
                .map_err(anyhow::Error::msg)?;
            item.want = Want::File(kept);
        }
    }
    let agents: Vec<&str> = match args.provider.as_str() {
        "all" => providers::KNOWN.to_vec(),
        "core" => Vec::new(),
        one => vec![one],
    };
    let agents: Vec<&str> = agents.into_iter().filter(|a| !skipped(a)).collect();
    if !agents.is_empty() {
        if !skipped("core") || root.join(".vaultspec").is_dir() {
            let now = utc_timestamp();
            if let Some(text) = providers::updated(&root, &agents, &[], &now) {
                items.push(Item {
                    path: providers::FILE.to_owned(),
                    label: "providers",
                    want: Want::File(text.into_bytes()),
                    builtin: true,
                });
            }
        } else {
            anyhow::bail!(
                "`--skip core` needs a workspace that is set up already: `{}` has no `.vaultspec/`",
                root.display()
            );
        }
    }
    let steps = items
        .into_iter()
        .map(|item| plan(&storage, &root, item, args))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if !args.dry_run {
        for step in &steps {
            apply(&storage, step).with_context(|| {
                format!(
                    "writing `{}` in `{}` (everything listed before it is in place; \
                     run `vaultspec install` again once it is fixed)",
                    step.item.path,
                    root.display()
                )
            })?;
        }
    }
    let framework = crate::provision::framework::install(
        &root,
        &agents,
        !skipped("core"),
        args.upgrade,
        args.force,
        args.dry_run,
        catalog,
    )
    .with_context(|| format!("setting up the agents' framework in `{}`", root.display()))?;
    let enrollment = if skipped("mcp") || args.provider == "core" {
        None
    } else {
        Some(crate::provision::enroll::sync_installed(
            &root,
            args.dry_run,
        )?)
    };
    // Hooks a person approved before (on this machine) reach the agents
    // just set up; install never asks.
    let hooks = if skipped("hooks") || args.provider == "core" {
        None
    } else {
        let names: Vec<String> = agents.iter().map(|a| (*a).to_owned()).collect();
        Some(crate::provision::hooks::sync::sync_installed(
            &root,
            &names,
            args.dry_run,
        ))
    };
    if !args.json
        && let Some(hooks) = &hooks
    {
        crate::provision::hooks::sync::print_items(hooks);
    }
    report(
        &steps,
        &framework,
        enrollment.as_ref(),
        &root,
        args,
        no_hints,
        &me,
    )?;
    let failed = enrollment.as_ref().is_some_and(|r| r.failed())
        || hooks.as_ref().is_some_and(|r| r.failed())
        || framework.sync.as_ref().is_some_and(|s| s.failed());
    Ok(if failed {
        crate::report::exit::FINDINGS
    } else {
        crate::report::exit::OK
    })
}

/// The time now in UTC, as the reference stamps `providers.json`
/// (`2026-12-03T11:55:13+00:00`).
pub fn utc_timestamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let date = vaultspec_vault::Date::from_days((secs / 86_400) as i64)
        .unwrap_or_else(vaultspec_vault::Date::today_utc);
    let s = secs % 86_400;
    format!(
        "{date}T{:02}:{:02}:{:02}+00:00",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// Decide what happens to `item`.
fn plan(storage: &CapStorage, root: &Path, item: Item, args: &InstallArgs) -> anyhow::Result<Step> {
    // The list of agents is vaultspec's record, not the user's: it changes
    // whenever an agent is added (and is only planned when it does).
    let refresh = args.force || (args.upgrade && item.builtin) || item.path == providers::FILE;
    let present = std::fs::symlink_metadata(root.join(&item.path)).ok();
    let (change, bytes) = match &item.want {
        Want::Folder => match present {
            Some(meta) if meta.is_dir() => (Change::Same, None),
            Some(_) => anyhow::bail!(
                "`{}` in `{}` is not a folder; move it away and run `vaultspec install` again",
                item.path,
                root.display()
            ),
            None => (Change::Create, None),
        },
        Want::File(want) => match present {
            None => (Change::Create, Some(want.clone())),
            Some(_) => {
                let have = read(storage, &item.path)?;
                if have == *want {
                    (Change::Same, None)
                } else if refresh {
                    (Change::Update, Some(want.clone()))
                } else {
                    (Change::Keep, None)
                }
            }
        },
        Want::Seed(want) => match present {
            None => (Change::Create, Some(want.clone())),
            Some(_) => (Change::Same, None),
        },
        Want::Block(lines) => match present {
            None => (
                Change::Create,
                Some(managed_block::upsert("", &strs(lines)).into_bytes()),
            ),
            Some(_) => {
                let have = String::from_utf8(read(storage, &item.path)?).with_context(|| {
                    format!(
                        "`{}` is not UTF-8 text; vaultspec leaves it alone",
                        item.path
                    )
                })?;
                let want = managed_block::upsert(&have, &strs(lines));
                if want == have {
                    (Change::Same, None)
                } else if !managed_block::present(&have) || refresh {
                    (Change::Update, Some(want.into_bytes()))
                } else {
                    (Change::Keep, None)
                }
            }
        },
    };
    Ok(Step {
        item,
        change,
        bytes,
    })
}

fn read(storage: &CapStorage, path: &str) -> anyhow::Result<Vec<u8>> {
    storage
        .read(path)
        .with_context(|| format!("reading `{path}`"))
}

/// Make the change of `step`.
fn apply(storage: &CapStorage, step: &Step) -> Result<(), StorageError> {
    match (step.change, &step.item.want, &step.bytes) {
        (Change::Create | Change::Update, Want::Folder, _) => storage.create_dir(&step.item.path),
        (Change::Create | Change::Update, _, Some(bytes)) => storage.write(&step.item.path, bytes),
        _ => Ok(()),
    }
}

/// Print what changed, as text or JSON.
fn report(
    steps: &[Step],
    framework: &Installed,
    enrollment: Option<&Report>,
    root: &Path,
    args: &InstallArgs,
    no_hints: bool,
    me: &str,
) -> anyhow::Result<()> {
    let changed = |c: Change| steps.iter().filter(move |s| s.change == c);
    // An older release's workspace: install does not migrate it (the
    // migrations can remove documents, so a person runs them on purpose).
    let pending: Vec<&str> = vaultspec_vault::CapStorage::open(root)
        .ok()
        .and_then(|storage| vaultspec_vault::migrations::state(&storage).ok())
        .map(|state| state.pending.iter().map(|(name, _)| *name).collect())
        .unwrap_or_default();
    let sources_did = |what: &str| framework.sources.iter().any(|(_, o)| *o == what);
    let synced = framework.sync.as_ref().map_or("unchanged", |s| s.status());
    let status = if changed(Change::Create).next().is_some() || sources_did("created") {
        "created"
    } else if changed(Change::Update).next().is_some()
        || sources_did("updated")
        || synced != "unchanged"
    {
        "updated"
    } else {
        "unchanged"
    };
    if args.json {
        let items: Vec<_> = steps
            .iter()
            .filter(|s| matches!(s.change, Change::Create | Change::Update))
            .map(|s| json!([s.item.path, s.item.label]))
            .collect();
        let kept: Vec<_> = changed(Change::Keep).map(|s| &s.item.path).collect();
        let installed = crate::provision::enroll::providers::installed(root);
        let mut data = json!({
            "action": if args.dry_run { "dry_run" } else { "install" },
            "items": items,
            "kept": kept,
            "providers": installed,
            "has_mcp": true,
            "path": root.display().to_string(),
            "warnings": [],
            "environment": {},
            "pending_migrations": pending,
        });
        let mut warnings: Vec<String> = framework.notes.clone();
        if let Some(sync) = &framework.sync {
            warnings.extend(sync.warnings());
        }
        data["framework"] = json!({
            "sources": framework
                .sources
                .iter()
                .filter(|(_, o)| *o != "unchanged")
                .map(|(p, o)| json!([p, o]))
                .collect::<Vec<_>>(),
            "items": framework.sync.as_ref().map(SyncReport::items).unwrap_or_default(),
        });
        if let Some(enrollment) = enrollment {
            data["mcp"] = enrollment.data();
            warnings.extend(enrollment.warnings.iter().cloned());
        }
        data["warnings"] = json!(warnings);
        let status = if args.dry_run { "unchanged" } else { status };
        return super::print_envelope("install", status, data);
    }
    let root_shown = Escaped::new(&root.display().to_string()).to_string();
    let mut out = String::new();
    if status == "unchanged" {
        out.push_str(&format!(
            "vaultspec is already set up in {root_shown}: nothing to change.\n"
        ));
    } else if args.dry_run {
        out.push_str(&format!(
            "Would set up vaultspec in {root_shown} (dry run: nothing written):\n"
        ));
    } else {
        out.push_str(&format!("Set up vaultspec in {root_shown}:\n"));
    }
    for step in steps {
        let (mark, what) = match (step.change, &step.item.want) {
            (Change::Create, _) => ("+", "created"),
            (Change::Update, Want::Block(_)) => ("~", "managed block added or refreshed"),
            (Change::Update, _) => ("~", "replaced with vaultspec's version"),
            (Change::Keep, _) => (
                "=",
                "kept as it is (it differs from vaultspec's; --force replaces it)",
            ),
            (Change::Same, _) => continue,
        };
        out.push_str(&format!("  {mark} {}  {what}\n", step.item.path));
    }
    out.push_str(&framework_text(framework));
    if let Some(enrollment) = enrollment {
        // Servers waiting for approval are summed up by the report's own
        // closing lines; only the other warnings are printed.
        let others: Vec<String> = enrollment
            .warnings
            .iter()
            .filter(|w| !w.contains(crate::provision::enroll::sync::NOT_APPROVED))
            .cloned()
            .collect();
        crate::provision::enroll::print_warnings(&others);
        out.push_str(&enrollment_text(enrollment, me));
    }
    let same = changed(Change::Same).count();
    if same > 0 && status != "unchanged" {
        out.push_str(&format!("  ({same} already in place)\n"));
    }
    if me != "vaultspec" {
        out.push_str(&format!(
            "  note: `vaultspec` on your PATH is not this binary, so the commands here name it by \
             its path, and so would the agents' MCP entries: a path that holds on this machine \
             only{}. To use the short name, run `cargo install --locked --path host` in \
             vaultspec's checkout, then this install again.\n",
            if me.contains("/target/") {
                " (and, in a build folder, only until the next build)"
            } else {
                ""
            }
        ));
    }
    if !pending.is_empty() {
        out.push_str(&format!(
            "  {} schema migration(s) from an older release are pending ({}): `{me} migrations \
             run --dry-run` shows what they change, `{me} migrations run` applies them\n",
            pending.len(),
            pending.join(", ")
        ));
    }
    if status == "created" && !args.dry_run && !no_hints {
        // Not `vaultspec mcp`: an agent starts the server, and at a terminal
        // it only waits for JSON.
        out.push_str(&format!(
            "\nNext:\n  See how to write a first document\n    {me} vault add --help\n  \
             Check what your coding agents were given\n    {me} spec doctor\n",
        ));
    }
    crate::report::write_stdout(&out)?;
    Ok(())
}

fn strs(lines: &[String]) -> Vec<&str> {
    lines.iter().map(String::as_str).collect()
}

/// `word` as a shell reads it back: as it is when it holds nothing a shell
/// acts on, else in single quotes.
pub(crate) fn shell_word(word: &str) -> String {
    if word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c))
    {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// What the framework part of an install did, for the text report: one
/// line for the sources, one for the agents' files, then the notes.
fn framework_text(framework: &Installed) -> String {
    let mut out = String::new();
    let count = |what: &str| framework.sources.iter().filter(|(_, o)| *o == what).count();
    let (created, updated, kept) = (count("created"), count("updated"), count("kept"));
    if created + updated + kept > 0 {
        out.push_str(&format!(
            "  {} framework sources in .vaultspec/ (rules, skills, agents, system): \
             {created} created, {updated} refreshed, {kept} kept as they are\n",
            if created + updated > 0 { "+" } else { "=" }
        ));
    }
    if let Some(sync) = &framework.sync {
        crate::provision::framework::print_warnings(&sync.warnings());
        out.push_str(&format!(
            "  agents' rules, skills and personas:\n{}",
            sync.text(false)
        ));
    }
    for note in &framework.notes {
        out.push_str(&format!("  note: {note}\n"));
    }
    out
}

/// What the MCP enrollment of an install did, for the text report.
fn enrollment_text(report: &Report, me: &str) -> String {
    let mut out = String::new();
    let mut unapproved = false;
    for item in &report.items {
        let word = item.outcome.word();
        unapproved |= word == "skipped";
        out.push_str(&format!(
            "  {} MCP server {} for {}: {word}\n",
            if word == "created" || word == "updated" {
                "+"
            } else {
                "="
            },
            Escaped::new(&item.name),
            item.group
        ));
    }
    if unapproved {
        out.push_str(&format!(
            "  The MCP server is enrolled once you approve its launch at this terminal:\n    \
             {me} spec mcps trust && {me} spec mcps sync\n",
        ));
    }
    out
}

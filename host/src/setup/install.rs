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
use crate::workspace::setup_root;

/// The `install` flags.
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// What to set up: `all` (the default) or `core`, which today are the
    /// same: the workspace's folders, templates, MCP definition and git
    /// settings.
    #[arg(default_value = "all", value_parser = ["all", "core"])]
    provider: String,
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
pub fn run(args: &InstallArgs, target: Option<&Path>, no_hints: bool) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir().context("reading the current folder")?;
    let root = setup_root(target, &cwd)?;
    let storage = CapStorage::open(&root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(WriteScope::Setup);
    let steps = scaffold::core()
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
    report(&steps, &root, args, no_hints)?;
    Ok(crate::cli::exit::OK)
}

/// Decide what happens to `item`.
fn plan(storage: &CapStorage, root: &Path, item: Item, args: &InstallArgs) -> anyhow::Result<Step> {
    let refresh = args.force || (args.upgrade && item.builtin);
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
        Want::Block(lines) => match present {
            None => (
                Change::Create,
                Some(managed_block::upsert("", lines).into_bytes()),
            ),
            Some(_) => {
                let have = String::from_utf8(read(storage, &item.path)?).with_context(|| {
                    format!(
                        "`{}` is not UTF-8 text; vaultspec leaves it alone",
                        item.path
                    )
                })?;
                let want = managed_block::upsert(&have, lines);
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
fn report(steps: &[Step], root: &Path, args: &InstallArgs, no_hints: bool) -> anyhow::Result<()> {
    let changed = |c: Change| steps.iter().filter(move |s| s.change == c);
    let status = if changed(Change::Create).next().is_some() {
        "created"
    } else if changed(Change::Update).next().is_some() {
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
        let data = json!({
            "action": if args.dry_run { "dry_run" } else { "install" },
            "items": items,
            "kept": kept,
            "providers": [],
            "has_mcp": true,
            "path": root.display().to_string(),
            "warnings": [],
            "environment": {},
        });
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
    let same = changed(Change::Same).count();
    if same > 0 && status != "unchanged" {
        out.push_str(&format!("  ({same} already in place)\n"));
    }
    if status == "created" && !args.dry_run && !no_hints {
        out.push_str(
            "\nNext:\n  See how to write a first document\n    vaultspec vault add --help\n  \
             Serve this vault to a coding agent\n    vaultspec mcp\n",
        );
    }
    crate::cli::write_stdout(&out)?;
    Ok(())
}

//! `vaultspec verbs trust`: a person reviews components and approves them.
//!
//! Approval needs a person: stdin must be a terminal, the answer is read from
//! the controlling terminal, and `--json` output never grants anything. What
//! is approved is bound to the workspace, the file and its sha256
//! ([`crate::trust::Grant`]). `--revoke` withdraws approvals and needs no
//! terminal: withdrawing trust is always safe.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context as _, bail};
use clap::Args;
use serde_json::json;

use super::describe::{component_json, component_text};
use super::{VerbsContext, print_envelope};
use crate::catalog::{Origin, Trust, VerbComponent};
use crate::display::Escaped;
use crate::trust::{Grant, Terminal, TrustStore, identity, stdin_is_terminal};

/// Arguments of `verbs trust`.
#[derive(Debug, Args)]
pub struct TrustArgs {
    /// Components to review, by name (the file stem) or path (default: every untrusted one, or with `--revoke` every trusted one)
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Withdraw trust instead of granting it
    #[arg(long)]
    pub revoke: bool,
    /// Print one JSON document instead of text (never grants trust)
    #[arg(long)]
    pub json: bool,
}

/// Review and trust (or revoke); exit 0 when everything asked for was done.
pub fn run(args: &TrustArgs, context: &VerbsContext<'_>) -> anyhow::Result<u8> {
    let Some(root) = context.root else {
        bail!(
            "trust is granted per workspace, and there is none: {}",
            context
                .no_root
                .unwrap_or("pass `--target` with a folder that has `.vaultspec/`")
        )
    };
    let Some(home) = context.home else {
        bail!("no home folder: set `HOME` to keep the trust file in")
    };
    if args.revoke {
        return revoke(args, root, home);
    }
    let selected = select(args, context)?;
    let pending: Vec<&Arc<VerbComponent>> = selected
        .iter()
        .filter(|(_, trust)| *trust == Trust::Untrusted)
        .map(|(c, _)| *c)
        .collect();
    let names = pending
        .iter()
        .map(|c| Escaped::new(&c.name).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    if args.json {
        let data = json!({
            "granted": false,
            "message": "trust can only be granted by a person at a terminal, never with `--json`",
            "components": pending.iter().map(|c| component_json(c, Trust::Untrusted, Some(root))).collect::<Vec<_>>(),
        });
        print_envelope("trust", "failed", data)?;
        return Ok(1);
    }
    if pending.is_empty() {
        println!("nothing to trust: every third-party component named is trusted already");
        return Ok(0);
    }
    if !stdin_is_terminal() {
        eprintln!(
            "error: trust can only be granted by a person at a terminal, and stdin is not one: run `vaultspec verbs trust {names}` in a terminal"
        );
        return Ok(1);
    }
    let store = TrustStore::read(home)?;
    let mut terminal = Terminal::open()?;
    let mut approved = Vec::new();
    let mut declined = Vec::new();
    for component in pending {
        let Origin::File(path) = &component.origin else {
            continue;
        };
        let mut review = component_text(component, Trust::Untrusted, Some(root));
        if let Some(old) = store.grants().iter().find(|g| g.is_for(root, path)) {
            review.push_str(&format!(
                "  changed since it was trusted (then sha256:{})\n",
                Escaped::new(&old.sha256)
            ));
        }
        terminal.say(&format!("\n{review}"))?;
        let question = format!(
            "trust `{}` in `{}`?",
            Escaped::new(&component.name),
            Escaped::new(&root.display().to_string())
        );
        if terminal.confirm(&question)? {
            approved.push(Grant::new(root, path, &component.digest));
            println!(
                "trusted `{}` ({})",
                Escaped::new(&component.name),
                component.digest
            );
        } else {
            declined.push(component.name.clone());
            println!("not trusted: `{}`", Escaped::new(&component.name));
        }
    }
    if !approved.is_empty() {
        TrustStore::update(home, |grants| {
            grants.retain(|g| {
                !approved
                    .iter()
                    .any(|a| g.workspace == a.workspace && g.path == a.path)
            });
            grants.extend(approved.iter().cloned());
        })
        .context("saving the trust file")?;
    }
    Ok(if declined.is_empty() { 0 } else { 1 })
}

/// The components the names pick (all third-party ones when none is given).
fn select<'c>(
    args: &TrustArgs,
    context: &VerbsContext<'c>,
) -> anyhow::Result<Vec<(&'c Arc<VerbComponent>, Trust)>> {
    let catalog = &context.loaded.catalog;
    let third_party: Vec<_> = catalog
        .components()
        .iter()
        .enumerate()
        .map(|(i, c)| (c, catalog.component_trust(i)))
        .filter(|(_, trust)| *trust != Trust::Builtin)
        .collect();
    if args.names.is_empty() {
        return Ok(third_party);
    }
    let mut selected = Vec::new();
    for name in &args.names {
        let found: Vec<_> = third_party
            .iter()
            .filter(|(c, _)| names(c, name))
            .cloned()
            .collect();
        if found.is_empty() {
            if catalog
                .components()
                .iter()
                .any(|c| c.name == *name && c.origin == Origin::Builtin)
            {
                bail!(
                    "`{}` is a builtin component: builtins need no trust",
                    Escaped::new(name)
                );
            }
            let refusals: Vec<String> = context
                .loaded
                .refusals
                .iter()
                .filter(|r| r.component == *name)
                .map(|r| r.reason.to_string())
                .collect();
            if !refusals.is_empty() {
                bail!(
                    "`{}` was refused, so it cannot be trusted: {}",
                    Escaped::new(name),
                    refusals.join("; ")
                );
            }
            let known: Vec<String> = third_party
                .iter()
                .map(|(c, _)| Escaped::new(&c.name).to_string())
                .collect();
            bail!(
                "no third-party component `{}` in `.vaultspec/verbs/` or `~/.vaultspec/verbs/` (installed: {})",
                Escaped::new(name),
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            );
        }
        selected.extend(found);
    }
    Ok(selected)
}

/// Whether `name` names this component: its name, or its file's path.
fn names(component: &VerbComponent, name: &str) -> bool {
    match &component.origin {
        Origin::File(path) => component.name == name || identity(Path::new(name)) == identity(path),
        Origin::Builtin | Origin::Host => false,
    }
}

/// Withdraw the grants of this workspace for the named components (by name
/// or path, installed or not), or all of them when none is named.
fn revoke(args: &TrustArgs, root: &Path, home: &Path) -> anyhow::Result<u8> {
    let workspace = identity(root);
    let named = |grant: &Grant| {
        args.names.is_empty()
            || args.names.iter().any(|name| {
                grant
                    .path
                    .file_stem()
                    .is_some_and(|stem| stem == name.as_str())
                    || identity(Path::new(name)) == grant.path
            })
    };
    let mut revoked = Vec::new();
    TrustStore::update(home, |grants| {
        grants.retain(|g| {
            let drop = g.workspace == workspace && named(g);
            if drop {
                revoked.push(g.path.display().to_string());
            }
            !drop
        })
    })
    .context("saving the trust file")?;
    if args.json {
        let status = if revoked.is_empty() {
            "unchanged"
        } else {
            "removed"
        };
        print_envelope("trust", status, json!({ "revoked": revoked }))?;
    } else if revoked.is_empty() {
        println!(
            "nothing to revoke: no component named is trusted in `{}`",
            Escaped::new(&root.display().to_string())
        );
    } else {
        for path in &revoked {
            println!("revoked trust in `{}`", Escaped::new(path));
        }
    }
    Ok(0)
}

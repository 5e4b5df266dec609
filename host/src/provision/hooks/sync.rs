//! `spec hooks sync`, and the hook pass of `sync` and `install`: every
//! enabled hook a person approved goes into the file of each agent set up
//! here that has its event; hooks not approved, edited since, disabled or
//! removed come out.

use std::path::Path;

use super::ledger::Ledger;
use super::render;
use super::scripts::{Folder, scope_dir};
use super::spec::{self, Hook, PROVIDERS};
use crate::provision::enroll::providers;
use crate::provision::enroll::sync::{Item, Outcome, Report};
use crate::provision::enroll::targets::Homes;

/// The agents set up in the workspace at `root` that take hooks, in
/// report order.
pub fn hook_providers(root: &Path) -> Vec<String> {
    let installed = providers::installed(root);
    PROVIDERS
        .iter()
        .filter(|p| installed.iter().any(|i| i == *p))
        .map(|p| (*p).to_owned())
        .collect()
}

/// The hooks that may be rendered: enabled, and approved as they are now;
/// a warning for each one that is not approved.
pub fn approved<'h>(root: &Path, homes: &Homes, hooks: &'h [Hook]) -> (Vec<&'h Hook>, Vec<String>) {
    let ledger = Ledger::read(homes);
    let dir = scope_dir(root, Folder::Hooks);
    let mut warnings = Vec::new();
    let mut approved = Vec::new();
    for hook in hooks.iter().filter(|h| h.enabled) {
        if ledger.approves(&dir, &hook.script) {
            approved.push(hook);
        } else {
            warnings.push(format!(
                "Hook '{}' is not approved on this machine (or changed since), so it is not \
                 rendered; review it, then approve it at a terminal with `vaultspec spec hooks trust`.",
                hook.script.file_name
            ));
        }
    }
    (approved, warnings)
}

/// Sync `chosen` (names from [`hook_providers`]) in the workspace at `root`.
pub fn sync(root: &Path, homes: &Homes, chosen: &[String], dry_run: bool) -> Report {
    let (hooks, mut warnings) = spec::load(root);
    let (approved, mut unapproved) = approved(root, homes, &hooks);
    warnings.append(&mut unapproved);
    let mut report = Report::default();
    for provider in chosen {
        let (payload, mut notes) = spec::payload(provider, &approved);
        warnings.append(&mut notes);
        match render::render(root, homes, provider, &payload, dry_run) {
            Ok(rendered) => {
                warnings.extend(rendered.warnings);
                if let Some(outcome) = rendered.outcome {
                    report.items.push(Item {
                        name: rendered.file.to_owned(),
                        outcome,
                        group: provider.clone(),
                        detail: None,
                    });
                }
            }
            Err(err) => report.items.push(Item {
                name: render::native_file(provider).to_owned(),
                outcome: Outcome::Failed,
                group: provider.clone(),
                detail: Some(format!("{err:#}")),
            }),
        }
    }
    report.warnings = warnings;
    report
}

/// The hook pass of `sync` and `install`: `providers` (those the run
/// chose) that take hooks; nothing without a home folder, where approvals live.
pub fn sync_installed(root: &Path, providers: &[String], dry_run: bool) -> Report {
    let Some(homes) = Homes::from_env() else {
        return Report::default();
    };
    // Receipts are keyed by the resolved path of each agent's file.
    let root = &root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let chosen: Vec<String> = hook_providers(root)
        .into_iter()
        .filter(|p| providers.contains(p))
        .collect();
    sync(root, &homes, &chosen, dry_run)
}

/// The files a hook pass changed, one line each on stderr (the command's
/// own report is on stdout).
pub fn print_items(report: &Report) {
    for item in &report.items {
        eprintln!(
            "hooks: {} {} ({})",
            item.outcome.word(),
            item.name,
            item.group
        );
    }
}

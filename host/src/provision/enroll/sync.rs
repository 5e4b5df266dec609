//! Bringing the agents' files in line with the definitions, and taking
//! vaultspec's entries out of them again.
//!
//! What a run may change is decided per entry (spec/mcp-enrollment.md §5):
//! only approved launches are written; an entry vaultspec wrote and nobody
//! touched since is refreshed in place; an entry a person edited, or one
//! vaultspec never wrote, is left alone unless `--force` says otherwise.
//! Each file is written once, atomically, and only when it changed.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};

use super::consent::{Approval, Ledger};
use super::definitions::{self, Definition};
use super::native::{self, Native};
use super::ownership::{Managed, Ownership, fingerprint};
use super::targets::{Provider, Scope, Target};
use crate::file_lock::FileLock;

/// What happened to one server in one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Created,
    Updated,
    Unchanged,
    Removed,
    Skipped,
    Failed,
}

impl Outcome {
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Created => "created",
            Outcome::Updated => "updated",
            Outcome::Unchanged => "unchanged",
            Outcome::Removed => "removed",
            Outcome::Skipped => "skipped",
            Outcome::Failed => "failed",
        }
    }
}

/// One line of a report.
#[derive(Debug, Clone)]
pub struct Item {
    pub name: String,
    pub outcome: Outcome,
    /// The provider's name.
    pub group: String,
    /// Why, for a skipped or failed item; the old and new launch for a
    /// refreshed one.
    pub detail: Option<String>,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub items: Vec<Item>,
    pub warnings: Vec<String>,
}

impl Report {
    fn item(&mut self, name: &str, outcome: Outcome, group: Provider, detail: Option<String>) {
        self.items.push(Item {
            name: name.to_owned(),
            outcome,
            group: group.name().to_owned(),
            detail,
        });
    }

    /// The envelope status: `unchanged` for nothing, the one word when all
    /// agree, else `mixed`.
    pub fn status(&self) -> &'static str {
        let mut words = self.items.iter().map(|i| i.outcome.word());
        match words.next() {
            None => "unchanged",
            Some(first) if words.all(|w| w == first) => first,
            Some(_) => "mixed",
        }
    }

    /// Whether any item failed (the exit code is then 1).
    pub fn failed(&self) -> bool {
        self.items.iter().any(|i| i.outcome == Outcome::Failed)
    }

    /// The exit code: 1 when any item failed, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.failed() {
            crate::report::exit::FINDINGS
        } else {
            crate::report::exit::OK
        }
    }

    /// A report failing every target with `why`: the run could not start.
    pub fn fail_all(targets: &[Target], why: &str) -> Report {
        let mut report = Report::default();
        for target in targets {
            report.item(
                &target.path.display().to_string(),
                Outcome::Failed,
                target.provider,
                Some(why.to_owned()),
            );
        }
        report
    }

    /// The `data` of the envelope.
    pub fn data(&self) -> Value {
        let items: Vec<Value> = self
            .items
            .iter()
            .map(|i| {
                let mut item =
                    json!({"name": i.name, "outcome": i.outcome.word(), "group": i.group});
                if let Some(detail) = &i.detail {
                    item["detail"] = json!(detail);
                }
                item
            })
            .collect();
        let mut data = json!({ "items": items });
        if !self.warnings.is_empty() {
            data["warnings"] = json!(self.warnings);
        }
        data
    }
}

/// What a sync may do.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    pub dry_run: bool,
    pub force: bool,
    pub prune: bool,
}

/// What every warning about a server not approved yet says, so a report
/// that sums them up (`install`'s) can tell them from the rest.
pub const NOT_APPROVED: &str = "is not approved for";

/// The warning for server `name`, not approved for `provider` in `scope`;
/// under `--force`, that it grants no consent.
fn unapproved(name: &str, provider: &str, scope: &str, force: bool) -> String {
    let force = match force {
        true => " --force does not grant consent to run a command.",
        false => "",
    };
    format!(
        "MCP server '{name}' {NOT_APPROVED} {provider} ({scope}); review it at a terminal \
         with `vaultspec spec mcps trust {provider} --scope {scope}`, then sync again.{force}"
    )
}

/// The workspace a run works on.
pub struct Workspace<'a> {
    /// The workspace root, resolved.
    pub root: &'a Path,
    pub definitions: &'a [Definition],
    pub ledger: &'a Ledger,
}

/// The names vaultspec owns in `native`, from the records and, for Codex
/// outside the project, from its block.
pub fn managed_names(target: &Target, native: &Native, records: &Managed) -> BTreeSet<String> {
    let mut managed: BTreeSet<String> = records
        .keys()
        .filter(|name| native.in_our_part(name))
        .cloned()
        .collect();
    if target.scope != Scope::Project {
        managed.extend(native.block_names());
    }
    managed
}

/// Bring every target in line with the workspace's definitions. The
/// ownership records of `ownership` are updated and written, under their
/// lock, unless this is a dry run.
pub fn sync(
    ws: &Workspace<'_>,
    targets: &[Target],
    ownership: &mut Ownership,
    options: Options,
) -> Report {
    let mut report = Report::default();
    let _lock = match lock(ownership, targets, options.dry_run) {
        Ok(lock) => lock,
        Err(failed) => return failed,
    };
    for target in targets {
        sync_target(ws, target, ownership, options, &mut report);
    }
    if !options.dry_run
        && let Err(err) = ownership.place.write(ownership.render().as_deref())
    {
        report.warnings.push(format!(
            "The enrollment changed but its ownership record could not be saved: {err:#}"
        ));
    }
    report
}

fn sync_target(
    ws: &Workspace<'_>,
    target: &Target,
    ownership: &mut Ownership,
    options: Options,
    report: &mut Report,
) {
    let provider = target.provider;
    let shown = target.path.display().to_string();
    let mut native = match Native::load(target) {
        Ok(native) => native,
        Err(err) => {
            report.item(&shown, Outcome::Failed, provider, Some(err));
            return;
        }
    };
    let records = ownership.managed(target);
    let mut managed = managed_names(target, &native, &records);
    let mut declined = BTreeSet::new();
    let present = native.servers();
    let names = ws.definitions.iter().map(|d| d.name.clone()).collect();
    let takeovers = super::status::takeovers(&native, &names);
    for definition in ws.definitions {
        let name = definition.name.as_str();
        let launch = match definitions::normalise(definition, provider) {
            Ok(launch) => launch,
            Err(warning) => {
                report.warnings.push(warning);
                continue;
            }
        };
        if !ws
            .ledger
            .approves(&Approval::of(ws.root, definition, &launch, target))
        {
            report.item(name, Outcome::Skipped, provider, None);
            report.warnings.push(unapproved(
                name,
                &provider.to_string(),
                target.scope.name(),
                options.force,
            ));
            declined.insert(name.to_owned());
            continue;
        }
        let entry = launch.entry();
        match present.get(name) {
            None => {
                native.set(name, Some(&entry));
                managed.insert(name.to_owned());
                report.item(name, Outcome::Created, provider, None);
            }
            // `vaultspec-core`'s own server, recorded as its or not: the
            // approval of our launch in its place is the consent to take
            // it over (the person was shown both at `trust`).
            Some(current) if takeovers.contains_key(name) => {
                let detail = format!(
                    "took over from vaultspec-core: {} -> {}",
                    launch_line(current),
                    launch.line()
                );
                native.set(name, Some(&entry));
                managed.insert(name.to_owned());
                report.item(name, Outcome::Updated, provider, Some(detail));
            }
            Some(current) if managed.contains(name) => {
                if *current == entry {
                    report.item(name, Outcome::Unchanged, provider, None);
                } else if options.force {
                    native.set(name, Some(&entry));
                    report.item(name, Outcome::Updated, provider, None);
                } else {
                    match records.get(name) {
                        Some(Some(recorded)) if *recorded == fingerprint(current) => {
                            let old = launch_line(current);
                            native.set(name, Some(&entry));
                            report.warnings.push(format!(
                                "MCP server '{name}' launch refreshed to the current standard: '{old}' -> '{}' \
                                 (vaultspec wrote this entry and nobody changed it since; an entry edited by \
                                 hand is never refreshed on its own).",
                                launch.line()
                            ));
                            report.item(
                                name,
                                Outcome::Updated,
                                provider,
                                Some(format!("{old} -> {}", launch.line())),
                            );
                        }
                        Some(Some(_)) => {
                            declined.insert(name.to_owned());
                            report.warnings.push(format!(
                                "MCP server '{name}' in {shown} differs from its definition (use --force to overwrite)."
                            ));
                            report.item(name, Outcome::Skipped, provider, None);
                        }
                        _ => {
                            declined.insert(name.to_owned());
                            report.warnings.push(format!(
                                "MCP server '{name}' in {shown} differs from its definition and has no recorded \
                                 fingerprint to verify against; use --force to overwrite."
                            ));
                            report.item(name, Outcome::Skipped, provider, None);
                        }
                    }
                }
            }
            Some(_) if options.force => {
                if native.outside_our_part(name) {
                    report.item(
                        name,
                        Outcome::Failed,
                        provider,
                        Some(format!(
                            "{shown} declares it outside vaultspec's marker block; move it into the block \
                             or remove it by hand, then sync again"
                        )),
                    );
                    continue;
                }
                native.set(name, Some(&entry));
                managed.insert(name.to_owned());
                report.item(name, Outcome::Updated, provider, None);
            }
            Some(_) => {
                report.warnings.push(format!(
                    "MCP server '{name}' in {shown} is externally managed; use --force to adopt it explicitly."
                ));
                report.item(name, Outcome::Skipped, provider, None);
            }
        }
    }
    if options.prune {
        for name in managed.clone() {
            if !definition_file_exists(ws.root, &name) {
                native.set(&name, None);
                managed.remove(&name);
                report.item(&name, Outcome::Removed, provider, None);
            }
        }
    }
    let now = native.servers();
    let new_records: Managed = managed
        .into_iter()
        .filter(|name| now.contains_key(name))
        .map(|name| {
            let print = if declined.contains(&name) {
                records.get(&name).cloned().flatten()
            } else {
                now.get(&name).map(fingerprint)
            };
            (name, print)
        })
        .collect();
    if native.changed()
        && !options.dry_run
        && let Err(err) = native::place(target).write(native.text().as_deref())
    {
        report.item(&shown, Outcome::Failed, provider, Some(format!("{err:#}")));
        return;
    }
    ownership.set(target, new_records);
}

/// The ownership file's lock for a run that writes (none for a dry run,
/// which writes nothing); when it cannot be taken, a report failing every
/// target.
fn lock(
    ownership: &Ownership,
    targets: &[Target],
    dry_run: bool,
) -> Result<Option<FileLock>, Report> {
    if dry_run {
        return Ok(None);
    }
    FileLock::take(&ownership.path())
        .map(Some)
        .map_err(|err| Report::fail_all(targets, &format!("{err:#}")))
}

/// Whether a definition file named `name` is in the folder, parsed or not:
/// only a file that is gone lets `--prune` remove an entry.
fn definition_file_exists(root: &Path, name: &str) -> bool {
    let dir = root.join(definitions::FOLDER);
    [format!("{name}.json"), format!("{name}.builtin.json")]
        .iter()
        .any(|file| std::fs::symlink_metadata(dir.join(file)).is_ok())
}

/// An entry's launch as one line, for messages.
pub fn launch_line(entry: &Value) -> String {
    let command = entry
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let args = entry
        .get("args")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect::<Vec<_>>())
        .unwrap_or_default();
    std::iter::once(command)
        .chain(args)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Remove vaultspec's entries from every target, and their records.
pub fn uninstall(targets: &[Target], ownership: &mut Ownership, dry_run: bool) -> Report {
    let mut report = Report::default();
    let _lock = match lock(ownership, targets, dry_run) {
        Ok(lock) => lock,
        Err(failed) => return failed,
    };
    for target in targets {
        let shown = target.path.display().to_string();
        let records = ownership.managed(target);
        match Native::load(target) {
            Ok(mut native) => {
                for name in managed_names(target, &native, &records) {
                    native.set(&name, None);
                    report.item(&name, Outcome::Removed, target.provider, None);
                }
                if native.changed()
                    && !dry_run
                    && let Err(err) = native::place(target).write(native.text().as_deref())
                {
                    report.item(
                        &shown,
                        Outcome::Failed,
                        target.provider,
                        Some(format!("{err:#}")),
                    );
                    continue;
                }
            }
            // Nothing of ours can be in a file that does not parse and
            // holds nothing on record.
            Err(_) if records.is_empty() => continue,
            Err(err) => {
                report.item(&shown, Outcome::Failed, target.provider, Some(err));
                continue;
            }
        }
        ownership.set(target, Managed::new());
    }
    if !dry_run && let Err(err) = ownership.place.write(ownership.render().as_deref()) {
        report
            .warnings
            .push(format!("The ownership record could not be saved: {err:#}"));
    }
    report
}

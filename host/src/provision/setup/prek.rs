//! `spec precommit migrate`: put vaultspec's commit gate into `prek.toml`,
//! for a team whose hooks run under prek (which reads `prek.toml` first and
//! then ignores `.pre-commit-config.yaml`).
//!
//! The gate goes into a block between the reference's markers, so either
//! tool finds and refreshes it; nothing outside the block is rewritten, and
//! the file keeps its line endings. A team that declined the gate gets
//! nothing; a `prek.toml` that lists the gate outside the block is the
//! team's own and is left alone. `--remove-yaml` deletes the superseded
//! YAML configuration once the gate is in `prek.toml` (in a declined
//! workspace: only when it holds nothing but vaultspec's gate).

use clap::{Args, Subcommand};
use serde_json::json;
use vaultspec_vault::{CapStorage, Storage, StorageError};

use super::hook_file::FILES as YAML_FILES;
use super::policy::{self, PolicyArgs, PolicyCommand};
use crate::report::{Reporter, exit, print_envelope, write_stdout};

/// Where prek reads its hooks.
pub const PREK_FILE: &str = "prek.toml";

/// The reference's markers around its block.
pub(crate) const BEGIN: &str = "# >>> vaultspec-managed hooks (do not edit this block) >>>";
pub(crate) const END: &str = "# <<< vaultspec-managed hooks <<<";

/// The gate's hook id.
pub(crate) const GATE_ID: &str = "vaultspec-commit-gate";

/// `spec precommit …`.
#[derive(Debug, Subcommand)]
pub enum PrecommitCommand {
    /// Let vaultspec manage the commit gate again (the default).
    Enable(PolicyArgs),
    /// Record that this workspace declines the commit gate; every later `install` honours that.
    Disable(PolicyArgs),
    /// Put the commit gate into `prek.toml`, for hooks run by prek.
    Migrate(MigrateArgs),
}

impl PrecommitCommand {
    /// The policy command this is, for `enable` and `disable`.
    pub fn policy(&self) -> Option<PolicyCommand> {
        match self {
            PrecommitCommand::Enable(a) => Some(PolicyCommand::Enable(PolicyArgs { json: a.json })),
            PrecommitCommand::Disable(a) => {
                Some(PolicyCommand::Disable(PolicyArgs { json: a.json }))
            }
            PrecommitCommand::Migrate(_) => None,
        }
    }
}

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// Also delete `.pre-commit-config.yaml` (prek ignores it) once the
    /// gate is in `prek.toml`.
    #[arg(long)]
    pub remove_yaml: bool,
    /// Say what would change, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON document (schema, status, data) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The block, its lines joined by `newline`, with a final one.
fn block(command: &str, newline: &str) -> String {
    let lines = [
        BEGIN.to_owned(),
        "[[repos]]".to_owned(),
        "repo = \"local\"".to_owned(),
        String::new(),
        "[[repos.hooks]]".to_owned(),
        format!("id = \"{GATE_ID}\""),
        "name = \"vaultspec commit gate\"".to_owned(),
        format!("entry = {}", toml_string(&format!("{command} commit-gate"))),
        "language = \"system\"".to_owned(),
        "always_run = true".to_owned(),
        "pass_filenames = true".to_owned(),
        END.to_owned(),
    ];
    lines.join(newline) + newline
}

fn toml_string(value: &str) -> String {
    format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// What a run came to: the reference's status words.
pub(crate) struct Outcome {
    pub(crate) status: &'static str,
    pub(crate) detail: String,
    yaml_removed: bool,
}

impl Outcome {
    /// Say which YAML configurations went (`verb`: removed, would remove).
    fn removed(&mut self, paths: &[&str], verb: &str) {
        if !paths.is_empty() {
            self.detail
                .push_str(&format!("; {verb} {}", paths.join(", ")));
            self.yaml_removed = true;
        }
    }
}

/// `text` with the block set to `wanted`: replaced where the markers are,
/// appended otherwise.
fn with_block(text: &str, wanted: &str, newline: &str) -> String {
    if let (Some(begin), Some(end)) = (text.find(BEGIN), text.find(END))
        && begin < end
    {
        let line_start = text[..begin].rfind('\n').map_or(0, |i| i + 1);
        let after = end + END.len();
        let line_end = text[after..]
            .find('\n')
            .map_or(text.len(), |i| after + i + 1);
        return format!("{}{wanted}{}", &text[..line_start], &text[line_end..]);
    }
    let mut out = text.to_owned();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push_str(newline);
    }
    if !out.trim().is_empty() {
        out.push_str(newline);
    }
    out + wanted
}

/// The text outside the block, where a team's own hooks are.
fn outside_block(text: &str) -> String {
    match (text.find(BEGIN), text.find(END)) {
        (Some(b), Some(e)) if b < e => format!("{}{}", &text[..b], &text[e + END.len()..]),
        _ => text.to_owned(),
    }
}

pub(crate) fn migrate(storage: &dyn Storage, args: &MigrateArgs) -> Result<Outcome, String> {
    let read = |path: &str| match storage.read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| format!("{path} is not UTF-8 text")),
        Err(StorageError::NotFound { .. }) => Ok(None),
        Err(err) => Err(format!("reading {path}: {err}")),
    };
    let remove_yaml = |only_ours: bool| -> Result<Vec<&str>, String> {
        let mut removed = Vec::new();
        for path in YAML_FILES {
            let Some(text) = read(path)? else { continue };
            if only_ours && !is_only_the_gate(&text) {
                continue;
            }
            if !args.dry_run {
                storage
                    .remove(path)
                    .map_err(|e| format!("removing {path}: {e}"))?;
            }
            removed.push(path);
        }
        Ok(removed)
    };
    let removing = if args.dry_run {
        "would remove"
    } else {
        "removed"
    };
    if !policy::read(storage)?.pre_commit {
        let mut outcome = Outcome {
            status: "declined",
            detail: "this workspace declined the commit gate (`spec precommit disable`); nothing \
                     was put into prek.toml (`vaultspec spec precommit enable` takes it back)"
                .to_owned(),
            yaml_removed: false,
        };
        if args.remove_yaml {
            outcome.removed(&remove_yaml(true)?, removing);
        }
        return Ok(outcome);
    }
    let Some(text) = read(PREK_FILE)? else {
        return Ok(Outcome {
            status: "no_prek_config",
            detail: "there is no prek.toml: this workspace runs the gate from \
                     .pre-commit-config.yaml, which `vaultspec install` keeps"
                .to_owned(),
            yaml_removed: false,
        });
    };
    if text.parse::<toml::Table>().is_err() {
        return Ok(Outcome {
            status: "unparseable",
            detail: "prek.toml is not valid TOML; fix it, then run this again".to_owned(),
            yaml_removed: false,
        });
    }
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let wanted = block(&crate::provision::enroll::own_command(), newline);
    let has_block = text.contains(BEGIN) && text.contains(END);
    if outside_block(&text).contains(GATE_ID) {
        return Ok(Outcome {
            status: "conflicting",
            detail: format!(
                "prek.toml lists `{GATE_ID}` outside vaultspec's block: that entry is the team's \
                 own, so it is left alone (remove it to let vaultspec manage the gate)"
            ),
            yaml_removed: false,
        });
    }
    let new_text = with_block(&text, &wanted, newline);
    let mut outcome = if new_text == text {
        Outcome {
            status: "unchanged",
            detail: "the commit gate is already in prek.toml".to_owned(),
            yaml_removed: false,
        }
    } else {
        if !args.dry_run {
            storage
                .write(PREK_FILE, new_text.as_bytes())
                .map_err(|e| format!("writing {PREK_FILE}: {e}"))?;
        }
        Outcome {
            status: "migrated",
            detail: if has_block {
                "refreshed vaultspec's block in prek.toml".to_owned()
            } else {
                "put the commit gate into prek.toml".to_owned()
            },
            yaml_removed: false,
        }
    };
    if args.remove_yaml {
        outcome.removed(&remove_yaml(false)?, removing);
    }
    Ok(outcome)
}

/// Whether a YAML configuration holds vaultspec's gate and nothing else.
fn is_only_the_gate(text: &str) -> bool {
    use vaultspec_vault::frontmatter::yaml::{Value, parse_strict};
    let Ok(Value::Map(top)) = parse_strict(text) else {
        return false;
    };
    let hooks: Vec<&Value> = top
        .iter()
        .filter(|(k, _)| k == "repos")
        .flat_map(|(_, repos)| match repos {
            Value::List(repos) => repos.iter().collect(),
            _ => Vec::new(),
        })
        .flat_map(|repo| match repo {
            Value::Map(keys) => keys
                .iter()
                .filter(|(k, _)| k == "hooks")
                .flat_map(|(_, h)| match h {
                    Value::List(h) => h.iter().collect(),
                    _ => Vec::new(),
                })
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        })
        .collect();
    top.len() == 1
        && hooks.len() == 1
        && matches!(hooks[0], Value::Map(keys) if keys.iter().any(|(k, v)| k == "id" && v.as_str() == Some(GATE_ID)))
}

/// Run `spec precommit migrate`; the exit code.
pub fn run(storage: &CapStorage, args: &MigrateArgs) -> u8 {
    let reporter = Reporter { json: args.json };
    let outcome = match migrate(storage, args) {
        Ok(outcome) => outcome,
        Err(message) => return reporter.fail(exit::FINDINGS, &message),
    };
    let ok = matches!(outcome.status, "migrated" | "unchanged" | "declined");
    let code = if ok { exit::OK } else { exit::FINDINGS };
    let printed = if args.json {
        print_envelope(
            "vaultspec.spec.precommit.migrate.v1",
            if ok { outcome.status } else { "failed" },
            json!({
                "status": outcome.status,
                "detail": outcome.detail,
                "yaml_removed": outcome.yaml_removed,
                "dry_run": args.dry_run,
            }),
        )
    } else {
        let prefix = if args.dry_run { "(dry run) " } else { "" };
        write_stdout(&format!("{prefix}{}: {}\n", outcome.status, outcome.detail))
    };
    if printed.is_err() {
        return exit::INTERNAL;
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_is_appended_once_then_refreshed_in_place() {
        let team = "[[repos]]\nrepo = \"https://x\"\n";
        let once = with_block(team, &block("vaultspec", "\n"), "\n");
        assert!(once.starts_with(team));
        assert!(once.parse::<toml::Table>().is_ok(), "{once}");
        assert_eq!(with_block(&once, &block("vaultspec", "\n"), "\n"), once);
        let moved = with_block(&once, &block("/opt/vaultspec", "\n"), "\n");
        assert!(
            moved.starts_with(team) && moved.contains("entry = \"/opt/vaultspec commit-gate\"")
        );
        assert_eq!(moved.matches(BEGIN).count(), 1);
    }

    #[test]
    fn only_a_file_holding_nothing_but_the_gate_counts_as_ours() {
        let ours = "repos:\n- repo: local\n  hooks:\n  - id: vaultspec-commit-gate\n    entry: vaultspec commit-gate\n";
        assert!(is_only_the_gate(ours));
        let more = format!("{ours}  - id: black\n    entry: black\n");
        assert!(!is_only_the_gate(&more));
        assert!(!is_only_the_gate("default_stages: [commit]\n"));
    }
}

//! One framework sync or status, start to end: which agents the workspace is
//! set up for, what their files should hold, and what was (or would be)
//! changed — shared by the host's `install` and `sync` and the builtin
//! `spec …` verbs, so every one of them reports a sync the same way.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::sync::{self, Action, Change, Held, Overwrite};
use super::{Kind, Provider, Sources, render, shown};
use crate::storage::Storage;

/// The workspace's record of the agents it is set up for.
pub const PROVIDERS_FILE: &str = ".vaultspec/providers.json";

/// The agents' top folders and root files: a link at one of them is
/// reported once, by name, and nothing beneath it is touched.
pub const TOPS: [&str; 7] = [
    ".claude",
    ".gemini",
    ".agents",
    ".codex",
    "CLAUDE.md",
    "AGENTS.md",
    "GEMINI.md",
];

/// The names under `installed` in `.vaultspec/providers.json`, as written
/// (none without the file, or with one that cannot be read or parsed).
/// The file is read through the storage: no link out, no FIFO, 1 MiB at most.
pub fn installed(storage: &dyn Storage) -> Vec<String> {
    storage
        .read(PROVIDERS_FILE)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|doc| doc.get("installed").cloned())
        .and_then(|v| serde_json::from_value::<Vec<String>>(v).ok())
        .unwrap_or_default()
}

/// The agents a command works on: the one named, or every one the
/// workspace is set up for with `all`, less those in `skip`. An agent that
/// is unknown or not set up here is refused by name.
pub fn chosen(storage: &dyn Storage, name: &str, skip: &[String]) -> Result<Vec<Provider>, String> {
    let installed: Vec<Provider> = installed(storage)
        .iter()
        .filter_map(|n| Provider::parse(n))
        .collect();
    let chosen = if name == "all" {
        installed
    } else {
        let provider = Provider::parse(name).ok_or_else(|| {
            format!(
                "`{}` is not an agent vaultspec knows (one of: all, claude, gemini, antigravity, codex)",
                shown(name)
            )
        })?;
        if !installed.contains(&provider) {
            return Err(format!(
                "{name} is not set up in this workspace; run `vaultspec install {name}` first"
            ));
        }
        vec![provider]
    };
    Ok(chosen
        .into_iter()
        .filter(|p| !skip.iter().any(|s| s == p.name()))
        .collect())
}

/// The refusal when no agent is set up.
pub const NOT_INSTALLED: &str =
    "no agent is set up in this workspace: run `vaultspec install` (or `install claude`, …) first";

/// What a sync did (or, in a dry run, would do).
#[derive(Debug, Default)]
pub struct SyncReport {
    /// Every file looked at.
    pub changes: Vec<Change>,
    /// Sources left out, and files that could not be written.
    pub problems: Vec<String>,
}

impl SyncReport {
    /// The JSON `status`: `created`, `updated`, `removed`, `mixed` or
    /// `unchanged`.
    pub fn status(&self) -> &'static str {
        let any = |a: fn(&Action) -> bool| self.changes.iter().any(|c| a(&c.action));
        let created = any(|a| *a == Action::Create);
        let updated = any(|a| *a == Action::Update);
        let removed = any(|a| *a == Action::Remove);
        match (created, updated, removed) {
            (false, false, false) => "unchanged",
            (true, false, false) => "created",
            (false, true, false) => "updated",
            (false, false, true) => "removed",
            _ => "mixed",
        }
    }

    /// The warnings: files left as they are, sources left out.
    pub fn warnings(&self) -> Vec<String> {
        self.changes
            .iter()
            .filter_map(Change::warning)
            .chain(self.problems.iter().cloned())
            .collect()
    }

    /// The `data.items` of JSON reports.
    pub fn items(&self) -> Vec<Value> {
        self.changes
            .iter()
            .map(
                |c| json!({"name": c.path, "outcome": outcome(&c.action), "group": group(&c.path)}),
            )
            .collect()
    }

    /// The JSON `data` of a sync's envelope.
    pub fn data(&self, dry_run: bool) -> Value {
        json!({"items": self.items(), "warnings": self.warnings(), "dry_run": dry_run})
    }

    /// The text report: a heading, one line per change, then a summary line.
    pub fn text(&self, dry_run: bool) -> String {
        let mut out = String::from(if dry_run {
            "Framework sync (dry run: nothing written):\n"
        } else {
            "Framework sync:\n"
        });
        let mut counts = [0usize; 4];
        for change in &self.changes {
            let (mark, slot) = match change.action {
                Action::Create => ('+', 0),
                Action::Update => ('~', 1),
                Action::Remove => ('-', 2),
                Action::Same => {
                    counts[3] += 1;
                    continue;
                }
                Action::Keep(_) => continue,
            };
            counts[slot] += 1;
            out.push_str(&format!("  {mark} {}\n", shown(&change.path)));
        }
        let held = self
            .changes
            .iter()
            .filter(|c| matches!(c.action, Action::Keep(_)))
            .count();
        let verb = if dry_run { "would be " } else { "" };
        out.push_str(&format!(
            "  {} {verb}created, {} {verb}updated, {} {verb}removed, {} unchanged, {held} left as they are\n",
            counts[0], counts[1], counts[2], counts[3]
        ));
        out
    }

    /// Whether something could not be written (a file left alone because
    /// it could not be read is a warning, not a failure).
    pub fn failed(&self) -> bool {
        self.problems.iter().any(|p| p.starts_with("could not"))
    }
}

fn outcome(action: &Action) -> &'static str {
    match action {
        Action::Create => "created",
        Action::Update => "updated",
        Action::Same => "unchanged",
        Action::Remove => "removed",
        Action::Keep(Held::Edited) => "kept_edited",
        Action::Keep(Held::Foreign) => "kept_foreign",
        Action::Keep(Held::Unreadable(_)) => "unreadable",
    }
}

/// The agent a provider file belongs to, for reports (`.agents/skills/` is
/// shared: it is reported under Antigravity).
pub fn group(path: &str) -> &'static str {
    let top = path.split('/').next().unwrap_or(path);
    match top {
        ".claude" | "CLAUDE.md" => "claude",
        ".gemini" | "GEMINI.md" => "gemini",
        ".agents" => "antigravity",
        ".codex" | "AGENTS.md" => "codex",
        _ => "core",
    }
}

/// One sync of `kinds` for `providers`: read the sources, render them,
/// plan by each file's mark, and (unless `dry_run`) write what may change.
/// `linked` says whether a workspace path is a symbolic link: every change
/// beneath a linked top ([`TOPS`]) is dropped and reported once by name.
pub fn run(
    storage: &dyn Storage,
    providers: &[Provider],
    kinds: &[Kind],
    overwrite: Overwrite,
    dry_run: bool,
    linked: &dyn Fn(&str) -> bool,
) -> SyncReport {
    let sources = Sources::read(storage);
    let mut report = SyncReport {
        problems: sources
            .problems
            .iter()
            .map(|p| format!("`{}` is left out: {}", shown(&p.path), p.message))
            .collect(),
        ..SyncReport::default()
    };
    let rendered = render::render(&sources, providers, kinds);
    report.changes = sync::plan(storage, &rendered, overwrite);
    // Codex's configuration is a person's file too: one that does not parse
    // is never written (the region could not be placed safely in it).
    for change in &mut report.changes {
        if change.path == render::CODEX_CONFIG
            && change.action == Action::Update
            && let Ok(bytes) = storage.read(&change.path)
            && let Err(err) = String::from_utf8_lossy(&bytes).parse::<toml::Table>()
        {
            let message = format!("it does not parse as TOML: {}", err.to_string().trim_end());
            change.action = Action::Keep(Held::Unreadable(message));
            change.text = None;
        }
    }
    for top in TOPS {
        let beneath = |path: &str| path == top || path.starts_with(&format!("{top}/"));
        if report.changes.iter().any(|c| beneath(&c.path)) && linked(top) {
            report.changes.retain(|c| !beneath(&c.path));
            report.problems.push(format!(
                "could not sync into `{top}`: it is a symbolic link, and vaultspec never writes \
                 through one; make it a real {} to let `vaultspec sync` fill it",
                if top.ends_with(".md") {
                    "file"
                } else {
                    "folder"
                }
            ));
        }
    }
    if !dry_run {
        for (path, err) in sync::apply(storage, &report.changes) {
            report
                .problems
                .push(format!("could not change `{}`: {err}", shown(&path)));
        }
    }
    report
}

/// How the agents' files stand against the sources, by bucket: `missing`,
/// `drifted`, `stale` and `up_to_date`, each a list of paths.
#[derive(Debug)]
pub struct Standing {
    /// The agents looked at: every one the workspace is set up for.
    pub providers: Vec<Provider>,
    /// Paths by bucket.
    pub buckets: BTreeMap<&'static str, Vec<String>>,
}

/// The buckets of [`Standing`], in report order.
pub const BUCKETS: [&str; 4] = ["missing", "drifted", "stale", "up_to_date"];

impl Standing {
    /// Compare every set-up agent's files for `kinds` with the sources,
    /// changing nothing.
    pub fn read(storage: &dyn Storage, kinds: &[Kind]) -> Self {
        let providers = chosen(storage, "all", &[]).unwrap_or_default();
        let sources = Sources::read(storage);
        let rendered = render::render(&sources, &providers, kinds);
        let mut buckets: BTreeMap<&'static str, Vec<String>> =
            BUCKETS.into_iter().map(|b| (b, Vec::new())).collect();
        for change in sync::plan(storage, &rendered, Overwrite::default()) {
            let bucket = match change.action {
                Action::Create => "missing",
                Action::Update | Action::Keep(_) => "drifted",
                Action::Remove => "stale",
                Action::Same => "up_to_date",
            };
            buckets
                .get_mut(bucket)
                .expect("every bucket is made above")
                .push(change.path);
        }
        Self { providers, buckets }
    }

    /// Whether every file is up to date.
    pub fn in_line(&self) -> bool {
        BUCKETS[..3].iter().all(|b| self.buckets[b].is_empty())
    }

    /// `not_installed`, `ok` or `drift`.
    pub fn verdict(&self) -> &'static str {
        if self.providers.is_empty() {
            "not_installed"
        } else if self.in_line() {
            "ok"
        } else {
            "drift"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{MemStorage, WriteScope};

    fn workspace(providers: &str) -> MemStorage {
        let storage = MemStorage::new().with_scope(WriteScope::Framework);
        storage.write(PROVIDERS_FILE, providers.as_bytes()).unwrap();
        storage
    }

    #[test]
    fn chosen_names_the_agent_that_is_not_set_up_or_unknown() {
        let storage = workspace(r#"{"installed": ["claude", "codex"]}"#);
        assert_eq!(
            chosen(&storage, "all", &["codex".into()]).unwrap(),
            [Provider::Claude]
        );
        let err = chosen(&storage, "gemini", &[]).unwrap_err();
        assert!(err.contains("install gemini"), "{err}");
        let err = chosen(&storage, "vim\u{1b}", &[]).unwrap_err();
        assert!(
            err.contains("vim\\u{1b}") && err.contains("one of:"),
            "{err}"
        );
    }

    #[test]
    fn an_unreadable_providers_file_means_no_agent() {
        assert!(installed(&workspace("{not json")).is_empty());
        assert!(installed(&MemStorage::new()).is_empty());
    }

    #[test]
    fn a_sync_then_a_standing_in_line_and_a_link_refused_by_name() {
        let storage = workspace(r#"{"installed": ["claude"]}"#);
        let report = run(
            &storage,
            &[Provider::Claude],
            &Kind::ALL,
            Overwrite::default(),
            false,
            &|_| false,
        );
        assert!(!report.failed(), "{:?}", report.problems);
        assert_eq!(report.status(), "created");
        let standing = Standing::read(&storage, &Kind::ALL);
        assert_eq!(standing.verdict(), "ok");

        let linked = run(
            &storage,
            &[Provider::Claude],
            &Kind::ALL,
            Overwrite {
                force: true,
                builtins: false,
            },
            true,
            &|top| top == "CLAUDE.md",
        );
        assert!(linked.changes.iter().all(|c| c.path != "CLAUDE.md"));
        assert!(linked.failed());
        assert!(
            linked.problems.iter().any(|p| p.contains("`CLAUDE.md`")),
            "{:?}",
            linked.problems
        );
    }
}

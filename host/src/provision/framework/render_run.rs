//! One framework sync: read the sources, render them for the chosen agents,
//! compare with the files, write what may change, and report it.

use std::path::Path;

use anyhow::Context;
use serde_json::{Value, json};
use vaultspec_vault::framework::sync::{self, Action, Change, Held, Overwrite};
use vaultspec_vault::framework::{Kind, Provider, Sources, render, shown};
use vaultspec_vault::{CapStorage, WriteScope};

use crate::display::Escaped;

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

    /// The text report: one line per change, then a summary line.
    pub fn text(&self, dry_run: bool) -> String {
        let mut out = String::new();
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
            out.push_str(&format!("  {mark} {}\n", Escaped::new(&change.path)));
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

/// The storage a framework sync writes through: no link followed, each
/// file replaced atomically, nothing outside the agents' folders, their
/// root files and the sources.
pub fn storage(root: &Path) -> anyhow::Result<CapStorage> {
    Ok(CapStorage::open(root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(WriteScope::Framework))
}

/// The agents' top folders and root files: a link at one of them is
/// reported once, by name, and nothing beneath it is touched.
const TOPS: [&str; 7] = [
    ".claude",
    ".gemini",
    ".agents",
    ".codex",
    "CLAUDE.md",
    "AGENTS.md",
    "GEMINI.md",
];

/// Sync `kinds` for `providers` in the workspace at `root`.
pub fn run(
    root: &Path,
    storage: &CapStorage,
    providers: &[Provider],
    kinds: &[Kind],
    overwrite: Overwrite,
    dry_run: bool,
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
            && matches!(change.action, Action::Update)
            && let Ok(bytes) = vaultspec_vault::Storage::read(storage, &change.path)
            && let Err(err) = String::from_utf8_lossy(&bytes).parse::<toml::Table>()
        {
            let message = format!("it does not parse as TOML: {}", err.to_string().trim_end());
            change.action = Action::Keep(Held::Unreadable(message));
            change.text = None;
        }
    }
    for top in TOPS {
        let linked = std::fs::symlink_metadata(root.join(top)).is_ok_and(|m| m.is_symlink());
        let beneath = |path: &str| path == top || path.starts_with(&format!("{top}/"));
        if linked && report.changes.iter().any(|c| beneath(&c.path)) {
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

/// The providers a command works on: the one named, or every installed
/// one for `all`; an agent that is not set up here is refused by name.
pub fn chosen(root: &Path, name: &str, skip: &[String]) -> Result<Vec<Provider>, String> {
    let installed: Vec<Provider> = crate::provision::enroll::providers::installed(root)
        .iter()
        .filter_map(|n| Provider::parse(n))
        .collect();
    let chosen = if name == "all" {
        installed
    } else {
        let provider = Provider::parse(name)
            .ok_or_else(|| format!("`{}` is not an agent vaultspec knows", shown(name)))?;
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

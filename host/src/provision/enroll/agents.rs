//! `spec doctor`'s `providers` map, in the reference's words: for each
//! agent, whether the manifest and its folder agree (`manifest_entry`),
//! what its folder holds (`dir_state`), each rule file against its source
//! (`content`) and whether its root file carries vaultspec's block
//! (`config`).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value, json};

/// The agents in the reference's report order, with their folder, rules
/// folder and root file.
const AGENTS: [(&str, &str, &str, &str); 4] = [
    ("claude", ".claude", ".claude/rules", "CLAUDE.md"),
    ("gemini", ".gemini", ".gemini/rules", "GEMINI.md"),
    ("antigravity", ".agents", ".agents/rules", "GEMINI.md"),
    ("codex", ".codex", ".codex/rules", "AGENTS.md"),
];

/// Each agent's state; `rules` is each installed agent's rule files by
/// name (from the framework's drift). `every_folder` looks into the
/// folder of each agent, set up or not (a workspace without a manifest).
pub fn states(
    root: &Path,
    installed: &[String],
    rules: &BTreeMap<String, BTreeMap<String, &'static str>>,
    every_folder: bool,
) -> Map<String, Value> {
    let is_installed = |name: &str| installed.iter().any(|i| i == name);
    AGENTS
        .iter()
        .map(|(name, dir, rules_dir, config)| {
            // No link is followed: a linked folder or file counts as absent.
            let meta = std::fs::symlink_metadata(root.join(dir));
            let has_dir = meta.as_ref().is_ok_and(|m| m.is_dir());
            let manifest_entry = match (is_installed(name), has_dir) {
                (true, true) => "coherent",
                (true, false) => "orphaned",
                // `.agents/` is shared: another agent set up here made it.
                (false, true)
                    if *dir == ".agents"
                        && ["antigravity", "gemini", "codex"]
                            .iter()
                            .any(|a| is_installed(a)) =>
                {
                    "not_installed"
                }
                (false, true) => "untracked",
                (false, false) => "not_installed",
            };
            let state = if is_installed(name) {
                json!({
                    "tool": name,
                    "installed": true,
                    "dir_state": dir_state(root, dir, rules_dir, has_dir),
                    "manifest_entry": manifest_entry,
                    "content": rules.get(*name).cloned().unwrap_or_default(),
                    "config": config_state(root, config),
                })
            } else {
                let dir_state = if every_folder {
                    dir_state(root, dir, rules_dir, has_dir)
                } else {
                    "missing"
                };
                json!({
                    "tool": name,
                    "installed": false,
                    "dir_state": dir_state,
                    "manifest_entry": manifest_entry,
                    "content": {},
                    "config": "ok",
                })
            };
            ((*name).to_owned(), state)
        })
        .collect()
}

/// What belongs in each agent's folder, as the reference counts it: the
/// folders vaultspec fills and the files vaultspec or the agent keeps there
/// (any `*.lock` and `.gitignore` too). Anything else makes it `mixed`.
fn belongs(dir: &str, name: &str, is_dir: bool) -> bool {
    let (folders, files): (&[&str], &[&str]) = match dir {
        ".claude" => (
            &["rules", "skills", "agents"],
            &["settings.json", "settings.local.json"],
        ),
        ".gemini" => (&["rules", "agents"], &["SYSTEM.md"]),
        ".agents" => (
            &["rules", "skills", "agents", "workflows"],
            &["mcp_config.json"],
        ),
        ".codex" => (&["rules"], &["config.toml"]),
        _ => (&[], &[]),
    };
    if is_dir {
        folders.contains(&name)
    } else {
        files.contains(&name) || name == ".gitignore" || name.ends_with(".lock")
    }
}

/// `missing`, `empty`, `mixed` (it holds what vaultspec and the agent do
/// not put there), `complete` (its rules folder holds rules) or `partial`.
fn dir_state(root: &Path, dir: &str, rules_dir: &str, has_dir: bool) -> &'static str {
    if !has_dir {
        return "missing";
    }
    let children: Vec<(String, bool)> = std::fs::read_dir(root.join(dir))
        .map(|d| {
            d.flatten()
                .map(|e| {
                    let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                    (e.file_name().to_string_lossy().into_owned(), is_dir)
                })
                .collect()
        })
        .unwrap_or_default();
    if children.is_empty() {
        return "empty";
    }
    if children
        .iter()
        .any(|(name, is_dir)| !belongs(dir, name, *is_dir))
    {
        return "mixed";
    }
    let has_rules = std::fs::read_dir(root.join(rules_dir)).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".md"))
    });
    if has_rules { "complete" } else { "partial" }
}

/// `ok` when the root file carries vaultspec's block, `missing` or `foreign`.
fn config_state(root: &Path, file: &str) -> &'static str {
    let Ok(Some(text)) = crate::checked_file::read_text(
        &root.join(file),
        vaultspec_vault::storage::MAX_FILE_BYTES,
        crate::checked_file::Owner::Anyone,
    ) else {
        return "missing";
    };
    if text.contains("<vaultspec ") || text.contains("AUTO-GENERATED") {
        "ok"
    } else {
        "foreign"
    }
}

/// What the doctor says of `states`: an agent set up here whose folder is
/// gone is an error; a folder no agent is set up for, an empty or partial
/// one, and a root file without vaultspec's block are warnings.
pub fn findings(states: &Map<String, Value>) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for (name, state) in states {
        let word = |key: &str| state[key].as_str().unwrap_or_default().to_owned();
        match word("manifest_entry").as_str() {
            "orphaned" => out.push((
                "error",
                format!("{name} is set up here but its folder is gone: `vaultspec install {name}` makes it again"),
            )),
            "untracked" => out.push((
                "warning",
                format!("{name}'s folder is here but {name} is not set up: `vaultspec install {name}` adopts it"),
            )),
            _ => {}
        }
        if state["installed"] != true {
            continue;
        }
        if matches!(word("dir_state").as_str(), "empty" | "partial") {
            out.push((
                "warning",
                format!(
                    "{name}'s folder is {}: `vaultspec sync {name}` fills it",
                    word("dir_state")
                ),
            ));
        }
        let content = state["content"].as_object();
        let off: Vec<&String> = content
            .into_iter()
            .flatten()
            .filter(|(_, w)| *w != "clean")
            .map(|(file, _)| file)
            .collect();
        if !off.is_empty() {
            out.push((
                "warning",
                format!(
                    "{name}'s rule files are out of line with `.vaultspec/rules/` ({}): \
                     `vaultspec sync {name}` brings them in line",
                    off.iter()
                        .map(|f| format!(
                            "{f} {}",
                            content.map_or("", |c| c[*f].as_str().unwrap_or_default())
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        match word("config").as_str() {
            "missing" => out.push((
                "warning",
                format!("{name}'s root file is missing: `vaultspec sync {name}` writes it"),
            )),
            "foreign" => out.push((
                "warning",
                format!(
                    "{name}'s root file has no vaultspec block: `vaultspec sync {name}` adds it"
                ),
            )),
            _ => {}
        }
    }
    out
}

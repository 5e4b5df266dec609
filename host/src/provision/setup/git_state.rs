//! How the workspace's git files stand against its policy, for `spec
//! doctor`: vaultspec's blocks in `.gitignore` and `.gitattributes`, and
//! the commit gate in `.pre-commit-config.yaml`, each in the reference's
//! words (`complete`, `partial`, `unmanaged`, `corrupted`, `no_entries`,
//! `no_file`; `no_hooks`, `incomplete`, `non_canonical`, `duplicated`,
//! `not_installed`, `declined`, `unreadable`) with the command that
//! settles it.
//!
//! Files are read through the workspace's storage (no link followed, a
//! size cap); only the existence of git's own hook is looked at in `.git/`.

use std::path::Path;

use vaultspec_vault::{CapStorage, Storage};

use super::hook_file;
use super::managed_block;
use super::policy::{self, Policy};
use super::scaffold::{self, PRE_COMMIT_PATH};

/// How serious a finding is: `info` never counts against the exit code.
pub type Level = &'static str;

/// The state of the three files, and what to tell the person.
#[derive(Debug, Default)]
pub struct GitState {
    pub gitignore: &'static str,
    pub gitattributes: &'static str,
    pub precommit: &'static str,
    pub findings: Vec<(Level, String)>,
}

/// Read the state of the workspace at `root`.
pub fn read(root: &Path) -> GitState {
    let mut state = GitState::default();
    let storage = match CapStorage::open(root) {
        Ok(storage) => storage,
        Err(err) => {
            state
                .findings
                .push(("error", format!("the workspace cannot be opened: {err}")));
            return state;
        }
    };
    let policy = match policy::read(&storage) {
        Ok(policy) => policy,
        Err(message) => {
            // The reference cannot weigh the commit gate then either.
            state.findings.push((
                "warning",
                format!("{message}: the commit gate cannot be weighed until it reads"),
            ));
            let (gitignore, gitattributes) = (
                block_state(
                    &storage,
                    ".gitignore",
                    "gitignore",
                    scaffold::block_lines(".gitignore", &Policy::default()),
                ),
                block_state(
                    &storage,
                    ".gitattributes",
                    "gitattributes",
                    scaffold::block_lines(".gitattributes", &Policy::default()),
                ),
            );
            state.gitignore = gitignore.0;
            state.gitattributes = gitattributes.0;
            state.findings.extend(gitignore.1);
            state.findings.extend(gitattributes.1);
            state.precommit = "unreadable";
            return state;
        }
    };
    for (path, setting) in [
        (".gitignore", "gitignore"),
        (".gitattributes", "gitattributes"),
    ] {
        let want = scaffold::block_lines(path, &policy);
        let (word, finding) = block_state(&storage, path, setting, want);
        if let Some(finding) = finding {
            state.findings.push(finding);
        }
        match setting {
            "gitignore" => state.gitignore = word,
            _ => state.gitattributes = word,
        }
    }
    let (word, finding) = hook_state(&storage, root, policy.pre_commit);
    state.precommit = word;
    state.findings.extend(finding);
    state
}

/// The state of the block in `path`; `want` is the block's lines, `None`
/// when the workspace declined it.
fn block_state(
    storage: &dyn Storage,
    path: &str,
    setting: &str,
    want: Option<Vec<String>>,
) -> (&'static str, Option<(Level, String)>) {
    let settle =
        format!("`vaultspec install` puts it back, `vaultspec spec {setting} disable` declines it");
    let text = storage
        .read(path)
        .ok()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    let Some(text) = text else {
        return match want {
            None => ("no_file", None),
            Some(_) => (
                "unmanaged",
                Some(("warning", format!("there is no `{path}`: {settle}"))),
            ),
        };
    };
    let marker = |m: &str| text.lines().filter(|l| l.trim() == m).count();
    let (starts, ends) = (marker(managed_block::START), marker(managed_block::END));
    if starts == 0 && ends == 0 {
        return match want {
            None => ("no_entries", None),
            Some(_) => (
                "unmanaged",
                Some((
                    "warning",
                    format!("`{path}` has no vaultspec block: {settle}"),
                )),
            ),
        };
    }
    let corrupted = |why: String| {
        (
            "corrupted",
            Some((
                "error",
                format!(
                    "{why}: remove vaultspec's lines, then `vaultspec install --force` writes one block"
                ),
            )),
        )
    };
    let Some(inside) = managed_block::lines(&text).filter(|_| starts == 1 && ends == 1) else {
        return corrupted(format!(
            "`{path}` holds a broken or repeated vaultspec block"
        ));
    };
    if path == ".gitignore" {
        // A line elsewhere that un-ignores what the block ignores undoes it.
        let negated = inside.iter().map(|l| l.trim()).find(|entry| {
            text.lines().any(|l| {
                l.trim()
                    .strip_prefix('!')
                    .is_some_and(|x| x == *entry || x == entry.trim_end_matches('/'))
            })
        });
        if let Some(entry) = negated {
            return corrupted(format!(
                "`{path}` un-ignores `{entry}`, which vaultspec's block ignores"
            ));
        }
    }
    let Some(want) = want else {
        return ("complete", None);
    };
    // Complete when it holds every line vaultspec needs: the reference's
    // block adds lines of its own (lock files of each agent's MCP file).
    if want.iter().all(|line| inside.contains(&line.as_str())) {
        ("complete", None)
    } else {
        (
            "partial",
            Some((
                "warning",
                format!(
                    "vaultspec's block in `{path}` is out of date: `vaultspec install --upgrade` \
                     refreshes it"
                ),
            )),
        )
    }
}

/// Hook ids older releases ran on each commit, which the gate replaced.
const RETIRED_HOOKS: [&str; 4] = [
    "vault-sanitize-annotations",
    "vault-fix",
    "spec-check",
    "check-provider-artifacts",
];

/// Whether a gate entry the reference wrote was written for the other
/// install mode than the one declared (vaultspec's own entry is neither).
fn other_mode(storage: &dyn Storage, entry: &str) -> bool {
    let declared = storage
        .read(policy::FILE)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|d| {
            d.pointer("/packages/vaultspec-core/install_mode")
                .and_then(|m| m.as_str())
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "dependency".to_owned());
    match hook_file::entry_mode(entry) {
        Some("tool") => declared != "tool",
        Some(_) => declared == "tool",
        None => false,
    }
}

/// The state of the commit gate: declined, its file missing or without
/// the gate, out of date, or in place (and whether git runs it).
fn hook_state(
    storage: &dyn Storage,
    root: &Path,
    wanted: bool,
) -> (&'static str, Option<(Level, String)>) {
    let path = hook_file::FILES
        .into_iter()
        .find(|p| storage.exists(p).unwrap_or(false));
    let text = path
        .and_then(|p| storage.read(p).ok())
        .map(String::from_utf8);
    let path = path.unwrap_or(PRE_COMMIT_PATH);
    let text = match (wanted, text) {
        (false, Some(_)) => return ("declined_leftover", None),
        (false, None) => return ("declined", None),
        (true, None) => {
            return (
                "no_file",
                Some((
                    "info",
                    format!(
                        "there is no `{PRE_COMMIT_PATH}`, so commits are not gated: `vaultspec \
                         install` makes it, `vaultspec spec precommit disable` declines it"
                    ),
                )),
            );
        }
        (true, Some(Ok(text))) => text,
        (true, Some(Err(_))) => {
            return (
                "unreadable",
                Some(("warning", format!("`{path}` is not UTF-8 text"))),
            );
        }
    };
    let Some(hooks) = hook_file::hooks(&text) else {
        return (
            "unreadable",
            Some((
                "warning",
                format!("`{path}` does not read as a pre-commit file: fix it, then run this again"),
            )),
        );
    };
    let hooks: Vec<&hook_file::Hook> = hooks.iter().filter(|h| h.local).collect();
    let gates: Vec<&String> = hooks
        .iter()
        .filter(|h| h.id == "vaultspec-commit-gate")
        .map(|h| &h.entry)
        .collect();
    let retired = hooks.iter().any(|h| RETIRED_HOOKS.contains(&h.id.as_str()));
    if gates.is_empty() && !retired {
        return (
            "no_hooks",
            Some((
                "warning",
                format!(
                    "`{path}` has no vaultspec commit gate (hook id `vaultspec-commit-gate`): add \
                     it, or decline it with `vaultspec spec precommit disable`"
                ),
            )),
        );
    }
    if gates.len() > 1 {
        return (
            "duplicated",
            Some((
                "error",
                format!(
                    "`{path}` runs the commit gate {} times: keep one",
                    gates.len()
                ),
            )),
        );
    }
    if retired || gates.is_empty() {
        return (
            "incomplete",
            Some((
                "warning",
                format!(
                    "`{path}` still runs hooks vaultspec retired: `vaultspec migrations run` (or \
                     `vaultspec install --upgrade`) replaces them with the commit gate"
                ),
            )),
        );
    }
    if other_mode(storage, gates[0]) {
        return (
            "non_canonical",
            Some((
                "warning",
                format!(
                    "the commit gate in `{path}` was written for the other install mode than \
                     `.vaultspec/workspace.json` declares: `vaultspec install --upgrade` rewrites it"
                ),
            )),
        );
    }
    let hook = root.join(".git/hooks/pre-commit");
    if std::fs::symlink_metadata(hook).is_ok() {
        ("complete", None)
    } else {
        (
            "not_installed",
            Some((
                "info",
                "the commit gate is configured, but git has no pre-commit hook, so nothing runs \
                 it: `pre-commit install` (or `prek install`) installs one"
                    .to_owned(),
            )),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".vaultspec")).unwrap();
        for (path, text) in files {
            std::fs::write(dir.path().join(path), text).unwrap();
        }
        dir
    }

    fn block(path: &str, policy: &Policy) -> String {
        let lines = scaffold::block_lines(path, policy).unwrap();
        managed_block::upsert("", &lines.iter().map(String::as_str).collect::<Vec<_>>())
    }

    #[test]
    fn each_state_is_named_with_the_command_that_settles_it() {
        let ws = workspace(&[
            (".gitignore", "target/\n"),
            (
                ".gitattributes",
                &block(".gitattributes", &Policy::default()),
            ),
            (PRE_COMMIT_PATH, "repos: []\n"),
        ]);
        let state = read(ws.path());
        assert_eq!(state.gitignore, "unmanaged");
        assert_eq!(state.gitattributes, "complete");
        assert_eq!(state.precommit, "no_hooks");
        let said: Vec<&str> = state.findings.iter().map(|(_, m)| m.as_str()).collect();
        assert!(said[0].contains("spec gitignore disable"), "{said:?}");
        assert!(said[1].contains("spec precommit disable"), "{said:?}");
    }

    #[test]
    fn a_block_with_lines_of_the_references_own_is_complete_and_one_missing_a_line_is_not() {
        let ours = block(".gitignore", &Policy::default());
        let theirs = ours.replace(
            "/.gitignore.lock\n",
            "/.agents/mcp_config.json.lock\n/.gitignore.lock\n",
        );
        let ws = workspace(&[(".gitignore", &theirs)]);
        assert_eq!(read(ws.path()).gitignore, "complete");
        let short = ours.replace(".vault/logs/\n", "");
        let ws = workspace(&[(".gitignore", &short)]);
        let state = read(ws.path());
        assert_eq!(state.gitignore, "partial");
        assert!(
            state.findings[0].1.contains("install --upgrade"),
            "{:?}",
            state.findings
        );
    }

    #[test]
    fn a_declined_file_is_no_finding() {
        let ws = workspace(&[(
            policy::FILE,
            r#"{"hooks":{"pre_commit":false},"blocks":{"gitignore":false,"gitattributes":false}}"#,
        )]);
        let state = read(ws.path());
        assert_eq!(
            (state.gitignore, state.gitattributes, state.precommit),
            ("no_file", "no_file", "declined")
        );
        assert!(state.findings.is_empty(), "{:?}", state.findings);
    }
}

//! How the workspace's git files stand against its policy, for `spec
//! doctor`: vaultspec's blocks in `.gitignore` and `.gitattributes`, and
//! the commit gate in `.pre-commit-config.yaml`, each in the reference's
//! words (`complete`, `partial`, `unmanaged`, `declined`, `no_file`,
//! `no_hooks`, `not_installed`) with the command that settles it.
//!
//! Files are read through the workspace's storage (no link followed, a
//! size cap); only the existence of git's own hook is looked at in `.git/`.

use std::path::Path;

use vaultspec_vault::{CapStorage, Storage};

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
            state.findings.push(("error", message));
            Policy::default()
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
    let Some(want) = want else {
        return ("declined", None);
    };
    let settle =
        format!("`vaultspec install` puts it back, `vaultspec spec {setting} disable` declines it");
    let text = match storage.read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => {
            return (
                "no_file",
                Some(("warning", format!("there is no `{path}`: {settle}"))),
            );
        }
    };
    let Some(inside) = managed_block::lines(&text) else {
        return (
            "unmanaged",
            Some((
                "warning",
                format!("`{path}` has no vaultspec block: {settle}"),
            )),
        );
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

/// The state of the commit gate: declined, its file missing or without
/// the gate, or in place (and whether git runs it).
fn hook_state(
    storage: &dyn Storage,
    root: &Path,
    wanted: bool,
) -> (&'static str, Option<(Level, String)>) {
    let text = storage
        .read(PRE_COMMIT_PATH)
        .ok()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    match (wanted, text) {
        (false, Some(_)) => ("declined_leftover", None),
        (false, None) => ("declined", None),
        (true, None) => (
            "no_file",
            Some((
                "info",
                format!(
                    "there is no `{PRE_COMMIT_PATH}`, so commits are not gated: `vaultspec install` \
                     makes it, `vaultspec spec precommit disable` declines it"
                ),
            )),
        ),
        (true, Some(text)) if !text.contains("id: vaultspec-commit-gate") => (
            "no_hooks",
            Some((
                "warning",
                format!(
                    "`{PRE_COMMIT_PATH}` has no vaultspec commit gate (hook id \
                     `vaultspec-commit-gate`): add it, or decline it with \
                     `vaultspec spec precommit disable`"
                ),
            )),
        ),
        (true, Some(_)) => {
            let hook = root.join(".git/hooks/pre-commit");
            if std::fs::symlink_metadata(hook).is_ok() {
                ("complete", None)
            } else {
                (
                    "not_installed",
                    Some((
                        "info",
                        "the commit gate is configured, but git has no pre-commit hook, so \
                         nothing runs it: `pre-commit install` (or `prek install`) installs one"
                            .to_owned(),
                    )),
                )
            }
        }
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
            ("declined", "declined", "declined")
        );
        assert!(state.findings.is_empty(), "{:?}", state.findings);
    }
}

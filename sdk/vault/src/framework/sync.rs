//! Comparing the rendered framework with what the provider files hold, and
//! changing only what vaultspec may change.
//!
//! The rule for a whole file, from its [`stamp`] mark:
//!
//! | on disk | plain sync | `--force` |
//! |---|---|---|
//! | missing | created | created |
//! | vaultspec's, untouched | refreshed | refreshed |
//! | vaultspec's, edited by a person | left, with a warning | replaced |
//! | not vaultspec's (no mark) | left, with a warning | replaced |
//! | not vaultspec's but already what we would write | left as it is | left as it is |
//!
//! A file of vaultspec's whose source is gone is removed when untouched and
//! left (with a warning) when edited; files without the mark in the same
//! folders are the person's and are never looked at twice. Blocks and the
//! Codex region are vaultspec's by their markers: they are rewritten, and
//! every byte around them is kept.

use super::region;
use super::render::{
    BLOCK_CLOSE, BLOCK_OPEN, CODEX_CLOSE, CODEX_CONFIG, CODEX_OPEN, GEMINI_SYSTEM, Output, Rendered,
};
use super::stamp::{self, Mark};
use crate::storage::{Storage, StorageError};

/// What a sync does to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Missing: made.
    Create,
    /// vaultspec's own (or `--force`): replaced.
    Update,
    /// Already as it should be.
    Same,
    /// vaultspec's, untouched, and no source makes it any more: removed.
    Remove,
    /// Left as it is, and why.
    Keep(Held),
}

/// Why a file that differs is left as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Held {
    /// vaultspec wrote it and a person changed it since.
    Edited,
    /// vaultspec did not write it.
    Foreign,
    /// It could not be read or is not text: the message.
    Unreadable(String),
}

/// One file's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Workspace-relative path.
    pub path: String,
    /// What happens to it.
    pub action: Action,
    /// The whole new text, for [`Action::Create`] and [`Action::Update`].
    pub text: Option<String>,
}

impl Change {
    /// Whether applying it writes or removes anything.
    pub fn writes(&self) -> bool {
        matches!(
            self.action,
            Action::Create | Action::Update | Action::Remove
        )
    }

    /// A sentence for a file left as it is, or `None`.
    pub fn warning(&self) -> Option<String> {
        let Action::Keep(held) = &self.action else {
            return None;
        };
        Some(match held {
            Held::Edited => format!(
                "`{}` was changed by hand since vaultspec wrote it; it is left as it is \
                 (`--force` replaces it)",
                self.path
            ),
            Held::Foreign => format!(
                "`{}` was not written by vaultspec; it is left as it is (`--force` replaces it)",
                self.path
            ),
            Held::Unreadable(message) => format!("`{}` is left alone: {message}", self.path),
        })
    }
}

/// How far a sync may go over files it did not write or that were edited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Overwrite {
    /// Replace edited and foreign files too (`--force`).
    pub force: bool,
    /// Replace the files of builtin sources that vaultspec did not write
    /// (`vaultspec-core` did): `install --upgrade`.
    pub builtins: bool,
}

/// The changes that bring the provider files to `rendered`.
pub fn plan(storage: &dyn Storage, rendered: &Rendered, overwrite: Overwrite) -> Vec<Change> {
    let mut changes = Vec::new();
    let wanted: std::collections::BTreeSet<&str> =
        rendered.outputs.iter().map(Output::path).collect();
    for output in &rendered.outputs {
        changes.push(match output {
            Output::File {
                path,
                text,
                source,
                builtin,
            } => plan_file(
                storage,
                path,
                text,
                &stamp::stamp(text, source),
                overwrite.force || (overwrite.builtins && *builtin),
            ),
            Output::Block { path, body } => {
                let marked = stamp::stamp(body, ".vaultspec/rules");
                let region = Region::new(BLOCK_OPEN, BLOCK_CLOSE);
                plan_region(storage, path, region, Some(&marked), overwrite)
            }
            Output::CodexAgents { body } => {
                let marked = stamp::stamp_hash_comment(body, ".vaultspec/agents");
                let region = Region::new(CODEX_OPEN, CODEX_CLOSE);
                let body = (!body.is_empty()).then_some(marked.as_str());
                plan_region(storage, CODEX_CONFIG, region, body, overwrite)
            }
        });
    }
    for folder in &rendered.folders {
        for path in files_under(storage, folder) {
            if !wanted.contains(path.as_str()) {
                changes.extend(plan_stale(storage, &path));
            }
        }
    }
    changes
}

/// The changes that take everything vaultspec rendered for an agent out of
/// `folders` and the given root files, keeping what a person wrote.
pub fn plan_removal(storage: &dyn Storage, folders: &[&str], roots: &[&str]) -> Vec<Change> {
    let mut changes = Vec::new();
    for folder in folders {
        for path in files_under(storage, folder) {
            changes.extend(plan_stale(storage, &path));
        }
    }
    for root in roots {
        let region = if *root == CODEX_CONFIG {
            Region::new(CODEX_OPEN, CODEX_CLOSE)
        } else if *root == GEMINI_SYSTEM {
            changes.extend(plan_stale(storage, root));
            continue;
        } else {
            Region::new(BLOCK_OPEN, BLOCK_CLOSE)
        };
        let change = plan_region(storage, root, region, None, Overwrite::default());
        if change.writes() {
            changes.push(change);
        }
    }
    changes
}

/// Every file beneath `folder` (none when it is missing).
fn files_under(storage: &dyn Storage, folder: &str) -> Vec<String> {
    storage
        .list(folder)
        .map(|entries| entries.into_iter().map(|e| e.path).collect())
        .unwrap_or_default()
}

fn read(storage: &dyn Storage, path: &str) -> Result<Option<String>, String> {
    match storage.read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| "it is not UTF-8 text".to_owned()),
        Err(StorageError::NotFound { .. }) => Ok(None),
        Err(err) => Err(err.to_string()),
    }
}

fn plan_file(storage: &dyn Storage, path: &str, plain: &str, marked: &str, force: bool) -> Change {
    let change = |action, text: Option<&str>| Change {
        path: path.to_owned(),
        action,
        text: text.map(str::to_owned),
    };
    let existing = match read(storage, path) {
        Ok(Some(existing)) => existing,
        Ok(None) => return change(Action::Create, Some(marked)),
        Err(message) => return change(Action::Keep(Held::Unreadable(message)), None),
    };
    if existing == marked || existing == plain {
        return change(Action::Same, None);
    }
    match stamp::inspect(&existing) {
        Mark::Intact(_) => change(Action::Update, Some(marked)),
        _ if force => change(Action::Update, Some(marked)),
        Mark::Edited(_) => change(Action::Keep(Held::Edited), None),
        Mark::None => change(Action::Keep(Held::Foreign), None),
    }
}

/// A file vaultspec no longer makes: removed if it is vaultspec's and
/// untouched, reported if edited, ignored if it was never vaultspec's.
fn plan_stale(storage: &dyn Storage, path: &str) -> Option<Change> {
    let action = match read(storage, path) {
        Ok(Some(text)) => match stamp::inspect(&text) {
            Mark::Intact(_) => Action::Remove,
            Mark::Edited(_) => Action::Keep(Held::Edited),
            Mark::None => return None,
        },
        Ok(None) => return None,
        Err(message) => Action::Keep(Held::Unreadable(message)),
    };
    Some(Change {
        path: path.to_owned(),
        action,
        text: None,
    })
}

/// A region's two marker lines.
#[derive(Debug, Clone, Copy)]
struct Region {
    open: &'static str,
    close: &'static str,
}

impl Region {
    fn new(open: &'static str, close: &'static str) -> Region {
        Region { open, close }
    }
}

/// The change that puts `body` (marked) in the file's region, or takes the
/// region out (`None`). A region vaultspec did not write (or one a person
/// edited) is left as it is, like a whole file, unless `overwrite` says.
fn plan_region(
    storage: &dyn Storage,
    path: &str,
    region: Region,
    body: Option<&str>,
    overwrite: Overwrite,
) -> Change {
    let Region { open, close } = region;
    let change = |action, text: Option<String>| Change {
        path: path.to_owned(),
        action,
        text,
    };
    let existing = match read(storage, path) {
        Ok(existing) => existing,
        Err(message) => return change(Action::Keep(Held::Unreadable(message)), None),
    };
    let before = existing.clone().unwrap_or_default();
    if let (Some(body), Some(current)) = (body, region::body(&before, open, close))
        && current != body
        && !(overwrite.force || overwrite.builtins)
    {
        match stamp::inspect(current) {
            Mark::Intact(_) => {}
            Mark::Edited(_) => return change(Action::Keep(Held::Edited), None),
            Mark::None => return change(Action::Keep(Held::Foreign), None),
        }
    }
    match (region::splice(&before, open, close, body), existing) {
        (Some(after), None) => change(Action::Create, Some(after)),
        (Some(after), Some(_)) if after == before => change(Action::Same, None),
        (Some(after), Some(_)) => change(Action::Update, Some(after)),
        (None, Some(_)) => change(Action::Remove, None),
        (None, None) => change(Action::Same, None),
    }
}

/// Apply the changes that write, one file at a time (each write atomic);
/// returns the failures, each naming its file. A failed file is left as it
/// was and the others still go ahead.
pub fn apply(storage: &dyn Storage, changes: &[Change]) -> Vec<(String, StorageError)> {
    // Every write is to a path of its own and atomic on its own: written
    // side by side, their waits for the disk overlap. Removals come after,
    // one by one, so none can take away a folder a write is filling.
    let writes: Vec<(&str, &str)> = changes
        .iter()
        .filter_map(|c| match (&c.action, &c.text) {
            (Action::Create | Action::Update, Some(text)) => Some((c.path.as_str(), text.as_str())),
            _ => None,
        })
        .collect();
    let mut failures: Vec<(String, StorageError)> =
        crate::parallel::map_heavy(&writes, crate::parallel::WRITE_THREADS, |(path, text)| {
            storage
                .write(path, text.as_bytes())
                .err()
                .map(|err| ((*path).to_owned(), err))
        })
        .into_iter()
        .flatten()
        .collect();
    for change in changes.iter().filter(|c| c.action == Action::Remove) {
        if let Err(err) = storage.remove(&change.path) {
            failures.push((change.path.clone(), err));
        }
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::{Kind, Provider, Sources, render};
    use crate::storage::{MemStorage, WriteScope};

    fn workspace() -> MemStorage {
        let storage = MemStorage::new().with_scope(WriteScope::Framework);
        storage.insert(
            ".vaultspec/rules/team.md",
            "---\nname: team\n---\n\nTabs.\n",
        );
        storage.insert(
            ".vaultspec/agents/p.md",
            "---\ndescription: P\ntier: LOW\n---\n\nP\n",
        );
        storage.insert("CLAUDE.md", "# Mine\n");
        storage
    }

    fn sync(storage: &MemStorage, force: bool) -> Vec<Change> {
        let sources = Sources::read(storage);
        let rendered = render::render(&sources, &[Provider::Claude, Provider::Codex], &Kind::ALL);
        let overwrite = Overwrite {
            force,
            builtins: false,
        };
        let changes = plan(storage, &rendered, overwrite);
        assert!(apply(storage, &changes).is_empty());
        changes
    }

    fn action(changes: &[Change], path: &str) -> Action {
        changes
            .iter()
            .find(|c| c.path == path)
            .map(|c| c.action.clone())
            .unwrap()
    }

    #[test]
    fn a_second_sync_changes_nothing() {
        let storage = workspace();
        let first = sync(&storage, false);
        assert_eq!(action(&first, ".claude/rules/team.md"), Action::Create);
        assert_eq!(action(&first, "CLAUDE.md"), Action::Update);
        let again = sync(&storage, false);
        assert!(again.iter().all(|c| c.action == Action::Same), "{again:?}");
        let claude = String::from_utf8(storage.read("CLAUDE.md").unwrap()).unwrap();
        assert!(
            claude.starts_with("# Mine\n\n<vaultspec type=\"config\">\n"),
            "{claude}"
        );
        assert!(claude.contains("@.claude/rules/team.md\n"));
        let codex = String::from_utf8(storage.read(".codex/config.toml").unwrap()).unwrap();
        assert!(codex.contains("[agents.\"p\"]\n"), "{codex}");
    }

    #[test]
    fn edits_and_foreign_files_are_kept_until_forced() {
        let storage = workspace();
        sync(&storage, false);
        let path = ".claude/rules/team.md";
        let edited = String::from_utf8(storage.read(path).unwrap()).unwrap() + "mine\n";
        storage.insert(path, edited.clone());
        storage.insert(".claude/agents/p.md", "my own persona\n");
        storage.insert(
            ".vaultspec/rules/team.md",
            "---\nname: team\n---\n\nSpaces.\n",
        );
        let changes = sync(&storage, false);
        assert_eq!(action(&changes, path), Action::Keep(Held::Edited));
        assert_eq!(
            action(&changes, ".claude/agents/p.md"),
            Action::Keep(Held::Foreign)
        );
        assert_eq!(storage.read(path).unwrap(), edited.as_bytes());
        sync(&storage, true);
        assert!(
            String::from_utf8(storage.read(path).unwrap())
                .unwrap()
                .contains("Spaces.")
        );
    }

    #[test]
    fn a_removed_source_takes_its_untouched_files_with_it() {
        let storage = workspace();
        sync(&storage, false);
        storage.insert(".claude/rules/own.md", "a person's rule\n");
        storage.remove(".vaultspec/rules/team.md").unwrap();
        let changes = sync(&storage, false);
        assert_eq!(action(&changes, ".claude/rules/team.md"), Action::Remove);
        assert!(storage.read(".claude/rules/own.md").is_ok());
        assert!(!changes.iter().any(|c| c.path == ".claude/rules/own.md"));
    }

    #[test]
    fn removal_keeps_the_persons_text_and_files() {
        let storage = workspace();
        sync(&storage, false);
        storage.insert(".claude/rules/own.md", "a person's rule\n");
        let changes = plan_removal(
            &storage,
            &[".claude/rules", ".claude/agents", ".codex/rules"],
            &["CLAUDE.md", CODEX_CONFIG],
        );
        assert!(apply(&storage, &changes).is_empty());
        assert_eq!(storage.read("CLAUDE.md").unwrap(), b"# Mine\n");
        assert!(storage.read(".claude/rules/team.md").is_err());
        assert!(storage.read(".claude/rules/own.md").is_ok());
        assert!(storage.read(CODEX_CONFIG).is_err());
    }
}

//! What a finished call depended on outside `.vault/`, stamped, so an
//! answer kept from it can tell (a `stat` per path, a walk per listed
//! folder) whether it still holds.
//!
//! The call's [`Journal`] names the paths; this takes, for each, the type
//! and inode of every folder on the way and the stamp of the path itself
//! (a folder the call listed is fingerprinted as a whole). Nothing that
//! changed within [`RACY`](crate::workspace::survey::RACY) of the call's
//! start, or after it, is vouched for: a same-size edit in the same clock
//! tick would leave the same stamp. The command line's answer cache and
//! the server's kept `invoke` answers both keep one beside each answer.

use std::path::Path;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::Journal;
use crate::workspace::survey::{Stamp, changed_at, racy_after, settled_print, stamp};

/// What one component of a path was: missing, or its type (one of
/// [`FILE`], [`FOLDER`], [`LINK`], [`OTHER`]), inode and (for the last
/// component) its stamp.
type Mark = Option<(u8, u64, Option<Stamp>)>;

const FILE: u8 = 0;
const FOLDER: u8 = 1;
const LINK: u8 = 2;
const OTHER: u8 = 3;

/// The paths outside `.vault/` a call depended on, as they were after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outside {
    /// Each folder the call listed, with its marks and fingerprint.
    listed: Vec<(String, Vec<Mark>, String)>,
    /// Each other path the call looked at, with its marks.
    files: Vec<(String, Vec<Mark>)>,
    /// The repository state its history read was made under, if any.
    #[serde(default)]
    history: Option<String>,
}

impl Outside {
    /// The paths `journal` names beneath `root`, stamped now, for a call
    /// that began at `started`; `Err` says why they cannot be vouched for.
    pub fn taken(
        root: &Path,
        journal: &Journal,
        started: SystemTime,
    ) -> Result<Self, &'static str> {
        if !journal.bounded() {
            return Err("the verb looked at more than can be named");
        }
        let racy = racy_after(started);
        let listed = journal
            .listed()
            .map(|dir| {
                let marks = marks_of(root, dir);
                let folders = marks.iter().enumerate().all(|(n, mark)| match mark {
                    Some((kind, _, _)) => *kind == FOLDER,
                    None => n + 1 == marks.len(),
                });
                let print = settled_print(&root.join(dir), racy).filter(|_| folders)?;
                Some((dir.to_owned(), marks, hex::encode(print)))
            })
            .collect::<Option<_>>()
            .ok_or("a folder the verb listed was changing or holds a symlink")?;
        let files = journal
            .outside()
            .map(|path| {
                let marks = marks_of(root, path);
                let settled = std::fs::symlink_metadata(root.join(path))
                    .map_or(true, |meta| changed_at(&meta) < racy);
                settled.then(|| (path.to_owned(), marks))
            })
            .collect::<Option<_>>()
            .ok_or("a file the verb read was changing")?;
        Ok(Self {
            listed,
            files,
            history: journal.history().map(str::to_owned),
        })
    }

    /// Whether every path still is as it was taken, checked by a call that
    /// begins at `started` (a listed folder changing since `RACY` before it
    /// no longer holds).
    pub fn holds(&self, root: &Path, started: SystemTime) -> bool {
        self.listed.iter().all(|(dir, marks, print)| {
            marks_of(root, dir) == *marks
                && settled_print(&root.join(dir), racy_after(started))
                    .is_some_and(|now| hex::encode(now) == *print)
        }) && self
            .files
            .iter()
            .all(|(path, marks)| marks_of(root, path) == *marks)
            && self
                .history
                .as_ref()
                .is_none_or(|state| crate::git_history::head_state(root) == *state)
    }
}

/// The marks of `path` beneath `root`, component by component, without
/// following a link at the last one.
fn marks_of(root: &Path, path: &str) -> Vec<Mark> {
    use std::os::unix::fs::MetadataExt;
    let parts: Vec<&str> = path.split('/').collect();
    let mut at = root.to_path_buf();
    let mut marks = Vec::with_capacity(parts.len());
    for (n, part) in parts.iter().enumerate() {
        at.push(part);
        let Ok(meta) = std::fs::symlink_metadata(&at) else {
            marks.push(None);
            break;
        };
        let kind = meta.file_type();
        let code = if kind.is_symlink() {
            LINK
        } else if kind.is_dir() {
            FOLDER
        } else if kind.is_file() {
            FILE
        } else {
            OTHER
        };
        let last = n + 1 == parts.len();
        marks.push(Some((code, meta.ino(), last.then(|| stamp(&meta)))));
        if code != FOLDER {
            break;
        }
    }
    marks
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A start far enough after every write here that none is racy.
    fn later() -> SystemTime {
        SystemTime::now() + Duration::from_secs(60)
    }

    #[test]
    fn a_changed_file_or_listed_folder_no_longer_holds() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path();
        std::fs::create_dir_all(root.join(".vaultspec/templates")).unwrap();
        std::fs::write(root.join(".vaultspec/workspace.json"), "{}").unwrap();
        std::fs::write(root.join(".vaultspec/templates/adr.md"), "a").unwrap();
        let mut journal = Journal::default();
        journal.note_file(".vaultspec/workspace.json");
        journal.note_file("missing/file.md");
        journal.note_listing(".vaultspec/templates");
        let outside = Outside::taken(root, &journal, later()).unwrap();
        assert!(outside.holds(root, later()));

        std::fs::write(root.join(".vaultspec/templates/plan.md"), "p").unwrap();
        assert!(
            !outside.holds(root, later()),
            "a file came into a listed folder"
        );
        let outside = Outside::taken(root, &journal, later()).unwrap();
        std::fs::create_dir(root.join("missing")).unwrap();
        assert!(
            !outside.holds(root, later()),
            "a missing path's folder came"
        );
        let outside = Outside::taken(root, &journal, later()).unwrap();
        std::fs::write(root.join(".vaultspec/workspace.json"), "{ }").unwrap();
        assert!(!outside.holds(root, later()), "a file read was rewritten");
    }

    #[test]
    fn what_changed_just_before_the_call_is_not_vouched_for() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("config.toml"), "x").unwrap();
        let mut journal = Journal::default();
        journal.note_file("config.toml");
        assert!(Outside::taken(root.path(), &journal, SystemTime::now()).is_err());
        journal.note_write();
        assert!(Outside::taken(root.path(), &journal, later()).is_err());
    }
}

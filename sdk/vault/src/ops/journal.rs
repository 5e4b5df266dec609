//! The undo journal of a multi-file change: what a later run needs to put
//! back every file an interrupted change touched, and the roll-back itself.
//!
//! A change to several files cannot be atomic on a file system: each write,
//! move and removal is atomic on its own, but a full disk, a refused
//! permission or a killed process can stop the batch half-way. So before the
//! first step, [`super::transaction`] writes this journal under
//! [`JOURNAL_DIR`]: a copy (`<n>.bak`) of every file the batch overwrites or
//! removes, and `journal.json` naming every touched path, the copy that holds
//! its old bytes (or none: the path did not exist), and every move.
//!
//! **Interrupted changes are rolled back, never finished.** The command that
//! was interrupted never reported success, so the state the user last saw
//! confirmed is the old one; undoing also needs only the old bytes, which the
//! change read anyway, where finishing would need a second copy of every new
//! byte. Roll-back sets each touched path to its old state whatever step the
//! batch reached, so it is idempotent: a roll-back that is itself interrupted
//! is simply run again by the next write command.
//!
//! The journal lives in `.vault/data/`, the per-machine runtime folder that
//! neither our readers nor the reference's look at (no file there ends in
//! `.md`), so a journal left by a crash never shows as a document. The
//! reference does not know the journal either: a vault a killed vaultspec
//! left half-changed should get a vaultspec write command (or an MCP server
//! start) before the reference writes to it, or the roll-back would put back
//! the old bytes over the reference's edits of the same files.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::storage::{Storage, StorageError};

/// The folder of the journal and its copies.
pub const JOURNAL_DIR: &str = ".vault/data/journal";

/// The journal itself: present exactly while a batch may be half-applied.
pub const JOURNAL_FILE: &str = ".vault/data/journal/journal.json";

/// The format version this build writes and reads.
const VERSION: u32 = 2;

/// The most moves and restores one journal may name: a batch of ours never
/// comes near it, and a journal past it is refused unread.
pub const MAX_ENTRIES: usize = 20_000;

/// One path the batch changes other than by a plain move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restore {
    /// Workspace-relative path.
    pub path: String,
    /// The name (in [`JOURNAL_DIR`]) of the copy of its old bytes, or `None`
    /// when the path did not exist before the batch.
    pub backup: Option<String>,
}

/// What `journal.json` holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// Every move of the batch, in order, as `[from, to]`. A move whose two
    /// paths nothing else in the batch touches is undone by moving the file
    /// back; it needs no copy.
    pub moves: Vec<(String, String)>,
    /// Every other path the batch touches, with its old state.
    pub restore: Vec<Restore>,
    /// Every state the batch may leave each restored path in, as the
    /// SHA-256 (hex) of its bytes or `None` for no file. A path is put back
    /// only while it is in one of them: a file a person changed after the
    /// batch stopped is kept.
    #[serde(default)]
    pub written: BTreeMap<String, Vec<Option<String>>>,
}

/// The SHA-256 (lowercase hex) of `bytes`, as [`Journal::written`] names a
/// state.
pub fn digest(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

impl Journal {
    /// A journal of the given moves and restores, and the states the batch
    /// may leave each restored path in.
    pub fn new(
        moves: Vec<(String, String)>,
        restore: Vec<Restore>,
        written: BTreeMap<String, Vec<Option<String>>>,
    ) -> Journal {
        Journal {
            version: VERSION,
            moves,
            restore,
            written,
        }
    }

    /// Parses `journal.json`, refusing a format this build does not know.
    pub fn parse(bytes: &[u8]) -> Result<Journal> {
        let bad = |message: String| Error::Journal {
            path: JOURNAL_FILE.to_string(),
            message,
        };
        let journal: Journal = serde_json::from_slice(bytes)
            .map_err(|e| bad(format!("not valid journal JSON ({e})")))?;
        if journal.version != VERSION {
            return Err(bad(format!(
                "format version {} (this build reads version {VERSION})",
                journal.version
            )));
        }
        if journal.moves.len() + journal.restore.len() > MAX_ENTRIES {
            return Err(bad(format!("it names more than {MAX_ENTRIES} changes")));
        }
        let mut seen = std::collections::BTreeSet::new();
        if let Some(twice) = journal.restore.iter().find(|r| !seen.insert(&r.path)) {
            return Err(bad(format!("it names `{}` twice", twice.path)));
        }
        Ok(journal)
    }

    /// The bytes of `journal.json`.
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(self).expect("a journal always serialises")
    }

    /// Puts every touched path back in its state before the batch, whatever
    /// step the batch reached, as long as it is in a state the batch could
    /// have left it in; returns the paths kept because they hold something
    /// else (a person changed them since). Idempotent.
    pub fn roll_back(&self, storage: &dyn Storage) -> Result<Vec<String>> {
        let restored: BTreeMap<&str, bool> = self
            .restore
            .iter()
            .map(|r| (r.path.as_str(), r.backup.is_some()))
            .collect();
        // A path only moved existed before (`from`) or did not (`to`).
        let existed = |p: &str, moved_from: bool| restored.get(p).copied().unwrap_or(moved_from);
        // First move files back, so a document keeps its file (and mode)
        // wherever the batch only moved it.
        for (from, to) in self.moves.iter().rev() {
            if existed(from, true)
                && !existed(to, false)
                && storage.exists(to)?
                && !storage.exists(from)?
            {
                storage.rename(to, from)?;
            }
        }
        let mut kept = Vec::new();
        for r in &self.restore {
            let current = match storage.exists(&r.path)? {
                true => Some(storage.read(&r.path)?),
                false => None,
            };
            let old = match &r.backup {
                Some(name) => Some(storage.read(&backup_path(name))?),
                None => None,
            };
            if current == old {
                continue;
            }
            let state = current.as_deref().map(digest);
            // A file moved back above holds a state of where it was moved to.
            let ours = std::iter::once(r.path.as_str())
                .chain(
                    self.moves
                        .iter()
                        .filter(|(from, _)| *from == r.path)
                        .map(|(_, to)| to.as_str()),
                )
                .any(|p| self.written.get(p).is_some_and(|s| s.contains(&state)));
            if !ours {
                kept.push(r.path.clone());
                continue;
            }
            match old {
                None => storage.remove(&r.path)?,
                Some(old) => storage.write(&r.path, &old)?,
            }
        }
        Ok(kept)
    }
}

/// The workspace path of the copy named `name`.
pub fn backup_path(name: &str) -> String {
    format!("{JOURNAL_DIR}/{name}")
}

/// What [`recover`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recovery {
    /// No journal: nothing was interrupted.
    Clean,
    /// Copies were left by a batch that had not started (or had finished):
    /// they were removed and no document changed.
    Tidied,
    /// An interrupted batch was rolled back; the paths named were kept as
    /// they are, because they had changed since the batch stopped.
    RolledBack(Vec<String>),
}

/// Rolls back a batch this user's vaultspec left half-applied, then removes
/// the journal and its copies. Every write-capable operation calls this
/// before it reads the vault; read-only ones never do (see [`pending`]).
///
/// A journal the storage cannot vouch for (one that came with a clone, or
/// that another user or machine wrote: see `storage::seal`) is an error
/// naming it, and is left as it is, copies and all: nothing is applied and
/// nothing deleted. Without a journal, only what carries the name of one of
/// our copies (`<n>.bak`) is tidied away.
pub fn recover(storage: &dyn Storage) -> Result<Recovery> {
    if !storage.exists(JOURNAL_FILE)? {
        let copies: Vec<String> = storage
            .list(JOURNAL_DIR)?
            .into_iter()
            .map(|f| f.path)
            .filter(|p| is_copy_name(p))
            .collect();
        for copy in &copies {
            remove_if_there(storage, copy)?;
        }
        return Ok(if copies.is_empty() {
            Recovery::Clean
        } else {
            Recovery::Tidied
        });
    }
    let journal = Journal::parse(&storage.read(JOURNAL_FILE)?)?;
    let kept = journal.roll_back(storage)?;
    storage.remove(JOURNAL_FILE)?;
    for f in storage.list(JOURNAL_DIR)? {
        if is_copy_name(&f.path) {
            remove_if_there(storage, &f.path)?;
        }
    }
    Ok(Recovery::RolledBack(kept))
}

/// Whether `path` is one of the journal's copies (`<JOURNAL_DIR>/<n>.bak`).
fn is_copy_name(path: &str) -> bool {
    path.strip_prefix(JOURNAL_DIR)
        .and_then(|p| p.strip_prefix('/'))
        .and_then(|name| name.strip_suffix(".bak"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// An undo journal found in the workspace, as a read-only command reports
/// it (`status`, `spec doctor`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Notice {
    /// The journal's path.
    pub path: &'static str,
    /// `interrupted`: this user's change, stopped half-way, which the next
    /// command that writes rolls back; `refused`: one this user's vaultspec
    /// did not seal (or that is broken), left for a person.
    pub state: &'static str,
    /// What it means and what to do.
    pub message: String,
}

/// What a read-only command says of the undo journal, when there is one.
pub fn notice(storage: &dyn Storage) -> Option<Notice> {
    if !storage.exists(JOURNAL_FILE).unwrap_or(false) {
        return None;
    }
    Some(match storage.read(JOURNAL_FILE) {
        Ok(_) => Notice {
            path: JOURNAL_FILE,
            state: "interrupted",
            message: "a change was interrupted half-way; the next command that writes (or an \
                      MCP server start) rolls it back"
                .to_owned(),
        },
        Err(err) => Notice {
            path: JOURNAL_FILE,
            state: "refused",
            message: err.to_string(),
        },
    })
}

/// Whether an interrupted batch waits for roll-back (for read-only commands,
/// which report it but never write).
pub fn pending(storage: &dyn Storage) -> Result<bool> {
    Ok(storage.exists(JOURNAL_FILE)?)
}

/// Removes `path`, accepting that it is already gone.
pub fn remove_if_there(storage: &dyn Storage, path: &str) -> Result<(), StorageError> {
    match storage.remove(path) {
        Err(StorageError::NotFound { .. }) => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{Change, transaction};
    use crate::storage::{CapStorage, JournalKey, MemStorage};

    /// The journal a batch writing `a` and creating `b` leaves when it is
    /// killed after both steps, as `transaction` plans it.
    fn killed(storage: &dyn Storage) {
        storage.write(".vault/a.md", b"old a").unwrap();
        let changes = [
            Change::Write {
                path: ".vault/a.md".into(),
                bytes: b"new a".to_vec(),
            },
            Change::Write {
                path: ".vault/b.md".into(),
                bytes: b"new b".to_vec(),
            },
        ];
        transaction::apply(storage, &changes).unwrap();
        // Put the journal back as if the process had died before its removal.
        let journal = Journal::new(
            Vec::new(),
            vec![
                Restore {
                    path: ".vault/a.md".into(),
                    backup: Some("0.bak".into()),
                },
                Restore {
                    path: ".vault/b.md".into(),
                    backup: None,
                },
            ],
            BTreeMap::from([
                (".vault/a.md".into(), vec![Some(digest(b"new a"))]),
                (".vault/b.md".into(), vec![Some(digest(b"new b"))]),
            ]),
        );
        storage.write(&backup_path("0.bak"), b"old a").unwrap();
        storage.write(JOURNAL_FILE, &journal.to_bytes()).unwrap();
    }

    #[test]
    fn a_roll_back_puts_back_only_what_still_holds_the_batchs_bytes() {
        let storage = MemStorage::new();
        killed(&storage);
        // A person edits `b` after the crash; `a` still holds the batch's bytes.
        storage.write(".vault/b.md", b"the person's b").unwrap();
        let recovered = recover(&storage).unwrap();
        assert_eq!(recovered, Recovery::RolledBack(vec![".vault/b.md".into()]));
        assert_eq!(storage.read(".vault/a.md").unwrap(), b"old a");
        assert_eq!(storage.read(".vault/b.md").unwrap(), b"the person's b");
        assert!(!storage.exists(JOURNAL_FILE).unwrap());
    }

    #[test]
    fn a_journal_another_key_sealed_is_refused_and_left_with_everything_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let theirs = CapStorage::open(dir.path())
            .unwrap()
            .with_journal_key(JournalKey::new([1; 32]));
        killed(&theirs);
        let ours = CapStorage::open(dir.path())
            .unwrap()
            .with_journal_key(JournalKey::new([2; 32]));
        let err = recover(&ours).unwrap_err().to_string();
        assert!(
            err.contains("does not hold") && err.contains("left as it is"),
            "{err}"
        );
        assert_eq!(ours.read(".vault/a.md").unwrap(), b"new a");
        assert_eq!(ours.read(".vault/b.md").unwrap(), b"new b");
        assert!(dir.path().join(JOURNAL_FILE).exists());
        assert!(dir.path().join(backup_path("0.bak")).exists());
        // Nor may a batch write over it.
        let err = transaction::apply(
            &ours,
            &[
                Change::Write {
                    path: ".vault/c.md".into(),
                    bytes: b"c".to_vec(),
                },
                Change::Write {
                    path: ".vault/d.md".into(),
                    bytes: b"d".to_vec(),
                },
            ],
        )
        .unwrap_err();
        assert!(err.to_string().contains("journal"), "{err}");
        assert!(!dir.path().join(".vault/c.md").exists());
    }

    #[test]
    fn an_oversized_or_repetitive_journal_is_refused_unread() {
        let mut restore: Vec<Restore> = (0..=MAX_ENTRIES)
            .map(|i| Restore {
                path: format!(".vault/{i}.md"),
                backup: None,
            })
            .collect();
        let many = Journal::new(Vec::new(), restore.clone(), BTreeMap::new());
        assert!(Journal::parse(&many.to_bytes()).is_err());
        restore.truncate(2);
        restore[1].path = restore[0].path.clone();
        let twice = Journal::new(Vec::new(), restore, BTreeMap::new());
        let err = Journal::parse(&twice.to_bytes()).unwrap_err().to_string();
        assert!(err.contains("twice"), "{err}");
    }

    proptest::proptest! {
        /// Whatever bytes sit at the journal's place, reading them as a
        /// journal answers (a journal or an error), never panics.
        #[test]
        fn any_bytes_parse_or_are_refused(
            bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..2048),
        ) {
            let _ = Journal::parse(&bytes);
        }
    }
}

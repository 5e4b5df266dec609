//! Applying a planned batch of [`Change`]s all or nothing: journal first,
//! then the steps, then the journal's removal as the commit point.
//!
//! One change is atomic by the [`Storage`] contract and is applied as is. A
//! batch of several is applied under a [`Journal`]:
//!
//! 1. the old bytes of every path the batch overwrites or removes are copied
//!    into [`JOURNAL_DIR`], then `journal.json` is written;
//! 2. the steps run in order;
//! 3. `journal.json` is removed (from here on the batch counts as done), then
//!    the copies.
//!
//! When a step fails (a full disk, a refused permission), the steps already
//! taken are rolled back in process and the step's error is returned: the
//! vault is as it was. When the process dies instead, `journal.json` stays
//! and the next write-capable operation rolls the batch back
//! ([`journal::recover`]) before it reads anything.

use std::collections::BTreeMap;

use super::Change;
use super::journal::{self, JOURNAL_FILE, Journal, Recovery, Restore, backup_path};
use crate::error::{Error, Result};
use crate::storage::Storage;

/// The copies a journal names: file name in the journal folder, old bytes.
type Copies = Vec<(String, Vec<u8>)>;

/// Applies `changes` in order, all or nothing (see the module docs).
///
/// A pending journal of an interrupted batch is rolled back first; since
/// `changes` were planned from the half-changed files, they are then not
/// applied and [`Error::Recovered`] asks for the operation to be run again.
/// Operations call [`journal::recover`] before reading, so they never see it.
pub fn apply(storage: &dyn Storage, changes: &[Change]) -> Result<()> {
    if changes.is_empty() {
        return Ok(());
    }
    if let Recovery::RolledBack(kept) = journal::recover(storage)? {
        return Err(Error::Recovered {
            journal: JOURNAL_FILE.to_string(),
            kept,
        });
    }
    if let [one] = changes {
        return Ok(step(storage, one)?);
    }
    let (journal, copies) = plan(storage, changes)?;
    if let Err(e) = write_journal(storage, &journal, &copies) {
        tidy(storage, &copies);
        return Err(e);
    }
    for c in changes {
        if let Err(e) = step(storage, c) {
            return Err(undo(storage, &journal, &copies, e.into()));
        }
    }
    if let Err(e) = storage.remove(JOURNAL_FILE) {
        return Err(undo(storage, &journal, &copies, e.into()));
    }
    tidy(storage, &copies);
    Ok(())
}

/// Runs one change against the storage.
fn step(storage: &dyn Storage, c: &Change) -> Result<(), crate::storage::StorageError> {
    match c {
        Change::Write { path, bytes } => storage.write(path, bytes),
        Change::Rename { from, to } => storage.rename(from, to),
        Change::Remove { path } => storage.remove(path),
    }
}

/// The paths a change touches.
fn touched(c: &Change) -> Vec<&str> {
    match c {
        Change::Write { path, .. } | Change::Remove { path } => vec![path],
        Change::Rename { from, to } => vec![from, to],
    }
}

/// The journal of `changes` and the copies it names (name, old bytes),
/// reading the old bytes of every path that is not only moved.
fn plan(storage: &dyn Storage, changes: &[Change]) -> Result<(Journal, Copies)> {
    let mut touches: BTreeMap<&str, usize> = BTreeMap::new();
    for c in changes {
        for p in touched(c) {
            *touches.entry(p).or_default() += 1;
        }
    }
    let only_moved = |c: &Change| matches!(c, Change::Rename { from, to } if touches[from.as_str()] == 1 && touches[to.as_str()] == 1);
    let mut moves = Vec::new();
    let mut restore: Vec<Restore> = Vec::new();
    let mut copies = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for c in changes {
        if let Change::Rename { from, to } = c {
            moves.push((from.clone(), to.clone()));
        }
        if only_moved(c) {
            continue;
        }
        for p in touched(c) {
            if !seen.insert(p) {
                continue;
            }
            let backup = if storage.exists(p)? {
                let name = format!("{}.bak", copies.len());
                copies.push((name.clone(), storage.read(p)?));
                Some(name)
            } else {
                None
            };
            restore.push(Restore {
                path: p.to_string(),
                backup,
            });
        }
    }
    let written = states(changes, &restore, &copies);
    Ok((Journal::new(moves, restore, written), copies))
}

/// Every state `changes` may leave each restored path in, step by step
/// (see [`Journal::written`]).
fn states(
    changes: &[Change],
    restore: &[Restore],
    copies: &Copies,
) -> BTreeMap<String, Vec<Option<String>>> {
    let copy = |name: &str| copies.iter().find(|(n, _)| n == name).map(|(_, b)| b);
    // What each restored path holds as the steps go, by digest.
    let mut now: BTreeMap<&str, Option<String>> = restore
        .iter()
        .map(|r| {
            let held = r
                .backup
                .as_deref()
                .and_then(copy)
                .map(|b| journal::digest(b));
            (r.path.as_str(), held)
        })
        .collect();
    let mut written: BTreeMap<String, Vec<Option<String>>> = BTreeMap::new();
    let mut record = |path: &str, state: Option<String>| {
        written.entry(path.to_owned()).or_default().push(state);
    };
    for c in changes {
        match c {
            Change::Write { path, bytes } => {
                let state = Some(journal::digest(bytes));
                now.insert(path, state.clone());
                record(path, state);
            }
            Change::Remove { path } => {
                now.insert(path, None);
                record(path, None);
            }
            Change::Rename { from, to } if now.contains_key(from.as_str()) => {
                let moved = now.insert(from, None).flatten();
                now.insert(to, moved.clone());
                record(from, None);
                record(to, moved);
            }
            // A move nothing else touches is undone by moving back.
            Change::Rename { .. } => {}
        }
    }
    written
}

/// Writes the copies, then `journal.json`.
fn write_journal(
    storage: &dyn Storage,
    journal: &Journal,
    copies: &[(String, Vec<u8>)],
) -> Result<()> {
    for (name, bytes) in copies {
        storage.write(&backup_path(name), bytes)?;
    }
    storage.write(JOURNAL_FILE, &journal.to_bytes())?;
    Ok(())
}

/// Rolls the batch back after `cause` stopped it, and returns the error to
/// report: `cause` when the vault is as before, or [`Error::RollbackFailed`]
/// when the journal had to stay for the next run to finish the roll-back.
fn undo(
    storage: &dyn Storage,
    journal: &Journal,
    copies: &[(String, Vec<u8>)],
    cause: Error,
) -> Error {
    let rolled = journal
        .roll_back(storage)
        .and_then(|_kept| Ok(journal::remove_if_there(storage, JOURNAL_FILE)?));
    match rolled {
        Ok(()) => {
            tidy(storage, copies);
            cause
        }
        Err(e) => Error::RollbackFailed {
            cause: Box::new(cause),
            rollback: Box::new(e),
            journal: JOURNAL_FILE.to_string(),
        },
    }
}

/// Removes the copies, as far as the storage lets it: a copy left behind
/// changes no document and the next [`journal::recover`] removes it.
fn tidy(storage: &dyn Storage, copies: &[(String, Vec<u8>)]) {
    for (name, _) in copies {
        let _ = journal::remove_if_there(storage, &backup_path(name));
    }
}

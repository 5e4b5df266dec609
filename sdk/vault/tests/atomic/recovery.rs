//! What the next command does with a batch a kill left half-applied: write
//! commands roll it back before reading, read-only ones leave it alone.

use vaultspec_vault::checks::{Options, run_all};
use vaultspec_vault::ops::journal::{JOURNAL_FILE, pending};
use vaultspec_vault::ops::{Change, apply};
use vaultspec_vault::{Error, MemStorage};

use crate::common::{Vector, golden_today};
use crate::faults::{Fault, Faulty};
use crate::harness::{Files, rename_cache_layer};

fn storage(files: &Files) -> MemStorage {
    let s = MemStorage::new();
    for (p, b) in files {
        s.insert(p, b.clone());
    }
    s
}

/// The vault before a feature rename, the vault after it, and the vault a
/// kill half-way through left (its journal still there).
fn killed_half_way() -> (Files, Files, Files) {
    let before = Vector::load("31-feature-rename")
        .before_storage()
        .snapshot();
    let clean = storage(&before);
    rename_cache_layer(&clean).expect("a clean feature rename");
    let s = storage(&before);
    let total = {
        let c = storage(&before);
        let f = Faulty::counting(&c);
        rename_cache_layer(&f).expect("a clean feature rename");
        f.changes()
    };
    assert!(rename_cache_layer(&Faulty::new(&s, total / 2 + 1, Fault::Kill)).is_err());
    let killed = s.snapshot();
    assert!(
        killed.contains_key(JOURNAL_FILE),
        "the kill came after the journal"
    );
    assert_ne!(killed, before);
    (before, clean.snapshot(), killed)
}

#[test]
fn the_next_write_command_rolls_back_first_then_runs() {
    let (_, after, killed) = killed_half_way();
    let s = storage(&killed);
    rename_cache_layer(&s).expect("the rerun recovers, then renames");
    assert_eq!(s.snapshot(), after);
}

#[test]
fn read_only_commands_leave_a_pending_journal_alone() {
    let (_, _, killed) = killed_half_way();
    let s = storage(&killed).read_only();
    run_all(&s, &Options::check(golden_today())).expect("check all reads a half-changed vault");
    assert!(pending(&s).unwrap());
    assert_eq!(s.snapshot(), killed);
}

#[test]
fn a_batch_planned_over_a_pending_journal_is_not_applied() {
    let (before, _, killed) = killed_half_way();
    let s = storage(&killed);
    let changes = [
        Change::Write {
            path: ".vault/research/a.md".into(),
            bytes: b"a".to_vec(),
        },
        Change::Write {
            path: ".vault/research/b.md".into(),
            bytes: b"b".to_vec(),
        },
    ];
    let err = apply(&s, &changes).unwrap_err();
    assert!(matches!(err, Error::Recovered { .. }), "{err}");
    assert_eq!(
        s.snapshot(),
        before,
        "rolled back, and nothing of the new batch written"
    );
}

#[test]
fn a_journal_this_build_cannot_read_stops_every_write() {
    let v = Vector::load("31-feature-rename");
    let s = v.before_storage();
    s.insert(
        JOURNAL_FILE,
        r#"{"version": 99, "moves": [], "restore": []}"#,
    );
    let before = s.snapshot();
    let err = rename_cache_layer(&s).unwrap_err();
    assert!(matches!(err, Error::Journal { .. }), "{err}");
    assert!(err.to_string().contains(JOURNAL_FILE), "{err}");
    assert_eq!(s.snapshot(), before);
}

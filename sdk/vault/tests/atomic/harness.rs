//! Runs one operation against every fault it can meet: for each N, its Nth
//! change fails once (full disk) or kills it, and its recovery is killed in
//! turn; every outcome must be the vault before or the vault after, byte for
//! byte, with the same `check all` findings.

use std::collections::BTreeMap;

use vaultspec_vault::checks::{Options, run_all};
use vaultspec_vault::ops::journal::{JOURNAL_DIR, JOURNAL_FILE, recover};
use vaultspec_vault::trash::{RESTORE_FILE, TRASH_DIR};
use vaultspec_vault::{Result, Storage};

use crate::common::golden_today;
use crate::faults::{Fault, Faulty};

/// Every file of a vault, by workspace-relative path.
pub type Files = BTreeMap<String, Vec<u8>>;

/// A vault the harness can build again and again from a set of files.
pub trait Vault {
    /// Its storage.
    fn storage(&self) -> &dyn Storage;
    /// Every file it holds now.
    fn files(&self) -> Files;
}

/// Builds a vault holding exactly `files`.
pub type Make<'a> = &'a dyn Fn(&Files) -> Box<dyn Vault>;

/// The operation under test.
pub type Op<'a> = &'a dyn Fn(&dyn Storage) -> Result<()>;

fn findings(s: &dyn Storage) -> Vec<String> {
    run_all(s, &Options::check(golden_today()))
        .expect("check all runs")
        .iter()
        .flat_map(|r| &r.findings)
        .map(|f| format!("{} {:?} {:?} {}", f.check, f.severity, f.path, f.message))
        .collect()
}

/// Every file of `v`, with the clock taken out of trash snapshots: their
/// folder's `YYYYmmdd-HHMMSS` stamp and `RESTORE.txt`'s `created:` line
/// come from the wall clock, so two runs a second apart differ there and
/// nowhere else. Both become those of midnight, 1 January 2000.
fn files_of(v: &dyn Vault) -> Files {
    unclocked(v.files())
}

/// `files` with the snapshot clock taken out (see [`files_of`]).
fn unclocked(files: Files) -> Files {
    let stamped = |rest: &str| {
        rest.len() > 15
            && rest.bytes().take(15).enumerate().all(|(i, b)| {
                if i == 8 {
                    b == b'-'
                } else {
                    b.is_ascii_digit()
                }
            })
    };
    files
        .into_iter()
        .map(
            |(path, bytes)| match path.strip_prefix(&format!("{TRASH_DIR}/")) {
                Some(rest) if stamped(rest) => {
                    let bytes = if rest.ends_with(&format!("/{RESTORE_FILE}")) {
                        let text = String::from_utf8(bytes).expect("RESTORE.txt is UTF-8");
                        text.split_inclusive('\n')
                            .map(|l| {
                                if l.starts_with("created:") {
                                    "created:   2000-01-01 00:00:00\n"
                                } else {
                                    l
                                }
                            })
                            .collect::<String>()
                            .into_bytes()
                    } else {
                        bytes
                    };
                    (format!("{TRASH_DIR}/20000101-000000{}", &rest[15..]), bytes)
                }
                _ => (path, bytes),
            },
        )
        .collect()
}

fn without_journal(mut files: Files) -> Files {
    files.retain(|p, _| !p.starts_with(&format!("{JOURNAL_DIR}/")));
    files
}

fn diff(a: &Files, b: &Files) -> Vec<String> {
    let mut out = Vec::new();
    for (p, bytes) in a {
        match b.get(p) {
            None => out.push(format!("only before: {p}")),
            Some(x) if x != bytes => out.push(format!("differs: {p}")),
            _ => {}
        }
    }
    out.extend(
        b.keys()
            .filter(|p| !a.contains_key(*p))
            .map(|p| format!("only now: {p}")),
    );
    out
}

/// The two states an outcome may be in, with their findings.
struct Ends {
    before: Files,
    after: Files,
    before_findings: Vec<String>,
    after_findings: Vec<String>,
}

impl Ends {
    /// Asserts `v` is exactly the old or the new vault; returns which
    /// (`true`: the new one).
    fn assert_end(&self, v: &dyn Vault, what: &str) -> bool {
        let now = files_of(v);
        let new = if now == self.before {
            false
        } else if now == self.after {
            true
        } else {
            panic!(
                "{what}: the vault is neither the old nor the new state:\n  against old: {:?}\n  against new: {:?}",
                diff(&self.before, &now),
                diff(&self.after, &now)
            );
        };
        let expected = if new {
            &self.after_findings
        } else {
            &self.before_findings
        };
        assert_eq!(
            &findings(v.storage()),
            expected,
            "{what}: check all findings"
        );
        new
    }
}

/// Runs `op` on `fixture` under every fault; returns how many changes a
/// clean run makes.
pub fn exercise(name: &str, fixture: &Files, make: Make<'_>, op: Op<'_>) -> usize {
    let clean = make(fixture);
    let before = files_of(clean.as_ref());
    let before_findings = findings(clean.storage());
    let counting = Faulty::counting(clean.storage());
    op(&counting).unwrap_or_else(|e| panic!("{name}: the clean run failed: {e}"));
    let total = counting.changes();
    eprintln!("{name}: {total} changes");
    let after = files_of(clean.as_ref());
    assert_ne!(before, after, "{name}: the operation changed nothing");
    assert!(
        after
            .keys()
            .all(|p| !p.starts_with(&format!("{JOURNAL_DIR}/"))),
        "{name}: a successful run left its journal behind"
    );
    let ends = Ends {
        after_findings: findings(clean.storage()),
        before,
        after,
        before_findings,
    };
    for n in 1..=total {
        // A full disk at change n: an error means nothing changed.
        let v = make(&ends.before);
        let result = op(&Faulty::new(v.storage(), n, Fault::Once));
        let what = format!("{name}: change {n}/{total} fails once");
        let state = without_journal(files_of(v.as_ref()));
        assert!(
            !v.files().contains_key(JOURNAL_FILE),
            "{what}: the journal stayed"
        );
        match &result {
            Err(e) => assert!(
                state == ends.before,
                "{what}: failed with `{e}` but left {:?}",
                diff(&ends.before, &state)
            ),
            Ok(()) => assert!(
                state == ends.after,
                "{what}: succeeded but left {:?}",
                diff(&ends.after, &state)
            ),
        }
        recover(v.storage()).unwrap_or_else(|e| panic!("{what}: recovery failed: {e}"));
        ends.assert_end(v.as_ref(), &what);

        // A kill at change n, then a recovery killed at each of its changes.
        let v = make(&ends.before);
        let result = op(&Faulty::new(v.storage(), n, Fault::Kill));
        let killed = v.files();
        let counting = Faulty::counting(v.storage());
        recover(&counting)
            .unwrap_or_else(|e| panic!("{name}: recovery after a kill at {n} failed: {e}"));
        let new = ends.assert_end(v.as_ref(), &format!("{name}: killed at change {n}/{total}"));
        // Rolled back while the journal stood; kept once it was removed.
        let committed = !killed.contains_key(JOURNAL_FILE)
            && without_journal(unclocked(killed.clone())) != ends.before;
        assert_eq!(
            new, committed,
            "{name}: killed at change {n}/{total} ({result:?})"
        );
        for k in 1..=counting.changes() {
            let v = make(&killed);
            let _ = recover(&Faulty::new(v.storage(), k, Fault::Kill));
            recover(v.storage()).unwrap_or_else(|e| panic!("{name}: second recovery failed: {e}"));
            ends.assert_end(
                v.as_ref(),
                &format!("{name}: killed at change {n}/{total}, recovery killed at {k}"),
            );
        }
    }
    total
}

/// The feature rename of vector 31 (`cache-layer` to `entry-store`), the
/// multi-file operation several tests drive.
pub fn rename_cache_layer(s: &dyn Storage) -> Result<()> {
    vaultspec_vault::ops::feature::rename_feature(
        s,
        "cache-layer",
        "entry-store",
        false,
        false,
        golden_today(),
    )
    .map(drop)
}

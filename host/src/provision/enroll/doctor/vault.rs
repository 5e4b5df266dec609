//! What `spec doctor` says of the vault's documents and the framework's
//! names, in the reference's keys: `vault_content` (template annotations
//! left in documents, files that are not text) and `rename_integrity`
//! (rules, skills and personas whose `name:` differs from their file).

use vaultspec_vault::Storage;
use vaultspec_vault::checks::{Check, Options, Snapshot, rename_integrity, run_these};
use vaultspec_vault::date::Date;

/// `(vault_content, vault_annotation_count, vault_unreadable_count)` of a
/// workspace with a `.vault/` folder: `clean`, `annotations` or
/// `unreadable`.
pub fn content(storage: &dyn Storage) -> (&'static str, usize, usize) {
    let checks = [Check::Annotations, Check::Encoding];
    let Ok(results) = run_these(storage, &checks, &Options::check(Date::today_utc())) else {
        return ("no_vault", 0, 0);
    };
    let count = |check: Check| {
        results
            .iter()
            .filter(|r| r.check == check)
            .map(|r| r.findings.len())
            .sum::<usize>()
    };
    let (annotated, unreadable) = (count(Check::Annotations), count(Check::Encoding));
    let word = if annotated > 0 {
        "annotations"
    } else if unreadable > 0 {
        "unreadable"
    } else {
        "clean"
    };
    (word, annotated, unreadable)
}

/// `(rename_integrity, rename_mismatch_count)`: `clean`, `mismatch` or
/// `error`.
pub fn names(storage: &dyn Storage) -> (&'static str, usize) {
    let found = Snapshot::load(storage).and_then(|snap| rename_integrity::mismatches(&snap));
    match found {
        Ok(m) if m.is_empty() => ("clean", 0),
        Ok(m) => ("mismatch", m.len()),
        Err(_) => ("error", 0),
    }
}

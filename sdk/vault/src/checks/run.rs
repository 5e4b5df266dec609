//! Running the checkers: one by name ([`run_check`]) or all twenty in the
//! reference's order ([`run_all`]), reading the vault once and re-reading it
//! only after a fixer changed something, so every fixer sees the files as
//! the previous one left them.
//!
//! Under `--fix` the fixers write into a [`Staged`] overlay and the whole
//! run's changes are applied at the end, all or nothing: a run that fails
//! half-way (a fixer's error, a full disk) leaves every file as it was.

use crate::error::Result;
use crate::ops::{self, staged::Staged};
use crate::storage::Storage;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Severity};
use super::{
    adr_status, annotations, body_links, body_sections, code_boundary, dangling, encoding,
    exec_mapping, feature_rename, features, foreign, frontmatter, links, markdown, modified_stamp,
    orphans, placeholders, references, rename_integrity, schema, structure,
};

/// Runs one checker over an already loaded snapshot. A checker without a
/// fixer ignores `opts.fix`.
pub fn dispatch(snap: &Snapshot<'_>, check: Check, opts: &Options) -> Result<CheckResult> {
    let fixing = Options {
        fix: opts.fix && check.supports_fix(),
        ..opts.clone()
    };
    let opts = &fixing;
    match check {
        Check::Structure => structure::run(snap, opts),
        Check::Frontmatter => frontmatter::run(snap, opts),
        Check::Annotations => annotations::run(snap, opts),
        Check::Markdown => markdown::run(snap, opts),
        Check::Links => links::run(snap, opts),
        Check::Dangling => dangling::run(snap, opts),
        Check::BodyLinks => body_links::run(snap, opts),
        Check::Placeholders => placeholders::run(snap, opts),
        Check::Orphans => orphans::run(snap, opts),
        Check::Features => features::run(snap, opts),
        Check::ExecMapping => exec_mapping::run(snap, opts),
        Check::BodySections => body_sections::run(snap, opts),
        Check::FeatureRenameIntegrity => feature_rename::run(snap, opts),
        Check::References => references::run(snap, opts),
        Check::Schema => schema::run(snap, opts),
        Check::AdrStatus => adr_status::run(snap, opts),
        Check::ModifiedStamp => modified_stamp::run(snap, opts),
        Check::RenameIntegrity => rename_integrity::run(snap, opts),
        Check::Encoding => encoding::run(snap, opts),
        Check::Foreign => foreign::run(snap, opts),
        Check::CodeBoundary => code_boundary::run(snap, opts),
    }
}

/// `vault check <name> [--fix] [--feature F]`.
pub fn run_check(storage: &dyn Storage, check: Check, opts: &Options) -> Result<CheckResult> {
    fixing(storage, opts.fix, |s| {
        dispatch(&Snapshot::load(s)?, check, opts)
    })
}

/// Runs `run` on `storage` itself when only reading; when `fix`, rolls back
/// an interrupted batch first, runs it over a [`Staged`] overlay and applies
/// what it staged all or nothing (nothing when it fails).
pub fn fixing<T>(
    storage: &dyn Storage,
    fix: bool,
    run: impl FnOnce(&dyn Storage) -> Result<T>,
) -> Result<T> {
    if !fix {
        return run(storage);
    }
    ops::recover(storage)?;
    let staged = Staged::new(storage);
    let out = run(&staged)?;
    staged.commit()?;
    Ok(out)
}

/// `vault check all [--fix] [--feature F]`: the 20 checkers of
/// [`Check::all`] in order. Under `fix`, the vault is re-read after every
/// fixer that repaired something.
pub fn run_all(storage: &dyn Storage, opts: &Options) -> Result<Vec<CheckResult>> {
    run_these(storage, Check::all(), opts)
}

/// `vault check all` without fixing, over a snapshot already loaded: what
/// [`run_all`] reports for the same files when `opts.fix` is off.
pub fn check_all_on(snap: &Snapshot<'_>, opts: &Options) -> Result<Vec<CheckResult>> {
    let opts = Options {
        fix: false,
        ..opts.clone()
    };
    Check::all()
        .iter()
        .map(|&check| dispatch(snap, check, &opts))
        .collect()
}

/// Runs `checks` in the given order over one snapshot (re-read after fixes).
pub fn run_these(
    storage: &dyn Storage,
    checks: &[Check],
    opts: &Options,
) -> Result<Vec<CheckResult>> {
    fixing(storage, opts.fix, |s| run_in_place(s, checks, opts))
}

/// [`run_these`] writing straight to `storage` (which the caller stages).
pub(crate) fn run_in_place(
    storage: &dyn Storage,
    checks: &[Check],
    opts: &Options,
) -> Result<Vec<CheckResult>> {
    let mut snap = Snapshot::load(storage)?;
    let mut out = Vec::with_capacity(checks.len());
    for &check in checks {
        let result = dispatch(&snap, check, opts)?;
        if opts.fix && result.fixed_count > 0 {
            snap = Snapshot::load(storage)?;
        }
        out.push(result);
    }
    Ok(out)
}

/// Total findings of `severity` over several results.
pub fn total(results: &[CheckResult], severity: Severity) -> usize {
    results.iter().map(|r| r.count(severity)).sum()
}

/// Whether any error finding remains (the CLI exits 1).
pub fn has_errors(results: &[CheckResult]) -> bool {
    total(results, Severity::Error) > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgen::{GenSpec, generate};
    use crate::{Date, MemStorage};

    #[test]
    fn a_generated_vault_is_fixed_in_one_run() {
        let s = MemStorage::new();
        let n: usize = std::env::var("VAULTSPEC_CHECKS_GEN_DOCS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300);
        generate(
            &s,
            &GenSpec {
                docs: n,
                features: n / 20 + 1,
                seed: 7,
            },
        )
        .unwrap();
        let today = Date::new(2026, 11, 30).unwrap();
        let t = std::time::Instant::now();
        let first = run_all(&s, &Options::check(today)).unwrap();
        eprintln!("check all over {n} docs: {:?}", t.elapsed());
        assert!(first.iter().any(|r| !r.is_clean()));
        run_all(&s, &Options::fix(today)).unwrap();
        let after = s.snapshot();
        let again = run_all(&s, &Options::fix(today)).unwrap();
        assert!(
            again.iter().all(|r| r.fixed_count == 0),
            "{:?}",
            again
                .iter()
                .filter(|r| r.fixed_count > 0)
                .collect::<Vec<_>>()
        );
        assert!(s.snapshot() == after);
    }
}

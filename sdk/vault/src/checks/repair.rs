//! `vault repair`: the operator pipeline of spec/checks.md §4. Preflight,
//! a read-only check, then (unless dry run) every fixer, a restamp of each
//! file the fixers changed, feature index regeneration, and a postcheck.
//!
//! Everything the fix, restamp and index phases write is staged and applied
//! at the end all or nothing ([`crate::ops::transaction`]); the postcheck
//! then reads what was written. A repair that fails half-way changes no file.
//!
//! Migrations are not part of this port: the preflight phase reports the
//! legacy layouts it sees (root-level indexes) for `migrations run`.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::date::Date;
use crate::doc::Corpus;
use crate::error::Result;
use crate::ops::staged::Staged;
use crate::storage::Storage;
use crate::{hash, index};

use super::context::{Options, read_text, write_if_changed};
use super::model::{Check, CheckResult, Severity};
use super::report::{Page, result_data};
use super::run::{run_all, run_in_place, total};

/// How `vault repair` runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepairOptions {
    /// Report what would be fixed and regenerated; write nothing.
    pub dry_run: bool,
    /// Regenerate feature indexes (`--include-index`, the default).
    pub include_index: bool,
    /// Restrict to one feature.
    pub feature: Option<String>,
    /// The UTC date stamps use.
    pub today: Date,
}

impl RepairOptions {
    /// A full repair of the whole vault.
    pub fn new(today: Date) -> RepairOptions {
        RepairOptions {
            dry_run: false,
            include_index: true,
            feature: None,
            today,
        }
    }
}

/// One fix a dry run would apply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlannedFix {
    /// The checker.
    pub check: &'static str,
    /// The document, or `null`.
    pub path: Option<String>,
    /// The finding being fixed.
    pub message: String,
}

/// What `vault repair` did (`vaultspec.vault.repair.v2` data).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RepairRun {
    /// Whether nothing was written on purpose.
    pub dry_run: bool,
    /// The feature scope.
    pub feature: Option<String>,
    /// Whether indexes were regenerated.
    pub include_index: bool,
    /// Whether index regeneration failed for some feature.
    pub partial_failure: bool,
    /// One summary per phase, in order.
    pub phases: Vec<Value>,
    /// What happened, one line per step.
    pub journal: Vec<String>,
    /// Files the fix phase changed (restamped afterwards).
    pub changed_files: Vec<String>,
    /// Feature indexes written (or, in a dry run, that would be).
    pub generated_indexes: Vec<String>,
    /// Fixes a dry run would apply.
    pub planned_fixes: Vec<PlannedFix>,
    /// Error and warning findings left after the postcheck.
    pub unresolved: Vec<Value>,
    /// Checkers whose errors remain, as the first place to look.
    pub root_causes: Vec<String>,
    /// Totals of the postcheck.
    pub postcheck: Value,
    /// Postcheck errors, plus one for a partial failure.
    pub error_count: usize,
    /// The fixes the mutating check pass applied (0 on a dry run): what
    /// decides `updated` against `unchanged`, as in the reference, whatever
    /// the index phase rewrote. (The fix phase's summary reports it too.)
    #[serde(skip)]
    pub fixed_count: usize,
}

fn phase(name: &str, results: &[CheckResult]) -> Value {
    let checks: Vec<Value> = results
        .iter()
        .map(|r| {
            let mut v = result_data(
                r,
                Page {
                    info: true,
                    ..Page::default()
                },
            );
            v["errors"] = json!(r.error_count());
            v["warnings"] = json!(r.warning_count());
            v["info"] = json!(r.info_count());
            v
        })
        .collect();
    json!({"phase": name, "checks": checks, "fixed_count": results.iter().map(|r| r.fixed_count).sum::<usize>()})
}

fn fingerprints(storage: &dyn Storage) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for e in storage.list(crate::doc::VAULT_DIR)? {
        if e.path.ends_with(".md")
            && !crate::doc::is_excluded(&e.path)
            && let Ok(bytes) = storage.read(&e.path)
        {
            out.insert(e.path, hex::encode(Sha256::digest(&bytes)));
        }
    }
    Ok(out)
}

/// Runs the pipeline.
pub fn repair(storage: &dyn Storage, opts: &RepairOptions) -> Result<RepairRun> {
    let check_opts = Options::check(opts.today).with_feature(opts.feature.as_deref());
    let mut run = RepairRun {
        dry_run: opts.dry_run,
        feature: check_opts.feature.clone(),
        include_index: opts.include_index,
        partial_failure: false,
        phases: Vec::new(),
        journal: Vec::new(),
        changed_files: Vec::new(),
        generated_indexes: Vec::new(),
        planned_fixes: Vec::new(),
        unresolved: Vec::new(),
        root_causes: Vec::new(),
        postcheck: Value::Null,
        error_count: 0,
        fixed_count: 0,
    };
    let legacy: Vec<String> = storage
        .list(crate::doc::VAULT_DIR)?
        .into_iter()
        .map(|e| e.path)
        .filter(|p| p.ends_with(".index.md") && p.matches('/').count() == 1)
        .collect();
    run.phases
        .push(json!({"phase": "preflight", "pending_migrations": legacy, "applied": []}));
    let checked = run_all(storage, &check_opts)?;
    run.phases.push(phase("check", &checked));
    if opts.dry_run {
        run.planned_fixes = checked
            .iter()
            .flat_map(|r| &r.findings)
            .filter(|f| f.fixable)
            .map(|f| PlannedFix {
                check: f.check,
                path: f.path.clone(),
                message: f.message.clone(),
            })
            .collect();
        if opts.include_index {
            let corpus = Corpus::load(storage)?;
            run.generated_indexes = features_in_scope(&corpus, &check_opts)
                .iter()
                .filter_map(|f| index::plan_index(&corpus, f, opts.today).map(|(p, _)| p))
                .collect();
        }
        run.journal.push(format!(
            "dry run: {} fixes planned",
            run.planned_fixes.len()
        ));
        run.error_count = total(&checked, Severity::Error);
        return Ok(run);
    }
    crate::ops::recover(storage)?;
    let staged = Staged::new(storage);
    fix_phases(&staged, opts, &check_opts, &mut run)?;
    staged.commit()?;
    let post = run_all(storage, &check_opts)?;
    run.phases.push(phase("postcheck", &post));
    run.unresolved = post
        .iter()
        .flat_map(|r| &r.findings)
        .filter(|f| f.severity != Severity::Info)
        .map(|f| json!({"check": f.check, "path": f.path, "message": f.message, "severity": f.severity}))
        .collect();
    run.root_causes = post
        .iter()
        .filter(|r| r.error_count() > 0)
        .map(|r| r.check.to_string())
        .collect();
    let errors = total(&post, Severity::Error);
    run.postcheck = json!({"errors": errors, "warnings": total(&post, Severity::Warning), "info": total(&post, Severity::Info)});
    run.phases.push(
        json!({"phase": "summary", "errors": errors, "partial_failure": run.partial_failure}),
    );
    run.error_count = errors + usize::from(run.partial_failure);
    Ok(run)
}

fn features_in_scope(corpus: &Corpus, opts: &Options) -> Vec<String> {
    index::features(corpus)
        .into_iter()
        .filter(|f| opts.feature.as_deref().is_none_or(|s| s == f))
        .collect()
}

/// The fix, restamp and index phases, staged in `storage`.
fn fix_phases(
    storage: &Staged<'_>,
    opts: &RepairOptions,
    check_opts: &Options,
    run: &mut RepairRun,
) -> Result<()> {
    let before = fingerprints(storage)?;
    let fixed = run_in_place(
        storage,
        Check::all(),
        &Options {
            fix: true,
            ..check_opts.clone()
        },
    )?;
    run.fixed_count = fixed.iter().map(|r| r.fixed_count).sum();
    run.phases.push(phase("fix", &fixed));
    for (path, sum) in fingerprints(storage)? {
        if before.get(&path) == Some(&sum) {
            continue;
        }
        let raw = read_text(storage, &path)?;
        write_if_changed(
            storage,
            &path,
            &raw,
            &hash::refresh_modified_stamp(&raw, opts.today),
        )?;
        run.journal.push(format!("restamped `{path}`"));
        run.changed_files.push(path);
    }
    if opts.include_index {
        let corpus = Corpus::load(storage)?;
        let mut written = Vec::new();
        for f in features_in_scope(&corpus, check_opts) {
            let Some((path, change)) = index::plan_index(&corpus, &f, opts.today) else {
                continue;
            };
            match storage.stage(&change) {
                Ok(()) => written.push(path),
                Err(e) => {
                    run.partial_failure = true;
                    run.journal.push(format!("index of `{f}` failed: {e}"));
                }
            }
        }
        run.phases
            .push(json!({"phase": "index", "generated_indexes": written}));
        run.generated_indexes = written;
    }
    Ok(())
}

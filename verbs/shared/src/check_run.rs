//! Running one check or all of them and printing the result: the JSON
//! envelope of spec/checks.md §1 under `--json`, one line per finding
//! otherwise, exit 1 while an error remains.
//!
//! Shared by the read-only `check` component and the fixing `check-write`
//! component (included there by path).

use vaultspec_sdk::hints::Hints;
use vaultspec_sdk::output;
use vaultspec_sdk::style::{self, Tone};
use vaultspec_sdk::vault::checks::report::{Page, all_data, result_data, schema_name, status_word};
use vaultspec_sdk::vault::checks::{
    Check, CheckResult, Options, Severity, Snapshot, dispatch, has_errors, rename_integrity,
    run_all,
};
use vaultspec_sdk::vault::{Date, Storage};

/// One `vault check` call.
#[derive(Default)]
pub struct Request {
    /// The check, or `None` for `check all`.
    pub check: Option<Check>,
    /// `--fix`.
    pub fix: bool,
    /// `--fix-frontmatter-wins` (rename-integrity only).
    pub frontmatter_wins: bool,
    /// `--feature`.
    pub feature: Option<String>,
    /// `--verbose`.
    pub verbose: bool,
    /// `--json`.
    pub json: bool,
    /// `--limit`.
    pub limit: Option<u32>,
    /// `--offset`.
    pub offset: Option<u32>,
    /// `--no-hints`: print no next step.
    pub no_hints: bool,
}

/// Runs the request over `storage`, prints it and returns the exit code.
pub fn run(storage: &dyn Storage, req: Request) -> u8 {
    let today = Date::today_utc();
    let base = if req.fix {
        Options::fix(today)
    } else {
        Options::check(today)
    };
    let opts = base.with_feature(req.feature.as_deref());
    let results = match req.check {
        None => run_all(storage, &opts),
        Some(Check::RenameIntegrity) => Snapshot::load(storage)
            .and_then(|snap| rename_integrity::run_with(&snap, &opts, req.frontmatter_wins))
            .map(|r| vec![r]),
        Some(check) => Snapshot::load(storage)
            .and_then(|snap| dispatch(&snap, check, &opts))
            .map(|r| vec![r]),
    };
    let results = match results {
        Ok(r) => r,
        Err(err) => return output::fail(req.json, err),
    };
    let page = Page {
        limit: req.limit.map(|l| l as usize),
        offset: req.offset.unwrap_or(0) as usize,
        info: req.fix || req.verbose,
    };
    let hints = req
        .check
        .is_none()
        .then(|| next_step(&results))
        .and_then(|h| h.unless(req.no_hints));
    if req.json {
        let data = match req.check {
            None => all_data(&results, page),
            Some(_) => result_data(&results[0], page),
        };
        output::done_with_hints(
            true,
            &schema_name(req.check),
            status_word(&results),
            data,
            hints.as_ref(),
            || {},
        );
    } else {
        print_text(&results, page, req.check.is_none(), &req);
        output::print_hints(hints.as_ref());
    }
    if has_errors(&results) {
        output::EXIT_FAILURE
    } else {
        output::EXIT_OK
    }
}

/// Human output. One check: its verdict line and findings. `check all`:
/// the totals first (a large vault's findings run to hundreds of lines),
/// then one verdict line per check (`ok`, or its counts and the command
/// that fixes what it can) with the findings of the checks that have some
/// beneath it, and the totals again after a long listing.
fn print_text(results: &[CheckResult], page: Page, all: bool, req: &Request) {
    let (errors, warnings, fixed) = results.iter().fold((0, 0, 0), |(e, w, f), r| {
        (
            e + r.error_count(),
            w + r.warning_count(),
            f + r.fixed_count,
        )
    });
    let totals = all.then(|| totals(errors, warnings, fixed, results.len()));
    if let Some(totals) = &totals {
        println!("{totals}");
    }
    let width = results
        .iter()
        .map(|r| r.check.as_str().len())
        .max()
        .unwrap_or(0);
    let mut findings_printed = 0;
    for r in results {
        let shown: Vec<_> = r
            .findings
            .iter()
            .filter(|f| page.info || f.severity != Severity::Info)
            .collect();
        let fix_command = (!req.fix && shown.iter().any(|f| f.fixable))
            .then(|| format!("vaultspec vault check {} --fix", r.check));
        let (mark, tone) = mark(r);
        println!(
            "{} {:<width$}  {}",
            style::paint(tone, &format!("{mark:<5}")),
            r.check.as_str(),
            verdict(r)
        );
        let total = shown.len();
        let page_items: Vec<_> = shown
            .into_iter()
            .skip(page.offset)
            .take(page.limit.unwrap_or(usize::MAX))
            .collect();
        for f in &page_items {
            let (sev, tone) = match f.severity {
                Severity::Error => ("error", Tone::Error),
                Severity::Warning => ("warning", Tone::Warning),
                Severity::Info => ("info", Tone::Quiet),
            };
            let sev = style::paint(tone, sev);
            match &f.path {
                Some(p) => println!("      {sev} {p}: {}", f.message),
                None => println!("      {sev}: {}", f.message),
            }
        }
        findings_printed += page_items.len();
        let next = page.offset + page_items.len();
        if next < total {
            let limit = page
                .limit
                .map(|l| format!(" --limit {l}"))
                .unwrap_or_default();
            println!(
                "      … and {} more: {}",
                total - next,
                style::paint(
                    Tone::Command,
                    &format!("vaultspec vault check {}{limit} --offset {next}", r.check)
                )
            );
        }
        if let Some(command) = fix_command {
            println!("      fix: {}", style::paint(Tone::Command, &command));
        }
    }
    // Said once more where the listing pushed the first line off screen.
    if let Some(totals) = totals.filter(|_| findings_printed > 10) {
        println!("{totals}");
    }
}

/// The one-line totals of `check all`.
fn totals(errors: usize, warnings: usize, fixed: usize, checks: usize) -> String {
    if errors == 0 && warnings == 0 && fixed == 0 {
        return format!(
            "{} across {checks} checks",
            style::paint(Tone::Good, "clean")
        );
    }
    let errors = format!("{errors} {}", plural(errors, "error"));
    let warnings = format!("{warnings} {}", plural(warnings, "warning"));
    format!(
        "{}, {}, {fixed} fixed across {checks} checks",
        style::paint(Tone::Error, &errors),
        style::paint(Tone::Warning, &warnings)
    )
}

/// What to do after `check all`: with an error left, preview the safe
/// repairs (a preview: a hint is often followed without review, and a
/// repair rewrites more than the findings name); after fixes, commit them
/// (the reference says commit whenever no error is left, even when nothing
/// changed); otherwise look at where the work stands.
fn next_step(results: &[CheckResult]) -> Hints {
    if has_errors(results) {
        Hints::one(
            "See what the safe repairs would change before applying any",
            "vaultspec vault repair --dry-run",
        )
    } else if results.iter().any(|r| r.fixed_count > 0) {
        Hints::one("No errors left: commit the fixes", "git commit")
    } else {
        Hints::one("No errors: see where the work stands", "vaultspec status")
    }
}

/// The first column of a verdict line, and its colour.
fn mark(r: &CheckResult) -> (&'static str, Tone) {
    if r.error_count() > 0 {
        ("error", Tone::Error)
    } else if r.warning_count() > 0 {
        ("warn", Tone::Warning)
    } else if r.fixed_count > 0 {
        ("fixed", Tone::Good)
    } else {
        ("ok", Tone::Good)
    }
}

/// What one check found, in a few words.
fn verdict(r: &CheckResult) -> String {
    let mut parts = Vec::new();
    let (e, w) = (r.error_count(), r.warning_count());
    if e > 0 {
        parts.push(format!("{e} {}", plural(e, "error")));
    }
    if w > 0 {
        parts.push(format!("{w} {}", plural(w, "warning")));
    }
    if r.fixed_count > 0 {
        parts.push(format!("{} fixed", r.fixed_count));
    }
    if parts.is_empty() {
        "clean".to_owned()
    } else {
        parts.join(", ")
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    }
}

//! Running one check or all of them and printing the result: the JSON
//! envelope of spec/checks.md §1 under `--json`, one line per finding
//! otherwise, exit 1 while an error remains.
//!
//! Shared by the read-only `check` component and the fixing `check-write`
//! component (included there by path).

use vaultspec_sdk::hints::Hints;
use vaultspec_sdk::output;
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
/// one verdict line per check (`ok`, or its counts and the command that
/// fixes what it can), the findings of the checks that have some beneath
/// it, then the totals.
fn print_text(results: &[CheckResult], page: Page, all: bool, req: &Request) {
    let (mut errors, mut warnings, mut fixed) = (0, 0, 0);
    let width = results
        .iter()
        .map(|r| r.check.as_str().len())
        .max()
        .unwrap_or(0);
    for r in results {
        errors += r.error_count();
        warnings += r.warning_count();
        fixed += r.fixed_count;
        let shown: Vec<_> = r
            .findings
            .iter()
            .filter(|f| page.info || f.severity != Severity::Info)
            .collect();
        let fix_command = (!req.fix && shown.iter().any(|f| f.fixable))
            .then(|| format!("vaultspec vault check {} --fix", r.check));
        println!(
            "{:<5} {:<width$}  {}",
            mark(r),
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
            let sev = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            match &f.path {
                Some(p) => println!("      {sev} {p}: {}", f.message),
                None => println!("      {sev}: {}", f.message),
            }
        }
        if page.offset + page_items.len() < total {
            println!(
                "      … and {} more (page with --limit and --offset)",
                total - page.offset - page_items.len()
            );
        }
        if let Some(command) = fix_command {
            println!("      fix: {command}");
        }
    }
    let checks = if all {
        format!(" across {} checks", results.len())
    } else {
        String::new()
    };
    if !all {
        // The verdict line above said it all.
    } else if errors == 0 && warnings == 0 && fixed == 0 {
        println!("clean{checks}");
    } else {
        println!(
            "{} {}, {} {}, {fixed} fixed{checks}",
            errors,
            plural(errors, "error"),
            warnings,
            plural(warnings, "warning")
        );
    }
}

/// What to do after `check all`, as the reference decides it: with an error
/// left, preview the safe repairs (a preview: a hint is often followed
/// without review, and a repair rewrites more than the findings name);
/// otherwise commit.
fn next_step(results: &[CheckResult]) -> Hints {
    if has_errors(results) {
        Hints::one(
            "See what the safe repairs would change before applying any",
            "vaultspec vault repair --dry-run",
        )
    } else {
        Hints::one("No errors left: commit your changes", "git commit")
    }
}

/// The first column of a verdict line.
fn mark(r: &CheckResult) -> &'static str {
    if r.error_count() > 0 {
        "error"
    } else if r.warning_count() > 0 {
        "warn"
    } else if r.fixed_count > 0 {
        "fixed"
    } else {
        "ok"
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

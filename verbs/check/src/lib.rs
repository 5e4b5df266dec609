//! The builtin read-only `vault check` verbs (the checks with nothing to fix)
//! and `commit-gate`.
//!
//! Nothing here writes, so the component imports no write access; the checks
//! that can fix what they find, and `check all`, live in `check-write`.

mod gate;

use exports::vaultspec::check::vault_check::{
    AdvisoryOptions, Guest as CheckGuest, ReportOptions, ScanOptions, VaultOptions,
};
use vaultspec_sdk::Workspace;
use vaultspec_sdk::vault::checks::Check;
use vaultspec_verbs_shared::check_run::{self as run, Request};

struct Verbs;

/// Runs one check over the read-only workspace and prints it.
fn read(
    check: Check,
    feature: Option<String>,
    verbose: bool,
    json: bool,
    (limit, offset): (Option<u32>, Option<u32>),
) -> u8 {
    let req = Request {
        check: Some(check),
        feature,
        verbose,
        json,
        limit,
        offset,
        ..Request::default()
    };
    run::run(&Workspace::open(), req)
}

fn scan(check: Check, o: ScanOptions) -> u8 {
    read(check, o.feature, o.verbose, o.json, (o.limit, o.offset))
}

/// `--fix` is accepted and ignored: these checks have no fixer.
fn advisory(check: Check, o: AdvisoryOptions) -> u8 {
    let verbose = o.verbose || o.fix;
    read(check, o.feature, verbose, o.json, (o.limit, o.offset))
}

/// A check with no fixer refuses `--fix` (exit 1, nothing run), as the
/// reference's `check orphans` and `check features` do: a script that asks
/// for a fix learns it got none.
fn report_only(check: Check, name: &str, o: ReportOptions) -> u8 {
    if o.fix {
        return vaultspec_sdk::output::fail(
            o.json,
            format!(
                "`vault check {name}` has no fixer: run it without `--fix` to see what it reports"
            ),
        );
    }
    read(check, o.feature, o.verbose, o.json, (o.limit, o.offset))
}

fn vault_wide(check: Check, o: VaultOptions) -> u8 {
    read(check, None, o.verbose, o.json, (o.limit, o.offset))
}

impl Guest for Verbs {
    fn commit_gate(options: CommitGateOptions, paths: Vec<String>) -> u8 {
        gate::commit_gate(options, paths)
    }
}

impl CheckGuest for Verbs {
    fn exec_mapping(o: ScanOptions) -> u8 {
        scan(Check::ExecMapping, o)
    }
    fn body_sections(o: ScanOptions) -> u8 {
        scan(Check::BodySections, o)
    }
    fn placeholders(o: ScanOptions) -> u8 {
        scan(Check::Placeholders, o)
    }
    fn orphans(o: ReportOptions) -> u8 {
        report_only(Check::Orphans, "orphans", o)
    }
    fn features(o: ReportOptions) -> u8 {
        report_only(Check::Features, "features", o)
    }
    fn references(o: AdvisoryOptions) -> u8 {
        advisory(Check::References, o)
    }
    fn schema(o: AdvisoryOptions) -> u8 {
        advisory(Check::Schema, o)
    }
    fn code_boundary(o: ScanOptions) -> u8 {
        scan(Check::CodeBoundary, o)
    }
    fn encoding(o: VaultOptions) -> u8 {
        vault_wide(Check::Encoding, o)
    }
    fn feature_rename_integrity(o: VaultOptions) -> u8 {
        vault_wide(Check::FeatureRenameIntegrity, o)
    }
    fn foreign(o: VaultOptions) -> u8 {
        vault_wide(Check::Foreign, o)
    }
}

vaultspec_sdk::verb!(Verbs);

//! The builtin read-only `vault check` verbs (the checks with nothing to fix)
//! and `commit-gate`.
//!
//! Nothing here writes, so the component imports no write access; the checks
//! that can fix what they find, and `check all`, live in `check-write`.

mod gate;
mod run;

use exports::vaultspec::check::vault_check::{
    AdvisoryOptions, Guest as CheckGuest, ScanOptions, VaultOptions,
};
use run::Request;
use vaultspec_sdk::Workspace;
use vaultspec_sdk::vault::checks::Check;

struct Verbs;

fn scan(check: Check, o: ScanOptions) -> u8 {
    let req = Request {
        check: Some(check),
        feature: o.feature,
        verbose: o.verbose,
        json: o.json,
        limit: o.limit,
        offset: o.offset,
        ..Request::default()
    };
    run::run(&Workspace::open(), req)
}

/// `--fix` is accepted and ignored: these checks have no fixer.
fn advisory(check: Check, o: AdvisoryOptions) -> u8 {
    let req = Request {
        check: Some(check),
        feature: o.feature,
        verbose: o.verbose || o.fix,
        json: o.json,
        limit: o.limit,
        offset: o.offset,
        ..Request::default()
    };
    run::run(&Workspace::open(), req)
}

fn vault_wide(check: Check, o: VaultOptions) -> u8 {
    let req = Request {
        check: Some(check),
        verbose: o.verbose,
        json: o.json,
        limit: o.limit,
        offset: o.offset,
        ..Request::default()
    };
    run::run(&Workspace::open(), req)
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
    fn orphans(o: AdvisoryOptions) -> u8 {
        advisory(Check::Orphans, o)
    }
    fn features(o: AdvisoryOptions) -> u8 {
        advisory(Check::Features, o)
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

//! The builtin `vault check` verbs that can fix what they find, and
//! `vault check all`.
//!
//! `--fix` writes, so this component imports write access; without `--fix`
//! the verbs only read. The checks with nothing to fix live in the
//! read-only `check` component.

use exports::vaultspec::check_write::vault_check::{
    AllOptions, FixOptions, Guest, LayoutOptions, RenameIntegrityOptions,
};
use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::vault::checks::Check;
use vaultspec_verbs_shared::check_run::{self as run, Request};

struct Verbs;

fn fixing(check: Check, o: FixOptions) -> u8 {
    let req = Request {
        check: Some(check),
        fix: o.fix,
        feature: o.feature,
        verbose: o.verbose,
        json: o.json,
        limit: o.limit,
        offset: o.offset,
        ..Request::default()
    };
    run::run(&WritableWorkspace::open(), req)
}

impl Guest for Verbs {
    fn all(o: AllOptions) -> u8 {
        let req = Request {
            check: None,
            fix: o.fix,
            feature: o.feature,
            verbose: o.verbose,
            json: o.json,
            limit: o.limit,
            offset: o.offset,
            no_hints: o.no_hints,
            ..Request::default()
        };
        run::run(&WritableWorkspace::open(), req)
    }
    fn body_links(o: FixOptions) -> u8 {
        fixing(Check::BodyLinks, o)
    }
    fn annotations(o: FixOptions) -> u8 {
        fixing(Check::Annotations, o)
    }
    fn markdown(o: FixOptions) -> u8 {
        fixing(Check::Markdown, o)
    }
    fn dangling(o: FixOptions) -> u8 {
        fixing(Check::Dangling, o)
    }
    fn frontmatter(o: FixOptions) -> u8 {
        fixing(Check::Frontmatter, o)
    }
    fn modified_stamp(o: FixOptions) -> u8 {
        fixing(Check::ModifiedStamp, o)
    }
    fn links(o: FixOptions) -> u8 {
        fixing(Check::Links, o)
    }
    fn adr_status(o: FixOptions) -> u8 {
        fixing(Check::AdrStatus, o)
    }
    fn structure(o: LayoutOptions) -> u8 {
        let req = Request {
            check: Some(Check::Structure),
            fix: o.fix,
            verbose: o.verbose,
            json: o.json,
            limit: o.limit,
            offset: o.offset,
            ..Request::default()
        };
        run::run(&WritableWorkspace::open(), req)
    }
    fn rename_integrity(o: RenameIntegrityOptions) -> u8 {
        let req = Request {
            check: Some(Check::RenameIntegrity),
            fix: o.fix || o.fix_frontmatter_wins,
            frontmatter_wins: o.fix_frontmatter_wins,
            verbose: o.verbose,
            json: o.json,
            limit: o.limit,
            offset: o.offset,
            ..Request::default()
        };
        run::run(&WritableWorkspace::open(), req)
    }
}

vaultspec_sdk::verb!(Verbs);

//! `vault repair` and `vault sanitize annotations`: the verbs that run the
//! model's fixers over the whole vault.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::output;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::checks::report::{Page, result_data};
use vaultspec_sdk::vault::checks::{
    Check, Options, RepairOptions, repair as run_repair, run_check,
};
use vaultspec_sdk::vault::{Date, Storage};

use crate::exports::vaultspec::vault_write::vault::RepairOptions as RepairFlags;
use crate::exports::vaultspec::vault_write::vault_sanitize::AnnotationsOptions;
use crate::preview::Preview;
use crate::report::{done, fail, usage};

pub fn repair(options: RepairFlags) -> u8 {
    let json = options.json;
    if options.include_index && options.no_index {
        return usage(
            json,
            "`--include-index` and `--no-index` contradict each other: give one",
        );
    }
    let mut opts = RepairOptions::new(Date::today_utc());
    opts.dry_run = options.dry_run;
    opts.include_index = !options.no_index;
    opts.feature = options
        .feature
        .map(|f| vaultspec_sdk::vault::doc::feature_arg(&f).to_owned());
    let run = match run_repair(&WritableWorkspace::open(), &opts) {
        Ok(r) => r,
        Err(err) => return fail(json, err),
    };
    let failed = run.error_count > 0 || run.partial_failure;
    let status = if failed {
        output::status::FAILED
    } else if run.dry_run || run.fixed_count == 0 {
        output::status::UNCHANGED
    } else {
        output::status::UPDATED
    };
    let data = json!(run);
    let verbose = options.verbose;
    done(json, "vaultspec.vault.repair.v2", status, data, || {
        for line in &run.journal {
            println!("{line}");
        }
        if run.dry_run {
            for fix in &run.planned_fixes {
                println!(
                    "would fix ({}) {}: {}",
                    fix.check,
                    fix.path.as_deref().unwrap_or("vault"),
                    fix.message
                );
            }
        }
        for path in &run.changed_files {
            println!("changed {path}");
        }
        for path in &run.generated_indexes {
            let verb = if run.dry_run {
                "would regenerate"
            } else {
                "regenerated"
            };
            println!("{verb} {path}");
        }
        if verbose {
            for cause in &run.root_causes {
                println!("root cause: {cause}");
            }
            for item in &run.unresolved {
                println!("unresolved: {item}");
            }
        }
        println!("{} errors remain", run.error_count);
    });
    if failed {
        output::EXIT_FAILURE
    } else {
        output::EXIT_OK
    }
}

pub fn annotations(options: AnnotationsOptions) -> u8 {
    let json = options.json;
    let ws = WritableWorkspace::open();
    let preview = Preview::new(&ws);
    let storage: &dyn Storage = if options.dry_run { &preview } else { &ws };
    let opts = Options::fix(Date::today_utc()).with_feature(options.feature.as_deref());
    let result = match run_check(storage, Check::Annotations, &opts) {
        Ok(r) => r,
        Err(err) => return fail(json, err),
    };
    let page = Page {
        limit: options.limit.map(|l| l as usize),
        offset: options.offset.unwrap_or(0) as usize,
        info: true,
    };
    let mut data = result_data(&result, page);
    data["dry_run"] = json!(options.dry_run);
    let status = if result.fixed_count == 0 || options.dry_run {
        output::status::UNCHANGED
    } else {
        output::status::UPDATED
    };
    done(
        json,
        "vaultspec.vault.sanitize.annotations.v1",
        status,
        data,
        || {
            let verb = if options.dry_run {
                "would strip"
            } else {
                "stripped"
            };
            if options.verbose {
                for f in &result.findings {
                    println!("{}: {}", f.path.as_deref().unwrap_or("vault"), f.message);
                }
            }
            println!("{verb} annotations from {} documents", result.fixed_count);
        },
    )
}

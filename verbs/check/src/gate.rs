//! `commit-gate`: the read-only check of the files a commit stages, for a
//! pre-commit hook.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::output::{self, status};
use vaultspec_sdk::vault::Date;
use vaultspec_sdk::vault::checks::commit_gate as gate;

use crate::CommitGateOptions;

pub fn commit_gate(options: CommitGateOptions, paths: Vec<String>) -> u8 {
    let json = options.json;
    let report = match gate(&Workspace::open(), &paths, Date::today_utc()) {
        Ok(r) => r,
        Err(err) => return output::fail(json, err),
    };
    let blocking = report.is_blocking();
    if json {
        let word = if blocking {
            status::FAILED
        } else {
            status::UNCHANGED
        };
        output::print_json(&output::envelope(
            "vaultspec.commit-gate.v1",
            word,
            report.to_json(),
        ));
    } else {
        for f in &report.blocking {
            println!(
                "blocking {}: {} ({})",
                f.path.as_deref().unwrap_or("vault"),
                f.message,
                f.check
            );
        }
        for p in &report.per_machine {
            println!(
                "blocking {p}: a per-machine file; keep it out of the commit (unstage it and ignore it)"
            );
        }
        if blocking {
            println!(
                "commit blocked: {} finding(s), {} per-machine file(s)",
                report.blocking.len(),
                report.per_machine.len()
            );
        } else {
            let scope = if paths.is_empty() {
                "the vault".to_string()
            } else {
                format!("{} staged path(s)", paths.len())
            };
            println!("commit allowed: no blocking finding in {scope}");
        }
    }
    if blocking {
        output::EXIT_FAILURE
    } else {
        output::EXIT_OK
    }
}

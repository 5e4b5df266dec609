//! `vault adr crossref`: which other ADRs a decision should link to, ranked
//! offline by shared code artifacts and subject (no hosted judge), for one
//! ADR or a bounded sweep; `--apply` writes the link verdicts. The rule is
//! `vaultspec_vault::ops::crossref`, shared with the MCP `crossref` tool.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::vault::graph::read_corpus;
use vaultspec_sdk::vault::ops::crossref::{self, CrossrefRequest};
use vaultspec_sdk::vault::{Date, Error};

use crate::exports::vaultspec::vault_write::vault_adr::CrossrefOptions;
use crate::report::{self, done, fail, read_input};

pub fn crossref(options: CrossrefOptions, refs: Vec<String>) -> u8 {
    let json = options.json;
    let ws = WritableWorkspace::open();
    let body = match options
        .body_file
        .as_deref()
        .map(|f| read_input(&ws, "--body-file", f))
        .transpose()
    {
        Ok(d) => d,
        Err(message) => return fail(json, message),
    };
    let (docs, _) = match read_corpus(&ws) {
        Ok(c) => c,
        Err(err) => return fail(json, err),
    };
    let request = CrossrefRequest {
        refs,
        feature: options.feature,
        isolated: options.isolated,
        all: options.all,
        after: options.after,
        max_sources: options.max_sources.map(|n| n as usize),
        apply: options.apply,
        body,
    };
    // The host holds the docs-domain sentinel from the first write on.
    let outcome = match crossref::crossref(&ws, &docs, &request, Date::today_utc(), |_| {
        Ok::<(), Error>(())
    }) {
        Ok(outcome) => outcome,
        Err(Error::Invalid(message)) => return report::usage(json, &message),
        Err(err) => return fail(json, err),
    };
    let status = if outcome.written > 0 {
        "updated"
    } else {
        "unchanged"
    };
    done(
        json,
        "vaultspec.vault.adr.crossref.v1",
        status,
        &outcome,
        || {
            for source in &outcome.sources {
                println!("{}", source.source);
                for v in &source.verdicts {
                    let applied = if v.applied == Some(true) {
                        " (linked)"
                    } else {
                        ""
                    };
                    let kind = if v.kind == crossref::VerdictKind::Link {
                        "link"
                    } else {
                        "weak"
                    };
                    println!("  {kind:<5} {}  {}{applied}", v.stem, v.relation);
                }
                if source.verdicts.is_empty() {
                    println!("  no other ADR to suggest");
                }
                for stem in &source.write_failed {
                    println!("  could not link {stem}");
                }
            }
            if let Some(next) = &outcome.next_after {
                println!(
                    "{} more ADRs: continue with --after {next}",
                    outcome.remaining
                );
            }
        },
    )
}

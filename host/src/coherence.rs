//! `vault check coherence`: the `related:` links whose upstream document
//! changed after the document that links it was written
//! ([`vaultspec_vault::coherence`]), dated from the repository's history
//! ([`crate::git_history`]) where there is one, else from `modified:`.
//!
//! A host verb, not a component: the history is read in process from
//! `.git`, which no verb may reach. At a terminal and through the gateway
//! alike it only reads. The findings are warnings: a run exits 0 with
//! them, as `check code-boundary` does.

use std::path::Path;

use serde_json::{Value, json};
use vaultspec_vault::CapStorage;
use vaultspec_vault::coherence::{self, Stale, When};
use vaultspec_vault::date::Date;
use vaultspec_vault::graph::{self, GraphDoc};

use crate::git_history::{self, History, HistoryError};
use crate::report::{Printed, exit};

/// The envelope's schema.
pub const SCHEMA: &str = "vaultspec.vault.check.coherence.v1";

/// How the documents were dated.
enum Dating {
    /// From the repository's history.
    History(History),
    /// From `modified:` dates, and why not from history.
    Dates(String),
}

/// Run the check on the workspace at `root`.
pub fn run(root: &Path, feature: Option<&str>, json: bool) -> Printed {
    let failed = |message: String| {
        let mut printed = Printed::new(exit::FINDINGS);
        printed.stderr = format!("error: {message}\n");
        printed
    };
    let storage = match CapStorage::open(root) {
        Ok(storage) => storage,
        Err(err) => return failed(format!("opening `{}`: {err}", root.display())),
    };
    let graph = match graph::load_graph(&storage) {
        Ok(graph) => graph,
        Err(err) => return failed(format!("reading the vault: {err}")),
    };
    let dating = match git_history::read(root, ".vault") {
        Ok(history) => Dating::History(history),
        Err(HistoryError::NoRepository) => {
            Dating::Dates("the workspace is not a git repository".into())
        }
        Err(err) => Dating::Dates(err.to_string()),
    };
    let feature = feature.map(vaultspec_vault::doc::feature_arg);
    let found = coherence::stale(&graph, feature, &|doc| when(root, &storage, &dating, doc));
    report(&found, &dating, json)
}

/// When `doc` last changed: its working copy when that differs from
/// `HEAD` (the file's modification time), else its last commit; by its
/// dates where there is no history, or history does not know it.
fn when(root: &Path, storage: &CapStorage, dating: &Dating, doc: &GraphDoc) -> Option<When> {
    let Dating::History(history) = dating else {
        return When::of_dates(doc);
    };
    let bytes_blob = vaultspec_vault::Storage::read(storage, &doc.path)
        .ok()
        .map(|bytes| vaultspec_vault::hash::blob_oid(&bytes));
    let committed = history.at_head.get(&doc.path);
    if bytes_blob.is_some() && bytes_blob.as_ref() != committed {
        let modified = std::fs::symlink_metadata(root.join(&doc.path))
            .and_then(|m| m.modified())
            .ok()?;
        let time = modified
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        return Some(When {
            time,
            by: "uncommitted".into(),
        });
    }
    match history.changed.get(&doc.path) {
        Some(changed) => Some(When {
            time: changed.time,
            by: changed.commit[..12.min(changed.commit.len())].to_owned(),
        }),
        None => When::of_dates(doc),
    }
}

/// The day of `when`, for people.
fn day(when: &When) -> String {
    Date::from_days(when.time.div_euclid(86_400)).map_or_else(String::new, |d| d.to_string())
}

fn stem(path: &str) -> &str {
    path.rsplit('/')
        .next()
        .unwrap_or(path)
        .trim_end_matches(".md")
}

fn message(stale: &Stale) -> String {
    format!(
        "`{}` changed after this document was written ({} on {}; this document {} on {}): review it against [[{}]]",
        stem(&stale.upstream),
        stale.upstream_changed.by,
        day(&stale.upstream_changed),
        stale.document_changed.by,
        day(&stale.document_changed),
        stem(&stale.upstream),
    )
}

fn side(when: &When) -> Value {
    json!({"by": when.by, "date": day(when), "time": when.time})
}

fn report(found: &[Stale], dating: &Dating, json: bool) -> Printed {
    let mut printed = Printed::new(exit::OK);
    let source = match dating {
        Dating::History(history) => json!({"source": "git", "complete": history.complete}),
        Dating::Dates(why) => json!({"source": "dates", "reason": why}),
    };
    if json {
        let items: Vec<Value> = found
            .iter()
            .map(|s| {
                json!({
                    "path": s.document,
                    "message": message(s),
                    "severity": "warning",
                    "fixable": false,
                    "fix_description": format!("review `{}` against `{}`, then edit it (or re-stamp it with `vaultspec vault check modified-stamp --fix`)", s.document, s.upstream),
                    "upstream": s.upstream,
                    "document_changed": side(&s.document_changed),
                    "upstream_changed": side(&s.upstream_changed),
                })
            })
            .collect();
        let data = json!({
            "check_name": "coherence",
            "diagnostics": {"returned": items.len(), "total": items.len(), "truncated": false, "items": items},
            "fixed_count": 0,
            "supports_fix": false,
            "dated_by": source,
        });
        printed.envelope(SCHEMA, "unchanged", data);
        return printed;
    }
    if let Dating::Dates(why) = dating {
        printed
            .stdout
            .push_str(&format!("Dated by `modified:` ({why}).\n"));
    }
    if found.is_empty() {
        printed
            .stdout
            .push_str("coherence: every related document is older than what links it.\n");
        return printed;
    }
    for stale in found {
        printed.stdout.push_str(&format!(
            "warning: {}: {}\n",
            stale.document,
            message(stale)
        ));
    }
    printed.stdout.push_str(&format!(
        "coherence: {} stale link{}.\n",
        found.len(),
        if found.len() == 1 { "" } else { "s" }
    ));
    printed
}

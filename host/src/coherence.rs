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
use vaultspec_vault::graph::{self, Graph, GraphDoc};

use crate::checked_file::Owner;
use crate::git_history::{self, History, HistoryError};
use crate::report::{Printed, exit};

/// The largest document hashed again to compare it with `HEAD`.
const MAX_DOC_BYTES: u64 = 16 << 20;

/// The envelope's schema.
pub const SCHEMA: &str = "vaultspec.vault.check.coherence.v1";

/// How the documents were dated.
enum Dating {
    /// From the repository's history.
    History(History),
    /// From `modified:` dates, and why not from history.
    Dates(String),
}

/// The stale links of a vault and how its documents were dated.
pub struct Findings {
    /// Every stale `related:` link, by document then upstream.
    pub stale: Vec<Stale>,
    dating: Dating,
}

impl Findings {
    /// Where the dates came from, for a report: `{"source": "git",
    /// "complete": …}` or `{"source": "dates", "reason": …}`.
    pub fn dated_by(&self) -> Value {
        match &self.dating {
            Dating::History(history) => json!({"source": "git", "complete": history.complete}),
            Dating::Dates(why) => json!({"source": "dates", "reason": why}),
        }
    }
}

/// The stale links of the vault `graph` was read from (of `feature`'s
/// documents alone, when given), dated from the history of the repository
/// at `root` where there is one.
pub fn find(root: &Path, graph: &Graph, feature: Option<&str>) -> Findings {
    let dating = match git_history::read(root, ".vault") {
        Ok(history) => Dating::History(history),
        Err(HistoryError::NoRepository) => {
            Dating::Dates("the workspace is not a git repository".into())
        }
        Err(err) => Dating::Dates(err.to_string()),
    };
    let feature = feature.map(vaultspec_vault::doc::feature_arg);
    let stale = coherence::stale(graph, feature, &|doc| when(root, &dating, doc));
    Findings { stale, dating }
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
    report(&find(root, &graph, feature), json)
}

/// When `doc` last changed: its working copy when that differs from
/// `HEAD` (the file's modification time), else its last commit; by its
/// dates where there is no history, or history does not know it.
fn when(root: &Path, dating: &Dating, doc: &GraphDoc) -> Option<When> {
    let Dating::History(history) = dating else {
        return When::of_dates(doc);
    };
    // The loaded text's blob id, unless reading it normalised the bytes.
    let blob = doc.blob_oid().or_else(|| {
        let path = root.join(&doc.path);
        let bytes = crate::checked_file::read(&path, MAX_DOC_BYTES, Owner::Anyone).ok()??;
        Some(vaultspec_vault::hash::blob_oid(&bytes))
    });
    let committed = history.at_head.get(&doc.path);
    if blob.is_some() && blob.as_ref() != committed {
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

fn report(findings: &Findings, json: bool) -> Printed {
    let mut printed = Printed::new(exit::OK);
    let found = &findings.stale;
    let source = findings.dated_by();
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
    if let Dating::Dates(why) = &findings.dating {
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

//! `migrations run`: apply what is pending, as one batch.
//!
//! Each pending migration acts in registry order on a staged overlay of the
//! workspace, so a later one sees what an earlier one left: `index_subfolder`
//! moves feature indexes into `.vault/index/`; `modified_stamp_backfill` and
//! `body_hash_seed` stamp the documents older releases left unstamped
//! ([`documents`]); `exec_ledger_fold` and `exec_ledger_only` fold per-Step
//! execution records into one ledger per plan, copying each record they
//! remove into `.vault/.trash/` first ([`exec_fold`]); `frontmatter_lifecycle`
//! has nothing to change. The others rewrite the agents' and the
//! framework's files, which a verb may not write: they are recorded with the
//! command that brings those files in line. The manifest is then rewritten at
//! the current version as the reference rewrites it, its graph cache
//! dropped, and everything lands together or nothing does. `--dry-run`
//! lists each file that would change and each document that would go.

use std::collections::BTreeSet;

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::output;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::Storage;
use vaultspec_sdk::vault::date::Date;
use vaultspec_sdk::vault::migrations::documents::{self, Texts};
use vaultspec_sdk::vault::migrations::exec_fold::{self, Fold};
use vaultspec_sdk::vault::migrations::manifest_rewritten;
use vaultspec_sdk::vault::ops::{self, staged::Staged};
use vaultspec_sdk::vault::trash::Snapshot;

use crate::exports::vaultspec::admin::migrations::RunOptions;
use vaultspec_verbs_shared::migration_table::{CURRENT_VERSION, MANIFEST_PATH, state};

/// The reference's graph cache, dropped by every run.
const GRAPH_CACHE: &str = ".vault/data/.graph-cache/graph.json";

/// The fold a migration is, if it is one.
fn fold_of(name: &str) -> Option<Fold> {
    match name {
        "exec_ledger_fold" => Some(Fold::LegacyRecords),
        "exec_ledger_only" => Some(Fold::EveryRecord),
        _ => None,
    }
}

/// What one migration came to.
struct Outcome {
    summary: String,
    /// The files it wrote, moved or removed.
    changes: Vec<String>,
    /// Where it copied what it removed.
    snapshot: Option<String>,
}

impl Outcome {
    fn said(summary: impl Into<String>) -> Outcome {
        Outcome {
            summary: summary.into(),
            changes: Vec::new(),
            snapshot: None,
        }
    }
}

/// Stamps the documents with `stamp`, staging each text it changed.
fn stamp(
    storage: &dyn Storage,
    stamp: fn(&mut Texts) -> (String, Vec<String>),
) -> Result<Outcome, String> {
    let mut texts = documents::read(storage, &documents::documents(storage)?)?;
    let (summary, changes) = stamp(&mut texts);
    for path in &changes {
        storage
            .write(path, texts[path].as_bytes())
            .map_err(|e| e.to_string())?;
    }
    Ok(Outcome {
        summary,
        changes,
        snapshot: None,
    })
}

/// Runs one migration on the staged workspace.
fn apply_one(
    name: &str,
    storage: &dyn Storage,
    legacy_indexes: &[String],
    (today, seconds): (Date, u32),
) -> Result<Outcome, String> {
    let vault = !storage
        .list(".vault")
        .map_err(|e| e.to_string())?
        .is_empty();
    match name {
        "index_subfolder" => {
            for old in legacy_indexes {
                let file = old.rsplit('/').next().unwrap_or(old);
                let new = format!(".vault/index/{file}");
                let done = if storage.exists(&new).map_err(|e| e.to_string())? {
                    storage.remove(old)
                } else {
                    storage.rename(old, &new)
                };
                done.map_err(|e| e.to_string())?;
            }
            Ok(Outcome {
                summary: format!(
                    "{} feature indexes moved into `.vault/index/`",
                    legacy_indexes.len()
                ),
                changes: legacy_indexes.to_vec(),
                snapshot: None,
            })
        }
        "frontmatter_lifecycle" => Ok(Outcome::said(documents::LIFECYCLE)),
        "modified_stamp_backfill" if !vault => {
            Ok(Outcome::said("no .vault/ directory; nothing to backfill"))
        }
        "modified_stamp_backfill" => stamp(storage, documents::backfill_modified),
        "body_hash_seed" if !vault => Ok(Outcome::said("no .vault/ directory; nothing to seed")),
        "body_hash_seed" => stamp(storage, documents::seed_body_hash),
        _ => match fold_of(name) {
            Some(which) => {
                let mut snapshot = Snapshot::new(name, today, seconds);
                let run = exec_fold::run(storage, which, today, &mut snapshot)?;
                Ok(Outcome {
                    summary: run.summary,
                    changes: run.changes,
                    snapshot: run.snapshot,
                })
            }
            None => Ok(Outcome::said(
                "changes agent and framework files, which verbs do not write: `vaultspec \
                 install --upgrade` and `vaultspec sync` bring them in line",
            )),
        },
    }
}

pub fn run(options: RunOptions) -> u8 {
    let json = options.json;
    let ws = WritableWorkspace::open();
    if !options.dry_run
        && let Err(err) = ops::recover(&ws)
    {
        return output::fail(json, err);
    }
    let st = match state(&ws) {
        Ok(s) => s,
        Err(message) => return output::fail(json, &message),
    };
    // What each fold would remove, planned on the tree as it stands (as the
    // reference previews it); a path an earlier entry claims is not repeated.
    let mut claimed = BTreeSet::new();
    let mut previews = Vec::new();
    for (name, _) in &st.pending {
        let deletes = match fold_of(name).map(|which| exec_fold::preview(&ws, which)) {
            Some(Ok(paths)) => paths
                .into_iter()
                .filter(|p| claimed.insert(p.clone()))
                .collect(),
            Some(Err(message)) => {
                return output::fail(json, format!("migration failed: {message}"));
            }
            None => Vec::new(),
        };
        previews.push(deletes);
    }
    let clock = Date::now_utc();
    let staged = Staged::new(&ws);
    let mut migrations: Vec<Value> = Vec::new();
    let mut items: Vec<Value> = Vec::new();
    let mut snapshots = Vec::new();
    for ((name, target), deletes) in st.pending.iter().zip(&previews) {
        let outcome = match apply_one(name, &staged, &st.legacy_indexes, clock) {
            Ok(outcome) => outcome,
            Err(message) => return output::fail(json, format!("migration failed: {message}")),
        };
        snapshots.extend(outcome.snapshot.clone());
        migrations.push(json!({
            "name": name, "target_version": target, "applied": !options.dry_run,
            "previewable": fold_of(name).is_some(), "deletes": deletes,
            "detail": outcome.summary, "changes": outcome.changes,
        }));
        items.push(json!({
            "name": name, "outcome": "updated",
            "detail": format!("{target}  {}", outcome.summary),
        }));
    }
    let doomed: usize = previews.iter().map(Vec::len).sum();
    let mut manifest_change = Value::Null;
    if !st.pending.is_empty() && st.has_manifest {
        manifest_change = json!({ "old": st.manifest_version, "new": CURRENT_VERSION });
    }
    if !st.pending.is_empty() {
        if staged.exists(GRAPH_CACHE).unwrap_or(false)
            && let Err(err) = staged.remove(GRAPH_CACHE)
        {
            return output::fail(json, err);
        }
        if st.has_manifest {
            let rewritten = ws
                .read(MANIFEST_PATH)
                .map_err(|e| e.to_string())
                .and_then(|bytes| {
                    manifest_rewritten(&String::from_utf8_lossy(&bytes), CURRENT_VERSION)
                })
                .and_then(|text| {
                    staged
                        .write(MANIFEST_PATH, text.as_bytes())
                        .map_err(|e| e.to_string())
                });
            if let Err(message) = rewritten {
                return output::fail(json, format!("migration failed: {message}"));
            }
        }
        // Every move, stamp, ledger, removal and the manifest land together
        // or not at all.
        if !options.dry_run
            && let Err(err) = staged.commit()
        {
            return output::fail(json, err);
        }
    }
    let status = if st.pending.is_empty() || options.dry_run {
        output::status::UNCHANGED
    } else {
        output::status::UPDATED
    };
    let data = json!({
        "dry_run": options.dry_run,
        "deletes": doomed,
        "items": if options.dry_run { json!([]) } else { json!(items) },
        "migrations": migrations,
        "manifest_version": manifest_change,
    });
    if json {
        output::print_json(&output::envelope(
            "vaultspec.migrations.run.v1",
            status,
            data,
        ));
    } else if st.pending.is_empty() {
        println!("no migration is pending");
    } else {
        let verb = if options.dry_run {
            "would apply"
        } else {
            "applied"
        };
        for dir in &snapshots {
            println!("backup: removed documents copied to {dir}/");
        }
        for m in &migrations {
            println!(
                "{verb} {} ({}): {}",
                m["name"].as_str().unwrap_or(""),
                m["target_version"].as_str().unwrap_or(""),
                m["detail"].as_str().unwrap_or("")
            );
            let prefix = if options.dry_run { "would change " } else { "" };
            for path in m["changes"].as_array().into_iter().flatten() {
                println!("  {prefix}{}", path.as_str().unwrap_or(""));
            }
        }
        if options.dry_run && doomed > 0 {
            println!(
                "{doomed} document(s) would be removed; a real run first copies each into .vault/.trash/"
            );
        }
        if st.has_manifest {
            println!(
                "manifest version {} -> {CURRENT_VERSION}",
                st.manifest_version.as_deref().unwrap_or("(none)")
            );
        }
    }
    output::EXIT_OK
}

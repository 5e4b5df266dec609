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
use vaultspec_verbs_shared::migration_table::{
    CURRENT_VERSION, HOST_DONE_ENV, HOST_MIGRATIONS, MANIFEST_PATH, state,
};

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
            None => Ok(Outcome::said("")),
        },
    }
}

/// What the host's pass did for a migration it runs (`None`: it did not
/// run, as through the gateway).
fn done_by_host(host: &Value, name: &str) -> Option<Outcome> {
    let done = host.get(name)?;
    Some(Outcome {
        summary: done["detail"].as_str().unwrap_or_default().to_owned(),
        changes: done["changes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str().map(str::to_owned))
            .collect(),
        snapshot: None,
    })
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
    // The host's pass, when it ran (at a terminal), said what it did.
    let host: Value = std::env::var(HOST_DONE_ENV)
        .ok()
        .and_then(|text| vaultspec_sdk::serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    // The manifest moves up to the last migration before the first that
    // did not run, so that one stays pending; past all of them when every
    // one ran.
    let mut reached: Option<&str> = st.manifest_version.as_deref();
    let mut blocked = false;
    for ((name, target), deletes) in st.pending.iter().zip(&previews) {
        let outcome = if HOST_MIGRATIONS.contains(name) {
            done_by_host(&host, name)
        } else {
            match apply_one(name, &staged, &st.legacy_indexes, clock) {
                Ok(outcome) => Some(outcome),
                Err(message) => {
                    return output::fail(json, format!("migration failed: {message}"));
                }
            }
        };
        let Some(outcome) = outcome else {
            blocked = true;
            let detail = "it changes files outside the vault, which only `vaultspec migrations \
                          run` at a terminal writes; it stays pending";
            migrations.push(json!({
                "name": name, "target_version": target, "applied": false, "skipped": true,
                "previewable": false, "deletes": [], "detail": detail, "changes": [],
            }));
            items.push(json!({
                "name": name, "outcome": "skipped", "detail": format!("{target}  {detail}"),
            }));
            continue;
        };
        if !blocked {
            reached = Some(target);
        }
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
    let reached = if blocked {
        reached
    } else {
        Some(CURRENT_VERSION)
    };
    // A manifest whose version would not move is left as it is.
    let reached = reached.filter(|v| Some(*v) != st.manifest_version.as_deref());
    let doomed: usize = previews.iter().map(Vec::len).sum();
    let mut manifest_change = Value::Null;
    if let Some(version) = reached.filter(|_| st.has_manifest) {
        manifest_change = json!({ "old": st.manifest_version, "new": version });
    }
    if !st.pending.is_empty() {
        if staged.exists(GRAPH_CACHE).unwrap_or(false)
            && let Err(err) = staged.remove(GRAPH_CACHE)
        {
            return output::fail(json, err);
        }
        if let Some(version) = reached.filter(|_| st.has_manifest) {
            let rewritten = ws
                .read(MANIFEST_PATH)
                .map_err(|e| e.to_string())
                .and_then(|bytes| manifest_rewritten(&String::from_utf8_lossy(&bytes), version))
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
    let applied = items.iter().any(|i| i["outcome"] == "updated");
    let status = if !applied || options.dry_run {
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
        for dir in &snapshots {
            println!("backup: removed documents copied to {dir}/");
        }
        for m in &migrations {
            let verb = match (m["skipped"] == true, options.dry_run) {
                (true, _) => "skipped",
                (false, true) => "would apply",
                (false, false) => "applied",
            };
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
        if let Some(new) = manifest_change["new"].as_str() {
            println!(
                "manifest version {} -> {new}",
                st.manifest_version.as_deref().unwrap_or("(none)")
            );
        }
    }
    output::EXIT_OK
}

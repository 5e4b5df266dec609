//! `migrations run`: apply what is pending, as one batch.
//!
//! `index_subfolder` moves feature indexes from the top of `.vault/` into
//! `.vault/index/`; `modified_stamp_backfill` and `body_hash_seed` stamp
//! the documents older releases left without `modified:` or `body_hash:`,
//! byte for byte as the reference does ([`documents`]);
//! `frontmatter_lifecycle` has nothing to change. The others rewrite the
//! agents' and the framework's files, which a verb may not write: they are
//! recorded with the command that brings those files in line. The
//! manifest is then rewritten at the current version as the reference
//! rewrites it, its graph cache dropped; every write lands together or
//! none does, and `--dry-run` lists each file that would change.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::output;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::Storage;
use vaultspec_sdk::vault::migrations::documents::{self, Texts};
use vaultspec_sdk::vault::migrations::manifest_rewritten;
use vaultspec_sdk::vault::ops::{self, Change};

use crate::exports::vaultspec::admin::migrations::RunOptions;
use vaultspec_verbs_shared::migration_table::{CURRENT_VERSION, MANIFEST_PATH, state};

/// The reference's graph cache, dropped by every run.
const GRAPH_CACHE: &str = ".vault/data/.graph-cache/graph.json";

/// What one migration comes to: its summary and the files it changes.
fn apply_one(
    name: &str,
    legacy_indexes: &[String],
    vault: bool,
    texts: &mut Texts,
    moves: &mut Vec<(String, String)>,
) -> (String, Vec<String>) {
    match name {
        "index_subfolder" => {
            for old in legacy_indexes {
                let file = old.rsplit('/').next().unwrap_or(old);
                moves.push((old.clone(), format!(".vault/index/{file}")));
            }
            (
                format!(
                    "{} feature indexes moved into `.vault/index/`",
                    legacy_indexes.len()
                ),
                legacy_indexes.to_vec(),
            )
        }
        "frontmatter_lifecycle" => (documents::LIFECYCLE.to_owned(), Vec::new()),
        "modified_stamp_backfill" if !vault => (
            "no .vault/ directory; nothing to backfill".to_owned(),
            Vec::new(),
        ),
        "modified_stamp_backfill" => documents::backfill_modified(texts),
        "body_hash_seed" if !vault => (
            "no .vault/ directory; nothing to seed".to_owned(),
            Vec::new(),
        ),
        "body_hash_seed" => documents::seed_body_hash(texts),
        "exec_ledger_fold" | "exec_ledger_only" => (
            "execution records stay as they are (vaultspec reads records and ledgers alike); \
             they are not folded into a ledger"
                .to_owned(),
            Vec::new(),
        ),
        _ => (
            "changes agent and framework files, which verbs do not write: `vaultspec install \
             --upgrade` and `vaultspec sync` bring them in line"
                .to_owned(),
            Vec::new(),
        ),
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
    let stamps = st
        .pending
        .iter()
        .any(|(name, _)| matches!(*name, "modified_stamp_backfill" | "body_hash_seed"));
    let vault = ws.list(".vault").is_ok_and(|files| !files.is_empty());
    let before = if stamps && vault {
        match documents::documents(&ws).and_then(|paths| documents::read(&ws, &paths)) {
            Ok(texts) => texts,
            Err(message) => return output::fail(json, format!("migration failed: {message}")),
        }
    } else {
        Texts::new()
    };
    let mut texts = before.clone();
    let mut migrations: Vec<Value> = Vec::new();
    let mut items: Vec<Value> = Vec::new();
    let mut moves = Vec::new();
    for (name, target) in &st.pending {
        let (detail, changed) = apply_one(name, &st.legacy_indexes, vault, &mut texts, &mut moves);
        migrations.push(json!({
            "name": name, "target_version": target, "applied": !options.dry_run,
            "previewable": false, "deletes": [], "detail": detail, "changes": changed,
        }));
        items.push(
            json!({ "name": name, "outcome": "updated", "detail": format!("{target}  {detail}") }),
        );
    }
    let mut manifest_change = Value::Null;
    if !st.pending.is_empty() && st.has_manifest {
        manifest_change = json!({ "old": st.manifest_version, "new": CURRENT_VERSION });
    }
    if !options.dry_run && !st.pending.is_empty() {
        let mut changes = Vec::new();
        for (from, to) in &moves {
            match ws.exists(to) {
                Ok(true) => changes.push(Change::Remove { path: from.clone() }),
                Ok(false) => changes.push(Change::Rename {
                    from: from.clone(),
                    to: to.clone(),
                }),
                Err(err) => return output::fail(json, err),
            }
        }
        for (path, text) in &texts {
            if before.get(path) != Some(text) {
                changes.push(Change::Write {
                    path: path.clone(),
                    bytes: text.clone().into_bytes(),
                });
            }
        }
        if ws.exists(GRAPH_CACHE).unwrap_or(false) {
            changes.push(Change::Remove {
                path: GRAPH_CACHE.to_owned(),
            });
        }
        if st.has_manifest {
            let rewritten = ws
                .read(MANIFEST_PATH)
                .map_err(|e| e.to_string())
                .and_then(|bytes| {
                    manifest_rewritten(&String::from_utf8_lossy(&bytes), CURRENT_VERSION)
                });
            match rewritten {
                Ok(text) => changes.push(Change::Write {
                    path: MANIFEST_PATH.to_owned(),
                    bytes: text.into_bytes(),
                }),
                Err(message) => return output::fail(json, format!("migration failed: {message}")),
            }
        }
        // Every move, stamp and the manifest land together or not at all.
        if let Err(err) = ops::apply(&ws, &changes) {
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
        "deletes": 0,
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
        for m in &migrations {
            println!(
                "{verb} {} ({}): {}",
                m["name"].as_str().unwrap_or(""),
                m["target_version"].as_str().unwrap_or(""),
                m["detail"].as_str().unwrap_or("")
            );
            for path in m["changes"].as_array().into_iter().flatten() {
                println!("  {}", path.as_str().unwrap_or(""));
            }
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

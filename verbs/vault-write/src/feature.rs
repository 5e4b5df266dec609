//! `vault feature index|archive|unarchive|rename` and `vault archive
//! documents|restore`: the verbs that move or regenerate many documents.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::hints::Hints;
use vaultspec_sdk::output::done_with_hints;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::Date;
use vaultspec_sdk::vault::ops::archive::{
    archive_documents, archive_feature, restore_documents, unarchive_feature,
};
use vaultspec_sdk::vault::ops::feature::{index_features, rename_feature};

use crate::exports::vaultspec::vault_write::vault_archive::{DocumentsOptions, RestoreOptions};
use crate::exports::vaultspec::vault_write::vault_feature::{
    ArchiveOptions, IndexOptions, RenameOptions, UnarchiveOptions,
};
use crate::report::{done, fail, read_input, word};

/// The command the hints after a feature-wide change suggest.
const CHECK_ALL: &str = "vaultspec vault check all";

fn print_paths(verb: &str, paths: &[String], dry_run: bool) {
    let prefix = if dry_run { "would be " } else { "" };
    for p in paths {
        println!("{prefix}{verb} {p}");
    }
    println!("{} documents {prefix}{verb}", paths.len());
}

pub fn index(options: IndexOptions) -> u8 {
    let json = options.json;
    let indexed = match index_features(
        &WritableWorkspace::open(),
        options.feature.as_deref(),
        Date::today_utc(),
    ) {
        Ok(i) => i,
        Err(err) => return fail(json, err),
    };
    done(
        json,
        "vaultspec.vault.feature.index.v1",
        word(indexed.status),
        json!({ "generated": indexed.generated }),
        || {
            for p in &indexed.generated {
                println!("generated {p}");
            }
            if indexed.generated.is_empty() {
                println!("every feature index is up to date");
            }
        },
    )
}

pub fn archive(options: ArchiveOptions, feature: String) -> u8 {
    let json = options.json;
    let archived = match archive_feature(&WritableWorkspace::open(), &feature, options.dry_run) {
        Ok(a) => a,
        Err(err) => return fail(json, err),
    };
    let data = json!({
        "archived_count": archived.archived_count,
        "paths": archived.paths,
        "cross_links": archived.cross_link_paths,
        "dry_run": archived.dry_run,
    });
    let hints = (archived.archived_count > 0 && !archived.dry_run)
        .then(|| {
            Hints::one(
                "Check that the vault is still clean without the archived documents",
                CHECK_ALL,
            )
        })
        .and_then(|h| h.unless(options.no_hints));
    done_with_hints(
        json,
        "vaultspec.vault.feature.archive.v1",
        word(archived.status),
        data,
        hints.as_ref(),
        || {
            print_paths("archived", &archived.paths, archived.dry_run);
            for p in &archived.cross_link_paths {
                println!("  still linked from {p}");
            }
        },
    )
}

pub fn unarchive(options: UnarchiveOptions, feature: String) -> u8 {
    let json = options.json;
    let restored = match unarchive_feature(&WritableWorkspace::open(), &feature, options.dry_run) {
        Ok(r) => r,
        Err(err) => return fail(json, err),
    };
    let data = json!({
        "unarchived_count": restored.restored_count,
        "paths": restored.paths,
        "dry_run": restored.dry_run,
    });
    done(
        json,
        "vaultspec.vault.feature.unarchive.v1",
        word(restored.status),
        data,
        || {
            print_paths("restored", &restored.paths, restored.dry_run);
        },
    )
}

pub fn rename(options: RenameOptions, old: String, new: String) -> u8 {
    let json = options.json;
    let ws = WritableWorkspace::open();
    let renamed = match rename_feature(
        &ws,
        &old,
        &new,
        options.force,
        options.dry_run,
        Date::today_utc(),
    ) {
        Ok(r) => r,
        Err(err) => return fail(json, err),
    };
    let status = word(renamed.status);
    let data = json!(renamed);
    let hints = (renamed.renamed_count > 0 && !renamed.dry_run)
        .then(|| {
            Hints::one(
                "Check that the vault is still clean under the new name",
                CHECK_ALL,
            )
        })
        .and_then(|h| h.unless(options.no_hints));
    done_with_hints(
        json,
        "vaultspec.vault.feature.rename.v1",
        status,
        data,
        hints.as_ref(),
        || {
            let prefix = if renamed.dry_run {
                "would rename"
            } else {
                "renamed"
            };
            println!(
                "{prefix} `{}` to `{}`: {} files",
                renamed.old, renamed.new, renamed.renamed_count
            );
            for m in &renamed.paths {
                println!("  {} -> {}", m.old, m.new);
            }
            println!(
                "  {} tags and {} related links rewritten",
                renamed.tag_rewrites, renamed.related_rewrites
            );
            for c in &renamed.collisions {
                println!("  collision: {c}");
            }
        },
    )
}

/// The non-blank lines of a manifest file.
fn manifest(ws: &WritableWorkspace, path: &str) -> Result<Vec<String>, String> {
    let text = read_input(ws, "--manifest", path)?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect())
}

pub fn documents(options: DocumentsOptions) -> u8 {
    let json = options.json;
    let ws = WritableWorkspace::open();
    let refs = match manifest(&ws, &options.manifest) {
        Ok(r) => r,
        Err(message) => return fail(json, message),
    };
    let archived = match archive_documents(&ws, &refs, options.dry_run) {
        Ok(a) => a,
        Err(err) => return fail(json, err),
    };
    let status = word(archived.status);
    let data = json!({
        "status": status,
        "archived_count": archived.archived_count,
        "paths": archived.paths,
        "cross_link_paths": archived.cross_link_paths,
        "dry_run": archived.dry_run,
    });
    done(
        json,
        "vaultspec.vault.archive.documents.v1",
        status,
        data,
        || {
            print_paths("archived", &archived.paths, archived.dry_run);
            for p in &archived.cross_link_paths {
                println!("  still linked from {p}");
            }
        },
    )
}

pub fn restore(options: RestoreOptions) -> u8 {
    let json = options.json;
    let ws = WritableWorkspace::open();
    let paths = match manifest(&ws, &options.manifest) {
        Ok(r) => r,
        Err(message) => return fail(json, message),
    };
    let restored =
        match restore_documents(&ws, &paths, options.deduplicate_identical, options.dry_run) {
            Ok(r) => r,
            Err(err) => return fail(json, err),
        };
    let status = word(restored.status);
    let data = json!({
        "status": status,
        "restored_count": restored.restored_count,
        "paths": restored.paths,
        "deduplicated_count": restored.deduplicated_count,
        "deduplicated_paths": restored.deduplicated_paths,
        "cross_link_paths": restored.cross_link_paths,
        "dry_run": restored.dry_run,
    });
    done(
        json,
        "vaultspec.vault.archive.restore.v1",
        status,
        data,
        || {
            print_paths("restored", &restored.paths, restored.dry_run);
            for p in &restored.deduplicated_paths {
                println!("  dropped identical archived copy {p}");
            }
        },
    )
}

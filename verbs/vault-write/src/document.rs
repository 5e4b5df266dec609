//! `vault add`, `set-body`, `set-frontmatter`, `edit` and `rename`: the verbs
//! that create or change one document.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::Date;
use vaultspec_sdk::vault::ops::add::{AddRequest, add as add_doc};
use vaultspec_sdk::vault::ops::edit::{EditRequest, Edited, FrontmatterEdit, edit as edit_doc};
use vaultspec_sdk::vault::ops::rename::rename as rename_doc;

use crate::exports::vaultspec::vault_write::vault::{
    AddOptions, EditOptions, RenameOptions, SetBodyOptions, SetFrontmatterOptions,
};
use crate::report::{self, canonical_date, done, fail, fail_guarded, finding, read_input, word};

pub fn add(options: AddOptions, doc_type: String) -> u8 {
    let json = options.json;
    let Some(feature) = options.feature.filter(|f| !f.trim().is_empty()) else {
        return report::usage(
            json,
            "`--feature` is required: name the feature tag the document belongs to (e.g. `--feature cache-layer`)",
        );
    };
    let req = AddRequest {
        doc_type,
        feature,
        date: options.date,
        title: options.title,
        topic: options.topic,
        related: options.related,
        tags: options.tags,
        tier: options.tier,
        force: options.force,
        dry_run: options.dry_run,
    };
    let added = match add_doc(&WritableWorkspace::open(), &req, Date::today_utc()) {
        Ok(a) => a,
        Err(err) => return fail(json, err),
    };
    let mut data = json!({ "path": added.path, "type": added.doc_type, "name": added.name });
    if added.dry_run {
        data["dry_run"] = json!(true);
    }
    done(json, "vaultspec.vault.add.v1", "created", data, || {
        let verb = if added.dry_run {
            "would create"
        } else {
            "created"
        };
        println!("{verb} {}", added.path);
    })
}

/// The body a `--body-file` names, or a message.
fn body(ws: &WritableWorkspace, file: Option<&str>) -> Result<Option<String>, String> {
    file.map(|f| read_input(ws, "--body-file", f)).transpose()
}

fn frontmatter(
    date: Option<String>,
    tags: Vec<String>,
    related: Vec<String>,
) -> Result<FrontmatterEdit, String> {
    Ok(FrontmatterEdit {
        date: date.map(|d| canonical_date(&d)).transpose()?,
        tags: (!tags.is_empty()).then_some(tags),
        related: (!related.is_empty()).then_some(related),
    })
}

/// Runs one guarded edit and prints it in the verb's schema.
fn run_edit(json: bool, schema: &str, req: EditRequest) -> u8 {
    match edit_doc(&WritableWorkspace::open(), &req, Date::today_utc()) {
        Ok(edited) => print_edited(json, schema, &edited),
        Err(err) => fail_guarded(json, schema, err),
    }
}

fn print_edited(json: bool, schema: &str, edited: &Edited) -> u8 {
    let checks: Vec<Value> = edited.checks.iter().map(finding).collect();
    let mut data = json!({ "path": edited.path, "blob_hash": edited.blob_hash, "checks": checks });
    if edited.dry_run {
        data["dry_run"] = json!(true);
        data["changed"] = json!(edited.changed);
    }
    done(json, schema, word(edited.status), data, || {
        let what = match (edited.changed, edited.dry_run) {
            (false, _) => "unchanged",
            (true, true) => "would update",
            (true, false) => "updated",
        };
        println!("{what} {} (blob {})", edited.path, edited.blob_hash);
        for f in &edited.checks {
            println!("  {:?}: {}", f.severity, f.message);
        }
    })
}

pub fn set_body(options: SetBodyOptions, reference: String) -> u8 {
    let json = options.json;
    let ws = WritableWorkspace::open();
    let body = match body(&ws, options.body_file.as_deref()) {
        Ok(Some(b)) => b,
        Ok(None) => {
            return report::usage(
                json,
                "`--body-file` is required: name a workspace file holding the new body (`--body-stdin` is not available: verbs get no stdin)",
            );
        }
        Err(message) => return fail(json, message),
    };
    let req = EditRequest {
        reference,
        body: Some(body),
        expected_blob_hash: options.expected_blob_hash,
        no_check: options.no_check,
        dry_run: options.dry_run,
        ..EditRequest::default()
    };
    run_edit(json, "vaultspec.vault.set-body.v1", req)
}

pub fn set_frontmatter(options: SetFrontmatterOptions, reference: String) -> u8 {
    let json = options.json;
    let fm = match frontmatter(options.date, options.tags, options.related) {
        Ok(fm) => fm,
        Err(message) => return report::usage(json, &message),
    };
    if fm.is_empty() {
        return report::usage(
            json,
            "nothing to change: give `--date`, `--tags` or `--related`",
        );
    }
    let req = EditRequest {
        reference,
        frontmatter: fm,
        expected_blob_hash: options.expected_blob_hash,
        dry_run: options.dry_run,
        ..EditRequest::default()
    };
    run_edit(json, "vaultspec.vault.set-frontmatter.v1", req)
}

pub fn edit(options: EditOptions, reference: String) -> u8 {
    let json = options.json;
    let ws = WritableWorkspace::open();
    let body = match body(&ws, options.body_file.as_deref()) {
        Ok(b) => b,
        Err(message) => return fail(json, message),
    };
    let fm = match frontmatter(options.date, options.tags, options.related) {
        Ok(fm) => fm,
        Err(message) => return report::usage(json, &message),
    };
    if body.is_none() && fm.is_empty() {
        return report::usage(
            json,
            "nothing to change: give `--body-file`, `--date`, `--tags` or `--related`",
        );
    }
    let req = EditRequest {
        reference,
        body,
        frontmatter: fm,
        expected_blob_hash: options.expected_blob_hash,
        no_check: options.no_check,
        dry_run: options.dry_run,
    };
    run_edit(json, "vaultspec.vault.edit.v1", req)
}

pub fn rename(options: RenameOptions, reference: String) -> u8 {
    let json = options.json;
    let schema = "vaultspec.vault.rename.v1";
    let ws = WritableWorkspace::open();
    let to = options.to.trim().trim_end_matches(".md");
    let renamed = match rename_doc(
        &ws,
        &reference,
        to,
        options.expected_blob_hash.as_deref(),
        options.dry_run,
        Date::today_utc(),
    ) {
        Ok(r) => r,
        Err(err) => return fail_guarded(json, schema, err),
    };
    let mut data = json!({
        "old_path": renamed.old_path,
        "new_path": renamed.new_path,
        "old_blob_hash": renamed.old_blob_hash,
        "new_blob_hash": renamed.new_blob_hash,
        "new_node_id": renamed.new_node_id,
        "incoming_rewritten": renamed.incoming_rewritten,
        "checks": [],
    });
    if renamed.dry_run {
        data["dry_run"] = json!(true);
    }
    done(json, schema, word(renamed.status), data, || {
        let verb = if renamed.dry_run {
            "would rename"
        } else {
            "renamed"
        };
        println!("{verb} {} -> {}", renamed.old_path, renamed.new_path);
        println!("  {} documents re-pointed", renamed.incoming_rewritten);
    })
}

//! `vault add`, `set-body`, `set-frontmatter`, `edit` and `rename`: the verbs
//! that create or change one document.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::hints::Hints;
use vaultspec_sdk::output::done_with_hints;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::doc::name::{self, Token};
use vaultspec_sdk::vault::graph::load_graph;
use vaultspec_sdk::vault::ops::add::{AddRequest, add as add_doc, normalize_tier};
use vaultspec_sdk::vault::ops::edit::{EditRequest, Edited, FrontmatterEdit, edit as edit_doc};
use vaultspec_sdk::vault::ops::rename::rename as rename_doc;
use vaultspec_sdk::vault::{Date, DocType};

use crate::exports::vaultspec::vault_write::vault::{
    AddOptions, EditOptions, RenameOptions, SetBodyOptions, SetFrontmatterOptions,
};
use crate::report::{self, done, fail, fail_guarded, finding, read_input, word};

pub fn add(options: AddOptions, doc_type: String) -> u8 {
    let json = options.json;
    let no_hints = options.no_hints;
    let feature = options.feature;
    if feature.trim().trim_start_matches('#').is_empty() {
        return report::usage(
            json,
            "`--feature` needs a feature tag, such as `--feature cache-layer`",
        );
    }
    // Neither a title nor a topic: the heading takes the feature's words
    // rather than keep a `{title}` the vault's own check refuses (the
    // reference leaves the placeholder).
    let title = options.title.or_else(|| {
        options
            .topic
            .is_none()
            .then(|| feature.trim().trim_start_matches('#').replace('-', " "))
    });
    // An ADR needs its grounding (`vault check schema` refuses one without):
    // named none, it takes its feature's research, reference and audit
    // documents (the reference writes `related: []`).
    let ws = WritableWorkspace::open();
    let is_adr = doc_type.trim().eq_ignore_ascii_case("adr");
    let grounded = is_adr && options.related.is_empty();
    let related = if grounded {
        feature_grounding(&ws, &feature)
    } else {
        options.related
    };
    let req = AddRequest {
        doc_type,
        feature: feature.clone(),
        date: options.date,
        title,
        topic: options.topic,
        related: related.clone(),
        tags: options.tags,
        tier: options.tier.clone(),
        force: options.force,
        dry_run: options.dry_run,
    };
    let added = match add_doc(&ws, &req, Date::today_utc()) {
        Ok(a) => a,
        Err(err) => return fail(json, err),
    };
    let mut data = json!({ "path": added.path, "type": added.doc_type, "name": added.name });
    if added.dry_run {
        data["dry_run"] = json!(true);
    }
    if grounded {
        data["grounded_in"] = json!(related);
    }
    // A preview suggests nothing: the document is not there yet.
    let hints = (!added.dry_run)
        .then(|| {
            after_add(
                added.doc_type,
                &added.name,
                &feature,
                options.tier.as_deref(),
            )
        })
        .flatten()
        .and_then(|h| h.unless(no_hints));
    done_with_hints(
        json,
        "vaultspec.vault.add.v1",
        "created",
        data,
        hints.as_ref(),
        || {
            let verb = if added.dry_run {
                "would create"
            } else {
                "created"
            };
            println!("{verb} {}", added.path);
            match (grounded, related.is_empty()) {
                (true, false) => println!("grounded in {}", related.join(", ")),
                (true, true) => println!(
                    "nothing grounds it yet: `vault check all` reports it until a research, \
                     reference or audit document is linked (`vaultspec vault link add {} <document>`)",
                    added.name
                ),
                _ => {}
            }
        },
    )
}

/// The stems of `feature`'s research, reference and audit documents, in
/// path order (none when the vault cannot be read: the check will say).
fn feature_grounding(ws: &WritableWorkspace, feature: &str) -> Vec<String> {
    let Ok(feature) = name::normalize(feature, Token::Feature) else {
        return Vec::new();
    };
    let Ok(graph) = load_graph(ws) else {
        return Vec::new();
    };
    graph
        .docs()
        .iter()
        .filter(|d| {
            matches!(
                d.doc_type,
                Some(DocType::Research | DocType::Reference | DocType::Audit)
            ) && d.listing_feature() == Some(feature.as_str())
        })
        .map(|d| d.stem().to_owned())
        .collect()
}

/// The next step after `vault add`, where the reference suggests one: the
/// decision a research note may call for, the plan an ADR may call for, a
/// new plan's first container (Step at L1, Phase at L2, Wave at L3 and L4),
/// and the rule an audit may become. References get none.
fn after_add(doc_type: DocType, stem: &str, feature: &str, tier: Option<&str>) -> Option<Hints> {
    let feature = name::normalize(feature, Token::Feature).unwrap_or_else(|_| feature.to_owned());
    let tier = tier.and_then(|t| normalize_tier(t).ok());
    Some(match doc_type {
        DocType::Research => Hints::one(
            "If this calls for a lasting decision, record it with this research as evidence",
            format!("vaultspec vault add adr --feature {feature} --related {stem}"),
        ),
        DocType::Adr => Hints::one(
            "If the decision needs work in order, plan it from this ADR",
            format!("vaultspec vault add plan --feature {feature} --related {stem}"),
        ),
        DocType::Plan => match tier.as_deref() {
            Some("L2") => Hints::one(
                "Give the plan its first Phase",
                format!(
                    r#"vaultspec vault plan phase add {stem} --title "<title>" --intent "<intent>""#
                ),
            ),
            Some("L3" | "L4") => Hints::one(
                "Give the plan its first Wave",
                format!(
                    r#"vaultspec vault plan wave add {stem} --title "<title>" --intent "<intent>""#
                ),
            ),
            _ => Hints::one(
                "Give the plan its first Step",
                format!(
                    r#"vaultspec vault plan step add {stem} --action "<action>" --scope "<path>""#
                ),
            ),
        },
        DocType::Audit => Hints::one(
            "Turn what the audit found into a rule the team shares",
            format!("vaultspec vault rule promote --from {stem} --as {feature}-rule"),
        ),
        _ => return None,
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
        // As typed: the edit's pre-write validation refuses any date that
        // is not `yyyy-mm-dd` (`2026/11/30` included), as the reference does.
        date: date.map(|d| d.trim().to_string()),
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

//! The one path every plan mutation takes: resolve the plan, apply one
//! [`PlanOp`] through the model's guarded writer, print the outcome.
//!
//! The model refuses (changing nothing) a plan with structural errors, an
//! `--expected-blob-hash` the plan has moved on from, and any rewrite that
//! would lose a live id; the JSON reply carries the plan's new blob hash so
//! a caller can chain guarded edits.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::output::status::{UNCHANGED, UPDATED};
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::Date;
use vaultspec_sdk::vault::Storage;
use vaultspec_sdk::vault::plan::{
    Anchor, Kind, PlanError, PlanOp, Tier, WriteOptions, load_plan, mutate_plan,
};

use vaultspec_sdk::output;
use vaultspec_verbs_shared::plan_common::{
    FAILURE_SCHEMA, done, error_data, exit_code, fail, resolve, schema,
};

/// The flags every mutation shares.
pub struct Common {
    /// `--expected-blob-hash`.
    pub expected_blob_hash: Option<String>,
    /// `--dry-run`.
    pub dry_run: bool,
    /// `--canonicalise`.
    pub canonicalise: bool,
    /// `--json`.
    pub json: bool,
}

/// Builds the shared flags from any options record that has them.
macro_rules! common {
    ($o:expr) => {
        $crate::mutate::Common {
            expected_blob_hash: $o.expected_blob_hash.clone(),
            dry_run: $o.dry_run,
            canonicalise: $o.canonicalise,
            json: $o.json,
        }
    };
}
pub(crate) use common;

/// Applies `op` to the plan `target` names and prints the outcome.
pub fn run(common: Common, target: &str, op: Result<PlanOp, PlanError>) -> u8 {
    let json = common.json;
    let op = match op {
        Ok(op) => op,
        Err(err) => return fail(json, FAILURE_SCHEMA, &err),
    };
    let ws = WritableWorkspace::open();
    let path = match resolve(&ws, target) {
        Ok(p) => p,
        Err(err) => return fail(json, FAILURE_SCHEMA, &err),
    };
    let opts = WriteOptions {
        today: Date::today_utc(),
        expected_blob_hash: common
            .expected_blob_hash
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty()),
        dry_run: common.dry_run,
        canonicalise: common.canonicalise,
    };
    let done_ = match mutate_plan(&ws, &path, &op, &opts) {
        Ok(m) => m,
        Err(err) => return refuse(json, &ws, &path, err),
    };
    let w = &done_.write;
    let o = &done_.outcome;
    let data = json!({
        "dry_run": w.dry_run,
        "changed": w.changed,
        "path": w.path,
        "preserved_blocks": w.preserved_blocks,
        "message": o.message,
        "blob_hash": w.blob_hash,
        "previous_blob_hash": w.previous_blob_hash,
        "subject": o.subject,
        "retired": o.retired,
    });
    let status = if w.changed { UPDATED } else { UNCHANGED };
    done(json, &schema(op.verb()), status, data, || {
        let what = match (w.changed, w.dry_run) {
            (false, _) => "unchanged",
            (true, true) => "would update",
            (true, false) => "updated",
        };
        println!("{what} {}: {}", w.path, o.message);
        if !o.retired.is_empty() {
            println!("  retired: {}", o.retired.join(", "));
        }
        println!("  blob {}", w.blob_hash);
    })
}

/// `--before`/`--after` as an anchor (at most one).
pub fn anchor(before: Option<&str>, after: Option<&str>) -> Result<Option<Anchor>, PlanError> {
    Anchor::from_flags(before, after)
}

/// `--before`/`--after` as a required anchor.
pub fn required_anchor(before: Option<&str>, after: Option<&str>) -> Result<Anchor, PlanError> {
    anchor(before, after)?.ok_or_else(|| {
        PlanError::Usage("pass `--before ID` or `--after ID` to say where it goes".into())
    })
}

/// A `--to` tier (`L1`..`L4`, case-insensitive).
pub fn tier(raw: Option<&str>) -> Result<Option<Tier>, PlanError> {
    raw.map(|t| {
        Tier::parse(&t.trim().to_ascii_uppercase()).ok_or_else(|| PlanError::InvalidTier {
            value: t.to_string(),
        })
    })
    .transpose()
}

/// The live ids of `kind` in the plan at `path` (empty when it cannot be read).
fn live_ids(storage: &dyn Storage, path: &str, kind: Kind) -> Vec<String> {
    load_plan(storage, path)
        .map(|doc| {
            doc.plan
                .live_ids(kind)
                .into_iter()
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Reports a refused mutation with what the caller needs to retry: an
/// unknown id with no near match lists the ids that exist, and a demotion
/// that needs `--force` names the containers it would collapse.
fn refuse(json: bool, storage: &dyn Storage, path: &str, err: PlanError) -> u8 {
    let err = match err {
        PlanError::Unknown {
            kind,
            id,
            suggestions,
        } if suggestions.is_empty() => {
            let mut live = live_ids(storage, path, kind);
            live.truncate(5);
            PlanError::Unknown {
                kind,
                id,
                suggestions: live,
            }
        }
        other => other,
    };
    let PlanError::DemoteNeedsForce { kind, .. } = &err else {
        return fail(json, FAILURE_SCHEMA, &err);
    };
    let ids = live_ids(storage, path, *kind);
    let named = ids
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let message = format!("{err}; it would collapse {named}");
    if json {
        let mut data = error_data(&err);
        data["message"] = json!(message);
        data["collapses"] = json!(ids);
        output::print_json(&output::envelope(
            FAILURE_SCHEMA,
            output::status::FAILED,
            data,
        ));
    } else {
        eprintln!("error: {message}");
    }
    exit_code(&err)
}

//! What every plan verb shares: finding the plan a PATH operand names,
//! printing a result or a refusal, and the exit code of each failure.
//!
//! Shared by the read-only `plan` component and the writing `plan-write`
//! component (included there by path), so both report alike.

use vaultspec_sdk::output;
pub use vaultspec_sdk::output::done;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::Storage;
use vaultspec_sdk::vault::plan::{PlanDoc, PlanError, load_plan, resolve_plan};

/// The schema of a plan failure that has no schema of its own (the
/// reference's `vaultspec.vault.plan.mutate.v1`).
pub const FAILURE_SCHEMA: &str = "vaultspec.vault.plan.mutate.v1";

/// The schema of `vault plan <words>`: `vaultspec.vault.plan.<dotted words>.v1`.
pub fn schema(words: &str) -> String {
    output::schema(&format!("vault plan {words}"), 1)
}

/// The workspace path of the plan a PATH operand names: a workspace path,
/// a stem, or a feature with exactly one plan.
pub fn resolve(storage: &dyn Storage, target: &str) -> Result<String, PlanError> {
    let t = target.trim().trim_start_matches("./");
    resolve_plan(storage, t, true)
}

/// Resolves and reads the plan a PATH operand names.
pub fn open(storage: &dyn Storage, target: &str) -> Result<PlanDoc, PlanError> {
    let path = resolve(storage, target)?;
    load_plan(storage, &path)
}

/// The exit code of a failure: a target that is no plan name at all (a
/// path handed to MCP) is a usage error (2); a plan that does not exist or
/// is ambiguous, and everything the plan itself refuses (flags that do not
/// fit this plan, an anchor in another Phase, a missing Wave), is a refusal
/// (1), as an unknown document is everywhere else. (The reference exits 2
/// for an unknown plan, its parser's code for a PATH it cannot resolve.)
pub fn exit_code(err: &PlanError) -> u8 {
    match err {
        PlanError::InvalidTarget { .. } => output::EXIT_USAGE,
        _ => output::EXIT_FAILURE,
    }
}

/// The `data` of a failure: the message plus what a caller can act on
/// (nearest ids, candidate paths, the blob that moved on).
pub fn error_data(err: &PlanError) -> Value {
    let mut data = json!({ "message": err.to_string() });
    match err {
        PlanError::Unknown {
            kind,
            id,
            suggestions,
        } => {
            data["kind"] = json!(kind.noun());
            data["id"] = json!(id);
            data["suggestions"] = json!(suggestions);
        }
        PlanError::Ambiguous {
            kind,
            id,
            candidates,
        } => {
            data["kind"] = json!(kind.noun());
            data["id"] = json!(id);
            data["candidates"] = json!(candidates);
        }
        PlanError::AmbiguousPlan { stems, .. } => data["candidates"] = json!(stems),
        PlanError::PlanNotFound { near, .. } => data["suggestions"] = json!(near),
        PlanError::Stale {
            path,
            expected,
            actual,
        } => {
            data["conflict"] = json!(true);
            data["path"] = json!(path);
            data["expected"] = json!(expected);
            data["actual"] = json!(actual);
        }
        PlanError::DemoteNeedsForce { count, kind, .. } => {
            data["needs_force"] = json!(true);
            data["count"] = json!(count);
            data["kind"] = json!(kind.noun());
        }
        PlanError::PromoteNeedsFlags { flags, .. } => data["missing_flags"] = json!(flags),
        PlanError::MalformedRow { line, .. } => data["line"] = json!(line),
        _ => {}
    }
    data
}

/// Reports a failure (`status: failed` in `schema`, or a line on stderr)
/// and returns its exit code.
pub fn fail(json: bool, schema: &str, err: &PlanError) -> u8 {
    if json {
        output::print_json(&output::envelope(
            schema,
            output::status::FAILED,
            error_data(err),
        ));
    } else {
        eprintln!("error: {err}");
    }
    exit_code(err)
}

/// Reports a domain failure that is not a [`PlanError`] (a ledger or storage
/// error) in `schema` and returns exit code 1.
pub fn fail_message(json: bool, schema: &str, message: &str) -> u8 {
    if json {
        output::print_json(&output::envelope(
            schema,
            output::status::FAILED,
            json!({ "message": message }),
        ));
    } else {
        eprintln!("error: {message}");
    }
    output::EXIT_FAILURE
}

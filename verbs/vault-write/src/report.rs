//! How the writing verbs print: the JSON envelope under `--json`, plain lines
//! otherwise, and the exit code that goes with the outcome.

use vaultspec_sdk::output;
pub use vaultspec_sdk::output::{done, fail, usage};
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::checks::Finding;
use vaultspec_sdk::vault::ops::Status;
use vaultspec_sdk::vault::{Error, Storage};

/// The envelope word of a model status.
pub fn word(status: Status) -> &'static str {
    match status {
        Status::Created => output::status::CREATED,
        Status::Updated => output::status::UPDATED,
        Status::Unchanged => output::status::UNCHANGED,
        Status::Removed => output::status::REMOVED,
        Status::Restored => output::status::RESTORED,
    }
}

/// Reports a failure in the verb's own schema (`status: failed`), exit 1.
pub fn fail_in(json: bool, schema: &str, data: Value, message: &str) -> u8 {
    if json {
        output::print_json(&output::envelope(schema, output::status::FAILED, data));
    } else {
        eprintln!("error: {message}");
    }
    output::EXIT_FAILURE
}

/// One finding as the edit verbs report it in `checks`.
pub fn finding(f: &Finding) -> Value {
    json!({
        "path": f.path,
        "message": f.message,
        "severity": f.severity,
        "fixable": f.fixable,
        "fix_description": f.fix_description,
        "check": f.check,
    })
}

/// Reports a failed guarded write (set-body, set-frontmatter, edit, rename):
/// a refusal or a blob conflict in the verb's own schema, anything else in
/// the error envelope.
pub fn fail_guarded(json: bool, schema: &str, err: Error) -> u8 {
    match &err {
        Error::Refused {
            path,
            findings,
            errors,
        } => {
            let checks: Vec<Value> = findings.iter().map(finding).collect();
            let mut data = json!({ "path": path, "refused": true, "checks": checks });
            if !errors.is_empty() {
                data["errors"] = json!(errors);
            }
            fail_in(json, schema, data, &err.to_string())
        }
        Error::Conflict {
            path,
            expected,
            actual,
        } => {
            let data = json!({
                "message": err.to_string(),
                "conflict": true,
                "expected": expected,
                "actual": actual,
                "path": path,
            });
            fail_in(json, schema, data, &err.to_string())
        }
        _ => fail(json, err),
    }
}

/// Reads a UTF-8 input file the user named (`--body-file`, `--manifest`).
/// At the command line the host has read it already and serves it under
/// the name given; through MCP it is a workspace-relative path.
pub fn read_input(storage: &dyn Storage, flag: &str, path: &str) -> Result<String, String> {
    let clean = path.trim().trim_start_matches("./");
    // The storage error names the path; saying it again would double it.
    let bytes = storage.read(clean).map_err(|e| {
        format!("cannot read the `{flag}` file: {e} (expected a path inside the workspace)")
    })?;
    String::from_utf8(bytes)
        .map_err(|_| format!("`{flag}` file `{path}` is not UTF-8: expected a UTF-8 text file"))
}

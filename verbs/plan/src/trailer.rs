//! `vault plan trailer emit|validate`: the git trailers that link a commit to
//! the plan Step or feature it advances.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::output::{self, status::UNCHANGED};
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::Storage;
use vaultspec_sdk::vault::plan::{emit_trailers, parse_trailers, validate_trailers};

use crate::exports::vaultspec::plan::vault_plan_trailer::{EmitOptions, ValidateOptions};
use vaultspec_verbs_shared::plan_common::{done, schema};

pub fn emit(options: EmitOptions) -> u8 {
    let json = options.json;
    let (step, feature) = (options.step.as_deref(), options.feature.as_deref());
    if step.is_some() == feature.is_some() {
        return output::fail(
            json,
            "give exactly one of `--step` (e.g. `--step P02.S06`) and `--feature` (e.g. `--feature cache-layer`)",
        );
    }
    match emit_trailers(step, feature) {
        Ok(line) => done(
            json,
            &schema("trailer emit"),
            UNCHANGED,
            json!({ "trailer": line }),
            || println!("{line}"),
        ),
        Err(err) => output::fail(json, err),
    }
}

pub fn validate(options: ValidateOptions, message_file: &str) -> u8 {
    let json = options.json;
    let path = message_file.trim().trim_start_matches("./");
    let bytes = match Workspace::open().read(path) {
        Ok(b) => b,
        Err(err) => {
            return output::fail(
                json,
                // The storage error names the path already.
                format!("cannot read the message file: {err} (expected a workspace-relative path)"),
            );
        }
    };
    let message = String::from_utf8_lossy(&bytes);
    let trailers = parse_trailers(&message);
    let problems = validate_trailers(&message);
    let data = json!({ "path": path, "trailers": trailers, "problems": problems, "valid": problems.is_empty() });
    done(json, &schema("trailer validate"), UNCHANGED, data, || {
        for t in &trailers {
            println!("line {}: {}: {}", t.line_number, t.key, t.value);
        }
        for p in &problems {
            println!(
                "line {}: `{}: {}` {}",
                p.line_number, p.key, p.value, p.reason
            );
        }
        match (trailers.len(), problems.len()) {
            (0, 0) => println!("no vaultspec trailers"),
            (_, 0) => println!("every trailer is well formed"),
            (_, n) => println!("{n} malformed trailer(s) (advisory: the commit is not blocked)"),
        }
    })
}

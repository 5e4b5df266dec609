//! How the read-only verbs print: one JSON envelope under `--json`, plain
//! lines otherwise, and the exit code that goes with the outcome.

use vaultspec_sdk::output;
pub use vaultspec_sdk::output::usage;
use vaultspec_sdk::serde_json::Value;

/// Prints a successful result (`status` `unchanged`: these verbs only read)
/// and returns exit code 0. `text` is called only for human output.
pub fn done(json: bool, schema: &str, data: &Value, text: impl FnOnce()) -> u8 {
    output::done(json, schema, output::status::UNCHANGED, data, text)
}

/// Reports a domain failure (the `vaultspec.error.v1` envelope, or a line on
/// stderr) and returns exit code 1.
pub fn fail(json: bool, err: impl std::fmt::Display) -> u8 {
    output::fail(json, &err.to_string())
}

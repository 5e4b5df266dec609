//! How the read-only verbs print: one JSON envelope under `--json`, plain
//! lines otherwise, and the exit code that goes with the outcome.

use vaultspec_sdk::output;
pub use vaultspec_sdk::output::{fail, usage};
use vaultspec_sdk::serde_json::Value;

/// Prints a successful result (`status` `unchanged`: these verbs only read)
/// and returns exit code 0. `text` is called only for human output.
pub fn done(json: bool, schema: &str, data: &Value, text: impl FnOnce()) -> u8 {
    output::done(json, schema, output::status::UNCHANGED, data, text)
}

//! How the read-only verbs print: one JSON envelope under `--json`, plain
//! lines otherwise, and the exit code that goes with the outcome.

use vaultspec_sdk::output;
pub use vaultspec_sdk::output::{fail, usage};
use vaultspec_sdk::serde_json::Value;
pub use vaultspec_sdk::vault::window::{self, Window};

/// Prints a successful result (`status` `unchanged`: these verbs only read)
/// and returns exit code 0. `text` is called only for human output.
pub fn done(json: bool, schema: &str, data: Value, text: impl FnOnce()) -> u8 {
    output::done(json, schema, output::status::UNCHANGED, data, text)
}

/// One page of `items` and where it sits. JSON output is always paged (50
/// rows without `--limit`, at most 500), as `vaultspec-core` pages it, so a
/// listing of a large vault stays within a caller's output budget; text
/// shows every row unless `--limit` or `--offset` asks for a page.
pub fn page<T>(items: &[T], json: bool, limit: Option<u32>, offset: Option<u32>) -> (&[T], Window) {
    if !json && limit.is_none() && offset.is_none() {
        let all = Window {
            total: items.len(),
            returned: items.len(),
            offset: 0,
        };
        return (items, all);
    }
    window::apply(
        items,
        limit.map(|l| l as usize),
        offset.unwrap_or(0) as usize,
    )
}

/// A date flag in canonical `yyyy-mm-dd` form, or a usage message.
pub fn date_flag(raw: Option<&str>) -> Result<Option<String>, String> {
    raw.map(|d| {
        vaultspec_sdk::vault::Date::parse_lenient(d.trim())
            .map(|d| d.to_string())
            .map_err(|_| format!("invalid date `{d}`: expected `yyyy-mm-dd` (e.g. `2026-03-04`)"))
    })
    .transpose()
}

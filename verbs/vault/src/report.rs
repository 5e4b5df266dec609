//! How the read-only verbs print: one JSON envelope under `--json`, plain
//! lines otherwise, and the exit code that goes with the outcome.

use vaultspec_sdk::output;
pub use vaultspec_sdk::output::usage;
use vaultspec_sdk::serde_json::Value;

/// Prints a successful result (`status` `unchanged`: these verbs only read)
/// and returns exit code 0. `text` is called only for human output.
pub fn done(json: bool, schema: &str, data: Value, text: impl FnOnce()) -> u8 {
    output::done(json, schema, output::status::UNCHANGED, data, text)
}

/// Reports a domain failure (the `vaultspec.error.v1` envelope, or a line on
/// stderr) and returns exit code 1.
pub fn fail(json: bool, err: impl std::fmt::Display) -> u8 {
    output::fail(json, &err.to_string())
}

/// One page of `items`: `(page, total, truncated, next_offset)`.
pub fn page<T: Clone>(
    items: &[T],
    limit: Option<u32>,
    offset: Option<u32>,
) -> (Vec<T>, usize, bool, Option<usize>) {
    let total = items.len();
    let start = (offset.unwrap_or(0) as usize).min(total);
    let end = limit.map_or(total, |l| start.saturating_add(l as usize).min(total));
    let truncated = end < total;
    (
        items[start..end].to_vec(),
        total,
        truncated,
        truncated.then_some(end),
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

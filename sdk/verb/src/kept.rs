//! Results a verb works out from one file each, kept by the host from one
//! run at the command line to the next while the file stays unchanged: a
//! run right after an edit then works out only what the edit touched.
//!
//! Keeping is a hint. The host may give nothing back (over MCP, under
//! `--no-cache`, for a third-party verb, for a file changed a moment ago)
//! and may drop what it is given, so a verb answers the same either way:
//! what it recalls must be exactly what it would work out again. What is
//! kept belongs to the component's exact build, so a new build never reads
//! an older build's bytes. Calling these makes the component import
//! `vaultspec:verb/kept-results`, which every verb may use.

use crate::bindings::kept_results as host;

/// What this component kept under `kind` for each of `paths` (files of
/// `.vault/`), in order: `None` where nothing is kept or the file has
/// changed since.
pub fn recall(kind: &str, paths: &[&str]) -> Vec<Option<Vec<u8>>> {
    let paths: Vec<String> = paths.iter().map(|p| (*p).to_owned()).collect();
    host::recall(kind, &paths)
}

/// Keep `value` under `kind` for the file at `path`, worked out from the
/// bytes this call read of it (at most 4 KiB; see the WIT interface for
/// what the host takes).
pub fn keep(kind: &str, path: &str, value: &[u8]) {
    host::keep(kind, path, value);
}

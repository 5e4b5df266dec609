//! The `encoding` checker (read-only): corpus files that are not valid UTF-8
//! (ERROR, naming the first bad byte) or cannot be read at all (WARNING).
//! Both are invisible to every other checker.

use crate::error::Result;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, _opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Encoding);
    for u in &snap.unreadable {
        let f = match u.offset {
            Some(n) => Finding::new(
                "encoding",
                Severity::Error,
                Some(&u.path),
                format!(
                    "Document is not valid UTF-8 (byte {n}: {}); re-save it as UTF-8",
                    u.reason
                ),
            ),
            None => Finding::new(
                "encoding",
                Severity::Warning,
                Some(&u.path),
                format!("Document could not be read: {}", u.reason),
            ),
        };
        result.findings.push(f);
    }
    Ok(result)
}

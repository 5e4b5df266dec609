//! The `encoding` checker (read-only): corpus files that are not valid UTF-8
//! (ERROR, naming the first bad byte) or cannot be read at all (WARNING:
//! over the per-file limit, not a regular file, permission denied ...).
//! Both stay documents (links to them resolve), but no other checker can
//! read them and no fixer touches them.

use crate::doc::DocProblem;
use crate::error::Result;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, _opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Encoding);
    for (path, problem) in snap.problems() {
        let f = match problem {
            DocProblem::NotUtf8 { offset, reason } => Finding::new(
                "encoding",
                Severity::Error,
                Some(path),
                format!(
                    "Document is not valid UTF-8 (byte {offset}: {reason}); re-save it as UTF-8"
                ),
            ),
            DocProblem::Unreadable { reason } => Finding::new(
                "encoding",
                Severity::Warning,
                Some(path),
                format!("Document could not be read: {reason}"),
            ),
            DocProblem::Malformed { .. } => continue,
        };
        result.findings.push(f);
    }
    Ok(result)
}

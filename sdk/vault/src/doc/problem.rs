//! Why a corpus file is a document the vault cannot use as text: it could not
//! be read, it is not UTF-8, or its frontmatter is malformed.
//!
//! Such a file is still a document (issue 14): it is listed with its problem,
//! counted, and links to it resolve, but no fixer edits it and no fixer
//! removes or rewrites what refers to it. The reference drops unreadable
//! files from its snapshot (so links to them look dangling and `--fix`
//! deletes them) and rewrites malformed frontmatter through its naive YAML
//! fallback; we keep both files and their referrers byte for byte instead.

use std::fmt;

use crate::frontmatter::{self, yaml};
use crate::storage::StorageError;
use crate::text;

/// What stops a corpus file from being read as a document.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DocProblem {
    /// The file could not be read at all (over the per-file limit, not a
    /// regular file, permission denied, ...).
    Unreadable {
        /// The storage's message, naming the file.
        reason: String,
    },
    /// The bytes are not UTF-8.
    NotUtf8 {
        /// Byte offset of the first invalid sequence.
        offset: usize,
        /// What is wrong there.
        reason: String,
    },
    /// The frontmatter cannot be parsed, so its keys cannot be trusted.
    Malformed {
        /// 1-based line of the file where the problem is.
        line: usize,
        /// What is wrong and what would be accepted.
        message: String,
    },
}

impl DocProblem {
    /// The problem of a file whose read failed.
    pub fn from_read(err: &StorageError) -> DocProblem {
        DocProblem::Unreadable {
            reason: err.to_string(),
        }
    }

    /// The problem of bytes that failed to decode.
    pub fn from_utf8(err: &std::str::Utf8Error) -> DocProblem {
        DocProblem::NotUtf8 {
            offset: err.valid_up_to(),
            reason: match err.error_len() {
                Some(n) => format!("invalid sequence of {n} byte(s)"),
                None => "truncated sequence at end of file".to_string(),
            },
        }
    }

    /// Whether the file has no text at all (unreadable or not UTF-8), as
    /// opposed to text whose frontmatter is malformed.
    pub fn no_text(&self) -> bool {
        !matches!(self, DocProblem::Malformed { .. })
    }
}

impl fmt::Display for DocProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DocProblem::Unreadable { reason } => write!(f, "cannot be read: {reason}"),
            DocProblem::NotUtf8 { offset, reason } => {
                write!(
                    f,
                    "not valid UTF-8 (byte {offset}: {reason}); re-save it as UTF-8"
                )
            }
            DocProblem::Malformed { line, message } => {
                write!(f, "malformed frontmatter at line {line}: {message}")
            }
        }
    }
}

/// The frontmatter problem of a decoded document, if any: an opening `---`
/// fence that is never closed, or YAML that is broken (valid YAML outside
/// the subset the vault reads is not a problem).
pub fn frontmatter_problem(text: &str) -> Option<DocProblem> {
    match frontmatter::split(text) {
        Some(s) => yaml_problem(s.yaml(text), s.first_yaml_line(text)),
        None => unclosed_fence(text).map(|line| DocProblem::Malformed {
            line,
            message: "the frontmatter opened here is never closed: expected a `---` line after the YAML keys"
                .to_string(),
        }),
    }
}

/// The problem of the YAML between two fences, if it is broken; its first
/// line is line `first_line` of the file. For a caller that has found the
/// fences already: given the YAML [`frontmatter::split`] finds in `text`,
/// `yaml_problem(s.yaml(text), s.first_yaml_line(text))` is
/// [`frontmatter_problem`]`(text)`.
pub fn yaml_problem(yaml: &str, first_line: usize) -> Option<DocProblem> {
    // The usual shapes skip the strict parser, which builds a value tree.
    if frontmatter::plain::is_plain(yaml) {
        return None;
    }
    match yaml::parse_strict(yaml) {
        Err(e) if !e.unsupported => Some(DocProblem::Malformed {
            line: first_line + e.line - 1,
            message: e.message,
        }),
        _ => None,
    }
}

/// The 1-based line of an opening fence that [`frontmatter::split`] found no
/// closing fence for: the first non-blank line is `---`.
fn unclosed_fence(text: &str) -> Option<usize> {
    let text = text.strip_prefix(text::BOM).unwrap_or(text);
    for (i, l) in text::line_iter(text).enumerate() {
        let line = &text[l.content];
        if text::is_blank(line) {
            continue;
        }
        let fence = line
            .trim_start()
            .strip_prefix("---")
            .is_some_and(|rest| rest.bytes().all(|b| b == b' ' || b == b'\t'));
        return fence.then_some(i + 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_of(text: &str) -> Option<usize> {
        match frontmatter_problem(text)? {
            DocProblem::Malformed { line, .. } => Some(line),
            _ => None,
        }
    }

    #[test]
    fn an_unclosed_fence_is_reported_at_its_line() {
        assert_eq!(line_of("\n---\ntags: []\n\n# body\n"), Some(2));
        assert_eq!(line_of("# title\n---\n"), None);
    }

    #[test]
    fn broken_yaml_is_reported_at_its_file_line() {
        assert_eq!(line_of("---\ntags:\n  - '#adr\ndate: x\n---\nb"), Some(3));
        let flow = frontmatter_problem("---\ntags: ['#adr', '#f'\n---\n").unwrap();
        assert!(
            flow.to_string()
                .starts_with("malformed frontmatter at line 2"),
            "{flow}"
        );
    }

    #[test]
    fn sound_frontmatter_and_plain_text_have_no_problem() {
        assert_eq!(
            frontmatter_problem("---\ntags: ['#adr']\n---\nbody\n"),
            None
        );
        assert_eq!(frontmatter_problem("just prose\n"), None);
    }
}

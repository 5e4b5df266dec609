//! The `markdown` checker: hygiene rules MD009 (trailing spaces or tabs),
//! MD012 (runs of blank lines) outside fenced code, and MD047 (exactly one
//! final newline; an empty file is left alone), with a fixer that repairs
//! all three.

use crate::error::Result;
use crate::graph::markdown::FenceTracker;

use super::context::{Options, Snapshot, plural, rewrite};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "markdown";

/// What the hygiene pass changed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Hygiene {
    /// Lines that lost trailing spaces or tabs.
    pub trailing: usize,
    /// Blank lines removed from runs.
    pub blank: usize,
    /// Whether the final newline was repaired.
    pub final_newline: bool,
}

impl Hygiene {
    /// Whether nothing needed repair.
    pub fn is_clean(self) -> bool {
        self == Hygiene::default()
    }

    fn describe(self) -> String {
        let mut parts = Vec::new();
        if self.trailing > 0 {
            parts.push(plural(
                self.trailing,
                "trailing-whitespace line",
                "trailing-whitespace lines",
            ));
        }
        if self.blank > 0 {
            parts.push(plural(self.blank, "extra blank line", "extra blank lines"));
        }
        if self.final_newline {
            parts.push("final-newline fix".to_string());
        }
        parts.join(", ")
    }
}

/// Where the hygiene pass writes the tidied text.
trait Sink {
    fn push(&mut self, s: &str);
}

impl Sink for String {
    fn push(&mut self, s: &str) {
        self.push_str(s);
    }
}

/// A sink that keeps only what the final-newline rule reads: the length of
/// the text and where its content ends before trailing newlines. Checking
/// without fixing needs no copy of the text.
#[derive(Default)]
struct Tail {
    len: usize,
    content_end: usize,
}

impl Sink for Tail {
    fn push(&mut self, s: &str) {
        let content = s.trim_end_matches('\n').len();
        if content > 0 {
            self.content_end = self.len + content;
        }
        self.len += s.len();
    }
}

/// MD009 and MD012 over a non-empty normalised text, writing what stays.
fn tidy_lines(text: &str, out: &mut impl Sink) -> Hygiene {
    let mut h = Hygiene::default();
    let mut fences = FenceTracker::default();
    let mut prev_blank = false;
    for raw in text.split_inclusive('\n') {
        let (line, nl) = raw.strip_suffix('\n').map_or((raw, ""), |l| (l, "\n"));
        if fences.code_line(line) {
            prev_blank = false;
            out.push(raw);
            continue;
        }
        let trimmed = line.trim_end_matches([' ', '\t']);
        if trimmed.len() != line.len() {
            h.trailing += 1;
        }
        let blank = trimmed.is_empty();
        if blank && prev_blank {
            h.blank += 1;
            continue;
        }
        prev_blank = blank;
        out.push(trimmed);
        out.push(nl);
    }
    h
}

/// Applies the three rules to a normalised text.
pub fn tidy(text: &str) -> (String, Hygiene) {
    if text.is_empty() {
        return (String::new(), Hygiene::default());
    }
    let mut out = String::with_capacity(text.len() + 1);
    let mut h = tidy_lines(text, &mut out);
    let body = out.trim_end_matches('\n');
    if out.len() != body.len() + 1 {
        h.final_newline = true;
        let mut fixed = body.to_string();
        fixed.push('\n');
        out = fixed;
    }
    (out, h)
}

/// What [`tidy`] would repair in a normalised text, without building the
/// repaired text.
pub fn hygiene(text: &str) -> Hygiene {
    if text.is_empty() {
        return Hygiene::default();
    }
    let mut tail = Tail::default();
    let mut h = tidy_lines(text, &mut tail);
    h.final_newline = tail.len != tail.content_end + 1;
    h
}

/// Runs the checker (and its fixer under `opts.fix`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Markdown);
    for doc in snap.scoped(opts) {
        // The snapshot's texts are normalised already (see `Snapshot::docs`).
        let found = hygiene(&doc.text);
        if found.is_clean() {
            continue;
        }
        if opts.fix {
            let mut done = Hygiene::default();
            rewrite(snap.storage, &doc.path, |t| {
                let (new, h) = tidy(t);
                done = h;
                Some(new)
            })?;
            result.fixed_count += 1;
            result.findings.push(Finding::fixed(
                NAME,
                &doc.path,
                format!("Fixed markdown hygiene: {}", done.describe()),
            ));
        } else {
            result.findings.push(
                Finding::new(
                    NAME,
                    Severity::Warning,
                    Some(&doc.path),
                    format!("Markdown hygiene issues: {}", found.describe()),
                )
                .fixable(Some("Run markdown check with --fix to repair them".into())),
            );
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hygiene_is_repaired_outside_code_and_idempotent() {
        let t = "# T   \n\n\n\nx\t\n```\na  \n\n\n```\nend";
        let (out, h) = tidy(t);
        assert_eq!(out, "# T\n\nx\n```\na  \n\n\n```\nend\n");
        assert_eq!(
            h,
            Hygiene {
                trailing: 2,
                blank: 2,
                final_newline: true
            }
        );
        assert_eq!(tidy(&out), (out.clone(), Hygiene::default()));
        assert_eq!(
            tidy("a\n\n\n").1,
            Hygiene {
                trailing: 0,
                blank: 1,
                final_newline: true
            }
        );
        assert!(tidy("").1.is_clean());
    }

    #[test]
    fn hygiene_agrees_with_tidy() {
        for t in [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\n\n",
            "a  \n\n\n",
            "```\n\n\n",
            "é\t",
            "x\n```\ny  \n",
        ] {
            assert_eq!(hygiene(t), tidy(t).1, "{t:?}");
        }
    }
}

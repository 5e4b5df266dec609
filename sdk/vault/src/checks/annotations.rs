//! The `annotations` checker: template guidance left in a document, and its
//! fixer, which removes it.
//!
//! What counts is exactly what the reference's sanitizer
//! (`vaultcore/checks/annotations.py` of `vaultspec-core` 0.3.9) removes, so
//! both tools flag the same documents with the same counts:
//!
//! - in the frontmatter, every line that starts with `#` (a YAML comment)
//!   and every line that starts with `<!--` or `<--`, which takes the lines
//!   after it up to one containing `-->` along (one count per block);
//! - in the body, outside fenced code, a *standalone* comment: a line whose
//!   text begins with `<!--` (or the malformed `<--` templates have shipped)
//!   and that either holds only comments, or opens a comment that runs on to
//!   a later line (through the line holding `-->`; prose after the `-->` on
//!   that line is kept), or to the end of the document if none closes it.
//!
//! A comment inside a line of prose (`text <!-- note --> text`) or followed
//! by prose on its own line (`<!-- note --> text`) is the author's and is not
//! counted, nor removed. Comments that begin `RETIRED:` record plan
//! retirements (spec/plan-format.md) and are kept. The message lists
//! frontmatter comment lines, HTML comment blocks, then malformed ones.

use crate::doc::Document;
use crate::error::Result;
use crate::frontmatter::split;
use crate::graph::markdown::FenceTracker;

use super::context::{Options, Snapshot, plural, rewrite};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "annotations";
const OPEN: &str = "<!--";
const OPEN_MALFORMED: &str = "<--";
const CLOSE: &str = "-->";
/// Comments with this prefix are the vault's own records, not guidance.
const PRESERVED: &str = "RETIRED:";

/// What the fixer would remove from a text.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    /// `<!--` comment blocks in the body.
    pub html: usize,
    /// Comment blocks opened with the malformed `<--` in the body.
    pub malformed: usize,
    /// `#` comment lines and comment blocks in the frontmatter.
    pub yaml: usize,
}

impl Annotations {
    fn describe(self) -> String {
        let mut parts = Vec::new();
        if self.yaml > 0 {
            parts.push(plural(
                self.yaml,
                "frontmatter comment line",
                "frontmatter comment lines",
            ));
        }
        if self.html > 0 {
            parts.push(plural(
                self.html,
                "HTML comment block",
                "HTML comment blocks",
            ));
        }
        if self.malformed > 0 {
            parts.push(plural(
                self.malformed,
                "malformed HTML comment block",
                "malformed HTML comment blocks",
            ));
        }
        parts.join(", ")
    }
}

/// Removes the annotations of a normalised text; returns the new text and
/// what was removed.
pub fn strip(text: &str) -> (String, Annotations) {
    let mut found = Annotations::default();
    let (head, body) = match split(text) {
        Some(s) => {
            let (head, yaml) = strip_frontmatter(&text[..s.close.end]);
            found.yaml = yaml;
            (head, &text[s.close.end..])
        }
        None => (String::new(), text),
    };
    let (body, html, malformed) = strip_html(body);
    found.html = html;
    found.malformed = malformed;
    (head + &body, found)
}

/// Drops the frontmatter's comment lines and comment blocks; returns the
/// rest and how many there were.
fn strip_frontmatter(head: &str) -> (String, usize) {
    let mut kept = String::with_capacity(head.len());
    let mut removed = 0;
    let mut in_block = false;
    for line in head.split_inclusive('\n') {
        let text = line.trim_start();
        if in_block {
            in_block = !line.contains(CLOSE);
        } else if text.starts_with('#') {
            removed += 1;
        } else if text.starts_with(OPEN) || text.starts_with(OPEN_MALFORMED) {
            removed += 1;
            in_block = !line.contains(CLOSE);
        } else {
            kept.push_str(line);
        }
    }
    (kept, removed)
}

/// Whether [`strip`] may find anything in `doc`: a frontmatter line that
/// starts with `#` or holds a `<`, or a `<` in the body (every opener starts
/// with one). Most documents have neither, and stripping builds a copy of
/// the whole text.
fn may_have_annotations(doc: &Document) -> bool {
    match &doc.split {
        Some(s) => {
            doc.text[s.yaml.clone()]
                .split_inclusive('\n')
                .any(|l| l.trim_start().starts_with('#') || l.contains('<'))
                || doc.text[s.close.end..].contains('<')
        }
        None => doc.text.contains('<'),
    }
}

/// The opener at the start of `text`: its length and whether it is the
/// malformed `<--`.
fn opener(text: &str) -> Option<(usize, bool)> {
    if text.starts_with(OPEN) {
        Some((OPEN.len(), false))
    } else if text.starts_with(OPEN_MALFORMED) {
        Some((OPEN_MALFORMED.len(), true))
    } else {
        None
    }
}

/// A line made only of comments: the line that stays (empty, or the kept
/// `RETIRED:` comments) and the `<!--` and `<--` comments removed. `None`
/// when anything but whitespace and closed comments is on the line.
fn comments_only(line: &str) -> Option<(String, usize, usize)> {
    if !line.contains('<') {
        return None;
    }
    let (content, newline) = line.strip_suffix('\n').map_or((line, ""), |c| (c, "\n"));
    let indent = &content[..content.len() - content.trim_start().len()];
    let (mut html, mut malformed, mut removed_any) = (0, 0, false);
    let mut kept: Vec<&str> = Vec::new();
    let mut cursor = 0;
    loop {
        cursor += content[cursor..].len() - content[cursor..].trim_start().len();
        if cursor >= content.len() {
            break;
        }
        let (len, is_malformed) = opener(&content[cursor..])?;
        let body = cursor + len;
        let end = body + content[body..].find(CLOSE)?;
        if !is_malformed && content[body..end].trim_start().starts_with(PRESERVED) {
            kept.push(&content[cursor..end + CLOSE.len()]);
        } else {
            removed_any = true;
            if is_malformed {
                malformed += 1;
            } else {
                html += 1;
            }
        }
        cursor = end + CLOSE.len();
    }
    if !removed_any && kept.is_empty() {
        return None;
    }
    if kept.is_empty() {
        return Some((String::new(), html, malformed));
    }
    Some((
        format!("{indent}{}{newline}", kept.join(" ")),
        html,
        malformed,
    ))
}

/// Removes the standalone comments of the body outside fenced code;
/// returns the rest and the `<!--` and `<--` blocks removed.
fn strip_html(body: &str) -> (String, usize, usize) {
    if !body.contains(OPEN) && !body.contains(OPEN_MALFORMED) {
        return (body.to_owned(), 0, 0);
    }
    let mut out = String::with_capacity(body.len());
    // Comments removed: `<!--` ones, then malformed `<--` ones.
    let mut counts = [0usize; 2];
    // Fed only outside comments: a fence inside a comment is comment text.
    let mut fences = FenceTracker::default();
    // Some(malformed?) while inside a comment that opened on an earlier line.
    let mut open: Option<bool> = None;
    for line in body.split_inclusive('\n') {
        if let Some(is_malformed) = open {
            let Some(end) = line.find(CLOSE) else {
                continue;
            };
            open = None;
            counts[usize::from(is_malformed)] += 1;
            let tail = &line[end + CLOSE.len()..];
            if !tail.trim().is_empty() {
                out.push_str(tail);
            }
            continue;
        }
        if fences.code_line(line.trim_end_matches(['\n', '\r'])) {
            out.push_str(line);
            continue;
        }
        if let Some((kept, h, m)) = comments_only(line) {
            counts[0] += h;
            counts[1] += m;
            out.push_str(&kept);
            continue;
        }
        let text = line.trim_start();
        let Some((len, is_malformed)) = opener(text) else {
            out.push_str(line);
            continue;
        };
        if !is_malformed && text[len..].trim_start().starts_with(PRESERVED) {
            out.push_str(line);
            continue;
        }
        match text.find(CLOSE) {
            None => open = Some(is_malformed),
            // Prose after the comment: the author's line, kept whole.
            Some(end) if !text[end + CLOSE.len()..].trim().is_empty() => out.push_str(line),
            Some(_) => counts[usize::from(is_malformed)] += 1,
        }
    }
    if let Some(is_malformed) = open {
        counts[usize::from(is_malformed)] += 1;
    }
    (out, counts[0], counts[1])
}

/// Runs the checker (and its fixer under `opts.fix`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Annotations);
    for doc in snap.scoped(opts).filter(|d| may_have_annotations(d)) {
        let (_, found) = strip(&doc.text);
        if found == Annotations::default() {
            continue;
        }
        if opts.fix {
            let mut removed = Annotations::default();
            rewrite(snap.storage, &doc.path, |t| {
                let (new, r) = strip(t);
                removed = r;
                Some(new)
            })?;
            result.fixed_count += 1;
            result.findings.push(Finding::fixed(
                NAME,
                &doc.path,
                format!("Removed template annotations: {}", removed.describe()),
            ));
        } else {
            result.findings.push(
                Finding::new(
                    NAME,
                    Severity::Warning,
                    Some(&doc.path),
                    format!("Template annotations remain: {}", found.describe()),
                )
                .fixable(Some(
                    "Run annotations check with --fix to strip them".into(),
                )),
            );
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document with template guidance and comments that are not, and
    /// what `vaultspec-core` 0.3.9's `strip_template_annotations` returns
    /// for it (observed): `AnnotationStats(frontmatter_comments=2,
    /// html_comments=6, malformed_html_comments=1)` and the text below.
    const MIXED: &str = "---\n# a yaml comment\ntags:\n  - '#adr'\n  - '#cache-layer'\n<!-- a frontmatter\nannotation -->\ndate: '2026-03-01'\nrelated: []\n---\n\n# `cache-layer` adr\n\n<!-- RETIRED: S02 -->\n<!-- Template guidance: say what was decided. -->\nProse with an inline <!-- reviewer note --> comment stays.\n<!-- trailing note --> followed by prose stays too.\n<!-- one --> <!-- two -->\n\n<!-- a block\n   over two lines -->\n<-- malformed template note -->\n  <!-- indented -->\n\n```html\n<!-- in code -->\n```\n\nA <-- B arrow.\n<!-- unclosed to the end\n";
    const MIXED_STRIPPED: &str = "---\ntags:\n  - '#adr'\n  - '#cache-layer'\ndate: '2026-03-01'\nrelated: []\n---\n\n# `cache-layer` adr\n\n<!-- RETIRED: S02 -->\nProse with an inline <!-- reviewer note --> comment stays.\n<!-- trailing note --> followed by prose stays too.\n\n\n```html\n<!-- in code -->\n```\n\nA <-- B arrow.\n";

    #[test]
    fn only_standalone_comments_count_as_the_reference_counts_them() {
        let (out, found) = strip(MIXED);
        assert_eq!(
            found,
            Annotations {
                html: 6,
                malformed: 1,
                yaml: 2
            }
        );
        assert_eq!(
            found.describe(),
            "2 frontmatter comment lines, 6 HTML comment blocks, 1 malformed HTML comment block"
        );
        assert_eq!(out, MIXED_STRIPPED);
        assert_eq!(strip(&out), (out.clone(), Annotations::default()));
    }

    #[test]
    fn comments_within_prose_are_not_annotations() {
        let adr = "---\ntags: []\n---\n\n# T\n\nWe chose B <!-- see the thread --> over A.\n<!-- TODO(ana) --> check the numbers\n";
        assert_eq!(strip(adr), (adr.to_owned(), Annotations::default()));
    }

    #[test]
    fn a_closing_line_keeps_its_prose() {
        let (out, found) = strip("<!-- a\nb --> tail\nnext\n");
        assert_eq!(out, " tail\nnext\n");
        assert_eq!(found.html, 1);
    }
}

//! Frontmatter: finding the `---` fenced YAML block of a document
//! (spec/vault-format.md §5.1), reading it with both parsers of §5.2, and
//! editing it without disturbing the bytes around the edit.
//!
//! [`split`] locates the block on the raw text (terminators untouched), so the
//! same [`Split`] drives readers, the stamp writers in [`crate::hash`] and the
//! format-preserving edits in [`edit`].

pub mod edit;
pub mod plain;
pub mod render;
pub mod scan;
pub mod spans;
pub mod yaml;

use std::ops::Range;

use crate::text::{self, BOM};

/// Where the frontmatter of a text lies, as byte ranges into that text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// Whether the text starts with a BOM.
    pub bom: bool,
    /// Whether the opening fence is the first line (after at most a BOM);
    /// stamping and fingerprinting writers act only on at-start frontmatter.
    pub at_start: bool,
    /// The opening fence line, terminator included.
    pub open: Range<usize>,
    /// The YAML lines between the fences, terminators included.
    pub yaml: Range<usize>,
    /// The closing fence line, terminator included.
    pub close: Range<usize>,
    /// Where the body starts: the first non-blank line after the closing fence
    /// (the text length when there is none).
    pub body: usize,
}

impl Split {
    /// The YAML text between the fences.
    pub fn yaml<'t>(&self, text: &'t str) -> &'t str {
        &text[self.yaml.clone()]
    }

    /// The body: from the first non-blank line after the closing fence.
    pub fn body<'t>(&self, text: &'t str) -> &'t str {
        &text[self.body..]
    }

    /// The 1-based line number of the first YAML line.
    pub fn first_yaml_line(&self, text: &str) -> usize {
        text::lines(&text[..self.yaml.start]).len() + 1
    }
}

fn is_fence(line: &str, indent_ok: bool) -> bool {
    let l = if indent_ok { line.trim_start() } else { line };
    l.strip_prefix("---")
        .is_some_and(|rest| rest.bytes().all(|b| b == b' ' || b == b'\t'))
}

/// Finds the frontmatter of `text` per §5.1: one leading BOM and any blank
/// lines are skipped; the opening fence is `---` plus optional spaces/tabs
/// (indentation allowed); the YAML runs to the first later line that is `---`
/// plus optional spaces/tabs. An unclosed fence means no frontmatter.
pub fn split(text: &str) -> Option<Split> {
    let bom = text.starts_with(BOM);
    let start = if bom { BOM.len_utf8() } else { 0 };
    let rest = &text[start..];
    let shift = |r: &Range<usize>| r.start + start..r.end + start;
    let mut it = text::line_iter(rest);
    let mut at_start = true;
    let open_line = loop {
        let l = it.next()?;
        if !text::is_blank(&rest[l.content.clone()]) {
            break l;
        }
        at_start = false;
    };
    if !is_fence(&rest[open_line.content.clone()], true) {
        return None;
    }
    let open = shift(&open_line.full);
    let close_line = it
        .by_ref()
        .find(|l| is_fence(&rest[l.content.clone()], false))?;
    let close = shift(&close_line.full);
    let yaml = open.end..close.start;
    let body = it
        .find(|l| !text::is_blank(&rest[l.content.clone()]))
        .map_or(text.len(), |l| l.full.start + start);
    Some(Split {
        bom,
        at_start,
        open,
        yaml,
        close,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_finds_fences_and_body() {
        let t = "---\na: 1\n---\n\n# T\n";
        let s = split(t).unwrap();
        assert!(s.at_start);
        assert_eq!(s.yaml(t), "a: 1\n");
        assert_eq!(s.body(t), "# T\n");
    }

    #[test]
    fn split_tolerates_bom_crlf_and_leading_blank_lines() {
        let t = "\u{feff}\r\n---  \r\na: 1\r\n---\r\nbody";
        let s = split(t).unwrap();
        assert!(s.bom && !s.at_start);
        assert_eq!(s.yaml(t), "a: 1\r\n");
        assert_eq!(s.body(t), "body");
    }

    #[test]
    fn unclosed_fence_is_no_frontmatter() {
        assert!(split("---\na: 1\n").is_none());
        assert!(split("# title\n---\n---\n").is_none());
    }

    #[test]
    fn empty_yaml_block_is_found() {
        let t = "---\n---\nx";
        let s = split(t).unwrap();
        assert_eq!(s.yaml(t), "");
        assert_eq!(s.body(t), "x");
    }
}

//! The little markdown the graph and search need: fenced code, ATX headings,
//! and masking of code and HTML comments before wiki-links are read.
//!
//! These follow the rules of spec/plan-format.md §3 (CommonMark-style ```` ``` ````
//! and `~~~` fences indented at most 3 spaces; ATX headings of 1-6 `#`), which
//! is what the reference's `vaultcore/markdown.py` applies everywhere.

use std::borrow::Cow;

/// An open fenced code block: its fence character and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fence {
    ch: u8,
    len: usize,
}

/// Tracks whether successive lines are inside a fenced code block.
#[derive(Debug, Default)]
pub(crate) struct FenceTracker {
    open: Option<Fence>,
}

impl FenceTracker {
    /// Feed one line (without terminator); true when the line belongs to a
    /// fenced block, its fence lines included.
    pub(crate) fn code_line(&mut self, line: &str) -> bool {
        match self.open {
            Some(fence) => {
                if closes(line, fence) {
                    self.open = None;
                }
                true
            }
            None => {
                self.open = opens(line);
                self.open.is_some()
            }
        }
    }
}

fn indent_ok(line: &str) -> Option<&str> {
    let trimmed = line.trim_start_matches(' ');
    (line.len() - trimmed.len() <= 3).then_some(trimmed)
}

fn opens(line: &str) -> Option<Fence> {
    let rest = indent_ok(line)?;
    let ch = *rest.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = rest.bytes().take_while(|&b| b == ch).count();
    if len < 3 {
        return None;
    }
    // A backtick fence's info string may not contain a backtick.
    if ch == b'`' && rest[len..].contains('`') {
        return None;
    }
    Some(Fence { ch, len })
}

fn closes(line: &str, fence: Fence) -> bool {
    let Some(rest) = indent_ok(line) else {
        return false;
    };
    let len = rest.bytes().take_while(|&b| b == fence.ch).count();
    len >= fence.len && rest[len..].trim().is_empty()
}

/// An ATX heading: `(level, text)` with the text trimmed and a closing `#`
/// run removed. Up to 3 leading spaces; the `#` run must be followed by a
/// space, a tab or the end of the line.
pub(crate) fn atx_heading(line: &str) -> Option<(usize, &str)> {
    let rest = indent_ok(line)?;
    let level = rest.bytes().take_while(|&b| b == b'#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let after = &rest[level..];
    if !(after.is_empty() || after.starts_with(' ') || after.starts_with('\t')) {
        return None;
    }
    let mut text = after.trim();
    // A closing sequence is a run of `#` preceded by a space (or the whole text).
    let stripped = text.trim_end_matches('#');
    if stripped.len() != text.len() && (stripped.is_empty() || stripped.ends_with([' ', '\t'])) {
        text = stripped.trim_end();
    }
    Some((level, text))
}

/// The text of the first non-empty level-1 heading outside fenced code.
pub(crate) fn first_h1(body: &str) -> Option<&str> {
    let mut fences = FenceTracker::default();
    for line in body.lines() {
        if fences.code_line(line) {
            continue;
        }
        if let Some((1, text)) = atx_heading(line)
            && !text.is_empty()
        {
            return Some(text);
        }
    }
    None
}

/// `body` with fenced code blocks, inline code spans and HTML comments
/// replaced by spaces (newlines kept), so the prose can be scanned for links
/// and placeholders. Every byte keeps its offset: a position in the result
/// is the same position in `body`.
pub(crate) fn mask_code_and_comments(body: &str) -> String {
    let prose = mask_fences(body);
    let bytes = prose.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    // Only `<` (of `<!--`) and `` ` `` start something to mask: jump from
    // one to the next and copy the prose between them whole.
    while let Some(skip) = memchr::memchr2(b'<', b'`', &bytes[i..]) {
        out.extend_from_slice(&bytes[i..i + skip]);
        i += skip;
        if bytes[i..].starts_with(b"<!--") {
            let end = memchr::memmem::find(&bytes[i + 4..], b"-->")
                .map_or(bytes.len(), |e| i + 4 + e + 3);
            blank(&bytes[i..end], &mut out);
            i = end;
        } else if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            match closing_run(bytes, i + run, run) {
                Some(end) => {
                    blank(&bytes[i..end], &mut out);
                    i = end;
                }
                None => {
                    out.extend_from_slice(&bytes[i..i + run]);
                    i += run;
                }
            }
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&bytes[i..]);
    // Only ASCII bytes were replaced, each by an ASCII byte, and whole
    // multi-byte sequences were blanked together: the result is UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// `body` with the lines of fenced code blocks (fences included) replaced
/// by spaces. A body without three backticks or tildes in a row has no
/// fence and is borrowed as it is.
fn mask_fences(body: &str) -> Cow<'_, str> {
    if !crate::text::contains(body, "```") && !crate::text::contains(body, "~~~") {
        return Cow::Borrowed(body);
    }
    let mut prose = String::with_capacity(body.len());
    let mut fences = FenceTracker::default();
    for line in body.split_inclusive('\n') {
        let content = line.strip_suffix('\n').unwrap_or(line);
        if fences.code_line(content) {
            prose.extend(std::iter::repeat_n(' ', content.len()));
            if line.len() > content.len() {
                prose.push('\n');
            }
        } else {
            prose.push_str(line);
        }
    }
    Cow::Owned(prose)
}

/// The end of the first backtick run of exactly `run` backticks at or after `from`.
fn closing_run(bytes: &[u8], mut from: usize, run: usize) -> Option<usize> {
    while from < bytes.len() {
        if bytes[from] == b'`' {
            let len = bytes[from..].iter().take_while(|&&b| b == b'`').count();
            if len == run {
                return Some(from + len);
            }
            from += len;
        } else {
            from += 1;
        }
    }
    None
}

fn blank(span: &[u8], out: &mut Vec<u8>) {
    for &b in span {
        // Keep newlines so line numbers survive, and one space per byte so
        // offsets do (every byte of a multi-byte character becomes a space:
        // the output stays valid UTF-8).
        out.push(if b == b'\n' { b'\n' } else { b' ' });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_need_a_space_after_the_hashes() {
        assert_eq!(atx_heading("## Findings"), Some((2, "Findings")));
        assert_eq!(atx_heading("#tag"), None);
        assert_eq!(atx_heading("   # Title #"), Some((1, "Title")));
        assert_eq!(atx_heading("    # code"), None);
        assert_eq!(atx_heading("####### seven"), None);
    }

    #[test]
    fn first_h1_skips_fenced_code_and_empty_headings() {
        let body = "```\n# not a title\n```\n#\n# `x` adr: `y`\n";
        assert_eq!(first_h1(body), Some("`x` adr: `y`"));
    }

    #[test]
    fn masking_hides_code_spans_fences_and_comments_but_keeps_lines() {
        let body = "see [[a]] `[[b]]`\n```\n[[c]]\n```\n<!-- [[d]]\n-->[[e]] é";
        let masked = mask_code_and_comments(body);
        assert!(masked.contains("[[a]]"));
        assert!(masked.contains("[[e]]"));
        for hidden in ["[[b]]", "[[c]]", "[[d]]"] {
            assert!(!masked.contains(hidden), "{hidden} should be masked");
        }
        assert_eq!(masked.lines().count(), body.lines().count());
    }

    /// The masking as first written, byte by byte: the oracle of the fast one.
    fn mask_by_bytes(body: &str) -> String {
        let mut prose = String::new();
        let mut fences = FenceTracker::default();
        for line in body.split_inclusive('\n') {
            let content = line.strip_suffix('\n').unwrap_or(line);
            if fences.code_line(content) {
                prose.push_str(&" ".repeat(content.len()));
                if line.len() > content.len() {
                    prose.push('\n');
                }
            } else {
                prose.push_str(line);
            }
        }
        let bytes = prose.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i..].starts_with(b"<!--") {
                let end = bytes[i + 4..]
                    .windows(3)
                    .position(|w| w == b"-->")
                    .map_or(bytes.len(), |e| i + 4 + e + 3);
                blank(&bytes[i..end], &mut out);
                i = end;
            } else if bytes[i] == b'`' {
                let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
                match closing_run(bytes, i + run, run) {
                    Some(end) => {
                        blank(&bytes[i..end], &mut out);
                        i = end;
                    }
                    None => {
                        out.extend_from_slice(&bytes[i..i + run]);
                        i += run;
                    }
                }
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    }

    proptest::proptest! {
        #[test]
        fn masking_matches_the_byte_by_byte_oracle(body in r"([a\[\] `~<!>\-é\n]|```|~~~|<!--|-->|\n```\n){0,40}") {
            proptest::prop_assert_eq!(mask_code_and_comments(&body), mask_by_bytes(&body));
        }
    }

    #[test]
    fn an_unmatched_backtick_run_is_literal() {
        assert!(mask_code_and_comments("a `` b [[x]]").contains("[[x]]"));
    }
}

//! Text helpers shared by every reader and writer: line iteration that keeps
//! each line's own terminator, BOM and newline handling, and Python's
//! `str.strip()` whitespace set.
//!
//! Writers preserve a file's conventions (spec/vault-format.md §3): a BOM is
//! kept, CRLF is kept when the original has any, and a line keeps its own
//! terminator when edited in place.

use std::ops::Range;

/// The UTF-8 byte order mark as a `char`.
pub const BOM: char = '\u{feff}';

/// One line of a text: `content` excludes the terminator, `full` includes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Byte range of the line without its terminator.
    pub content: Range<usize>,
    /// Byte range of the line with its terminator (`\r\n`, `\r`, `\n` or none).
    pub full: Range<usize>,
}

impl Line {
    /// The terminator of this line within `text` (empty for the last line).
    pub fn terminator<'t>(&self, text: &'t str) -> &'t str {
        &text[self.content.end..self.full.end]
    }
}

/// Splits `text` into lines, each with its own terminator (`\r\n`, lone `\r`
/// or `\n`). A final line without terminator is included when non-empty.
pub fn lines(text: &str) -> Vec<Line> {
    line_iter(text).collect()
}

/// The lines of `text`, lazily (see [`lines`]).
pub fn line_iter(text: &str) -> impl Iterator<Item = Line> + '_ {
    let b = text.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= b.len() {
            return None;
        }
        // `memchr2`, not a byte loop: every reader and writer walks lines.
        let rel = memchr::memchr2(b'\n', b'\r', &b[start..]);
        let line = match rel {
            None => Line {
                content: start..b.len(),
                full: start..b.len(),
            },
            Some(r) => {
                let i = start + r;
                let end = if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                    i + 2
                } else {
                    i + 1
                };
                Line {
                    content: start..i,
                    full: start..end,
                }
            }
        };
        start = line.full.end;
        Some(line)
    })
}

/// `text` without one leading BOM.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// `text` with `\r\n` and lone `\r` turned into `\n`.
pub fn normalize_newlines(text: &str) -> std::borrow::Cow<'_, str> {
    if contains(text, "\r") {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Whether the file convention is CRLF: the rule of every in-place fixer is
/// "CRLF if the original text contains `\r\n` anywhere".
pub fn uses_crlf(text: &str) -> bool {
    contains(text, "\r\n")
}

/// Turns every `\n` of an LF text into `\r\n`.
pub fn to_crlf(text: &str) -> String {
    normalize_newlines(text).replace('\n', "\r\n")
}

/// Whether Python's `str.isspace()` holds for `c`: Rust's Unicode
/// `White_Space` plus the information separators `\x1c`..`\x1f`.
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()` without arguments.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// Whether a line holds only spaces and tabs (or nothing): a blank line.
pub fn is_blank(s: &str) -> bool {
    s.chars().all(is_py_space)
}

/// Whether `needle` occurs in `text`. Use it on hot paths in place of
/// `str::contains`, whose searches (two-way for a string, word-at-a-time
/// for a `char`) are slow in a verb component; `memchr::memmem` uses wasm
/// SIMD there and the host's vector instructions natively.
pub fn contains(text: &str, needle: &str) -> bool {
    match needle.as_bytes() {
        // One byte needs no searcher built for it.
        [byte] => memchr::memchr(*byte, text.as_bytes()).is_some(),
        bytes => memchr::memmem::find(text.as_bytes(), bytes).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_own_terminators() {
        let t = "a\r\nb\rc\nd";
        let ls = lines(t);
        let parts: Vec<(&str, &str)> = ls
            .iter()
            .map(|l| (&t[l.content.clone()], l.terminator(t)))
            .collect();
        assert_eq!(
            parts,
            vec![("a", "\r\n"), ("b", "\r"), ("c", "\n"), ("d", "")]
        );
    }

    #[test]
    fn py_strip_drops_unicode_and_separator_whitespace() {
        assert_eq!(py_strip("\u{a0}\u{1c}x y\u{2028}\u{1f}\n"), "x y");
    }
}

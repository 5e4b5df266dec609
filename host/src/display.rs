//! Terminal-safe text: control and bidirectional characters shown as escapes.
//!
//! Anything a component or a file name supplies (a name, an import, a
//! declaration's docs, a parser's quote of them, a path) may carry bytes a
//! terminal acts on: `ESC ] 52` writes the clipboard, `ESC [` moves the
//! cursor and can redraw a prompt, `U+202E` turns the rest of a line around.
//! [`Escaped`] prints such text with every C0 control (but the allowed line
//! breaks), DEL, every C1 control and every bidirectional formatting
//! character written out as `\x1b` or `\u{202e}`, so the person sees what the
//! bytes are instead of what they do. The host wraps untrusted text in it
//! where it prints (warnings, refusals, the trust prompt, `verbs` output,
//! logs); declaration docs are escaped once where they enter the host
//! ([`crate::catalog::parse`]), since they go on to many print sites (clap
//! help, `discover`, `describe`).
//!
//! [`TerminalFilter`] does the same to a byte stream (a verb's output on its
//! way to a terminal), where a character may be split across writes.

use std::fmt::{self, Write};

/// Whether `c` is a bidirectional formatting character: embeddings and
/// overrides (U+202A–U+202E), isolates (U+2066–U+2069), the marks U+200E,
/// U+200F and U+061C.
pub fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// Whether `c` must not reach a terminal as it is: a C0 or C1 control, DEL
/// or a bidirectional formatting character.
pub fn is_unsafe(c: char) -> bool {
    c.is_control() || is_bidi(c)
}

/// Text printed with unsafe characters escaped; line breaks included, so a
/// name or path stays on its line. [`Escaped::text`] keeps `\n` and `\t`.
#[derive(Debug, Clone, Copy)]
pub struct Escaped<'a> {
    text: &'a str,
    keep_lines: bool,
}

impl<'a> Escaped<'a> {
    /// One-line text (a name, a path): every control escaped, `\n` too.
    pub fn new(text: &'a str) -> Self {
        Self {
            text,
            keep_lines: false,
        }
    }

    /// Multi-line text (a message, docs): `\n` and `\t` kept as they are.
    pub fn text(text: &'a str) -> Self {
        Self {
            text,
            keep_lines: true,
        }
    }
}

/// Shorthand for [`Escaped::new`].
pub fn escaped(text: &str) -> Escaped<'_> {
    Escaped::new(text)
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.text;
        while let Some(at) =
            rest.find(|c: char| is_unsafe(c) && !(self.keep_lines && matches!(c, '\n' | '\t')))
        {
            f.write_str(&rest[..at])?;
            let c = rest[at..].chars().next().expect("found a character here");
            write_escape(f, c)?;
            rest = &rest[at + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

fn write_escape(out: &mut impl Write, c: char) -> fmt::Result {
    if (c as u32) < 0x80 {
        write!(out, "\\x{:02x}", c as u32)
    } else {
        write!(out, "\\u{{{:x}}}", c as u32)
    }
}

/// `text` with unsafe characters escaped, `\n` and `\t` kept: for text that
/// is stored once and printed in many places (declaration docs).
pub fn escape_text(text: &str) -> String {
    if text.contains(|c: char| is_unsafe(c) && !matches!(c, '\n' | '\t')) {
        Escaped::text(text).to_string()
    } else {
        text.to_owned()
    }
}

/// Escapes a byte stream bound for a terminal: C0 controls but `\n`, `\t`
/// and the `\r` of a `\r\n`, DEL, C1 controls (as UTF-8) and bidirectional
/// formatting characters. `ESC` is escaped always: no builtin verb prints
/// colour, so no escape sequence at all passes. Bytes that are not UTF-8
/// pass as they are (a terminal shows them as replacement characters). A
/// sequence split across writes is held back until the next write
/// ([`TerminalFilter::finish`] lets it out).
#[derive(Debug, Default)]
pub struct TerminalFilter {
    held: Vec<u8>,
}

impl TerminalFilter {
    /// The bytes to write for `input`, held-back bytes of the last write
    /// first.
    pub fn filter(&mut self, input: &[u8]) -> Vec<u8> {
        let mut bytes = std::mem::take(&mut self.held);
        bytes.extend_from_slice(input);
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            // How many bytes decide what `b` starts; hold them back when the
            // write ends first.
            let need = match b {
                b'\r' | 0xc2 | 0xd8 => 2,
                0xe2 => 3,
                _ => 1,
            };
            if i + need > bytes.len() {
                self.held = bytes[i..].to_vec();
                break;
            }
            let unsafe_char = match b {
                b'\n' | b'\t' => None,
                b'\r' if bytes[i + 1] == b'\n' => None,
                0x00..=0x1f | 0x7f => Some((b as char, 1)),
                0xc2 if (0x80..=0x9f).contains(&bytes[i + 1]) => Some((
                    char::from_u32(u32::from(bytes[i + 1])).expect("a C1 control"),
                    2,
                )),
                0xd8 | 0xe2 => std::str::from_utf8(&bytes[i..i + need])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .filter(|c| is_bidi(*c))
                    .map(|c| (c, need)),
                _ => None,
            };
            match unsafe_char {
                Some((c, len)) => {
                    let mut escape = String::new();
                    let _ = write_escape(&mut escape, c);
                    out.extend_from_slice(escape.as_bytes());
                    i += len;
                }
                None => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        out
    }

    /// The bytes still held back (an incomplete sequence at the very end).
    pub fn finish(&mut self) -> Vec<u8> {
        let held = std::mem::take(&mut self.held);
        // A lone `\r` at the end cannot redraw anything that follows from the
        // same writer, but escape it all the same.
        if held == b"\r" {
            b"\\x0d".to_vec()
        } else {
            held
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_are_written_out() {
        let hostile = "a\x1b]52;c;aGk=\x07b\u{202e}c\u{9b}d\u{7f}\ne\u{200f}\u{61c}\u{2066}";
        assert_eq!(
            Escaped::new(hostile).to_string(),
            "a\\x1b]52;c;aGk=\\x07b\\u{202e}c\\u{9b}d\\x7f\\x0ae\\u{200f}\\u{61c}\\u{2066}"
        );
        assert_eq!(Escaped::text("one\n\ttwo\r").to_string(), "one\n\ttwo\\x0d");
        assert_eq!(escape_text("plain ünïcode"), "plain ünïcode");
    }

    #[test]
    fn the_stream_filter_escapes_across_writes() {
        let mut filter = TerminalFilter::default();
        let mut out = filter.filter(b"red \x1b[31m x\r\ny\rz ");
        out.extend(filter.filter(b"\xe2\x80"));
        out.extend(filter.filter(b"\xaeend \xc2"));
        out.extend(filter.filter(b"\x9b \xc3\xa9 \xe2\x82\xac\r"));
        out.extend(filter.finish());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "red \\x1b[31m x\r\ny\\x0dz \\u{202e}end \\u{9b} é €\\x0d"
        );
    }

    #[test]
    fn the_stream_filter_passes_plain_text_unchanged() {
        let text = "# Title\n\tindented ünïcode — ok\r\n";
        let mut filter = TerminalFilter::default();
        let mut out = filter.filter(text.as_bytes());
        out.extend(filter.finish());
        assert_eq!(out, text.as_bytes());
    }
}

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

/// Whether a stream that is a terminal (`terminal`) takes colour: `NO_COLOR`
/// unset or empty (<https://no-color.org>) and `TERM` not `dumb`.
pub fn colour_wanted(terminal: bool) -> bool {
    terminal
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

/// `error:` as the host starts a line on stderr with it: bold red where
/// stderr is a terminal that takes colour.
pub fn error_label() -> &'static str {
    if colour_wanted(std::io::IsTerminal::is_terminal(&std::io::stderr())) {
        "\x1b[1;31merror\x1b[0m:"
    } else {
        "error:"
    }
}

/// `warning:`, as [`error_label`] is `error:`, in yellow.
pub fn warning_label() -> &'static str {
    if colour_wanted(std::io::IsTerminal::is_terminal(&std::io::stderr())) {
        "\x1b[1;33mwarning\x1b[0m:"
    } else {
        "warning:"
    }
}

/// The longest colour sequence a [`TerminalFilter::colour`] passes
/// (`ESC [ 0 ; 1 ; 3 1 m` and the like).
const MAX_SGR: usize = 16;

/// The SGR parameters a colour filter lets through: reset, bold, dim,
/// normal intensity, and the foreground colours. Nothing that hides,
/// blinks or moves anything.
fn allowed_sgr(parameter: &[u8]) -> bool {
    matches!(
        parameter,
        b"" | b"0" | b"1" | b"2" | b"22" | b"39" | [b'3', b'0'..=b'7'] | [b'9', b'0'..=b'7']
    )
}

/// The length of the colour sequence `bytes` starts with (`bytes[0]` is
/// `ESC`): `Some(Ok(n))` for an allowed one, `Some(Err(()))` for anything
/// else, `None` when the bytes end before it can be told.
fn sgr_length(bytes: &[u8]) -> Option<Result<usize, ()>> {
    for (i, &b) in bytes.iter().enumerate().skip(1).take(MAX_SGR - 1) {
        match (i, b) {
            (1, b'[') => {}
            (1, _) => return Some(Err(())),
            (_, b'0'..=b'9' | b';') => {}
            (_, b'm') => {
                let params = &bytes[2..i];
                return Some(if params.split(|&c| c == b';').all(allowed_sgr) {
                    Ok(i + 1)
                } else {
                    Err(())
                });
            }
            _ => return Some(Err(())),
        }
    }
    if bytes.len() < MAX_SGR {
        None
    } else {
        Some(Err(()))
    }
}

/// Escapes a byte stream bound for a terminal: C0 controls but `\n`, `\t`
/// and the `\r` of a `\r\n`, DEL, C1 controls (as UTF-8) and bidirectional
/// formatting characters. `ESC` is escaped always, except by a
/// [`TerminalFilter::colour`] filter (for builtin verbs the host allowed
/// colour), which passes the colour sequences of the SDK's `style` and
/// nothing else. Bytes that are not UTF-8 pass as they are (a terminal
/// shows them as replacement characters). A sequence split across writes
/// is held back until the next write ([`TerminalFilter::finish`] lets it
/// out).
#[derive(Debug, Default)]
pub struct TerminalFilter {
    held: Vec<u8>,
    colour: bool,
}

impl TerminalFilter {
    /// A filter that also passes colour sequences.
    pub fn colour() -> Self {
        Self {
            held: Vec::new(),
            colour: true,
        }
    }

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
            if b == 0x1b && self.colour {
                match sgr_length(&bytes[i..]) {
                    None => {
                        self.held = bytes[i..].to_vec();
                        break;
                    }
                    Some(Ok(len)) => {
                        out.extend_from_slice(&bytes[i..i + len]);
                        i += len;
                        continue;
                    }
                    Some(Err(())) => {}
                }
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
        // The start of a colour sequence that never ended is escaped like
        // any other.
        if held.first() == Some(&0x1b) {
            let mut plain = TerminalFilter::default();
            let mut out = plain.filter(&held);
            out.extend(plain.finish());
            return out;
        }
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
    fn a_colour_filter_passes_colours_and_nothing_else() {
        let mut filter = TerminalFilter::colour();
        let mut out = filter.filter(b"\x1b[31merror\x1b[0m \x1b[1;3");
        out.extend(filter.filter(b"2mok\x1b[0m \x1b[8mhidden \x1b[2J \x1b]52;c;x\x07 \x1b["));
        out.extend(filter.finish());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\x1b[31merror\x1b[0m \x1b[1;32mok\x1b[0m \\x1b[8mhidden \\x1b[2J \\x1b]52;c;x\\x07 \\x1b["
        );
        // A plain filter passes none.
        let mut plain = TerminalFilter::default();
        assert_eq!(plain.filter(b"\x1b[31m"), b"\\x1b[31m");
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

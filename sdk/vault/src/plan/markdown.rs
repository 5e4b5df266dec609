//! The markdown facts the plan grammar reads: HTML comment masking, fenced
//! code blocks and ATX headings (spec/plan-format.md §3).
//!
//! Structural tokens are matched on a masked copy of each line in which
//! comment spans are blanked and fenced lines are empty; prose keeps the raw
//! line.

use std::borrow::Cow;

/// One body line with its masked twin.
#[derive(Debug, Clone)]
pub struct MdLine<'t> {
    /// The line as written (no terminator).
    pub raw: &'t str,
    /// The line with HTML comment spans blanked; empty inside fenced code.
    /// Borrowed from `raw` when that changes nothing, as on most lines.
    pub masked: Cow<'t, str>,
    /// Whether the line belongs to a fenced code block (fence lines included).
    pub in_fence: bool,
    /// Whether the line starts inside a comment opened on an earlier line.
    pub starts_in_comment: bool,
}

/// Splits normalised text into lines and computes each masked twin.
pub fn md_lines(text: &str) -> Vec<MdLine<'_>> {
    let masked_text = mask_comments(text);
    let raw_lines: Vec<&str> = text.split('\n').collect();
    let masked_lines: Vec<&str> = masked_text.split('\n').collect();
    let opened_before = comment_state_at_line_starts(text);
    let mut fence: Option<(char, usize)> = None;
    let mut out = Vec::with_capacity(raw_lines.len());
    for (i, (raw, masked)) in raw_lines.iter().zip(masked_lines).enumerate() {
        let mut in_fence = fence.is_some();
        match fence {
            None => {
                if let Some(open) = fence_marker(raw)
                    && (open.0 == '~' || !raw.trim_start()[open.1..].contains('`'))
                {
                    fence = Some(open);
                    in_fence = true;
                }
            }
            Some((ch, len)) => {
                if let Some((c, l)) = fence_marker(raw) {
                    let t = raw.trim_start();
                    if c == ch && l >= len && t[l..].trim().is_empty() {
                        fence = None;
                    }
                }
            }
        }
        out.push(MdLine {
            raw,
            masked: if in_fence {
                Cow::Borrowed("")
            } else if masked == *raw {
                Cow::Borrowed(raw)
            } else {
                Cow::Owned(masked.to_string())
            },
            in_fence,
            starts_in_comment: opened_before.get(i).copied().unwrap_or(false),
        });
    }
    if text.ends_with('\n') {
        out.pop();
    }
    out
}

/// For each line, whether it starts inside a comment opened earlier. The
/// lines after the last comment are left out (they start outside one): most
/// plans hold no comment at all, and counting their lines is wasted work.
fn comment_state_at_line_starts(text: &str) -> Vec<bool> {
    let mut out = vec![false];
    let mut inside = false;
    let mut rest = text;
    loop {
        let next = if inside {
            rest.find("-->")
        } else {
            rest.find("<!--")
        };
        let Some(at) = next else {
            if inside {
                out.resize(out.len() + newlines(rest), true);
            }
            break;
        };
        out.resize(out.len() + newlines(&rest[..at]), inside);
        // (The markers themselves hold no newline.)
        let skip = if inside { 3 } else { 4 };
        rest = &rest[at + skip..];
        inside = !inside;
    }
    out
}

fn newlines(s: &str) -> usize {
    s.bytes().filter(|&b| b == b'\n').count()
}

fn fence_marker(line: &str) -> Option<(char, usize)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let t = &line[indent..];
    let ch = t.chars().next()?;
    if ch != '`' && ch != '~' {
        return None;
    }
    let n = t.chars().take_while(|&c| c == ch).count();
    (n >= 3).then_some((ch, n))
}

/// Replaces every `<!-- ... -->` span with spaces, keeping newlines; an
/// unterminated `<!--` masks to the end of the text.
pub fn mask_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 4..];
        let (span_len, next) = match after.find("-->") {
            Some(end) => (4 + end + 3, &after[end + 3..]),
            None => (rest.len() - start, ""),
        };
        for c in rest[start..start + span_len].chars() {
            out.push(if c == '\n' { '\n' } else { ' ' });
        }
        rest = next;
    }
    out.push_str(rest);
    out
}

/// An ATX heading: up to three leading spaces, 1-6 `#`, then a space, tab or
/// the end of the line. Returns the level and the trimmed text with any
/// closing `#` run removed.
pub fn atx_heading(line: &str) -> Option<(usize, String)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let t = &line[indent..];
    let level = t.chars().take_while(|&c| c == '#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &t[level..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let mut text = rest.trim_matches([' ', '\t']);
    let stripped = text.trim_end_matches('#');
    if stripped.len() != text.len() && (stripped.is_empty() || stripped.ends_with([' ', '\t'])) {
        text = stripped.trim_end_matches([' ', '\t']);
    }
    Some((level, text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_masked_and_fences_silenced() {
        let lines = md_lines("a <!-- b\nc --> d\n```\n## x\n```\n## y\n");
        assert_eq!(lines[0].masked, "a       ");
        assert_eq!(lines[1].masked, "      d");
        assert!(lines[3].in_fence && lines[3].masked.is_empty());
        assert_eq!(lines[5].masked, "## y");
        assert_eq!(lines.len(), 6);
    }

    #[test]
    fn lines_inside_a_multi_line_comment_are_flagged() {
        let lines = md_lines("a <!-- b\nc\nd --> e\nf\n");
        let flags: Vec<bool> = lines.iter().map(|l| l.starts_in_comment).collect();
        assert_eq!(flags, vec![false, true, true, false]);
    }

    #[test]
    fn headings_are_read() {
        assert_eq!(atx_heading("## Steps ##"), Some((2, "Steps".into())));
        assert_eq!(atx_heading("#"), Some((1, String::new())));
        assert_eq!(atx_heading("#x"), None);
        assert_eq!(atx_heading("    # x"), None);
    }
}

//! Body edits by section: replace a whole body, or replace or append to the
//! section under one heading (the MCP `edit` operations, `mcp-tools.md` §6.4).
//!
//! All three work on the body as it follows the closing frontmatter fence,
//! with newlines normalised to `\n`; the caller writes the result back with
//! the usual edit engine (blob-hash guard, pre-write checks, stamps).

/// Which edit to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionOp {
    /// Replace the whole body.
    SetBody,
    /// Replace the content under a heading, keeping the heading.
    ReplaceSection,
    /// Add content at the end of a section.
    AppendSection,
}

impl SectionOp {
    /// The operation named `name` (`set_body`, `replace_section`,
    /// `append_section`).
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "set_body" => Self::SetBody,
            "replace_section" => Self::ReplaceSection,
            "append_section" => Self::AppendSection,
            _ => return None,
        })
    }

    /// Whether the operation needs a section heading.
    pub fn needs_section(self) -> bool {
        self != Self::SetBody
    }
}

/// The heading line's level (number of leading `#`), if it is an ATX heading.
fn heading_level(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let hashes = trimmed.chars().take_while(|c| *c == '#').count();
    let rest = &trimmed[hashes..];
    ((1..=6).contains(&hashes) && (rest.is_empty() || rest.starts_with([' ', '\t'])))
        .then_some(hashes)
}

fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// The line range `(heading, end)` of the section whose heading line,
/// trimmed, equals `section` trimmed: it ends before the next heading of the
/// same or a higher level outside fenced code, or at the end of the body.
fn find(lines: &[&str], section: &str) -> Option<(usize, usize)> {
    let wanted = section.trim();
    let mut in_fence = false;
    let mut start: Option<(usize, usize)> = None;
    for (i, line) in lines.iter().enumerate() {
        if is_fence(line) {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let Some(level) = heading_level(line) else {
            continue;
        };
        match start {
            None if line.trim() == wanted => start = Some((i, level)),
            Some((heading, start_level)) if level <= start_level => return Some((heading, i)),
            _ => {}
        }
    }
    start.map(|(heading, _)| (heading, lines.len()))
}

/// Apply `op` to `body` (the text after the closing fence). `Err` carries the
/// heading that was not found.
pub fn apply(
    body: &str,
    op: SectionOp,
    section: Option<&str>,
    content: &str,
) -> Result<String, String> {
    let body = body.replace("\r\n", "\n").replace('\r', "\n");
    let content = content.replace("\r\n", "\n").replace('\r', "\n");
    if op == SectionOp::SetBody {
        return Ok(format!("\n{}\n", content.trim_matches('\n')));
    }
    let section = section.unwrap_or_default();
    let lines: Vec<&str> = body.split('\n').collect();
    // A body ending in `\n` splits into a last empty piece; keep it apart so
    // the section end is a real line.
    let (lines, trailing_newline) = match lines.split_last() {
        Some((&"", rest)) => (rest.to_vec(), true),
        _ => (lines, false),
    };
    let (heading, end) = find(&lines, section).ok_or_else(|| section.to_owned())?;
    let content_lines: Vec<&str> = content.trim_matches('\n').split('\n').collect();
    let mut out: Vec<&str> = Vec::with_capacity(lines.len() + content_lines.len() + 2);
    match op {
        SectionOp::AppendSection => {
            let mut kept = end;
            while kept > heading + 1 && lines[kept - 1].trim().is_empty() {
                kept -= 1;
            }
            out.extend(&lines[..kept]);
        }
        _ => out.extend(&lines[..=heading]),
    }
    out.push("");
    out.extend(&content_lines);
    out.push("");
    out.extend(&lines[end..]);
    let mut text = out.join("\n");
    if trailing_newline && !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "\n# Title\n\n## Summary\n\nold summary\n\n### Detail\n\nkept under summary\n\n## Next\n\nnext text\n";

    #[test]
    fn replace_keeps_the_heading_and_everything_outside_the_section() {
        let out = apply(
            BODY,
            SectionOp::ReplaceSection,
            Some("## Summary"),
            "new summary",
        )
        .unwrap();
        assert_eq!(
            out,
            "\n# Title\n\n## Summary\n\nnew summary\n\n## Next\n\nnext text\n"
        );
    }

    #[test]
    fn append_goes_after_the_last_non_blank_line_of_the_section() {
        let out = apply(BODY, SectionOp::AppendSection, Some("## Next"), "more").unwrap();
        assert_eq!(
            out,
            "\n# Title\n\n## Summary\n\nold summary\n\n### Detail\n\nkept under summary\n\n## Next\n\nnext text\n\nmore\n"
        );
    }

    #[test]
    fn headings_inside_fenced_code_do_not_count() {
        let body = "\n## A\n\n```\n## Next\n```\n\n## Next\n\nreal\n";
        let out = apply(body, SectionOp::ReplaceSection, Some("## Next"), "x").unwrap();
        assert_eq!(out, "\n## A\n\n```\n## Next\n```\n\n## Next\n\nx\n");
    }

    #[test]
    fn a_missing_section_names_the_heading_and_set_body_frames_the_content() {
        assert_eq!(
            apply(BODY, SectionOp::ReplaceSection, Some("## Nope"), "x").unwrap_err(),
            "## Nope"
        );
        assert_eq!(
            apply(BODY, SectionOp::SetBody, None, "\n\nhello\n").unwrap(),
            "\nhello\n"
        );
    }
}

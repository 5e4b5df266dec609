//! Ledger sections and the append rules (spec/exec-ledger.md §2, §4):
//! finding `## Changes` / `## Notes`, reading their rows, and appending new
//! rows and notes with the reference's idempotency and blank-line layout.

use super::error::LedgerError;
use super::row::{LedgerRow, parse_note, parse_row};

/// A level-2 section: byte ranges into the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    /// End of the heading line (terminator included).
    pub head_end: usize,
    /// Where the next level-2 heading starts (or the text end).
    pub end: usize,
    /// 1-based line of the heading.
    pub line: usize,
}

fn fence_of(line: &str) -> Option<(char, usize)> {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() > 3 {
        return None;
    }
    let ch = t.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = t.chars().take_while(|&c| c == ch).count();
    (n >= 3).then_some((ch, n))
}

/// Finds the first `## <title>` heading outside fenced code and its extent.
pub fn find_section(text: &str, title: &str) -> Option<Section> {
    let mut pos = 0;
    let mut fence: Option<(char, usize)> = None;
    let mut found: Option<Section> = None;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let content = line.trim_end_matches(['\n', '\r']);
        let start = pos;
        pos += line.len();
        if let Some((ch, n)) = fence {
            if let Some((c, m)) = fence_of(content)
                && c == ch
                && m >= n
                && content.trim_start()[m..].trim().is_empty()
            {
                fence = None;
            }
            continue;
        }
        if let Some(f) = fence_of(content) {
            fence = Some(f);
            continue;
        }
        let is_h2 = content.starts_with("## ") || content == "##";
        if let Some(sec) = &mut found {
            if is_h2 {
                sec.end = start;
                return found;
            }
        } else if is_h2 && content[2..].trim() == title {
            found = Some(Section {
                head_end: pos,
                end: text.len(),
                line: i + 1,
            });
        }
    }
    found
}

/// The 1-based line of a code fence that is never closed: everything after
/// it is code, so a ledger holding one cannot be appended to reliably.
pub fn unclosed_fence(text: &str) -> Option<usize> {
    let mut fence: Option<((char, usize), usize)> = None;
    for (i, line) in text.lines().enumerate() {
        match fence {
            Some(((ch, n), _)) => {
                if let Some((c, m)) = fence_of(line)
                    && c == ch
                    && m >= n
                    && line.trim_start()[m..].trim().is_empty()
                {
                    fence = None;
                }
            }
            None => fence = fence_of(line).map(|f| (f, i + 1)),
        }
    }
    fence.map(|(_, line)| line)
}

/// Removes complete HTML comment spans (`<!--` ... `-->`); an unterminated
/// `<!--` is left as text, like the reference's non-greedy regex.
pub fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("<!--") {
        match rest[i + 4..].find("-->") {
            Some(j) => {
                out.push_str(&rest[..i]);
                rest = &rest[i + 4 + j + 3..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// Every row of the `## Changes` section, comments removed, in order.
pub fn section_rows(text: &str) -> Vec<LedgerRow> {
    match find_section(text, "Changes") {
        Some(s) => strip_comments(&text[s.head_end..s.end])
            .lines()
            .filter_map(parse_row)
            .collect(),
        None => Vec::new(),
    }
}

/// Every note of the `## Notes` section, in order.
pub fn section_notes(text: &str) -> Vec<(String, String)> {
    match find_section(text, "Notes") {
        Some(s) => strip_comments(&text[s.head_end..s.end])
            .lines()
            .filter_map(parse_note)
            .collect(),
        None => Vec::new(),
    }
}

/// The 1-based line and text of every list item in `## Changes` that is not
/// a row with a Step cell (comments and fenced code ignored).
pub fn malformed_rows(text: &str) -> Vec<(usize, String)> {
    let Some(sec) = find_section(text, "Changes") else {
        return Vec::new();
    };
    let masked = mask_comments(&text[sec.head_end..sec.end]);
    let raw: Vec<&str> = text[sec.head_end..sec.end].lines().collect();
    let mut fence = false;
    let mut out = Vec::new();
    for (i, line) in masked.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence || !is_list_row(line) {
            continue;
        }
        if parse_row(line).is_none_or(|r| r.step.is_none()) {
            out.push((
                sec.line + 1 + i,
                raw.get(i).copied().unwrap_or_default().trim().to_string(),
            ));
        }
    }
    out
}

/// Blanks HTML comment spans, keeping newlines (so line numbers hold).
fn mask_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("<!--") {
        let Some(j) = rest[i + 4..].find("-->") else {
            break;
        };
        out.push_str(&rest[..i]);
        let end = i + 4 + j + 3;
        out.extend(
            rest[i..end]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' }),
        );
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn is_list_row(line: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t']);
    (t.starts_with("- ") || t.starts_with("* ") || t.starts_with("-\t") || t.starts_with("*\t"))
        && t.len() > 2
}

/// Rebuilds a section with `lines` appended after its content.
fn rebuild(text: &str, sec: Section, lines: &[String]) -> String {
    let mut head = text[..sec.head_end].to_string();
    if !head.ends_with('\n') {
        head.push('\n');
    }
    let content = text[sec.head_end..sec.end].trim_matches('\n');
    let rest = &text[sec.end..];
    let mut out = head;
    out.push('\n');
    if !content.is_empty() {
        out.push_str(content);
        let last = content.lines().last().unwrap_or("");
        out.push_str(if is_list_row(last) { "\n" } else { "\n\n" });
    }
    out.push_str(&lines.join("\n"));
    out.push_str(if rest.is_empty() { "\n" } else { "\n\n" });
    out.push_str(rest);
    out
}

/// Appends `rows` to `## Changes` with the idempotency rules: a row whose
/// text is already a line of the section is dropped; evidence rows
/// (`verify:`, `by:`) are grouped per (Step, label) and a group is dropped
/// only when the section's history for that key already ends with exactly
/// the same rows. Returns the new text and the rows actually appended.
pub fn append_rows(
    text: &str,
    rows: &[LedgerRow],
) -> Result<(String, Vec<LedgerRow>), LedgerError> {
    let sec = find_section(text, "Changes").ok_or(LedgerError::NoChangesSection)?;
    let section = &text[sec.head_end..sec.end];
    let existing_lines: Vec<&str> = section.lines().map(str::trim).collect();
    let history: Vec<LedgerRow> = strip_comments(section)
        .lines()
        .filter_map(parse_row)
        .collect();
    let mut keep = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut groups: Vec<(Option<String>, String)> = Vec::new();
    for row in rows {
        if let Some(label) = row.label() {
            let key = (row.step.clone(), label.to_string());
            if !groups.contains(&key) {
                groups.push(key);
            }
            continue;
        }
        let line = row.render();
        if existing_lines.contains(&line.trim()) || seen.contains(&line) {
            continue;
        }
        seen.push(line);
        keep.push(row.clone());
    }
    for (step, label) in groups {
        let batch: Vec<&LedgerRow> = rows
            .iter()
            .filter(|r| r.step == step && r.label() == Some(label.as_str()))
            .collect();
        let past: Vec<&LedgerRow> = history
            .iter()
            .filter(|r| r.step == step && r.label() == Some(label.as_str()))
            .collect();
        if past.len() >= batch.len() && past[past.len() - batch.len()..] == batch[..] {
            continue;
        }
        keep.extend(batch.into_iter().cloned());
    }
    // Keep the requested order: change rows, then verify, then by.
    let order = |r: &LedgerRow| rows.iter().position(|x| x == r).unwrap_or(usize::MAX);
    keep.sort_by_key(order);
    if keep.is_empty() {
        return Ok((text.to_string(), keep));
    }
    let lines: Vec<String> = keep.iter().map(LedgerRow::render).collect();
    Ok((rebuild(text, sec, &lines), keep))
}

/// Appends note lines to `## Notes` (created at the end when missing), each
/// unless the same line is already there. Returns the new text and the
/// number of lines appended.
pub fn append_notes(text: &str, notes: &[String]) -> (String, usize) {
    let mut fresh: Vec<String> = Vec::new();
    match find_section(text, "Notes") {
        None => {
            for n in notes {
                if !fresh.contains(n) {
                    fresh.push(n.clone());
                }
            }
            if fresh.is_empty() {
                return (text.to_string(), 0);
            }
            let n = fresh.len();
            (
                format!("{}\n\n## Notes\n\n{}\n", text.trim_end(), fresh.join("\n")),
                n,
            )
        }
        Some(sec) => {
            let existing: Vec<&str> = text[sec.head_end..sec.end].lines().map(str::trim).collect();
            for n in notes {
                if !existing.contains(&n.trim()) && !fresh.contains(n) {
                    fresh.push(n.clone());
                }
            }
            if fresh.is_empty() {
                return (text.to_string(), 0);
            }
            let n = fresh.len();
            (rebuild(text, sec, &fresh), n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::row::Op;

    const DOC: &str =
        "# x\n\n## Changes\n\n<!-- guide -->\n\n- `S01` `A` `a`\n\n## Notes\n\n- `S01` n\n";

    #[test]
    fn rows_land_before_notes_and_repeat_rows_are_dropped() {
        let rows = vec![
            LedgerRow::change("S01", Op::A, vec!["a".into()]),
            LedgerRow::change("S02", Op::M, vec!["b".into()]),
        ];
        let (out, kept) = append_rows(DOC, &rows).unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!(
            out,
            "# x\n\n## Changes\n\n<!-- guide -->\n\n- `S01` `A` `a`\n- `S02` `M` `b`\n\n## Notes\n\n- `S01` n\n"
        );
    }

    #[test]
    fn evidence_is_dropped_only_when_history_ends_with_it() {
        let doc =
            "## Changes\n\n- `S01` `verify:` `t` -> `pass`\n- `S01` `verify:` `t` -> `fail`\n";
        let pass = vec![LedgerRow::verify("S01", "t", "pass")];
        let fail = vec![LedgerRow::verify("S01", "t", "fail")];
        assert_eq!(append_rows(doc, &pass).unwrap().1.len(), 1);
        assert_eq!(append_rows(doc, &fail).unwrap().1.len(), 0);
    }

    #[test]
    fn rows_without_a_step_cell_are_reported_with_their_line() {
        let doc = "# l\n\n## Changes\n\n<!--\n- example -->\n- `S01` `A` `a`\n- stray note\n";
        assert_eq!(malformed_rows(doc), vec![(8, "- stray note".to_string())]);
    }

    #[test]
    fn a_comment_only_section_gets_a_blank_line_before_rows() {
        let doc = "## Changes\n\n<!-- guide -->\n";
        let (out, _) =
            append_rows(doc, &[LedgerRow::change("S01", Op::A, vec!["a".into()])]).unwrap();
        assert_eq!(out, "## Changes\n\n<!-- guide -->\n\n- `S01` `A` `a`\n");
        let (out, n) = append_notes(&out, &["- `S01` x".into()]);
        assert_eq!(n, 1);
        assert_eq!(
            out,
            "## Changes\n\n<!-- guide -->\n\n- `S01` `A` `a`\n\n## Notes\n\n- `S01` x\n"
        );
    }
}

//! The local ADR ranking of crossref (spec/graph-and-search.md §9): for one
//! source ADR, every other ADR ranked by shared artifacts (inline code spans)
//! and by how well its header matches the source's decision text, fused by
//! reciprocal rank. No network; hosted judging may follow with a credential.

use std::collections::HashMap;

use crate::graph::GraphDoc;
use crate::graph::markdown::{FenceTracker, atx_heading, first_h1};

/// Most ADRs the ranking reads; more is refused.
pub const MAX_CORPUS: usize = 5000;
const TITLE_CHARS: usize = 160;
const LEAD_CHARS: usize = 200;
const DECISION_CHARS: usize = 6000;
const ARTIFACT_CHARS: usize = 80;
const DECISION_SECTIONS: [&str; 8] = [
    "decision",
    "decision outcome",
    "constraints",
    "implementation",
    "problem statement",
    "context",
    "rationale",
    "consequences",
];
const WORD_STOPWORDS: [&str; 27] = [
    "the", "and", "for", "with", "that", "this", "are", "not", "from", "into", "its", "when",
    "only", "one", "each", "any", "but", "was", "has", "have", "which", "their", "than", "then",
    "all", "can", "will",
];
const NOT_ARTIFACT: [&str; 18] = [
    "true",
    "false",
    "none",
    "null",
    "yes",
    "no",
    "proposed",
    "accepted",
    "rejected",
    "superseded",
    "deprecated",
    "adr",
    "plan",
    "research",
    "audit",
    "reference",
    "exec",
    "index",
];

/// Why a ranking could not be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CrossrefError {
    /// The vault has more ADRs than the ranking reads.
    #[error("the ADR corpus holds {count} records, more than the {MAX_CORPUS} crossref reads")]
    TooManyAdrs {
        /// How many ADRs there are.
        count: usize,
    },
}

/// One ADR as the ranking reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct AdrRecord {
    /// File stem (the link target).
    pub stem: String,
    /// Workspace-relative path.
    pub path: String,
    /// Graph feature, empty when none.
    pub feature: String,
    /// Title without feature prefix and status marker.
    pub title: String,
    /// Status from the title's marker, lowercased.
    pub status: Option<String>,
    /// First line of the Problem Statement.
    pub lead: String,
    /// Decision-first sections, bounded to 6000 characters.
    pub decision: String,
    /// Stems of other ADRs this one's `related:` names.
    pub declared: Vec<String>,
    /// Normalised artifacts with their counts, sorted by name.
    pub artifacts: Vec<(String, u32)>,
}

impl AdrRecord {
    /// `[feature] title. lead`, parts omitted when empty.
    pub fn header(&self) -> String {
        let head = if self.feature.is_empty() {
            self.title.clone()
        } else {
            format!("[{}] {}", self.feature, self.title)
        };
        if self.lead.is_empty() {
            head
        } else {
            format!("{head}. {}", self.lead)
        }
    }

    /// Read an ADR document.
    pub fn from_doc(doc: &GraphDoc) -> AdrRecord {
        let body = strip_comments(doc.body());
        let (decision, lead) = decision(&body);
        let title_line = first_h1(&body);
        AdrRecord {
            stem: doc.stem().to_owned(),
            path: doc.path.clone(),
            feature: doc.graph_feature().unwrap_or_default().to_owned(),
            title: title(title_line, doc.stem()),
            status: title_line.and_then(status),
            lead,
            decision,
            declared: Vec::new(),
            artifacts: fingerprint(&body),
        }
    }
}

pub(crate) fn clip(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(limit.saturating_sub(1)).collect();
    if let Some(space) = cut.rfind(' ')
        && cut[..space].chars().count() > limit / 2
    {
        cut.truncate(space);
    }
    format!("{}…", cut.trim_end())
}

fn plain(text: &str) -> String {
    text.replace('`', "")
        .replace("**", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

pub(crate) fn strip_comments(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        rest = rest[start + 4..]
            .find("-->")
            .map_or("", |end| &rest[start + 4 + end + 3..]);
    }
    out.push_str(rest);
    out
}

fn status(title: &str) -> Option<String> {
    let marker = title.find("(**status:**")?;
    let token = title[marker + "(**status:**".len()..]
        .trim()
        .trim_end_matches(')');
    Some(token.trim().trim_matches('`').trim().to_lowercase()).filter(|s| !s.is_empty())
}

fn title(heading: Option<&str>, stem: &str) -> String {
    let mut h = heading.unwrap_or(stem).to_owned();
    let marker = h
        .match_indices('|')
        .map(|(i, _)| i)
        .find(|&i| h[i + 1..].trim_start().starts_with("(**status:**"));
    if let Some(i) = marker {
        h.truncate(i);
    }
    let p = plain(&h);
    // `^`?[a-z0-9-]+`?\s+adr:\s*`, on text whose backticks are already gone.
    let rest = p
        .split_once(' ')
        .filter(|(word, _)| {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
        .and_then(|(_, rest)| rest.trim_start().strip_prefix("adr:"))
        .map_or(p.as_str(), str::trim_start);
    let t = rest.trim_matches(|c| c == '`' || c == ' ');
    clip(if t.is_empty() { stem } else { t }, TITLE_CHARS)
}

/// Level-2 sections `(heading, body)` outside fenced code, and the line
/// index of the first one.
fn sections(body: &str) -> (Vec<(String, String)>, Option<usize>) {
    let lines: Vec<&str> = body.lines().collect();
    let mut fences = FenceTracker::default();
    let mut heads = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !fences.code_line(line)
            && let Some((level, text)) = atx_heading(line)
        {
            heads.push((i, level, text.to_owned()));
        }
    }
    let first = heads.iter().find(|h| h.1 == 2).map(|h| h.0);
    let mut out = Vec::new();
    for (k, (i, level, text)) in heads.iter().enumerate() {
        if *level != 2 {
            continue;
        }
        let end = heads[k + 1..]
            .iter()
            .find(|h| h.1 <= 2)
            .map_or(lines.len(), |h| h.0);
        out.push((text.clone(), lines[i + 1..end].join("\n")));
    }
    (out, first)
}

fn decision(body: &str) -> (String, String) {
    let (sections, first) = sections(body);
    let problem = sections
        .iter()
        .find(|s| s.0.eq_ignore_ascii_case("problem statement"))
        .map_or("", |s| s.1.as_str());
    let lead = clip(
        &plain(problem.lines().find(|l| !l.trim().is_empty()).unwrap_or("")),
        LEAD_CHARS,
    );
    let Some(first) = first else {
        return (clip(body, DECISION_CHARS), lead);
    };
    let rank = |h: &str| {
        DECISION_SECTIONS
            .iter()
            .position(|d| h.eq_ignore_ascii_case(d))
            .unwrap_or(DECISION_SECTIONS.len())
    };
    let mut ordered: Vec<&(String, String)> = sections.iter().collect();
    ordered.sort_by_key(|s| rank(&s.0));
    let mut parts: Vec<String> = ordered
        .iter()
        .map(|(h, b)| format!("## {h}\n{}", b.trim()))
        .collect();
    let preamble: Vec<&str> = body
        .lines()
        .take(first)
        .filter(|l| !matches!(atx_heading(l), Some((1, _))))
        .collect();
    let preamble = preamble.join("\n").trim().to_owned();
    if !preamble.is_empty() {
        parts.push(preamble);
    }
    let text = parts.join("\n\n");
    if text.chars().count() <= DECISION_CHARS {
        return (text, lead);
    }
    let mut remaining = DECISION_CHARS.saturating_sub(2 * (parts.len() - 1));
    if remaining < parts.len() {
        return (clip(&text, DECISION_CHARS), lead);
    }
    let lens: Vec<usize> = parts.iter().map(|p| p.chars().count()).collect();
    let mut by_len: Vec<usize> = (0..parts.len()).collect();
    by_len.sort_by_key(|&i| lens[i]);
    let mut allow = vec![0; parts.len()];
    for (offset, &i) in by_len.iter().enumerate() {
        allow[i] = lens[i].min(remaining / (parts.len() - offset));
        remaining -= allow[i];
    }
    let bounded: Vec<String> = parts.iter().zip(&allow).map(|(p, &a)| clip(p, a)).collect();
    (bounded.join("\n\n"), lead)
}

fn artifact(span: &str) -> Option<String> {
    let original = span.trim();
    let mut text = original;
    if text.ends_with(')')
        && let Some(open) = text.find('(')
    {
        text = &text[..open];
    }
    if let Some((head, loc)) = text.rsplit_once(':') {
        let (a, b) = loc.split_once('-').unwrap_or((loc, "0"));
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        if digits(a) && digits(b) {
            text = head;
        }
    }
    let text = text
        .trim()
        .trim_matches(|c| c == '.' || c == '/')
        .to_lowercase();
    if text.chars().count() < 3 || text.contains('\n') {
        return None;
    }
    let stem_like = crate::date::after_date_prefix(&text).is_some();
    let numeric = original
        .bytes()
        .all(|c| c.is_ascii_digit() || b".,%x".contains(&c));
    let caps = original
        .bytes()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    if stem_like || NOT_ARTIFACT.contains(&original) || (!original.is_empty() && (numeric || caps))
    {
        return None;
    }
    let text = if text.starts_with("vaultspec-core ") {
        text.split_whitespace()
            .filter(|w| !w.starts_with('-'))
            .take(4)
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        text
    };
    Some(clip(&text, ARTIFACT_CHARS))
}

/// Normalised artifacts of every inline code span of `body`, counted.
fn fingerprint(body: &str) -> Vec<(String, u32)> {
    let mut counts: HashMap<String, u32> = HashMap::new();
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'`' {
            i += 1;
            continue;
        }
        let run = b[i..].iter().take_while(|&&c| c == b'`').count();
        let open_end = i + run;
        let mut j = open_end;
        let mut close = None;
        while j < b.len() {
            if b[j] == b'`' {
                let len = b[j..].iter().take_while(|&&c| c == b'`').count();
                if len == run {
                    close = Some(j);
                    break;
                }
                j += len;
            } else {
                j += 1;
            }
        }
        match close {
            Some(c) => {
                if let Some(a) = artifact(&body[open_end..c]) {
                    *counts.entry(a).or_default() += 1;
                }
                i = c + run;
            }
            None => i = open_end,
        }
    }
    let mut out: Vec<(String, u32)> = counts.into_iter().collect();
    out.sort();
    out
}

/// Crossref word tokens: lowercase `[a-z][a-z0-9_-]{2,}`, minus stopwords.
pub(crate) fn words(text: &str) -> HashMap<String, u32> {
    let lower = text.to_lowercase();
    let mut counts = HashMap::new();
    let b = lower.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_lowercase() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len()
            && (b[i].is_ascii_lowercase() || b[i].is_ascii_digit() || b[i] == b'_' || b[i] == b'-')
        {
            i += 1;
        }
        let w = &lower[start..i];
        if w.len() >= 3 && !WORD_STOPWORDS.contains(&w) {
            *counts.entry(w.to_owned()).or_default() += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_cuts_at_a_word_boundary_past_half_and_marks_the_cut() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("alpha beta gamma delta", 12), "alpha beta…");
        assert_eq!(clip("abcdefghijklmnop", 6), "abcde…");
    }

    #[test]
    fn titles_lose_the_feature_prefix_the_status_marker_and_markup() {
        assert_eq!(
            title(
                Some("`cache` adr: `use **LRU**` | (**status:** `accepted`)"),
                "s"
            ),
            "use LRU"
        );
        assert_eq!(title(Some("Plain title"), "s"), "Plain title");
        assert_eq!(title(None, "2026-01-01-x-adr"), "2026-01-01-x-adr");
        assert_eq!(
            status("# x | (**status:** `Superseded`)").as_deref(),
            Some("superseded")
        );
    }

    #[test]
    fn decision_text_puts_decision_sections_first_and_keeps_the_preamble_last() {
        let body = "# T\nIntro words.\n\n## Context\n\nctx\n\n## Problem Statement\n\nFirst line.\nSecond.\n\n## Decision\n\nDo it.\n\n### Detail\n\nsub\n";
        let (text, lead) = decision(body);
        assert_eq!(lead, "First line.");
        assert_eq!(
            text,
            "## Decision\nDo it.\n\n### Detail\n\nsub\n\n## Problem Statement\nFirst line.\nSecond.\n\n## Context\nctx\n\nIntro words."
        );
    }

    #[test]
    fn long_decision_text_shares_the_budget_between_sections() {
        let long = "word ".repeat(2000);
        let body =
            format!("## Decision\n\n{long}\n\n## Context\n\n{long}\n\n## Rationale\n\nshort\n");
        let (text, _) = decision(&body);
        assert!(text.chars().count() <= DECISION_CHARS);
        assert!(
            text.contains("## Rationale\nshort"),
            "a short section keeps all its text"
        );
        assert_eq!(text.matches('…').count(), 2);
    }
}

//! The ledger row grammar (spec/exec-ledger.md §3): parsing `## Changes` rows
//! into [`LedgerRow`]s and rendering rows and notes exactly as the reference
//! writes them.

use serde::Serialize;

use crate::pattern::Pattern;

static STEP_CELL: Pattern = Pattern::new(r"^S\d{1,4}$");
static NOTE: Pattern = Pattern::new(r"^[ \t]*[-*][ \t]+`(S\d{1,4})`[ \t]*(.*?)[ \t]*$");

/// The operation of a change row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Op {
    /// Added.
    A,
    /// Modified.
    M,
    /// Deleted.
    D,
    /// Renamed (two path cells).
    R,
    /// Touched: recovered by the fold from a legacy record; never logged.
    T,
}

impl Op {
    /// Parses `A M D R T` (exact case).
    pub fn parse(s: &str) -> Option<Op> {
        match s {
            "A" => Some(Op::A),
            "M" => Some(Op::M),
            "D" => Some(Op::D),
            "R" => Some(Op::R),
            "T" => Some(Op::T),
            _ => None,
        }
    }

    /// The letter.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::A => "A",
            Op::M => "M",
            Op::D => "D",
            Op::R => "R",
            Op::T => "T",
        }
    }
}

/// What the second cell of a row says.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowKind {
    /// A change row (`A`, `M`, `D`, `R`, `T`).
    Op(Op),
    /// A label row (`verify:`, `by:`), label without the colon.
    Label(String),
    /// Neither: the cells are all paths.
    Bare,
}

/// One parsed `## Changes` row.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct LedgerRow {
    /// The Step cell (`S01`), absent in legacy per-Step records.
    pub step: Option<String>,
    /// Operation or label.
    pub kind: RowKind,
    /// The remaining cells in order.
    pub cells: Vec<String>,
}

impl LedgerRow {
    /// A change row.
    pub fn change(step: &str, op: Op, paths: Vec<String>) -> Self {
        LedgerRow {
            step: Some(step.to_string()),
            kind: RowKind::Op(op),
            cells: paths,
        }
    }

    /// A `verify:` row.
    pub fn verify(step: &str, command: &str, result: &str) -> Self {
        LedgerRow {
            step: Some(step.to_string()),
            kind: RowKind::Label("verify".into()),
            cells: vec![command.into(), result.into()],
        }
    }

    /// A `by:` row.
    pub fn by(step: &str, persona: &str) -> Self {
        LedgerRow {
            step: Some(step.to_string()),
            kind: RowKind::Label("by".into()),
            cells: vec![persona.into()],
        }
    }

    /// The label, for label rows.
    pub fn label(&self) -> Option<&str> {
        match &self.kind {
            RowKind::Label(l) => Some(l),
            _ => None,
        }
    }

    /// Whether this is an evidence (label) row.
    pub fn is_evidence(&self) -> bool {
        matches!(self.kind, RowKind::Label(_))
    }

    /// Renders the row: `` - `S01` `A` `path` ``, cells joined by ` -> `.
    pub fn render(&self) -> String {
        let mut s = String::from("-");
        if let Some(step) = &self.step {
            s.push_str(&format!(" `{step}`"));
        }
        match &self.kind {
            RowKind::Op(op) => s.push_str(&format!(" `{}`", op.as_str())),
            RowKind::Label(l) => s.push_str(&format!(" `{l}:`")),
            RowKind::Bare => {}
        }
        if !self.cells.is_empty() {
            let cells: Vec<String> = self.cells.iter().map(|c| format!("`{c}`")).collect();
            s.push(' ');
            s.push_str(&cells.join(" -> "));
        }
        s
    }
}

/// Parses one line as a row; `None` when it is not a list item or has no
/// backticked cell.
pub fn parse_row(line: &str) -> Option<LedgerRow> {
    let mut cells: Vec<String> = cells(item_text(line)?).map(str::to_owned).collect();
    if cells.is_empty() {
        return None;
    }
    let step = if STEP_CELL.is_match(&cells[0]) {
        Some(cells.remove(0))
    } else {
        None
    };
    let kind = match cells.first() {
        Some(c) if Op::parse(c).is_some() => {
            RowKind::Op(Op::parse(&cells.remove(0)).unwrap_or(Op::T))
        }
        Some(c) if c.ends_with(':') => {
            let label = cells.remove(0);
            RowKind::Label(label.trim_end_matches(':').to_string())
        }
        _ => RowKind::Bare,
    };
    Some(LedgerRow { step, kind, cells })
}

/// The text of a list item, `` ^[ \t]*[-*][ \t]+(.+?)[ \t]*$ `` matched by
/// hand: ledger rows are read by the thousand, and a regex with captures
/// costs several times this. An item whose text is only blanks gives `None`
/// (the regex would capture one blank, which holds no cell either).
fn item_text(line: &str) -> Option<&str> {
    let blank = [' ', '\t'];
    let marked = line.trim_start_matches(blank).strip_prefix(['-', '*'])?;
    let text = marked.trim_start_matches(blank);
    if text.len() == marked.len() || text.contains('\n') {
        return None;
    }
    Some(text.trim_end_matches(blank)).filter(|t| !t.is_empty())
}

/// The backticked cells of a row's text, in order (`` `([^`]*)` ``).
fn cells(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let open = rest.find('`')?;
        let after = &rest[open + 1..];
        let close = after.find('`')?;
        rest = &after[close + 1..];
        Some(&after[..close])
    })
}

/// Parses a `## Notes` line into (Step, text).
pub fn parse_note(line: &str) -> Option<(String, String)> {
    let c = NOTE.captures(line)?;
    Some((c[1].to_string(), c[2].to_string()))
}

/// Renders a note line `` - `S02` text `` with the reference's escaping.
pub fn render_note(step: &str, text: &str) -> String {
    let body = format_note_text(text);
    if body.is_empty() {
        format!("- `{step}`")
    } else {
        format!("- `{step}` {body}")
    }
}

const SPECIAL: &[char] = &['\\', '*', '_', '[', ']', '<', '&', '~', '`'];

/// Collapses whitespace and wraps every word holding a markdown special
/// character (outside code spans) as a code span; code spans are normalised.
pub fn format_note_text(text: &str) -> String {
    let words = split_words(text);
    words
        .iter()
        .map(|w| {
            let mut plain_special = false;
            let mut normalised = String::new();
            for part in w {
                match part {
                    Part::Text(t) => {
                        plain_special |= t.contains(SPECIAL);
                        normalised.push_str(t);
                    }
                    Part::Code(c) => normalised.push_str(&code_span(c)),
                }
            }
            if plain_special {
                let raw: String = w.iter().map(|p| p.raw()).collect();
                code_span(&raw)
            } else {
                normalised
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

enum Part {
    Text(String),
    Code(String),
}

impl Part {
    fn raw(&self) -> String {
        match self {
            Part::Text(t) => t.clone(),
            Part::Code(c) => code_span(c),
        }
    }
}

/// Splits text into words; a code span (with its spaces) stays in one word.
fn split_words(text: &str) -> Vec<Vec<Part>> {
    let chars: Vec<char> = text.chars().collect();
    let mut words: Vec<Vec<Part>> = Vec::new();
    let mut cur: Vec<Part> = Vec::new();
    let mut buf = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            if !buf.is_empty() {
                cur.push(Part::Text(std::mem::take(&mut buf)));
            }
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            i += 1;
            continue;
        }
        if c == '`' {
            let n = chars[i..].iter().take_while(|&&x| x == '`').count();
            let mut j = i + n;
            let mut close = None;
            while j < chars.len() {
                if chars[j] == '`' {
                    let m = chars[j..].iter().take_while(|&&x| x == '`').count();
                    if m == n {
                        close = Some(j);
                        break;
                    }
                    j += m;
                } else {
                    j += 1;
                }
            }
            if let Some(end) = close {
                if !buf.is_empty() {
                    cur.push(Part::Text(std::mem::take(&mut buf)));
                }
                let inner: String = chars[i + n..end].iter().collect();
                let inner = inner.split_whitespace().collect::<Vec<_>>().join(" ");
                cur.push(Part::Code(inner));
                i = end + n;
                continue;
            }
            buf.extend(&chars[i..i + n]);
            i += n;
            continue;
        }
        buf.push(c);
        i += 1;
    }
    if !buf.is_empty() {
        cur.push(Part::Text(buf));
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// A code span in mdformat form: the fence is one backtick longer than the
/// longest run inside, padded with spaces when the content has backticks.
pub fn code_span(content: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in content.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    if longest > 0 {
        format!("{fence} {content} {fence}")
    } else {
        format!("{fence}{content}{fence}")
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The regexes the hand matchers replace.
    static ROW: Pattern = Pattern::new(r"^[ \t]*[-*][ \t]+(.+?)[ \t]*$");
    static CELL: Pattern = Pattern::new(r"`([^`]*)`");

    fn cells_by_regex(line: &str) -> Option<Vec<String>> {
        let caps = ROW.captures(line)?;
        Some(
            CELL.captures_iter(&caps[1])
                .map(|c| c[1].to_string())
                .collect(),
        )
    }

    proptest! {
        #[test]
        fn item_cells_match_the_regexes(line in r"[ \t]{0,2}[-*+x]?[ \t]{0,2}(`?[ \tSAa0-9:\->\u{e9}]{0,5}`?){0,4}[ \t\r\n]{0,2}") {
            let by_hand = item_text(&line).map(|t| cells(t).map(str::to_owned).collect::<Vec<_>>());
            let by_regex = cells_by_regex(&line);
            // An all-blank item is `None` by hand and no cells by regex.
            prop_assert_eq!(by_hand.unwrap_or_default(), by_regex.unwrap_or_default());
        }
    }

    #[test]
    fn rows_round_trip() {
        for line in [
            "- `S01` `A` `src/cache.rs`",
            "- `S02` `R` `src/old.rs` -> `src/new.rs`",
            "- `S01` `verify:` `cargo test` -> `pass`",
            "- `S01` `by:` `vaultspec-standard-executor`",
            "- `S03` `T`",
        ] {
            assert_eq!(parse_row(line).unwrap().render(), line);
        }
        let r = parse_row("* `A` `x`").unwrap();
        assert_eq!(r.step, None);
        assert_eq!(r.kind, RowKind::Op(Op::A));
        assert!(parse_row("- plain text").is_none());
    }

    #[test]
    fn notes_wrap_special_words() {
        assert_eq!(
            render_note("S02", "left  one stub in src/config.rs"),
            "- `S02` left one stub in src/config.rs"
        );
        assert_eq!(
            format_note_text("fix * and a_b <x> `c d` ok"),
            "fix `*` and `a_b` `<x>` `c d` ok"
        );
        assert_eq!(code_span("a`b"), "`` a`b ``");
        assert_eq!(
            parse_note("- `S02` hello there "),
            Some(("S02".into(), "hello there".into()))
        );
    }
}

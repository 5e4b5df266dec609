//! The Step row grammar of spec/plan-format.md §3, matched by hand.
//!
//! A row is ``- [ ] `P01.S02` - action; `scope`.``. The reference reads it
//! with one regular expression,
//! ``^- +\[([ x])\] +`(PATH)` *- *(.+?)\s*$``, splits the tail with
//! ``(?s)^(.*);\s*`([^`]*)`\s*$`` and has `plan check` test rows with
//! ``;\s*`[^`]+`\s*\.?\s*$``. Every plan line goes through the first and
//! every row through the others, and their regex engines dominated the parse
//! and check of a large plan, so all three are walked here by hand. The tests
//! check the walk against the reference expressions.

use crate::pattern::Pattern;

/// `\d` of the reference expressions: any Unicode decimal digit.
static DIGIT: Pattern = Pattern::new(r"^\d$");

/// The parts of a Step row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StepRow<'t> {
    /// Whether the box is `[x]`.
    pub checked: bool,
    /// The id path as written (`P01.S02`).
    pub path: &'t str,
    /// The action and scope, trailing whitespace dropped.
    pub rest: &'t str,
}

/// Reads one line (no `\n`) as a Step row.
pub(crate) fn step_row(line: &str) -> Option<StepRow<'_>> {
    let s = skip_spaces(line.strip_prefix('-')?)?;
    let s = s.strip_prefix('[')?;
    let (checked, s) = match s.as_bytes() {
        [b' ', b']', ..] => (false, &s[2..]),
        [b'x', b']', ..] => (true, &s[2..]),
        _ => return None,
    };
    let s = skip_spaces(s)?.strip_prefix('`')?;
    // No character of a path is a backtick, so the path ends at the next one.
    let (path, s) = s.split_once('`')?;
    if !is_step_path(path) {
        return None;
    }
    let s = s.trim_start_matches(' ').strip_prefix('-')?;
    Some(StepRow {
        checked,
        path,
        rest: row_tail(s)?,
    })
}

/// ``(?:W\d{2,}[a-z]?\.)?(?:P\d{2,}[a-z]?\.)?S\d{2,}``, the whole of `path`.
/// Each part starts with its own letter, so an optional part that is not
/// there is simply skipped.
fn is_step_path(path: &str) -> bool {
    let rest = container_part(path, 'W').unwrap_or(path);
    let rest = container_part(rest, 'P').unwrap_or(rest);
    rest.strip_prefix('S')
        .is_some_and(|d| matches!(digits(d), (n, "") if n >= 2))
}

/// ``L\d{2,}[a-z]?\.`` for the letter `L`: what follows it, if it matches.
fn container_part(s: &str, letter: char) -> Option<&str> {
    let (n, rest) = digits(s.strip_prefix(letter)?);
    if n < 2 {
        return None;
    }
    let rest = rest
        .strip_prefix(|c: char| c.is_ascii_lowercase())
        .unwrap_or(rest);
    rest.strip_prefix('.')
}

/// The number of leading digits of `s` and the text after them.
fn digits(s: &str) -> (usize, &str) {
    let rest = s.trim_start_matches(is_digit);
    (s[..s.len() - rest.len()].chars().count(), rest)
}

/// `\d`: an ASCII digit or any other Unicode decimal digit.
fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || (!c.is_ascii() && DIGIT.is_match(c.encode_utf8(&mut [0; 4])))
}

/// ` +`: at least one space, all of them skipped.
fn skip_spaces(s: &str) -> Option<&str> {
    let t = s.trim_start_matches(' ');
    (t.len() < s.len()).then_some(t)
}

/// What `` *(.+?)\s*$`` captures of the text after the dash: the text
/// without leading spaces or trailing whitespace. The lazy group takes at
/// least one character, so a tail of whitespace alone yields its first
/// character and a tail of spaces alone gives one space back.
fn row_tail(s: &str) -> Option<&str> {
    let t = s.trim_start_matches(' ');
    let Some(first) = t.chars().next() else {
        return (!s.is_empty()).then_some(" ");
    };
    let kept = t.trim_end();
    Some(if kept.is_empty() {
        &t[..first.len_utf8()]
    } else {
        kept
    })
}

/// Splits a row tail into action and scope (§3): trailing dots dropped, the
/// last `; `scope`` clause wins, else the last `;`.
pub(crate) fn split_action_scope(rest: &str) -> Option<(String, String)> {
    let rest = rest.trim_end_matches('.').trim_end();
    if let Some((action, scope)) = scope_clause(rest) {
        return Some((action.trim().to_string(), scope.trim().to_string()));
    }
    let (a, s) = rest.rsplit_once(';')?;
    Some((a.trim().to_string(), s.trim().trim_matches('`').to_string()))
}

/// Whether a line ends with a non-empty scope clause, as `plan check` wants
/// it: ``;\s*`[^`]+`\s*\.?\s*$``.
pub(crate) fn ends_with_scope(line: &str) -> bool {
    let line = line.trim_end();
    let line = line.strip_suffix('.').unwrap_or(line);
    scope_clause(line).is_some_and(|(_, scope)| !scope.is_empty())
}

/// ``^(.*);\s*`([^`]*)`\s*$``: the closing backtick is the last
/// non-whitespace character, the opening one the backtick before it, and
/// only whitespace may sit between the `;` and the opening backtick, so the
/// split point is unique.
fn scope_clause(s: &str) -> Option<(&str, &str)> {
    let quoted = s.trim_end().strip_suffix('`')?;
    let open = quoted.rfind('`')?;
    let action = quoted[..open].trim_end().strip_suffix(';')?;
    Some((action, &quoted[open + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use regex::Regex;
    use std::sync::LazyLock;

    /// The reference expressions the walk replaces.
    static REF_ROW: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^- +\[([ x])\] +`((?:W\d{2,}[a-z]?\.)?(?:P\d{2,}[a-z]?\.)?S\d{2,})` *- *(.+?)\s*$",
        )
        .expect("valid regex")
    });
    static REF_SCOPE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?s)^(.*);\s*`([^`]*)`\s*$").expect("valid regex"));
    static REF_CHECK_SCOPE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r";\s*`[^`]+`\s*\.?\s*$").expect("valid regex"));

    fn reference_row(line: &str) -> Option<StepRow<'_>> {
        REF_ROW.captures(line).map(|c| StepRow {
            checked: &c[1] == "x",
            path: c.get(2).map_or("", |m| m.as_str()),
            rest: c.get(3).map_or("", |m| m.as_str()),
        })
    }

    fn reference_scope(s: &str) -> Option<(&str, &str)> {
        REF_SCOPE.captures(s).map(|c| {
            (
                c.get(1).map_or("", |m| m.as_str()),
                c.get(2).map_or("", |m| m.as_str()),
            )
        })
    }

    #[test]
    fn rows_are_read() {
        let row = step_row("- [x]  `W01.P02a.S03` -  do it; `a.rs`.  ").unwrap();
        assert_eq!(
            row,
            StepRow {
                checked: true,
                path: "W01.P02a.S03",
                rest: "do it; `a.rs`."
            }
        );
        assert_eq!(step_row("- [ ] `S01` -   ").unwrap().rest, " ");
        assert_eq!(step_row("- [ ] `S01` - \t ").unwrap().rest, "\t");
        assert_eq!(step_row("- [ ] `S١٢` - a; b").unwrap().path, "S١٢");
        assert_eq!(step_row("- [ ] `S01` -"), None);
        assert_eq!(step_row("- [ ] `S01a` - a; b"), None);
        assert_eq!(step_row("-[ ] `S01` - a; b"), None);
    }

    #[test]
    fn the_last_scope_clause_wins() {
        assert_eq!(
            split_action_scope("do a; then b; `src/x.rs`."),
            Some(("do a; then b".into(), "src/x.rs".into()))
        );
        assert_eq!(
            split_action_scope("do a; src/x.rs"),
            Some(("do a".into(), "src/x.rs".into()))
        );
        assert_eq!(split_action_scope("no scope"), None);
    }

    /// One part of a row: mostly the usual text, sometimes a variant or
    /// noise, so that near-misses of every part of the grammar come up.
    fn part(usual: &'static [&'static str]) -> impl Strategy<Value = String> {
        prop_oneof![
            6 => prop::sample::select(usual).prop_map(str::to_string),
            1 => "[-\\[\\] x`SPW0١²a.;\t\u{a0}é]{0,4}",
        ]
    }

    /// Lines shaped like rows, part by part.
    fn row_like() -> impl Strategy<Value = String> {
        (
            part(&["- ", "- ", "-  ", "-", "* "]),
            part(&["[ ]", "[x]", "[ ]", "[X]", "[]"]),
            part(&[" `", "  `", "`"]),
            part(&[
                "S01",
                "W01.P02a.S10",
                "P01.S02",
                "S٣٣",
                "W0١.S0٣",
                "S0²",
                "P1.S01",
                "S01a",
                "P01.",
            ]),
            part(&["` - ", "`-", "` -  ", "`  ", "` -"]),
            part(&[
                "do it; `x`.",
                "a; b",
                "; ``",
                " \t",
                "",
                "x; `y` .. ",
                "x;`y` . ",
                "; `a`b`",
            ]),
            part(&["", " ", "\t", "\u{a0}", "."]),
        )
            .prop_map(|(a, b, c, d, e, f, g)| [a, b, c, d, e, f, g].concat())
    }

    proptest! {
        #[test]
        fn the_walk_matches_the_reference(line in row_like()) {
            prop_assert_eq!(step_row(&line), reference_row(&line));
            prop_assert_eq!(scope_clause(&line), reference_scope(&line));
            prop_assert_eq!(ends_with_scope(&line), REF_CHECK_SCOPE.is_match(line.trim_end()));
        }
    }
}

//! Regexes that are cheap to build when the text they search is ASCII.
//!
//! A verb component starts afresh on every call, so it compiles every regex
//! it uses on every call, and a Unicode class (`\d`, `\w`, `\s`) compiles to
//! an automaton of hundreds of ranges: in a plan step check, building regexes
//! took a third of the time. A [`Pattern`] is compiled on first use in one of
//! two forms: with ASCII classes when the text searched is ASCII, and as
//! written otherwise. On ASCII text both forms match alike, because each
//! Unicode class holds exactly the ASCII characters of its ASCII form; so the
//! results never depend on which form ran.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::{Captures, Match, Matches, Regex, Replacer};

/// A regex compiled lazily, in its ASCII form for ASCII text.
pub struct Pattern {
    source: &'static str,
    ascii: OnceLock<Regex>,
    unicode: OnceLock<Regex>,
}

impl Pattern {
    /// A pattern of `source` (regex crate syntax); nothing is compiled yet.
    pub const fn new(source: &'static str) -> Pattern {
        Pattern {
            source,
            ascii: OnceLock::new(),
            unicode: OnceLock::new(),
        }
    }

    /// The compiled form to search `text` with.
    pub fn regex(&self, text: &str) -> &Regex {
        if text.is_ascii() {
            self.ascii
                .get_or_init(|| compile(&ascii_classes(self.source)))
        } else {
            self.unicode.get_or_init(|| compile(self.source))
        }
    }

    /// [`Regex::is_match`].
    pub fn is_match(&self, text: &str) -> bool {
        self.regex(text).is_match(text)
    }

    /// [`Regex::find`].
    pub fn find<'t>(&self, text: &'t str) -> Option<Match<'t>> {
        self.regex(text).find(text)
    }

    /// [`Regex::captures`].
    pub fn captures<'t>(&self, text: &'t str) -> Option<Captures<'t>> {
        self.regex(text).captures(text)
    }

    /// [`Regex::find_iter`].
    pub fn find_iter<'r, 't>(&'r self, text: &'t str) -> Matches<'r, 't> {
        self.regex(text).find_iter(text)
    }

    /// [`Regex::captures_iter`].
    pub fn captures_iter<'r, 't>(&'r self, text: &'t str) -> regex::CaptureMatches<'r, 't> {
        self.regex(text).captures_iter(text)
    }

    /// [`Regex::replace_all`].
    pub fn replace_all<'t>(&self, text: &'t str, rep: impl Replacer) -> Cow<'t, str> {
        self.regex(text).replace_all(text, rep)
    }
}

fn compile(source: &str) -> Regex {
    Regex::new(source)
        .unwrap_or_else(|e| panic!("the pattern `{source}` is not a valid regex: {e}"))
}

/// `source` with each Perl class escape replaced by its ASCII class. The
/// replacements are bracketed classes, which may also stand inside a class
/// (`[\w.]` becomes `[[0-9A-Za-z_].]`).
fn ascii_classes(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 16);
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('d') => out.push_str("[0-9]"),
            Some('D') => out.push_str("[^0-9]"),
            Some('w') => out.push_str("[0-9A-Za-z_]"),
            Some('W') => out.push_str("[^0-9A-Za-z_]"),
            Some('s') => out.push_str(r"[\t\n\x0B\x0C\r ]"),
            Some('S') => out.push_str(r"[^\t\n\x0B\x0C\r ]"),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn class_escapes_become_ascii_classes_and_other_escapes_stay() {
        assert_eq!(ascii_classes(r"^S\d{2,}$"), "^S[0-9]{2,}$");
        assert_eq!(
            ascii_classes(r"[\w.]*\s"),
            r"[[0-9A-Za-z_].]*[\t\n\x0B\x0C\r ]"
        );
        assert_eq!(ascii_classes(r"\\d\.\|\S"), r"\\d\.\|[^\t\n\x0B\x0C\r ]");
    }

    #[test]
    fn text_beyond_ascii_is_searched_with_unicode_classes() {
        static DIGITS: Pattern = Pattern::new(r"^\d+$");
        assert!(DIGITS.is_match("2026"));
        assert!(
            DIGITS.is_match("٢٠٢٦"),
            "Arabic-Indic digits are Unicode digits"
        );
        static WORD: Pattern = Pattern::new(r"^(\w+) intent$");
        assert_eq!(&WORD.captures("Épopée intent").unwrap()[1], "Épopée");
    }

    const SOURCES: [&str; 6] = [
        r"^- +\[[ x]\] +`[SPW][\w.]*`",
        r"^(\w+) +`[^`]*`",
        r"<!--\s*RETIRED:\s*([^>]*?)\s*-->",
        r"^\d{4}-\d{2}-\d{2}-[a-z0-9-]+-ledger\.md$",
        r"\b\W+\D\S",
        r"(?i)^s\d",
    ];

    proptest! {
        #[test]
        fn both_forms_match_ascii_text_alike(text in "[ -~\t\n\x0B\x0C\r]{0,40}") {
            for source in SOURCES {
                let unicode = compile(source);
                let ascii = compile(&ascii_classes(source));
                let spans = |r: &Regex| r.captures_iter(&text)
                    .map(|c| c.iter().map(|m| m.map(|m| m.range())).collect::<Vec<_>>())
                    .collect::<Vec<_>>();
                prop_assert_eq!(spans(&unicode), spans(&ascii), "{}", source);
            }
        }
    }
}

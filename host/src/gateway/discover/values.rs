//! Telling the names in a text from its words: "lint the `cache-layer`
//! plan" names a feature, and `cache-layer` says nothing about which verb
//! is wanted, yet its rare words would outweigh "lint" if they were ranked.
//!
//! A value is a chunk between spaces that is a dated stem
//! (`2026-03-05-cache-layer-plan`), a feature tag (`#cache-layer`), a
//! wiki-link (`[[…]]`), a path or file name (`.vault/adr/`, `stale.txt`), or
//! a lowercase kebab-case slug (`billing-v2`) that is not one of the
//! catalog's own compounds (`pre-commit`, `wiki-links`, `set-body`). Values
//! are taken out of the catalog's texts and of queries alike, so an example
//! in one verb's docs cannot pull every query that names a feature.

use std::collections::HashSet;

use vaultspec_vault::date::is_ymd_dashed_shape;

/// File endings that make a chunk a file name.
const FILE_ENDINGS: [&str; 7] = [".md", ".txt", ".json", ".toml", ".yaml", ".yml", ".tsv"];

/// Punctuation a chunk may be wrapped in: `(`x`),` is `x`.
fn bare(chunk: &str) -> &str {
    chunk.trim_matches(|c: char| "`'\"()[]{},.;:!?<>*".contains(c))
}

/// Whether `chunk` is a lowercase kebab-case slug: `cache-layer`, `v2-api`.
fn is_slug(chunk: &str) -> bool {
    chunk.contains('-')
        && !chunk.starts_with('-')
        && !chunk.ends_with('-')
        && !chunk.contains("--")
        && chunk
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Whether `text` holds a date, `dddd-dd-dd`, anywhere.
fn has_date(text: &str) -> bool {
    (0..text.len().saturating_sub(9)).any(|i| text.get(i..i + 10).is_some_and(is_ymd_dashed_shape))
}

/// Whether one chunk of text (between spaces) is a value, given the
/// catalog's `compounds` (kebab-case words it uses as words).
fn is_value(chunk: &str, compounds: &HashSet<String>) -> bool {
    let word = bare(chunk);
    if word.is_empty() {
        return false;
    }
    let lower = word.to_ascii_lowercase();
    chunk.contains("[[")
        || (word.starts_with('#') && word.len() > 1)
        || has_date(word)
        || (word.contains('/') && word.len() > 1)
        || FILE_ENDINGS
            .iter()
            .any(|e| lower.ends_with(e) && lower.len() > e.len())
        || (is_slug(word) && !compounds.contains(word))
}

/// `text` with its values blanked out.
pub fn without_values(text: &str, compounds: &HashSet<String>) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let kept: Vec<&str> = line
            .split(' ')
            .filter(|chunk| !is_value(chunk, compounds))
            .collect();
        out.push_str(&kept.join(" "));
    }
    out
}

/// The kebab-case compounds `text` uses as words: slugs written plainly,
/// not quoted in backticks (where the docs put example names).
pub fn compounds(text: &str, into: &mut HashSet<String>) {
    for chunk in text.split_whitespace() {
        let word = bare(chunk);
        if !chunk.contains('`') && !chunk.contains("[[") && is_slug(word) && !has_date(word) {
            into.insert(word.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(words: &[&str]) -> HashSet<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn names_are_values_and_words_are_not() {
        let known = catalog(&["pre-commit", "set-body"]);
        for value in [
            "2026-03-05-cache-layer-plan",
            "#cache-layer",
            "[[2026-02-11-auth-adr]]",
            ".vault/exec/cache-layer/old-s09.md",
            "stale.txt,",
            "README.md",
            "(`billing-v2`),",
            "cache-layer",
        ] {
            assert!(is_value(value, &known), "{value}");
        }
        for word in [
            "pre-commit",
            "set-body",
            "plan",
            "P02.S03",
            "--dry-run",
            "#",
            "Vaultspec-Step",
            "-",
        ] {
            assert!(!is_value(word, &known), "{word}");
        }
    }

    #[test]
    fn values_are_blanked_and_the_words_around_them_kept() {
        let known = catalog(&["pre-commit"]);
        assert_eq!(
            without_values("lint the cache-layer plan\nfor #auth, pre-commit", &known),
            "lint the plan\nfor pre-commit"
        );
    }

    #[test]
    fn compounds_are_slugs_written_plainly() {
        let mut found = HashSet::new();
        compounds(
            "runs as a pre-commit hook on `tiny-fix` (`2026-03-10-tiny-fix-plan`), kebab-case",
            &mut found,
        );
        assert_eq!(found, catalog(&["pre-commit", "kebab-case"]));
    }
}

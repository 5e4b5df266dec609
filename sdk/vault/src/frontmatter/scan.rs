//! The line scanner of spec/vault-format.md §5.2 (`parse_vault_metadata`):
//! the forgiving reader the checks and the document model use.
//!
//! It reads one `key: value` per line and `- item` lines under list keys,
//! strips surrounding quotes, and never fails: whatever it cannot read it
//! skips. [`keys`] lists every key line (with its line number) so callers
//! can report duplicates; neither [`Metadata`] nor the places a document
//! keeps ([`MetaSpans`](super::spans::MetaSpans)) hold them, since a
//! server keeps one for every document and only a checker of one document
//! asks.

use crate::text;

/// The keys whose values are lists.
pub const LIST_KEYS: [&str; 5] = [
    "tags",
    "related",
    "supersedes",
    "derived_from",
    "promoted_to",
];

/// The modelled frontmatter of a document, as the line scanner reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// `tags:` items, quotes removed (`#adr`, `#feature`).
    pub tags: Vec<String>,
    /// `related:` items, quotes removed (`[[stem]]`).
    pub related: Vec<String>,
    /// `supersedes:` items (plain stems).
    pub supersedes: Vec<String>,
    /// `derived_from:` items.
    pub derived_from: Vec<String>,
    /// `promoted_to:` items.
    pub promoted_to: Vec<String>,
    /// `date:` as authored, quotes removed.
    pub date: Option<String>,
    /// `modified:` (empty reads as absent).
    pub modified: Option<String>,
    /// `superseded_by:` (empty reads as absent).
    pub superseded_by: Option<String>,
    /// `archived:` (empty reads as absent).
    pub archived: Option<String>,
    /// `step_id:` of legacy exec records.
    pub step_id: Option<String>,
    /// `body_schema:` (empty reads as absent).
    pub body_schema: Option<String>,
    /// `body_hash:` (empty reads as absent).
    pub body_hash: Option<String>,
    /// The legacy bare `feature:` key.
    pub feature: Option<String>,
    /// `tier:` of plans.
    pub tier: Option<String>,
    /// `generated:` as written (feature indexes say `true`).
    pub generated: Option<String>,
}

/// Python's `str.strip("\"'")`: drops any run of quotes at both ends.
pub fn strip_quotes(s: &str) -> &str {
    s.trim_matches(|c| c == '"' || c == '\'')
}

/// Every key line of `yaml`, in order, with its 1-based line within the
/// YAML (a key written twice appears twice).
pub fn keys(yaml: &str) -> Vec<(&str, usize)> {
    let mut keys = Vec::new();
    scan_lines(yaml, |entry| {
        if let Entry::Key { key, line, .. } = entry {
            keys.push((key, line));
        }
    });
    keys
}

/// One line the scanner read, as [`scan_lines`] hands it on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry<'y> {
    /// A `key: value` line. A list key's comes before its items and
    /// starts the list afresh.
    Key {
        /// The key, trimmed.
        key: &'y str,
        /// The value, trimmed, quotes left on.
        value: &'y str,
        /// Its 1-based line within the YAML.
        line: usize,
    },
    /// One item of a list key: a `- item` line under it, or an entry of its
    /// flow list `[a, b]`.
    Item {
        /// The list key, one of [`LIST_KEYS`].
        key: &'static str,
        /// The item, quotes stripped.
        item: &'y str,
    },
}

/// The scanner itself: calls `f` with every key line of `yaml` and every
/// item of a list key, in order. [`scan`] builds [`Metadata`] from them; a
/// reader that needs a few keys (the graph, on every document it loads)
/// takes them here without building the rest.
pub fn scan_lines<'y>(yaml: &'y str, mut f: impl FnMut(Entry<'y>)) {
    let mut current: Option<&'static str> = None;
    for (n, line) in text::line_iter(yaml).enumerate() {
        let line = yaml[line.content.clone()].trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // `memchr`: a `char` pattern's search costs more in a verb
        // component than the rest of the line's work.
        let colon = memchr::memchr(b':', line.as_bytes());
        if let Some(colon) = colon.filter(|_| !line.starts_with('-')) {
            let (key, value) = (line[..colon].trim(), line[colon + 1..].trim());
            f(Entry::Key {
                key,
                value,
                line: n + 1,
            });
            current = LIST_KEYS.iter().find(|k| **k == key).copied();
            if let Some(key) = current
                && value.starts_with('[')
                && value.ends_with(']')
                && value.len() >= 2
            {
                for item in value[1..value.len() - 1].split(',') {
                    let item = item.trim();
                    if !item.is_empty() {
                        f(Entry::Item {
                            key,
                            item: strip_quotes(item),
                        });
                    }
                }
            }
        } else if let Some(item) = line.strip_prefix('-')
            && let Some(key) = current
        {
            f(Entry::Item {
                key,
                item: strip_quotes(item.trim()),
            });
        }
    }
}

/// Reads `yaml` (the text between the fences) with the line scanner, into
/// the editable form.
pub fn scan(yaml: &str) -> Metadata {
    super::spans::MetaSpans::read(yaml).view(yaml).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanner_reads_every_quoting_style() {
        let m = scan(
            "tags:\n  - '#adr'\n  - \"#x\"\n  - #y\ndate: 2026-01-05\nmodified: \"2026-01-06\"\n\
             related: [\"[[a]]\", '[[b]]']\nsuperseded_by:\n# comment\nbody_hash: 'sha256:00'\n",
        );
        assert_eq!(m.tags, ["#adr", "#x", "#y"]);
        assert_eq!(m.date.as_deref(), Some("2026-01-05"));
        assert_eq!(m.modified.as_deref(), Some("2026-01-06"));
        assert_eq!(m.related, ["[[a]]", "[[b]]"]);
        assert_eq!(m.superseded_by, None);
        assert_eq!(m.body_hash.as_deref(), Some("sha256:00"));
    }

    #[test]
    fn the_last_occurrence_wins_and_repeats_are_reported() {
        let m = scan("date: a\ntags:\n- '#a'\ndate: b\ntags: []\n");
        assert_eq!(m.date.as_deref(), Some("b"));
        assert!(m.tags.is_empty());
        let yaml = "date: a\ntags:\n- '#a'\ndate: b\ntags: []\n";
        assert_eq!(
            keys(yaml),
            [("date", 1), ("tags", 2), ("date", 4), ("tags", 5)]
        );
    }
}

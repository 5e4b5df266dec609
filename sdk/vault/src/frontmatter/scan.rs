//! The line scanner of spec/vault-format.md §5.2 (`parse_vault_metadata`):
//! the forgiving reader the checks and the document model use.
//!
//! It reads one `key: value` per line and `- item` lines under list keys,
//! strips surrounding quotes, and never fails: whatever it cannot read it
//! skips. [`Metadata::keys`] keeps every key line seen (with its line number)
//! so callers can report duplicates.

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
    /// Every key line met, in order, with its 1-based line within the YAML.
    pub keys: Vec<(String, usize)>,
}

/// Python's `str.strip("\"'")`: drops any run of quotes at both ends.
pub fn strip_quotes(s: &str) -> &str {
    s.trim_matches(|c| c == '"' || c == '\'')
}

fn opt(v: &str) -> Option<String> {
    (!v.is_empty()).then(|| v.to_string())
}

impl Metadata {
    /// The list behind a list key.
    pub fn list_mut(&mut self, key: &str) -> Option<&mut Vec<String>> {
        Some(match key {
            "tags" => &mut self.tags,
            "related" => &mut self.related,
            "supersedes" => &mut self.supersedes,
            "derived_from" => &mut self.derived_from,
            "promoted_to" => &mut self.promoted_to,
            _ => return None,
        })
    }

    /// Keys that appear more than once, with the line of each repeat.
    pub fn duplicate_keys(&self) -> Vec<(&str, usize)> {
        let mut seen = std::collections::HashSet::new();
        self.keys
            .iter()
            .filter(|(k, _)| !seen.insert(k.as_str()))
            .map(|(k, l)| (k.as_str(), *l))
            .collect()
    }
}

/// Reads `yaml` (the text between the fences) with the line scanner.
pub fn scan(yaml: &str) -> Metadata {
    let mut m = Metadata::default();
    let mut current: Option<&str> = None;
    for (n, line) in text::line_iter(yaml).enumerate() {
        let line = yaml[line.content.clone()].trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.contains(':') && !line.starts_with('-') {
            let (key, val) = line.split_once(':').unwrap_or((line, ""));
            let (key, val) = (key.trim(), val.trim());
            m.keys.push((key.to_string(), n + 1));
            current = Some(key);
            if let Some(list) = m.list_mut(key) {
                list.clear();
                if val.starts_with('[') && val.ends_with(']') && val.len() >= 2 {
                    list.extend(
                        val[1..val.len() - 1]
                            .split(',')
                            .filter(|i| !i.trim().is_empty())
                            .map(|i| strip_quotes(i.trim()).to_string()),
                    );
                }
                continue;
            }
            let v = strip_quotes(val);
            match key {
                "date" => m.date = Some(v.to_string()),
                "modified" => m.modified = opt(v),
                "superseded_by" => m.superseded_by = opt(v),
                "archived" => m.archived = opt(v),
                "step_id" => m.step_id = opt(v),
                "body_schema" => m.body_schema = opt(v),
                "body_hash" => m.body_hash = opt(v),
                "feature" => m.feature = opt(v),
                "tier" => m.tier = opt(v),
                "generated" => m.generated = opt(v),
                _ => {}
            }
        } else if let Some(item) = line.strip_prefix('-')
            && let Some(list) = current.and_then(|k| m.list_mut(k))
        {
            list.push(strip_quotes(item.trim()).to_string());
        }
    }
    m
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
        assert_eq!(m.duplicate_keys(), [("date", 4), ("tags", 5)]);
    }
}

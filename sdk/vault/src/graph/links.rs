//! Wiki-link extraction: the raw targets a document points at, from its body
//! prose and from its `related:` list (spec/graph-and-search.md §2).
//!
//! Both follow the reference's pattern `\[\[([^\]|]+)(?:\|[^\]]+)?\]\]`,
//! hand-coded here because it runs over every body on every load.

use super::markdown;

/// Where a link was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LinkSource {
    /// A `[[target]]` in the body prose.
    Body,
    /// An item of the `related:` frontmatter list.
    Related,
}

/// Match the wiki-link pattern at the start of `s` (which begins with `[[`):
/// the raw target and the length matched.
fn match_at(s: &str) -> Option<(&str, usize)> {
    let b = s.as_bytes();
    let mut i = 2;
    while i < b.len() && b[i] != b']' && b[i] != b'|' {
        i += 1;
    }
    if i == 2 || i >= b.len() {
        return None;
    }
    let target = &s[2..i];
    if b[i] == b'|' {
        let alias = i + 1;
        let mut j = alias;
        while j < b.len() && b[j] != b']' {
            j += 1;
        }
        if j == alias {
            return None;
        }
        i = j;
    }
    (b.get(i..i + 2) == Some(b"]]")).then_some((target, i + 2))
}

/// A raw target as the graph resolves it: trimmed, one trailing `.md` removed.
pub fn clean_target(raw: &str) -> &str {
    let t = raw.trim();
    t.strip_suffix(".md").unwrap_or(t)
}

/// Every wiki-link target in `text`, in order, with repeats (no masking).
pub fn scan_wiki_links(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(pos) = rest.find("[[") {
        rest = &rest[pos..];
        match match_at(rest) {
            Some((target, len)) => {
                out.push(clean_target(target));
                rest = &rest[len..];
            }
            None => rest = &rest[1..],
        }
    }
    out
}

/// Body link targets: wiki-links in prose, after fenced code, inline code
/// spans and HTML comments are removed. Counted with multiplicity.
pub fn body_links(body: &str) -> Vec<String> {
    if !crate::text::contains(body, "[[") {
        return Vec::new();
    }
    let prose = markdown::mask_code_and_comments(body);
    scan_wiki_links(&prose)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// The target of a `related:` item that is exactly one wiki-link, else `None`.
pub fn related_target(item: &str) -> Option<&str> {
    if !item.starts_with("[[") {
        return None;
    }
    match match_at(item) {
        Some((target, len)) if len == item.len() => Some(clean_target(target)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_links_keep_repeats_and_drop_aliases_and_md() {
        let body = "See [[a]] and [[ b.md |the b]] then [[a]].\n";
        assert_eq!(body_links(body), ["a", "b", "a"]);
    }

    #[test]
    fn body_links_ignore_code_and_comments() {
        let body = "`[[x]]` <!-- [[y]] -->\n```\n[[z]]\n```\n[[w]]\n";
        assert_eq!(body_links(body), ["w"]);
    }

    #[test]
    fn malformed_links_are_skipped_and_scanning_resumes() {
        assert_eq!(scan_wiki_links("[[]] [[a|]] [[[b]] [[c"), ["[b"]);
        assert_eq!(scan_wiki_links("[[a\nb]]"), ["a\nb"]);
    }

    #[test]
    fn related_items_must_be_exactly_one_link() {
        assert_eq!(related_target("[[stem]]"), Some("stem"));
        assert_eq!(related_target("[[stem|alias]]"), Some("stem"));
        assert_eq!(related_target("[[stem.md]]"), Some("stem"));
        assert_eq!(related_target("stem"), None);
        assert_eq!(related_target("[[a]] extra"), None);
        assert_eq!(related_target("[[a]][[b]]"), None);
    }
}

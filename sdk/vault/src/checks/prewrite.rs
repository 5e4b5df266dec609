//! The pre-write conformance checks of the edit verbs (`set-body`,
//! `set-frontmatter`, `edit`): the `frontmatter`, `links` and `body-links`
//! checkers run on the text about to be written. Error findings refuse the
//! write; warnings travel with the result.

use crate::doc::Document;

use super::model::Finding;

/// Validates the modelled frontmatter (`DocumentMetadata.validate`): see
/// [`super::frontmatter::validate`].
pub fn frontmatter(doc: &Document) -> Vec<Finding> {
    super::frontmatter::validate(doc)
}

/// Body prose with fenced code, inline code and HTML comments blanked out.
/// Every byte keeps its offset (blanked characters become spaces, newlines
/// stay), so positions in the prose are positions in `body`.
pub fn prose(body: &str) -> String {
    crate::graph::markdown::mask_code_and_comments(body)
}

/// The body-links rule: no `[[wiki-links]]` and no relative markdown links
/// in body prose. Generated indexes are skipped.
pub fn body_links(doc: &Document) -> Vec<Finding> {
    super::body_links::find(doc)
}

/// The pre-write checks of the edit verbs: frontmatter, links, body-links.
pub fn prewrite(doc: &Document) -> Vec<Finding> {
    let mut f = frontmatter(doc);
    f.extend(super::links::find(doc));
    f.extend(body_links(doc));
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::Severity;

    #[test]
    fn body_wiki_links_are_found_outside_code_only() {
        let d = Document::from_text(
            ".vault/research/x.md",
            "---\ntags:\n  - '#research'\n  - '#x'\ndate: '2026-01-01'\n---\n\nsee [[a]] and `[[b]]`\n<!-- [[c]] -->\n```\n[[d]]\n```\n[t](src/x.rs) [u](https://x)\n",
        );
        let f = body_links(&d);
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(f[0].message.contains("[[a]]"));
        assert_eq!(f[0].line, Some(8));
        assert!(frontmatter(&d).is_empty());
    }

    #[test]
    fn prose_keeps_byte_offsets_with_multibyte_text() {
        let body = "é `ç` [[x]]\n";
        let p = prose(body);
        assert_eq!(p.len(), body.len());
        assert_eq!(p.find("[[x]]"), body.find("[[x]]"));
    }

    #[test]
    fn only_required_frontmatter_problems_refuse_a_write() {
        let d = Document::from_text(
            ".vault/research/x.md",
            "---\ntags:\n  - '#research'\n  - 'x'\ndate: '2026-01-01'\n---\nb\n",
        );
        let f = prewrite(&d);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
    }
}

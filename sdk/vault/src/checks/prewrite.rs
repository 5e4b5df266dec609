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
// NOTE(lead): `graph::markdown::mask_code_and_comments` drops the
// continuation bytes of blanked characters; make it length-preserving and
// use it here.
pub fn prose(body: &str) -> String {
    let mut fences = crate::graph::markdown::FenceTracker::default();
    let mut b: Vec<u8> = Vec::with_capacity(body.len());
    for line in body.split_inclusive('\n') {
        let content = line.strip_suffix('\n').unwrap_or(line);
        if fences.code_line(content) {
            b.extend(std::iter::repeat_n(b' ', content.len()));
            b.extend_from_slice(&line.as_bytes()[content.len()..]);
        } else {
            b.extend_from_slice(line.as_bytes());
        }
    }
    let blank = |s: &mut [u8]| {
        s.iter_mut()
            .filter(|c| **c != b'\n')
            .for_each(|c| *c = b' ')
    };
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"<!--") {
            let end = find(&b, i + 4, b"-->").map_or(b.len(), |e| e + 3);
            blank(&mut b[i..end]);
            i = end;
        } else if b[i] == b'`' {
            let run = b[i..].iter().take_while(|&&c| c == b'`').count();
            match closing_run(&b, i + run, run) {
                Some(end) => {
                    blank(&mut b[i..end]);
                    i = end;
                }
                None => i += run,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(b).unwrap_or_default()
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

fn closing_run(b: &[u8], mut from: usize, run: usize) -> Option<usize> {
    while from < b.len() {
        if b[from] == b'`' {
            let len = b[from..].iter().take_while(|&&c| c == b'`').count();
            if len == run {
                return Some(from + len);
            }
            from += len;
        } else {
            from += 1;
        }
    }
    None
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
            "---\ntags:\n  - '#research'\n  - '#x'\ndate: '2026-01-01'\n---\n\nsee [[a]] and `[[b]]`\n<!-- [[c]] -->\n```\n[[d]]\n```\n[t](src/x.rs) [u](https://x)\n".into(),
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
            "---\ntags:\n  - '#research'\n  - 'x'\ndate: '2026-01-01'\n---\nb\n".into(),
        );
        let f = prewrite(&d);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
    }
}

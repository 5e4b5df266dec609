//! A quick test that frontmatter is in the plain shape nearly every vault
//! document has, so loading a vault need not run the strict YAML parser on it.
//!
//! Loading checks every document's frontmatter for malformed YAML
//! ([`crate::doc::frontmatter_problem`]). The strict parser builds a value
//! tree per document, which costs more than the rest of the load on a verb's
//! one thread. [`is_plain`] accepts only lines the strict parser is known to
//! accept — `key: scalar`, `key: [flow, list]`, `key:` followed by `- item`
//! lines at one indent — and says `false` for anything else, which then goes
//! through the strict parser. So it may send a good document the slow way,
//! never a bad one the fast way.

/// Whether every line of `yaml` has one of the plain shapes the strict
/// parser accepts: `true` means the strict parse would succeed.
pub fn is_plain(yaml: &str) -> bool {
    // The indent of the current block list's items, once its first is seen;
    // `Some(None)` right after a `key:` with nothing after the colon.
    let mut list: Option<Option<usize>> = None;
    // Lines as `split('\n')` gives them, found with `memchr`: a char
    // pattern's searcher costs more per line than the line's own checks.
    let ends = memchr::memchr_iter(b'\n', yaml.as_bytes()).chain(std::iter::once(yaml.len()));
    let mut start = 0;
    for end in ends {
        let line = &yaml[start..end];
        start = end + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        // Byte by byte, not through `char` patterns: this runs on every
        // line of every document a verb loads.
        let indent = line.bytes().take_while(|&b| b == b' ').count();
        let body = &line[indent..];
        if body.starts_with('\t') {
            return false;
        }
        let body = body.trim_end();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if let Some(item) = body.strip_prefix("- ") {
            let Some(expected) = list else { return false };
            if expected.is_some_and(|i| i != indent) || !is_scalar(item.trim()) {
                return false;
            }
            list = Some(Some(indent));
            continue;
        }
        if indent != 0 {
            return false;
        }
        let Some(colon) = memchr::memchr(b':', body.as_bytes()) else {
            return false;
        };
        let (key, rest) = (&body[..colon], &body[colon + 1..]);
        if key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return false;
        }
        let rest = match rest.strip_prefix(' ') {
            Some(rest) => rest.trim(),
            None if rest.is_empty() => "",
            None => return false,
        };
        list = None;
        if rest.is_empty() {
            list = Some(None);
        } else if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            if !inner
                .split(',')
                .map(str::trim)
                .all(|i| i.is_empty() || is_scalar(i))
            {
                return false;
            }
        } else if !is_scalar(rest) {
            return false;
        }
    }
    true
}

/// Whether a byte may not appear in a plain scalar: flow and quote
/// characters, comment, anchor, alias and tag marks, block indicators, `:`,
/// backslashes and tabs. All are ASCII, so testing bytes tests characters.
const SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let special = b"[]{}'\"#&*!%@`|>,:\\\t";
    let mut i = 0;
    while i < special.len() {
        table[special[i] as usize] = true;
        i += 1;
    }
    table
};

/// A quoted string with no quote of its kind (or backslash) inside, or a
/// plain scalar of ordinary characters. Byte by byte through a table: this
/// runs on every frontmatter value of every document a verb loads.
fn is_scalar(text: &str) -> bool {
    let b = text.as_bytes();
    let Some(&first) = b.first() else {
        return false;
    };
    if first == b'\'' || first == b'"' {
        return b.len() >= 2
            && b[b.len() - 1] == first
            && !b[1..b.len() - 1].iter().any(|&c| c == first || c == b'\\');
    }
    first != b'-' && !b.iter().any(|&c| SPECIAL[usize::from(c)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::yaml::parse_strict;

    const PLAIN: [&str; 6] = [
        "tags: ['#adr', '#cache-layer']\ndate: 2026-03-03\nrelated:\n  - '[[2026-03-02-x-research]]'\n  - \"[[y]]\"\n",
        "tags: [\"#plan\", '#f']\ndate: 2026-03-10\nmodified: 2026-03-11\nrelated: []\n",
        "tags:\n- '#exec'\n- '#f'\nstep_id: S3\n",
        "# a comment\n\ntitle: Cache layer\ngenerated: true\n",
        "related:\n",
        "",
    ];

    #[test]
    fn the_usual_frontmatter_is_plain_and_the_strict_parser_agrees() {
        for yaml in PLAIN {
            assert!(is_plain(yaml), "{yaml:?}");
            assert!(parse_strict(yaml).is_ok(), "{yaml:?}");
        }
    }

    #[test]
    fn anything_unusual_goes_the_strict_way() {
        for yaml in [
            "tags: ['#adr'\n",
            "tags: [a, b\n",
            "related:\n  - a\n    - b\n",
            "  tags: [a]\n",
            "tags: ['it''s']\n",
            "key: value: more\n",
            "\ttags: [a]\n",
            "- item\n",
            "title: a # note\n",
            "notes: |\n  text\n",
            "a:b\n",
            "k: {a: b}\n",
            "related:\n  - a\n- b\n",
        ] {
            assert!(!is_plain(yaml), "{yaml:?}");
        }
    }

    #[test]
    fn every_plain_text_parses_strictly() {
        // Mutations of the usual shapes: whatever `is_plain` accepts, the
        // strict parser must accept too.
        let pieces = [
            "tags: ['#a', '#b']",
            "date: 2026-01-01",
            "related:",
            "  - '[[x]]'",
            "- b",
            "  - c",
            "k: v",
            "x:",
            "",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let yaml = format!("{a}\n{b}\n{c}\n");
                    if is_plain(&yaml) {
                        assert!(parse_strict(&yaml).is_ok(), "{yaml:?}");
                    }
                }
            }
        }
    }
}

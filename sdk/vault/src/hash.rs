//! Fingerprints of documents: the git blob OID of the raw bytes
//! (spec/vault-format.md §6.3), the `body_hash` digest of the body (§6.1), and
//! the two stamp writers that keep `body_hash:` and `modified:` current
//! (§6.2, §5.6).
//!
//! The stamp writers edit the raw text line by line, keeping each line's
//! indentation and terminator, and act only on frontmatter at the first line.

use sha1::{Digest, Sha1};
use sha2::Sha256;

use crate::date::Date;
use crate::frontmatter::{self, Split};
use crate::text;

/// The git blob object id of `bytes`: lowercase hex SHA-1 of
/// `blob <len>\0<bytes>`, over the bytes exactly as on disk.
pub fn blob_oid(bytes: &[u8]) -> String {
    let mut h = Sha1::new();
    h.update(format!("blob {}\0", bytes.len()).as_bytes());
    h.update(bytes);
    hex::encode(h.finalize())
}

/// The `body_hash` of a document text: `sha256:` + hex SHA-256 of the body
/// (after at-start frontmatter, newlines normalised, Python-stripped).
pub fn body_hash(text: &str) -> String {
    let t = text::normalize_newlines(text::strip_bom(text));
    let body = match frontmatter::split(&t) {
        Some(s) if s.at_start => &t[s.close.end..],
        _ => &t[..],
    };
    digest_of_body(body)
}

/// `sha256:` + hex SHA-256 of `body` after Python's `str.strip()`.
pub fn digest_of_body(body: &str) -> String {
    let canon = text::py_strip(body);
    format!("sha256:{}", hex::encode(Sha256::digest(canon.as_bytes())))
}

/// Whether `value` is a canonical `body_hash` (`sha256:` + 64 lowercase hex).
pub fn is_canonical_body_hash(value: &str) -> bool {
    value.strip_prefix("sha256:").is_some_and(|h| {
        h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// A top-level-ish YAML key line `^[ \t]*key:` inside the frontmatter.
struct KeyLine {
    full: std::ops::Range<usize>,
    indent: String,
    terminator: String,
}

fn key_lines(text: &str, split: &Split, key: &str) -> Vec<KeyLine> {
    let yaml = &text[split.yaml.clone()];
    text::lines(yaml)
        .into_iter()
        .filter_map(|l| {
            let content = &yaml[l.content.clone()];
            let rest = content.trim_start_matches([' ', '\t']);
            let after = rest.strip_prefix(key)?;
            after.starts_with(':').then(|| KeyLine {
                full: l.full.start + split.yaml.start..l.full.end + split.yaml.start,
                indent: content[..content.len() - rest.len()].to_string(),
                terminator: l.terminator(yaml).to_string(),
            })
        })
        .collect()
}

/// Sets `key: '<value>'` in place: the first `key:` line is rewritten (keeping
/// indentation and terminator) and later duplicates deleted; when absent the
/// line is inserted after the first present anchor key, in the anchors'
/// order of preference. Returns `None` when neither key nor anchor exists.
fn set_stamp(
    text: &str,
    split: &Split,
    key: &str,
    value: &str,
    anchors: &[&str],
) -> Option<String> {
    let found = key_lines(text, split, key);
    if let Some(first) = found.first() {
        let mut out = String::with_capacity(text.len() + 16);
        out.push_str(&text[..first.full.start]);
        out.push_str(&format!(
            "{}{key}: '{value}'{}",
            first.indent, first.terminator
        ));
        let mut pos = first.full.end;
        for dup in &found[1..] {
            out.push_str(&text[pos..dup.full.start]);
            pos = dup.full.end;
        }
        out.push_str(&text[pos..]);
        return Some(out);
    }
    for anchor in anchors {
        if let Some(a) = key_lines(text, split, anchor).first() {
            let mut out = String::with_capacity(text.len() + 80);
            out.push_str(&text[..a.full.end]);
            let term = if a.terminator.is_empty() {
                "\n"
            } else {
                a.terminator.as_str()
            };
            out.push_str(&format!("{}{key}: '{value}'{term}", a.indent));
            out.push_str(&text[a.full.end..]);
            return Some(out);
        }
    }
    None
}

/// Writes `body_hash: '<digest>'` per §6.2: in place when present (dropping
/// duplicates), else after the first of `body_schema:`, `modified:`, `date:`;
/// else (or without at-start frontmatter) the text is returned unchanged.
pub fn set_body_hash(text: &str, digest: &str) -> String {
    match frontmatter::split(text) {
        Some(s) if s.at_start => set_stamp(
            text,
            &s,
            "body_hash",
            digest,
            &["body_schema", "modified", "date"],
        )
        .unwrap_or_else(|| text.to_string()),
        _ => text.to_string(),
    }
}

/// Applies `refresh_modified_stamp(today)` of §5.6 to the text about to be
/// written: `modified: '<today>'` in place (or after `date:`), then
/// `body_hash` of the body. Without at-start frontmatter, or without both a
/// `modified:` and a `date:` line, the text is returned unchanged.
pub fn refresh_modified_stamp(text: &str, today: Date) -> String {
    let Some(s) = frontmatter::split(text).filter(|s| s.at_start) else {
        return text.to_string();
    };
    let digest = body_hash(text);
    match set_stamp(text, &s, "modified", &today.to_string(), &["date"]) {
        Some(stamped) => set_body_hash(&stamped, &digest),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blob_oid_matches_git() {
        assert_eq!(blob_oid(b""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
        assert_eq!(
            blob_oid(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
    }

    #[test]
    fn body_hash_ignores_frontmatter_newlines_and_outer_whitespace() {
        let a = body_hash("---\na: 1\n---\n\n# T\n\nx\n");
        let b = body_hash("\u{feff}---\r\nb: 2\r\n---\r\n# T\r\n\r\nx\u{a0}");
        assert_eq!(a, b);
        assert_eq!(a, digest_of_body("# T\n\nx"));
        assert!(is_canonical_body_hash(&a));
    }

    #[test]
    fn stamps_go_in_place_or_after_their_anchor() {
        let today = Date::new(2026, 11, 30).unwrap();
        let t = "---\r\ndate: '2026-01-01'\r\nbody_schema: 'body-v2'\r\nrelated: []\r\n---\r\n\r\nhi\r\n";
        let out = refresh_modified_stamp(t, today);
        let h = digest_of_body("hi");
        assert_eq!(
            out,
            format!(
                "---\r\ndate: '2026-01-01'\r\nmodified: '2026-11-30'\r\nbody_schema: 'body-v2'\r\nbody_hash: '{h}'\r\nrelated: []\r\n---\r\n\r\nhi\r\n"
            )
        );
        let again = refresh_modified_stamp(&out, today);
        assert_eq!(again, out);
        let dup = "---\ndate: x\nmodified: a\nmodified: b\n---\nz";
        assert_eq!(
            refresh_modified_stamp(dup, today),
            format!(
                "---\ndate: x\nmodified: '2026-11-30'\nbody_hash: '{}'\n---\nz",
                digest_of_body("z")
            )
        );
    }

    #[test]
    fn stamps_leave_texts_without_anchor_or_at_start_frontmatter_alone() {
        let today = Date::new(2026, 11, 30).unwrap();
        assert_eq!(
            refresh_modified_stamp("---\na: 1\n---\nb", today),
            "---\na: 1\n---\nb"
        );
        assert_eq!(
            refresh_modified_stamp("\n---\ndate: x\n---\nb", today),
            "\n---\ndate: x\n---\nb"
        );
    }
}

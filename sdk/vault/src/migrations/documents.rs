//! The migrations that act on the vault's documents as the reference's do,
//! byte for byte: `frontmatter_lifecycle` (0.1.21, nothing to change),
//! `modified_stamp_backfill` (0.1.29: a `modified:` stamp, and with it a
//! `body_hash:`, on every document that has a date but no stamp) and
//! `body_hash_seed` (0.1.55: a `body_hash:` wherever there is none, or a
//! malformed one). Each works on texts in memory, so a run is one batch of
//! writes and a dry run lists the same changes.

use std::collections::BTreeMap;

use crate::Storage;
use crate::date::Date;
use crate::frontmatter;
use crate::hash;

/// The documents these migrations walk: every `*.md` under `.vault/`, but
/// none under a folder named `.obsidian`, `.trash` or `_archive`.
pub fn documents(storage: &dyn Storage) -> Result<Vec<String>, String> {
    Ok(storage
        .list(".vault")
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|entry| entry.path)
        .filter(|path| path.ends_with(".md"))
        .filter(|path| {
            !path
                .split('/')
                .any(|part| matches!(part, ".obsidian" | ".trash" | "_archive"))
        })
        .collect())
}

/// Documents being migrated: path → text as it now stands.
pub type Texts = BTreeMap<String, String>;

/// Read `paths` as UTF-8; a document that is not text stops the run, as
/// the reference's does.
pub fn read(storage: &dyn Storage, paths: &[String]) -> Result<Texts, String> {
    let mut texts = Texts::new();
    for path in paths {
        let bytes = storage
            .read(path)
            .map_err(|e| format!("reading {path}: {e}"))?;
        let text = String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8 text"))?;
        texts.insert(path.clone(), text);
    }
    Ok(texts)
}

/// The summary of `frontmatter_lifecycle`.
pub const LIFECYCLE: &str = "additive schema migration for frontmatter lifecycle fields (no-op)";

/// `n document` or `n documents`.
fn documents_word(n: usize) -> String {
    format!("{n} document{}", if n == 1 { "" } else { "s" })
}

/// Each document through `change`, which sees its text with line breaks
/// made `\n` and answers `None` to pass it by (nothing to do) or the new
/// text; a text that comes back the same counts as skipped. Changed texts
/// get their line breaks back (a file with any CRLF comes back all CRLF,
/// as the reference writes it). The paths changed, and how many skipped.
fn stamp_each(
    texts: &mut Texts,
    mut change: impl FnMut(&str, &str) -> Option<String>,
) -> (Vec<String>, usize) {
    let (mut changed, mut skipped) = (Vec::new(), 0);
    for (path, text) in texts.iter_mut() {
        let plain = text.replace("\r\n", "\n");
        let Some(new) = change(path, &plain) else {
            continue;
        };
        if new == plain {
            skipped += 1;
            continue;
        }
        *text = if text.contains("\r\n") {
            new.replace('\n', "\r\n")
        } else {
            new
        };
        changed.push(path.clone());
    }
    (changed, skipped)
}

/// The value of `key` in the frontmatter as the reference's quick reader
/// sees it: the first `key: value` line (indented or not), quotes off;
/// `None` when missing or empty.
fn meta(text: &str, key: &str) -> Option<String> {
    let split = frontmatter::split(text)?;
    split.yaml(text).lines().find_map(|line| {
        let line = line.trim();
        if line.starts_with('-') {
            return None;
        }
        let (k, v) = line.split_once(':')?;
        (k.trim() == key)
            .then(|| v.trim().trim_matches(|c| c == '\'' || c == '"').to_owned())
            .filter(|v| !v.is_empty())
    })
}

/// The date a document's file name starts with, if any.
fn filename_date(path: &str) -> Option<Date> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let head = name.get(..10)?;
    crate::date::is_ymd_dashed_shape(head)
        .then(|| Date::parse_lenient(head).ok())
        .flatten()
}

/// `modified_stamp_backfill`: stamp `modified:` (its date, else the file
/// name's) and `body_hash:` on each document without a `modified:`; the
/// summary and the paths changed.
pub fn backfill_modified(texts: &mut Texts) -> (String, Vec<String>) {
    let (changed, skipped) = stamp_each(texts, |path, text| {
        if meta(text, "modified").is_some() {
            return None;
        }
        let day = meta(text, "date")
            .and_then(|d| Date::parse_lenient(&d).ok())
            .or_else(|| filename_date(path));
        // No defensible date: counted as skipped, left as it is.
        Some(day.map_or_else(
            || text.to_owned(),
            |day| hash::refresh_modified_stamp(text, day),
        ))
    });
    let mut summary = format!(
        "backfilled modified stamp on {}",
        documents_word(changed.len())
    );
    if skipped > 0 {
        summary.push_str(&format!(" ({skipped} skipped, no defensible date)"));
    }
    (summary, changed)
}

/// `body_hash_seed`: a `body_hash:` of the body on each document whose
/// `body_hash:` is missing or malformed; the summary and the paths changed.
pub fn seed_body_hash(texts: &mut Texts) -> (String, Vec<String>) {
    let (changed, skipped) = stamp_each(texts, |_, text| {
        if meta(text, "body_hash").is_some_and(|h| hash::is_canonical_body_hash(&h)) {
            return None;
        }
        Some(hash::set_body_hash(text, &hash::body_hash(text)))
    });
    let mut summary = format!(
        "seeded body fingerprint on {}",
        documents_word(changed.len())
    );
    if skipped > 0 {
        summary.push_str(&format!(" ({skipped} skipped, no frontmatter anchor)"));
    }
    (summary, changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(docs: &[(&str, &str)]) -> Texts {
        docs.iter()
            .map(|(p, t)| ((*p).to_owned(), (*t).to_owned()))
            .collect()
    }

    #[test]
    fn a_dated_document_gets_its_stamp_and_fingerprint_once() {
        let mut t = texts(&[
            (
                ".vault/adr/2026-01-06-a-adr.md",
                "---\ndate: '2026-01-06'\nrelated: []\n---\n\n# A\n",
            ),
            (
                ".vault/adr/2026-01-07-b-adr.md",
                "---\ndate: someday\n---\nbody\n",
            ),
            (".vault/adr/notes.md", "---\ntags: []\n---\nbody\n"),
            (
                ".vault/adr/2026-01-08-c-adr.md",
                "---\nmodified: '2026-02-01'\ndate: x\n---\nbody\n",
            ),
        ]);
        let (summary, changed) = backfill_modified(&mut t);
        assert_eq!(
            summary,
            "backfilled modified stamp on 2 documents (1 skipped, no defensible date)"
        );
        assert_eq!(changed.len(), 2);
        let a = &t[".vault/adr/2026-01-06-a-adr.md"];
        assert!(
            a.starts_with("---\ndate: '2026-01-06'\nmodified: '2026-01-06'\nbody_hash: 'sha256:"),
            "{a}"
        );
        assert!(
            t[".vault/adr/2026-01-07-b-adr.md"].contains("modified: '2026-01-07'"),
            "the file name's date"
        );
        let again = t.clone();
        let (summary, changed) = backfill_modified(&mut t);
        assert!(changed.is_empty() && t == again, "{summary}");
    }

    #[test]
    fn a_missing_or_malformed_fingerprint_is_seeded_and_crlf_kept() {
        let mut t = texts(&[
            (
                ".vault/r/x.md",
                "---\r\ndate: '2026-01-05'\r\nmodified: '2026-01-05'\r\n---\r\nbody\r\n",
            ),
            (
                ".vault/r/y.md",
                "---\ndate: '2026-01-05'\nbody_hash: sha256:abc\n---\nbody\n",
            ),
            (".vault/r/z.md", "no frontmatter\n"),
        ]);
        let (summary, changed) = seed_body_hash(&mut t);
        assert_eq!(
            summary,
            "seeded body fingerprint on 2 documents (1 skipped, no frontmatter anchor)"
        );
        assert_eq!(changed, [".vault/r/x.md", ".vault/r/y.md"]);
        let x = &t[".vault/r/x.md"];
        assert!(
            x.contains("modified: '2026-01-05'\r\nbody_hash: 'sha256:"),
            "{x:?}"
        );
        assert!(!x.replace("\r\n", "").contains('\n'));
        assert_eq!(
            meta(&t[".vault/r/y.md"], "body_hash").map(|h| hash::is_canonical_body_hash(&h)),
            Some(true)
        );
    }
}

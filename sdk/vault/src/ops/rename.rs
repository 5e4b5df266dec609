//! `vault rename`: move one document to a new stem and re-point every
//! incoming `related:` link, restamping each file it rewrites.

use std::collections::HashMap;

use super::{Change, Status, apply};
use crate::date::Date;
use crate::doc::Corpus;
use crate::error::{Error, Result};
use crate::frontmatter::edit::rewrite_items;
use crate::storage::Storage;
use crate::{hash, resolve};

/// What `vault rename` did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Renamed {
    /// `updated`, or `unchanged` for a rename to the stem it has.
    #[serde(skip)]
    pub status: Status,
    /// The old workspace-relative path.
    pub old_path: String,
    /// The new workspace-relative path.
    pub new_path: String,
    /// Blob id before.
    pub old_blob_hash: String,
    /// Blob id after (the file is restamped).
    pub new_blob_hash: String,
    /// `doc:<new stem>`.
    pub new_node_id: String,
    /// How many other documents had links re-pointed.
    pub incoming_rewritten: usize,
    /// Whether nothing was written on purpose.
    pub dry_run: bool,
}

/// Re-points `[[old]]` items of `related:` per `renames` (lowercase old stem
/// → new stem). Returns the text and the number of items changed.
pub fn repoint_related(text: &str, renames: &HashMap<String, String>) -> (String, usize) {
    rewrite_items(text, "related", &|item: &str| {
        let target = crate::doc::wiki_target(item)?;
        let new = renames.get(&target.to_lowercase())?;
        let inner = item.trim().strip_prefix("[[")?.strip_suffix("]]")?;
        let alias = inner
            .split_once('|')
            .map(|(_, a)| format!("|{a}"))
            .unwrap_or_default();
        Some(format!("[[{new}{alias}]]"))
    })
}

/// Checks a new stem: kebab-case words, a date prefix allowed, no `.md`.
fn check_stem(raw: &str) -> Result<String> {
    let s = raw.trim();
    let s = s.strip_suffix(".md").unwrap_or(s);
    let ok = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
        && !s.starts_with(['-', '.'])
        && !s.contains("..");
    if ok {
        Ok(s.to_string())
    } else {
        Err(Error::Invalid(format!(
            "invalid new stem `{raw}`: expected lowercase kebab-case such as `2026-03-01-feature-topic-research`"
        )))
    }
}

/// `vault rename REF --to NEW`: renames the file in its folder and rewrites
/// incoming links in every other corpus document.
pub fn rename(
    storage: &dyn Storage,
    reference: &str,
    new_stem: &str,
    expected_blob_hash: Option<&str>,
    dry_run: bool,
    today: Date,
) -> Result<Renamed> {
    super::begin(storage, dry_run)?;
    let corpus = Corpus::load(storage)?;
    let doc = resolve::resolve(&corpus, reference)?;
    let old_blob = doc.blob_oid();
    if let Some(e) = expected_blob_hash.filter(|e| !e.eq_ignore_ascii_case(&old_blob)) {
        return Err(Error::Conflict {
            path: doc.path.clone(),
            expected: e.to_string(),
            actual: old_blob,
        });
    }
    let new_stem = check_stem(new_stem)?;
    // Renaming a document to the stem it has is a no-op: nothing is
    // written or re-stamped, as in the reference.
    if new_stem == doc.stem() {
        return Ok(Renamed {
            status: Status::Unchanged,
            old_path: doc.path.clone(),
            new_path: doc.path.clone(),
            new_blob_hash: old_blob.clone(),
            old_blob_hash: old_blob,
            new_node_id: format!("doc:{new_stem}"),
            incoming_rewritten: 0,
            dry_run,
        });
    }
    let dir = doc.path.rsplit_once('/').map_or("", |(d, _)| d);
    let new_path = format!("{dir}/{new_stem}.md");
    if let Some(other) = corpus
        .by_stem(&new_stem)
        .into_iter()
        .find(|d| d.path != doc.path)
    {
        return Err(Error::StemTaken {
            stem: new_stem,
            path: other.path.clone(),
        });
    }
    if new_path != doc.path && storage.exists(&new_path)? {
        return Err(Error::FileExists { path: new_path });
    }
    let renames = HashMap::from([(doc.stem().to_lowercase(), new_stem.clone())]);
    let mut changes = Vec::new();
    if new_path != doc.path {
        changes.push(Change::Rename {
            from: doc.path.clone(),
            to: new_path.clone(),
        });
    }
    let (own, _) = repoint_related(&doc.text, &renames);
    let own = hash::refresh_modified_stamp(&own, today);
    let new_blob = hash::blob_oid(own.as_bytes());
    if *own != *doc.text {
        changes.push(Change::Write {
            path: new_path.clone(),
            bytes: own.into_bytes(),
        });
    }
    let mut incoming = 0;
    for other in corpus.docs.iter().filter(|d| d.path != doc.path) {
        let (text, n) = repoint_related(&other.text, &renames);
        if n > 0 {
            incoming += 1;
            let text = hash::refresh_modified_stamp(&text, today);
            changes.push(Change::Write {
                path: other.path.clone(),
                bytes: text.into_bytes(),
            });
        }
    }
    if !dry_run {
        apply(storage, &changes)?;
    }
    Ok(Renamed {
        status: Status::Updated,
        old_path: doc.path.clone(),
        new_path,
        old_blob_hash: old_blob,
        new_blob_hash: new_blob,
        new_node_id: format!("doc:{new_stem}"),
        incoming_rewritten: incoming,
        dry_run,
    })
}

//! Archive and restore (spec/vault-format.md §12): documents move to
//! `.vault/_archive/<vault-relative path>` byte for byte and back. Moves are
//! planned in full first; an existing destination aborts the whole batch.

use std::collections::BTreeSet;

use super::{Change, Status, apply, read_doc};
use crate::doc::name::{self, Token};
use crate::doc::{ARCHIVE_DIR, Corpus, Document, VAULT_DIR};
use crate::error::{Error, Result};
use crate::resolve;
use crate::storage::Storage;

/// What an archive operation did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Archived {
    /// `removed` (feature archive) or `updated` (documents archive).
    #[serde(skip)]
    pub status: Status,
    /// How many documents moved.
    pub archived_count: usize,
    /// Their new paths under `.vault/_archive/`, sorted.
    pub paths: Vec<String>,
    /// Live documents outside the batch that link to a moved document.
    pub cross_link_paths: Vec<String>,
    /// Whether nothing was written on purpose.
    pub dry_run: bool,
}

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Restored {
    /// `restored` (feature unarchive) or `updated` (manifest restore).
    #[serde(skip)]
    pub status: Status,
    /// How many documents came back.
    pub restored_count: usize,
    /// Their live paths, sorted.
    pub paths: Vec<String>,
    /// How many archived copies were dropped as identical to the live file.
    pub deduplicated_count: usize,
    /// Those archived copies.
    pub deduplicated_paths: Vec<String>,
    /// Live documents outside the batch that link to a restored document.
    pub cross_link_paths: Vec<String>,
    /// Whether nothing was written on purpose.
    pub dry_run: bool,
}

/// `.vault/x/y.md` → `.vault/_archive/x/y.md`.
pub fn archive_path(path: &str) -> String {
    format!(
        "{ARCHIVE_DIR}/{}",
        path.strip_prefix(&format!("{VAULT_DIR}/")).unwrap_or(path)
    )
}

/// `.vault/_archive/x/y.md` → `.vault/x/y.md`.
pub fn live_path(archived: &str) -> Option<String> {
    archived
        .strip_prefix(&format!("{ARCHIVE_DIR}/"))
        .map(|rest| format!("{VAULT_DIR}/{rest}"))
}

fn cross_links(
    live: &[&Document],
    moved_stems: &BTreeSet<String>,
    moved_paths: &BTreeSet<&str>,
) -> Vec<String> {
    live.iter()
        .filter(|d| !moved_paths.contains(d.path.as_str()))
        .filter(|d| {
            d.related_stems()
                .iter()
                .any(|s| moved_stems.contains(&s.to_lowercase()))
        })
        .map(|d| d.path.clone())
        .collect()
}

fn archive_docs(
    storage: &dyn Storage,
    corpus: &Corpus,
    docs: Vec<&Document>,
    dry_run: bool,
    status: Status,
) -> Result<Archived> {
    let mut changes = Vec::new();
    let mut paths = Vec::new();
    for d in &docs {
        let to = archive_path(&d.path);
        if storage.exists(&to)? {
            return Err(Error::FileExists { path: to });
        }
        changes.push(Change::Rename {
            from: d.path.clone(),
            to: to.clone(),
        });
        paths.push(to);
    }
    paths.sort();
    let stems: BTreeSet<String> = docs.iter().map(|d| d.stem().to_lowercase()).collect();
    let moved: BTreeSet<&str> = docs.iter().map(|d| d.path.as_str()).collect();
    let live: Vec<&Document> = corpus.docs.iter().collect();
    let cross_link_paths = cross_links(&live, &stems, &moved);
    if !dry_run {
        apply(storage, &changes)?;
    }
    Ok(Archived {
        status,
        archived_count: paths.len(),
        paths,
        cross_link_paths,
        dry_run,
    })
}

/// `vault feature archive TAG`: every live document tagged `#TAG` moves to
/// the archive.
pub fn archive_feature(storage: &dyn Storage, feature: &str, dry_run: bool) -> Result<Archived> {
    super::begin(storage, dry_run)?;
    let feature = name::normalize(feature, Token::Feature)?;
    let corpus = Corpus::load(storage)?;
    let docs: Vec<&Document> = corpus.feature_docs(&feature).collect();
    if docs.is_empty() {
        return Err(Error::Invalid(format!(
            "no live document is tagged `#{feature}`: nothing to archive"
        )));
    }
    archive_docs(storage, &corpus, docs, dry_run, Status::Removed)
}

/// `vault archive documents --manifest`: archives exactly the listed
/// documents (each a path, stem or wiki-link).
pub fn archive_documents(
    storage: &dyn Storage,
    refs: &[String],
    dry_run: bool,
) -> Result<Archived> {
    super::begin(storage, dry_run)?;
    let corpus = Corpus::load(storage)?;
    let mut docs = Vec::new();
    let mut failed = Vec::new();
    for r in refs.iter().map(|r| r.trim()).filter(|r| !r.is_empty()) {
        match corpus
            .by_path(r)
            .ok_or(())
            .or_else(|_| resolve::resolve(&corpus, r).map_err(|_| ()))
        {
            Ok(d) if !docs.iter().any(|x: &&Document| x.path == d.path) => docs.push(d),
            Ok(_) => {}
            Err(()) => failed.push(resolve::unresolved(&corpus, r)),
        }
    }
    if !failed.is_empty() {
        return Err(Error::Unresolved(failed));
    }
    archive_docs(storage, &corpus, docs, dry_run, Status::Updated)
}

/// Every archived document (parsed), sorted by archive path.
pub fn archived_docs(storage: &dyn Storage) -> Result<Vec<Document>> {
    let mut out = Vec::new();
    for e in storage.list(ARCHIVE_DIR)? {
        if e.path.ends_with(".md") {
            out.push(read_doc(storage, &e.path)?);
        }
    }
    Ok(out)
}

fn restore_docs(
    storage: &dyn Storage,
    archived: Vec<Document>,
    dedupe: bool,
    dry_run: bool,
    status: Status,
) -> Result<Restored> {
    let mut changes = Vec::new();
    let (mut paths, mut dedup) = (Vec::new(), Vec::new());
    for d in &archived {
        let to = live_path(&d.path)
            .ok_or_else(|| Error::Invalid(format!("`{}` is not under `{ARCHIVE_DIR}/`", d.path)))?;
        if storage.exists(&to)? {
            if dedupe && storage.read(&to)? == d.text.as_bytes() {
                changes.push(Change::Remove {
                    path: d.path.clone(),
                });
                dedup.push(d.path.clone());
                continue;
            }
            return Err(Error::FileExists { path: to });
        }
        changes.push(Change::Rename {
            from: d.path.clone(),
            to: to.clone(),
        });
        paths.push(to);
    }
    paths.sort();
    let corpus = Corpus::load(storage)?;
    let stems: BTreeSet<String> = archived.iter().map(|d| d.stem().to_lowercase()).collect();
    let live: Vec<&Document> = corpus.docs.iter().collect();
    let cross_link_paths = cross_links(&live, &stems, &BTreeSet::new());
    if !dry_run {
        apply(storage, &changes)?;
    }
    Ok(Restored {
        status,
        restored_count: paths.len(),
        paths,
        deduplicated_count: dedup.len(),
        deduplicated_paths: dedup,
        cross_link_paths,
        dry_run,
    })
}

/// `vault feature unarchive TAG`: the archived documents tagged `#TAG` move
/// back; an identical live copy is deduplicated.
pub fn unarchive_feature(storage: &dyn Storage, feature: &str, dry_run: bool) -> Result<Restored> {
    super::begin(storage, dry_run)?;
    let feature = name::normalize(feature, Token::Feature)?;
    let docs: Vec<Document> = archived_docs(storage)?
        .into_iter()
        .filter(|d| d.has_feature_tag(&feature))
        .collect();
    if docs.is_empty() {
        return Err(Error::Invalid(format!(
            "no archived document is tagged `#{feature}`: nothing to restore"
        )));
    }
    restore_docs(storage, docs, true, dry_run, Status::Restored)
}

/// `vault archive restore --manifest`: restores the listed archive paths
/// (`.vault/_archive/...`).
pub fn restore_documents(
    storage: &dyn Storage,
    paths: &[String],
    deduplicate_identical: bool,
    dry_run: bool,
) -> Result<Restored> {
    super::begin(storage, dry_run)?;
    let mut docs = Vec::new();
    for p in paths.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        if live_path(p).is_none() || !storage.exists(p)? {
            return Err(Error::Invalid(format!(
                "`{p}` is not an archived document: expected a path under `{ARCHIVE_DIR}/`"
            )));
        }
        docs.push(read_doc(storage, p)?);
    }
    restore_docs(
        storage,
        docs,
        deduplicate_identical,
        dry_run,
        Status::Updated,
    )
}

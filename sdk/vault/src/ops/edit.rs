//! `vault set-frontmatter`, `vault set-body` and `vault edit`: replace the
//! body and/or modelled frontmatter keys of one document in one atomic write,
//! guarded by an optional expected blob id and the pre-write checks.

use super::{Change, Status, apply};
use crate::checks::{self, Finding, Severity};
use crate::date::Date;
use crate::doc::{Corpus, DocType, Document};
use crate::error::{Error, Result};
use crate::frontmatter::edit::{replace_body, set_key};
use crate::frontmatter::render::{Quote, list_lines, rerender_plan, single};
use crate::storage::Storage;
use crate::{hash, resolve};

/// Frontmatter keys to replace; `None` leaves a key as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrontmatterEdit {
    /// New `date:` (strict `yyyy-mm-dd`).
    pub date: Option<String>,
    /// New tag list (each normalised to `#tag`, order kept).
    pub tags: Option<Vec<String>>,
    /// New related list (each resolved to `[[stem]]`).
    pub related: Option<Vec<String>>,
}

impl FrontmatterEdit {
    /// Whether no key is to change.
    pub fn is_empty(&self) -> bool {
        self.date.is_none() && self.tags.is_none() && self.related.is_none()
    }
}

/// The inputs of `vault edit` (and, restricted, of `set-body` and
/// `set-frontmatter`).
#[derive(Debug, Clone, Default)]
pub struct EditRequest {
    /// The document: stem, filename, path or `[[wiki-link]]`.
    pub reference: String,
    /// The new body, written directly after the closing fence.
    pub body: Option<String>,
    /// Frontmatter keys to replace.
    pub frontmatter: FrontmatterEdit,
    /// Refuse (nothing written) unless the file's blob id is this.
    pub expected_blob_hash: Option<String>,
    /// Skip the pre-write checks.
    pub no_check: bool,
    /// Compute everything, write nothing.
    pub dry_run: bool,
}

/// What an edit did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Edited {
    /// Workspace-relative path.
    pub path: String,
    /// `updated` or `unchanged`.
    pub status: Status,
    /// The git blob id of the file after the operation.
    pub blob_hash: String,
    /// Non-refusing findings of the pre-write checks.
    pub checks: Vec<Finding>,
    /// Whether the bytes changed (or would, in a dry run).
    pub changed: bool,
    /// Whether nothing was written on purpose.
    pub dry_run: bool,
}

/// Normalises a `--tags` value to `#tag`.
pub fn normalize_tag(raw: &str) -> String {
    format!("#{}", crate::doc::feature_arg(raw))
}

/// Applies `fm` to `text` (a document at `path` of `doc_type`) without
/// stamping: keys replaced in place, a plan re-serialised the plan writer's way.
pub fn apply_frontmatter(
    corpus: &Corpus,
    text: &str,
    doc_type: Option<DocType>,
    fm: &FrontmatterEdit,
) -> Result<String> {
    let mut t = text.to_string();
    if let Some(raw) = &fm.date {
        let d =
            Date::parse_strict(raw.trim()).map_err(|_| Error::InvalidDate { raw: raw.clone() })?;
        t = set_key(&t, "date", &[format!("date: {}", single(&d.to_string()))]).unwrap_or(t);
    }
    if let Some(tags) = &fm.tags {
        let tags: Vec<String> = tags.iter().map(|t| normalize_tag(t)).collect();
        t = set_key(&t, "tags", &list_lines("tags", &tags, Quote::Single)).unwrap_or(t);
    }
    if let Some(related) = &fm.related {
        let links = resolve::resolve_links(corpus, related)?;
        t = set_key(&t, "related", &list_lines("related", &links, Quote::Single)).unwrap_or(t);
    }
    if doc_type == Some(DocType::Plan) && t != text {
        t = rerender_plan(&t).unwrap_or(t);
    }
    Ok(t)
}

/// Plans an edit against a loaded corpus; writes nothing.
pub fn plan_edit(
    corpus: &Corpus,
    req: &EditRequest,
    today: Date,
) -> Result<(Edited, Option<Change>)> {
    let doc = resolve::resolve(corpus, &req.reference)?;
    let current = doc.blob_oid();
    if let Some(expected) = &req.expected_blob_hash
        && !expected.eq_ignore_ascii_case(&current)
    {
        return Err(Error::Conflict {
            path: doc.path.clone(),
            expected: expected.clone(),
            actual: current,
        });
    }
    doc.require_frontmatter()?;
    let mut text = doc.text.clone();
    if let Some(body) = &req.body {
        text = replace_body(&text, body).unwrap_or(text);
    }
    text = apply_frontmatter(corpus, &text, doc.doc_type, &req.frontmatter)?;
    if text == doc.text {
        let edited = Edited {
            path: doc.path.clone(),
            status: Status::Unchanged,
            blob_hash: current,
            checks: Vec::new(),
            changed: false,
            dry_run: req.dry_run,
        };
        return Ok((edited, None));
    }
    let text = hash::refresh_modified_stamp(&text, today);
    let findings = if req.no_check {
        Vec::new()
    } else {
        checks::prewrite(&Document::from_text(&doc.path, text.clone()))
    };
    let (errors, others): (Vec<Finding>, Vec<Finding>) = findings
        .into_iter()
        .partition(|f| f.severity == Severity::Error);
    if !errors.is_empty() {
        return Err(Error::Refused {
            path: doc.path.clone(),
            findings: errors,
        });
    }
    let edited = Edited {
        path: doc.path.clone(),
        status: Status::Updated,
        blob_hash: hash::blob_oid(text.as_bytes()),
        checks: others,
        changed: true,
        dry_run: req.dry_run,
    };
    Ok((
        edited,
        Some(Change::Write {
            path: doc.path.clone(),
            bytes: text.into_bytes(),
        }),
    ))
}

/// `vault edit`: body and/or frontmatter in one write. A stale
/// `expected_blob_hash` is [`Error::Conflict`]; error findings of the
/// pre-write checks are [`Error::Refused`]; both write nothing.
pub fn edit(storage: &dyn Storage, req: &EditRequest, today: Date) -> Result<Edited> {
    super::begin(storage, req.dry_run)?;
    let corpus = Corpus::load(storage)?;
    let (edited, change) = plan_edit(&corpus, req, today)?;
    if let Some(c) = change.filter(|_| !req.dry_run) {
        apply(storage, &[c])?;
    }
    Ok(edited)
}

/// `vault set-body`: replaces only the body.
pub fn set_body(
    storage: &dyn Storage,
    reference: &str,
    body: &str,
    expected_blob_hash: Option<&str>,
    today: Date,
) -> Result<Edited> {
    let req = EditRequest {
        reference: reference.to_string(),
        body: Some(body.to_string()),
        expected_blob_hash: expected_blob_hash.map(str::to_string),
        ..EditRequest::default()
    };
    edit(storage, &req, today)
}

/// `vault set-frontmatter`: replaces the given keys, keeping the body
/// byte for byte.
pub fn set_frontmatter(
    storage: &dyn Storage,
    reference: &str,
    fm: &FrontmatterEdit,
    today: Date,
) -> Result<Edited> {
    let req = EditRequest {
        reference: reference.to_string(),
        frontmatter: fm.clone(),
        ..EditRequest::default()
    };
    edit(storage, &req, today)
}

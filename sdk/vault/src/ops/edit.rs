//! `vault set-frontmatter`, `vault set-body` and `vault edit`: replace the
//! body and/or modelled frontmatter keys of one document in one atomic write,
//! guarded by an optional expected blob id and the pre-write checks.

use super::{Change, Status, apply};
use crate::checks::{self, Finding, Severity};
use crate::date::Date;
use crate::doc::{Corpus, Document};
use crate::error::{Error, Result};
use crate::frontmatter::edit::{replace_body, set_key};
use crate::frontmatter::render::{Quote, list_lines, single};
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

/// Applies `fm` to `text` without stamping: each given key's block replaced
/// in place, an absent key added last. A plan is edited the same way (the
/// reference's edit engine never hands a plan to the plan writer, so key
/// order, quoting and `related: []` stay as they were).
pub fn apply_frontmatter(corpus: &Corpus, text: &str, fm: &FrontmatterEdit) -> Result<String> {
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
    let mut text = doc.text.to_string();
    if let Some(body) = &req.body {
        text = replace_body(&text, body).unwrap_or(text);
    }
    text = match apply_frontmatter(corpus, &text, &req.frontmatter) {
        // A date that is not `yyyy-mm-dd` is refused by the pre-write
        // frontmatter validation (the reference's model validator), not
        // by the command line: `status: failed`, exit 1, nothing written.
        Err(Error::InvalidDate { raw }) => {
            let message =
                format!("invalid date `{raw}`: `date:` must be a real day written `yyyy-mm-dd`");
            let finding = Finding::new(
                "frontmatter",
                Severity::Warning,
                Some(&doc.path),
                message.clone(),
            )
            .fixable(None);
            return Err(Error::Refused {
                path: doc.path.clone(),
                findings: vec![finding],
                errors: vec![message],
            });
        }
        other => other?,
    };
    // Every edit re-stamps `modified:` and re-attests `body_hash:`, as the
    // reference does: an edit that changes no key or body still writes
    // when the stamps move, and is `unchanged` only when the bytes stay.
    let text = hash::refresh_modified_stamp(&text, today);
    if *text == *doc.text {
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
            errors: Vec::new(),
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

//! ADR status and supersession (spec/vault-format.md §11): the status lives
//! only in the body H1 marker `| (**status:** `accepted`)`; `supersede`
//! links an accepted successor to the ADR it replaces.

use std::collections::HashSet;

use crate::date::Date;
use crate::doc::{Corpus, DocType, Document};
use crate::error::{Error, Result};
use crate::frontmatter::render::{Rerender, rerender};
use crate::ops::{Change, Status, apply};
use crate::pattern::Pattern;
use crate::storage::Storage;
use crate::{hash, resolve};

/// The status of an ADR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AdrStatus {
    /// Drafted, not ratified.
    Proposed,
    /// Ratified and governing.
    Accepted,
    /// Declined, kept for the record.
    Rejected,
    /// Replaced by a named successor.
    Superseded,
    /// Retired without a successor.
    Deprecated,
}

impl AdrStatus {
    /// Every status, in the order the spec lists them.
    pub const ALL: [AdrStatus; 5] = [
        AdrStatus::Proposed,
        AdrStatus::Accepted,
        AdrStatus::Rejected,
        AdrStatus::Superseded,
        AdrStatus::Deprecated,
    ];

    /// The lowercase word.
    pub fn as_str(self) -> &'static str {
        match self {
            AdrStatus::Proposed => "proposed",
            AdrStatus::Accepted => "accepted",
            AdrStatus::Rejected => "rejected",
            AdrStatus::Superseded => "superseded",
            AdrStatus::Deprecated => "deprecated",
        }
    }

    /// The status a marker token names (backticks, case and surrounding
    /// space ignored), if it is a canonical one.
    pub fn parse(token: &str) -> Option<AdrStatus> {
        match token
            .trim()
            .trim_matches('`')
            .trim()
            .to_lowercase()
            .as_str()
        {
            "proposed" => Some(AdrStatus::Proposed),
            "accepted" => Some(AdrStatus::Accepted),
            "rejected" => Some(AdrStatus::Rejected),
            "superseded" => Some(AdrStatus::Superseded),
            "deprecated" => Some(AdrStatus::Deprecated),
            _ => None,
        }
    }
}

static MARKER: Pattern = Pattern::new(r"\|\s+\(\*\*status:\*\*\s+(`?)([^`)]+?)(`?)\)\s*$");

/// The status marker ending an ADR's H1 (`| (**status:** `accepted`)`),
/// located in that line: the one reading of it for the model and the
/// `adr-status` check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker<'h> {
    /// The token as written, without its backticks.
    pub token: &'h str,
    /// The token's byte range in the line.
    pub token_range: std::ops::Range<usize>,
    /// The range of the token with the backticks around it, if any.
    pub quoted_range: std::ops::Range<usize>,
    /// Whether the token has a backtick on both sides.
    pub quoted: bool,
}

/// The status marker of an H1 line, if it has one.
pub fn marker(h1: &str) -> Option<Marker<'_>> {
    let c = MARKER.captures(h1)?;
    let (open, token, close) = (c.get(1)?, c.get(2)?, c.get(3)?);
    Some(Marker {
        token: token.as_str(),
        token_range: token.range(),
        quoted_range: open.start()..close.end(),
        quoted: !open.is_empty() && !close.is_empty(),
    })
}

/// The status written in the document's first H1, if it is a known word.
pub fn status(doc: &Document) -> Option<AdrStatus> {
    marker(doc.title()?).and_then(|m| AdrStatus::parse(m.token))
}

/// `text` with the status token of its first H1 replaced by `new`, backticks
/// kept. `None` when there is no marker.
pub fn set_status(doc: &Document, new: AdrStatus) -> Option<String> {
    let title = doc.title()?;
    let range = marker(title)?.token_range;
    let start = doc.body_range().start + doc.body().find(title)?;
    let mut out = doc.text.to_string();
    out.replace_range(start + range.start..start + range.end, new.as_str());
    Some(out)
}

/// What `vault adr supersede` did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Superseded {
    /// `updated`, or `unchanged` for a replay.
    #[serde(skip)]
    pub status: Status,
    /// The superseded ADR.
    pub old_path: String,
    /// The successor.
    pub new_path: String,
}

fn adr<'c>(corpus: &'c Corpus, r: &str) -> Result<&'c Document> {
    let d = resolve::resolve(corpus, r)?;
    if d.doc_type != Some(DocType::Adr) {
        return Err(Error::WrongType {
            path: d.path.clone(),
            expected: "adr",
        });
    }
    Ok(d)
}

/// `vault adr supersede OLD --by NEW` (§11): both must be ADRs; NEW must be
/// `accepted` and not superseded; OLD `accepted` (or already superseded by
/// NEW: a replay); NEW must not be in OLD's `supersedes` ancestry.
pub fn supersede(storage: &dyn Storage, old: &str, by: &str, today: Date) -> Result<Superseded> {
    crate::ops::begin(storage, false)?;
    let corpus = Corpus::load(storage)?;
    let (old_doc, new_doc) = (adr(&corpus, old)?, adr(&corpus, by)?);
    if old_doc.path == new_doc.path {
        return Err(Error::Adr(format!(
            "`{}` cannot supersede itself: give two different ADRs",
            old_doc.stem()
        )));
    }
    old_doc.require_frontmatter()?;
    new_doc.require_frontmatter()?;
    let new_status = status(new_doc);
    if new_status != Some(AdrStatus::Accepted) {
        return Err(Error::Adr(format!(
            "successor `{}` must be `accepted` before it supersedes another ADR, found `{}`",
            new_doc.stem(),
            new_status.map_or("no status", AdrStatus::as_str)
        )));
    }
    if let Some(s) = new_doc.meta().superseded_by() {
        return Err(Error::Adr(format!(
            "successor `{}` is itself superseded by `{s}`",
            new_doc.stem()
        )));
    }
    let replay = old_doc
        .meta()
        .superseded_by()
        .is_some_and(|s| s.eq_ignore_ascii_case(new_doc.stem()));
    if let Some(s) = old_doc.meta().superseded_by().filter(|_| !replay) {
        return Err(Error::Adr(format!(
            "`{}` is already superseded by `{s}`",
            old_doc.stem()
        )));
    }
    match status(old_doc) {
        Some(AdrStatus::Accepted) => {}
        Some(AdrStatus::Superseded) if replay => {}
        other => {
            return Err(Error::Adr(format!(
                "`{}` must be `accepted` to be superseded, found `{}`",
                old_doc.stem(),
                other.map_or("no status", AdrStatus::as_str)
            )));
        }
    }
    // Cycle check: OLD's supersedes ancestry must not reach NEW.
    let mut seen = HashSet::new();
    let mut stack: Vec<String> = old_doc.meta().supersedes().to_vec();
    while let Some(s) = stack.pop() {
        if s.eq_ignore_ascii_case(new_doc.stem()) {
            return Err(Error::Adr(format!(
                "`{}` already descends from `{}`: superseding would make a cycle",
                old_doc.stem(),
                new_doc.stem()
            )));
        }
        if seen.insert(s.to_lowercase())
            && let Some(d) = corpus
                .by_stem(&s)
                .into_iter()
                .find(|d| d.doc_type == Some(DocType::Adr))
        {
            stack.extend(d.meta().supersedes().iter().map(str::to_owned));
        }
    }
    let lists_old = new_doc
        .meta()
        .supersedes()
        .iter()
        .any(|s| s.eq_ignore_ascii_case(old_doc.stem()));
    let result = Superseded {
        status: Status::Unchanged,
        old_path: old_doc.path.clone(),
        new_path: new_doc.path.clone(),
    };
    if replay && lists_old {
        return Ok(result);
    }
    let old_text =
        set_status(old_doc, AdrStatus::Superseded).unwrap_or_else(|| old_doc.text.to_string());
    let old_parsed = Document::from_text(&old_doc.path, old_text);
    let mut old_meta = old_parsed.meta().to_owned();
    old_meta.superseded_by = Some(new_doc.stem().to_owned());
    let old_out = rerender(&old_parsed.text, &old_meta, Rerender::Supersede).ok_or_else(|| {
        Error::NoFrontmatter {
            path: old_doc.path.clone(),
        }
    })?;
    let mut new_meta = new_doc.meta().to_owned();
    if !lists_old {
        new_meta.supersedes.push(old_doc.stem().to_owned());
    }
    let new_out = rerender(&new_doc.text, &new_meta, Rerender::Supersede).ok_or_else(|| {
        Error::NoFrontmatter {
            path: new_doc.path.clone(),
        }
    })?;
    let mut changes = vec![
        Change::Write {
            path: old_doc.path.clone(),
            bytes: hash::refresh_modified_stamp(&old_out, today).into_bytes(),
        },
        Change::Write {
            path: new_doc.path.clone(),
            bytes: hash::refresh_modified_stamp(&new_out, today).into_bytes(),
        },
    ];
    changes.sort_by(|a, b| match (a, b) {
        (Change::Write { path: x, .. }, Change::Write { path: y, .. }) => x.cmp(y),
        _ => std::cmp::Ordering::Equal,
    });
    apply(storage, &changes)?;
    Ok(Superseded {
        status: Status::Updated,
        ..result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_marker_is_read_and_rewritten_keeping_backticks() {
        let d = Document::from_text(
            ".vault/adr/x.md",
            "---\ndate: x\n---\n\n# `f` adr: `t` | (**status:** `Accepted`)\n",
        );
        assert_eq!(status(&d), Some(AdrStatus::Accepted));
        let t = set_status(&d, AdrStatus::Superseded).unwrap();
        assert!(t.ends_with("| (**status:** `superseded`)\n"), "{t}");
        let d = Document::from_text(".vault/adr/x.md", "# t | (**status:** proposed)\n");
        assert_eq!(status(&d), Some(AdrStatus::Proposed));
    }
}

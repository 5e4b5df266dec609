//! ADR cross-referencing, the one implementation behind `vault adr crossref`
//! and the MCP `crossref` tool: which ADRs a call judges, which candidates
//! are verdicts, and which links `apply` writes (spec/mcp-tools.md §6.8,
//! graph-and-search.md §9).
//!
//! The selection follows the reference's `crossref/_service.py`: a source is
//! a file directly under `.vault/adr/` (the ADRs the ranking reads), named by
//! stem, filename, path or `[[wiki-link]]`; a sweep takes the ADRs in stem
//! order after an optional cursor (itself an ADR), skips superseded, rejected
//! and deprecated decisions, narrows by feature and, with `isolated`, to ADRs
//! that declare no link to another ADR; named ADRs and `all` each stand
//! alone.
//!
//! The verdicts keep the reference's meaning: `link` is a candidate judged a
//! cross-reference (applying writes it unless the source declares it
//! already), `weak` a link the source declares that falls below that
//! judgment, and an undeclared candidate below it is not shown. The
//! reference judges with a hosted model (pair score at least 0.5) and
//! answers `not_configured` without a key; ours judges locally, from the two
//! signals of the prefilter: a candidate is a link when both signals see it
//! (artifact and subject similarity both above zero) or one alone is strong
//! ([`STRONG`]). Its `relation` is `shared_artifact` when the two decisions
//! name a common artifact and `topic_only` otherwise, from the reference's
//! relation labels.

use serde::Serialize;

use super::link;
use crate::date::Date;
use crate::doc::feature_arg;
use crate::error::{Error, Result};
use crate::graph::GraphDoc;
use crate::graph::links::related_target;
use crate::search::{AdrIndex, AdrRecord, RankedAdr};
use crate::storage::Storage;

/// Most verdicts shown per source.
pub const MAX_VERDICTS: usize = 5;
/// Sources one sweep judges unless told otherwise.
pub const DEFAULT_SOURCES: usize = 10;
/// Most sources one sweep judges.
pub const MAX_SOURCES: usize = 50;
/// A similarity at or above this makes a candidate a link on one signal alone.
pub const STRONG: f64 = 0.25;
/// What a reply says about how candidates were ranked.
pub const RANKING: &str = "local-prefilter";
/// ADR statuses a sweep passes over: a decision that no longer governs gains
/// nothing from new links (it is still judged when named).
pub const RETIRED: [&str; 3] = ["superseded", "rejected", "deprecated"];

/// What to judge, as either entry point receives it.
#[derive(Debug, Clone, Default)]
pub struct CrossrefRequest {
    /// ADRs named outright (stem, filename, path or `[[wiki-link]]`).
    pub refs: Vec<String>,
    /// Sweep this feature's ADRs (`#` optional).
    pub feature: Option<String>,
    /// Sweep the ADRs that declare no link to another ADR.
    pub isolated: bool,
    /// Sweep every ADR.
    pub all: bool,
    /// Continue a sweep after this ADR.
    pub after: Option<String>,
    /// Sources to judge in one sweep: `None` or 0 is [`DEFAULT_SOURCES`],
    /// more than [`MAX_SOURCES`] is [`MAX_SOURCES`].
    pub max_sources: Option<usize>,
    /// Write the `link` verdicts the source does not declare yet.
    pub apply: bool,
    /// A draft body judged in place of the one saved (one ADR, no apply).
    pub body: Option<String>,
}

/// What a verdict means for the source's `related:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictKind {
    /// A cross-reference the source should declare.
    Link,
    /// A declared link judged below a cross-reference; never removed.
    Weak,
}

/// One candidate worth reporting.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// The candidate ADR's stem.
    pub stem: String,
    /// The verdict.
    pub kind: VerdictKind,
    /// The fused rank score, rounded to three places.
    pub score: f64,
    /// `shared_artifact` or `topic_only`.
    pub relation: &'static str,
    /// Whether the source already declares the candidate.
    pub declared: bool,
    /// With `apply`, on each undeclared link: whether this call wrote it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied: Option<bool>,
}

/// What the ranking read for one source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// How many other ADRs were ranked.
    pub candidates: usize,
    /// Always true: no hosted judge was asked.
    pub local_only: bool,
}

/// The outcome for one source.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceOutcome {
    /// The source ADR's stem.
    pub source: String,
    /// Always `ok`: a local judgment never declines.
    pub status: &'static str,
    /// Links (best first), then declared weak links (weakest first), at most
    /// [`MAX_VERDICTS`].
    pub verdicts: Vec<Verdict>,
    /// How many verdicts there were before the cut.
    pub verdicts_total: usize,
    /// Whether verdicts were cut.
    pub truncated: bool,
    /// How many shown verdicts are links.
    pub links: usize,
    /// How many links this call wrote.
    pub written: usize,
    /// The candidates whose link could not be written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub write_failed: Vec<String>,
    /// What the ranking read.
    pub coverage: Coverage,
    /// Whether a draft body was judged instead of the saved one.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub draft: bool,
}

/// The outcome of one call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CrossrefOutcome {
    /// One row per judged source, in stem order.
    pub sources: Vec<SourceOutcome>,
    /// How many sources were judged.
    pub judged: usize,
    /// Links shown, over every source.
    pub links: usize,
    /// Links written, over every source.
    pub written: usize,
    /// Selected sources left for a later call.
    pub remaining: usize,
    /// The cursor for the next call when sources remain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_after: Option<String>,
    /// Always [`RANKING`].
    pub ranking: &'static str,
}

/// The ADR stem a reference names, or a refusal naming it.
fn resolve(index: &AdrIndex, reference: &str) -> Result<String> {
    let text = reference.trim();
    let stem = match related_target(text) {
        Some(target) => target.trim().to_owned(),
        None => {
            let slashed = text.replace('\\', "/");
            let name = slashed.rsplit('/').next().unwrap_or_default();
            name.strip_suffix(".md").unwrap_or(name).to_owned()
        }
    };
    match index.record(&stem) {
        Some(record) => Ok(record.stem.clone()),
        None => Err(Error::Invalid(format!(
            "'{reference}' names no ADR in this vault"
        ))),
    }
}

/// The sources a request judges, in stem order, and how many it leaves.
fn select(index: &AdrIndex, req: &CrossrefRequest) -> Result<(Vec<String>, usize)> {
    let refuse = |message: &str| Err(Error::Invalid(message.to_owned()));
    let single = req.refs.len() == 1
        && req.feature.is_none()
        && !req.isolated
        && !req.all
        && req.after.is_none();
    if req.body.is_some() && !single {
        return refuse("a draft body requires one ADR, without sweep options");
    }
    if req.body.is_some() && req.apply {
        return refuse("a draft body cannot be combined with apply");
    }
    if req.refs.is_empty() && req.feature.is_none() && !req.isolated && !req.all {
        return refuse("name an ADR, or sweep by feature, isolation or all");
    }
    let feature = req.feature.as_deref().map(feature_arg);
    if feature == Some("") {
        return refuse("a feature filter needs a feature name");
    }
    if req.all && (feature.is_some() || req.isolated) {
        return refuse("sweep all ADRs, or narrow by feature or isolation");
    }
    let mut stems: Vec<String> = if req.refs.is_empty() {
        index
            .records()
            .iter()
            .filter(|r| r.status.as_deref().is_none_or(|s| !RETIRED.contains(&s)))
            .filter(|r| feature.is_none_or(|f| r.feature == f))
            .filter(|r| !req.isolated || r.declared.is_empty())
            .map(|r| r.stem.clone())
            .collect()
    } else {
        if feature.is_some() || req.isolated || req.all {
            return refuse("name ADRs or sweep by feature, isolation or all, not both");
        }
        req.refs
            .iter()
            .map(|r| resolve(index, r))
            .collect::<Result<_>>()?
    };
    stems.sort();
    stems.dedup();
    if let Some(after) = &req.after {
        let cursor = resolve(index, after)?;
        stems.retain(|s| *s > cursor);
    }
    let size = match req.max_sources {
        None | Some(0) => DEFAULT_SOURCES,
        Some(n) => n.min(MAX_SOURCES),
    };
    let remaining = stems.len().saturating_sub(size);
    stems.truncate(size);
    Ok((stems, remaining))
}

/// The local judgment of one ranked candidate, or `None` when it is not
/// shown (neither a link nor declared).
fn judge(candidate: &RankedAdr) -> Option<VerdictKind> {
    let (a, h) = (candidate.artifact_similarity, candidate.header_similarity);
    if (a > 0.0 && h > 0.0) || a >= STRONG || h >= STRONG {
        Some(VerdictKind::Link)
    } else if candidate.declared {
        Some(VerdictKind::Weak)
    } else {
        None
    }
}

/// The verdicts for one ranked list: links best first, then weak links
/// weakest first (the reference's order).
fn verdicts(ranked: &[RankedAdr]) -> Vec<Verdict> {
    let mut judged: Vec<(&RankedAdr, VerdictKind)> = ranked
        .iter()
        .filter_map(|c| judge(c).map(|k| (c, k)))
        .collect();
    judged.sort_by(|(a, ka), (b, kb)| {
        let order = |k: &VerdictKind| usize::from(*k == VerdictKind::Weak);
        order(ka).cmp(&order(kb)).then_with(|| match ka {
            VerdictKind::Link => b.score.total_cmp(&a.score).then(a.stem.cmp(&b.stem)),
            VerdictKind::Weak => a.score.total_cmp(&b.score).then(a.stem.cmp(&b.stem)),
        })
    });
    judged
        .into_iter()
        .map(|(c, kind)| Verdict {
            stem: c.stem.clone(),
            kind,
            score: (c.score * 1000.0).round() / 1000.0,
            relation: if c.artifact_similarity > 0.0 {
                "shared_artifact"
            } else {
                "topic_only"
            },
            declared: c.declared,
            applied: None,
        })
        .collect()
}

/// The record of `stem` with `body` in place of its saved body: same
/// identity and declared links, the draft's title when it has one.
fn draft_record(index: &AdrIndex, doc: &GraphDoc, body: &str) -> Result<AdrRecord> {
    let prose = crate::search::crossref::strip_comments(body);
    if prose.trim().is_empty() || prose.trim().starts_with("---") {
        return Err(Error::Invalid(
            "a draft needs nonempty body prose without frontmatter".to_owned(),
        ));
    }
    let text = format!("{}{body}", &doc.text[..doc.body_start()]);
    let mut record = AdrRecord::from_doc(&GraphDoc::from_text(&doc.path, &text));
    if let Some(saved) = index.record(doc.stem()) {
        record.declared = saved.declared.clone();
    }
    Ok(record)
}

/// Judge the ADRs `req` selects among `docs` and, with `apply`, write each
/// source's undeclared links through `vault link add`'s writer. `hold` is
/// called with a source's path before its first write and what it returns
/// is kept until that source's links are written (the MCP server holds the
/// reference's document sentinel there); a link that cannot be written is
/// listed in `write_failed` and the rest go on. A request that selects
/// nothing valid is refused with [`Error::Invalid`], before anything is
/// written.
pub fn crossref<G, E: From<Error>>(
    storage: &dyn Storage,
    docs: &[GraphDoc],
    req: &CrossrefRequest,
    today: Date,
    mut hold: impl FnMut(&str) -> std::result::Result<G, E>,
) -> std::result::Result<CrossrefOutcome, E> {
    let index = AdrIndex::build(docs).map_err(|e| Error::Invalid(e.to_string()))?;
    let (stems, remaining) = select(&index, req)?;
    let mut outcome = CrossrefOutcome {
        sources: Vec::with_capacity(stems.len()),
        judged: stems.len(),
        links: 0,
        written: 0,
        remaining,
        next_after: (remaining > 0).then(|| stems.last().cloned()).flatten(),
        ranking: RANKING,
    };
    for stem in &stems {
        let doc = docs.iter().find(|d| d.stem() == stem && d.has_text());
        let ranked = match (&req.body, doc) {
            (Some(body), Some(doc)) => index.rank_record(&draft_record(&index, doc, body)?),
            _ => index.rank(stem).unwrap_or_default(),
        };
        let mut shown = verdicts(&ranked);
        let total = shown.len();
        shown.truncate(MAX_VERDICTS);
        let mut row = SourceOutcome {
            source: stem.clone(),
            status: "ok",
            links: shown.iter().filter(|v| v.kind == VerdictKind::Link).count(),
            verdicts: shown,
            verdicts_total: total,
            truncated: total > MAX_VERDICTS,
            written: 0,
            write_failed: Vec::new(),
            coverage: Coverage {
                candidates: ranked.len(),
                local_only: true,
            },
            draft: req.body.is_some(),
        };
        let wanted = |v: &Verdict| v.kind == VerdictKind::Link && !v.declared;
        if req.apply
            && let Some(doc) = doc
            && row.verdicts.iter().any(wanted)
        {
            let _held = hold(&doc.path)?;
            for verdict in row.verdicts.iter_mut().filter(|v| wanted(v)) {
                match link::add(storage, stem, &verdict.stem, false, false, today) {
                    Ok(change) => {
                        let applied = change.status == super::Status::Created;
                        verdict.applied = Some(applied);
                        row.written += usize::from(applied);
                    }
                    Err(_) => {
                        verdict.applied = Some(false);
                        row.write_failed.push(verdict.stem.clone());
                    }
                }
            }
        }
        outcome.links += row.links;
        outcome.written += row.written;
        outcome.sources.push(row);
    }
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;
    use crate::graph::read_corpus;

    fn adr(storage: &MemStorage, stem: &str, title: &str, related: &[&str], body: &str) {
        let related = if related.is_empty() {
            "related: []\n".to_owned()
        } else {
            let items: String = related.iter().map(|r| format!("  - '[[{r}]]'\n")).collect();
            format!("related:\n{items}")
        };
        let text = format!(
            "---\ntags:\n  - '#adr'\n  - '#cache'\ndate: '2026-03-01'\nmodified: '2026-03-01'\n{related}---\n\n# `cache` adr: {title}\n\n## Decision\n\n{body}\n"
        );
        storage.insert(&format!(".vault/adr/{stem}.md"), text);
    }

    fn vault() -> MemStorage {
        let s = MemStorage::new();
        adr(
            &s,
            "2026-03-01-a-adr",
            "evict old entries",
            &[],
            "Evict with `LruCache` in `src/evict.rs`.",
        );
        adr(
            &s,
            "2026-03-02-b-adr",
            "evict entries by age",
            &[],
            "Evict with `LruCache` in `src/evict.rs`.",
        );
        adr(
            &s,
            "2026-03-03-c-adr",
            "rotate signing keys",
            &["2026-03-01-a-adr"],
            "Rotate in `src/keys.rs`.",
        );
        adr(
            &s,
            "2026-03-04-d-adr",
            "log as json | (**status:** superseded)",
            &[],
            "Log with `JsonLayer`.",
        );
        s
    }

    fn run(storage: &MemStorage, req: CrossrefRequest) -> Result<CrossrefOutcome> {
        let (docs, _) = read_corpus(storage).unwrap();
        crossref(storage, &docs, &req, Date::new(2026, 4, 1).unwrap(), |_| {
            Ok::<_, Error>(())
        })
    }

    #[test]
    fn isolation_is_declaring_no_adr_link_as_the_reference_reads_it() {
        let s = vault();
        let out = run(
            &s,
            CrossrefRequest {
                isolated: true,
                ..Default::default()
            },
        )
        .unwrap();
        let judged: Vec<&str> = out.sources.iter().map(|r| r.source.as_str()).collect();
        // `a` is linked to by `c` but declares nothing itself: still isolated.
        assert!(judged.contains(&"2026-03-01-a-adr"), "{judged:?}");
        assert!(!judged.contains(&"2026-03-03-c-adr"), "{judged:?}");
    }

    #[test]
    fn a_reference_to_something_that_is_not_an_adr_is_refused() {
        let s = vault();
        s.insert(
            ".vault/research/2026-03-01-cache-research.md",
            "---\ntags: ['#research', '#cache']\n---\n# R\n",
        );
        let err = run(
            &s,
            CrossrefRequest {
                refs: vec!["2026-03-01-cache-research".into()],
                ..Default::default()
            },
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "'2026-03-01-cache-research' names no ADR in this vault"
        );
    }

    #[test]
    fn apply_writes_each_undeclared_link_once() {
        let s = vault();
        let req = CrossrefRequest {
            refs: vec!["[[2026-03-01-a-adr]]".into()],
            apply: true,
            ..Default::default()
        };
        let first = run(&s, req.clone()).unwrap();
        assert_eq!(first.sources[0].verdicts[0].stem, "2026-03-02-b-adr");
        assert_eq!(first.written, 1);
        let text =
            String::from_utf8(s.snapshot()[".vault/adr/2026-03-01-a-adr.md"].clone()).unwrap();
        assert!(text.contains("[[2026-03-02-b-adr]]"), "{text}");
        let again = run(&s, req).unwrap();
        assert_eq!((again.links, again.written), (1, 0));
        assert!(again.sources[0].verdicts[0].declared);
    }

    #[test]
    fn a_draft_cannot_be_applied_nor_swept() {
        let s = vault();
        let body = Some("## Decision\n\nUse `LruCache`.\n".to_owned());
        let apply = CrossrefRequest {
            refs: vec!["2026-03-01-a-adr".into()],
            apply: true,
            body: body.clone(),
            ..Default::default()
        };
        assert!(run(&s, apply).is_err());
        let sweep = CrossrefRequest {
            all: true,
            body,
            ..Default::default()
        };
        assert!(run(&s, sweep).is_err());
    }
}

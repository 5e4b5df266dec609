//! `crossref`: which ADRs an ADR relates to, ranked locally; with `apply`,
//! the suggested links are written into its `related:` (`spec/mcp-tools.md`
//! §6.8, `graph-and-search.md` §9).
//!
//! The local ranking is the reference's prefilter (shared code artifacts and
//! decision wording, fused by reciprocal rank). Without a hosted judge a
//! candidate is a `link` when both signals agree or one is strong, and `weak`
//! when only one signal is faint; candidates with neither are not shown.

use serde::Deserialize;
use serde_json::{Value, json};
use vaultspec_vault::graph::{self, GraphDoc};
use vaultspec_vault::ops::link;
use vaultspec_vault::resolve;
use vaultspec_vault::search::{AdrIndex, AdrRecord, RankedAdr};
use vaultspec_vault::{Corpus, Storage};

use super::parse;
use crate::mcp::context::Context;
use crate::mcp::reply::{Refusal, Reply, ToolResult};

/// Most verdicts shown per source.
pub const MAX_VERDICTS: usize = 5;

/// A similarity at or above this makes a candidate a link on one signal alone.
pub const STRONG: f64 = 0.25;

#[derive(Deserialize)]
struct Args {
    #[serde(default)]
    refs: Vec<String>,
    #[serde(rename = "ref")]
    single: Option<String>,
    feature: Option<String>,
    #[serde(default)]
    isolated: bool,
    #[serde(default)]
    all_adrs: bool,
    after: Option<String>,
    #[serde(default = "ten")]
    max_sources: usize,
    #[serde(default)]
    apply: bool,
    body: Option<String>,
}

fn ten() -> usize {
    10
}

fn kind(candidate: &RankedAdr) -> Option<&'static str> {
    let (a, h) = (candidate.artifact_similarity, candidate.header_similarity);
    if (a > 0.0 && h > 0.0) || a >= STRONG || h >= STRONG {
        Some("link")
    } else if a > 0.0 || h > 0.0 {
        Some("weak")
    } else {
        None
    }
}

/// Judge one ADR, or sweep several.
pub fn call(context: &Context, args: Value) -> ToolResult {
    let mut args: Args = parse(args)?;
    if let Some(single) = args.single.take() {
        args.refs = vec![single];
    }
    let sweeping = args.feature.is_some() || args.isolated || args.all_adrs || args.after.is_some();
    if args.body.is_some() && (sweeping || args.refs.len() != 1) {
        return Err(Refusal::tool(
            "a draft body requires one ADR, without sweep options",
        ));
    }
    let storage = context.storage()?;
    let graph = graph::load_graph(&storage)?;
    let index = AdrIndex::build(graph.docs())?;
    let adr_stems: Vec<String> = index.records().iter().map(|r| r.stem.clone()).collect();

    let (sources, remaining, next_after) = if !sweeping && args.refs.len() == 1 {
        (vec![resolve_adr(&storage, &args.refs[0])?], 0, None)
    } else if sweeping || !args.refs.is_empty() {
        let mut chosen: Vec<String> = if args.refs.is_empty() {
            select(&index, &args)
        } else {
            args.refs
                .iter()
                .map(|r| resolve_adr(&storage, r))
                .collect::<Result<_, _>>()?
        };
        if let Some(after) = &args.after {
            chosen.retain(|s| s.as_str() > after.as_str());
        }
        let remaining = chosen.len().saturating_sub(args.max_sources);
        chosen.truncate(args.max_sources);
        let next = (remaining > 0).then(|| chosen.last().cloned()).flatten();
        (chosen, remaining, next)
    } else {
        return Err(Refusal::tool(
            "name an ADR, or sweep by feature, isolation or all",
        ));
    };

    let _lock = if args.apply {
        Some(context.lock_writes()?)
    } else {
        None
    };
    let mut rows = Vec::new();
    let (mut links, mut written) = (0, 0);
    for source in &sources {
        if !adr_stems.contains(source) {
            rows.push(json!({"source": source, "status": "unavailable", "verdicts": [], "verdicts_total": 0,
                "truncated": false, "links": 0, "written": 0, "reason": "not an ADR"}));
            continue;
        }
        let ranked = match (&args.body, graph.docs().iter().find(|d| &d.stem == source)) {
            (Some(body), Some(doc)) => {
                let draft = format!("---\n{}---\n{}", doc.frontmatter_yaml(), body);
                index.rank_record(&AdrRecord::from_doc(&GraphDoc::from_text(
                    &doc.path, &draft,
                )))
            }
            _ => index.rank(source).unwrap_or_default(),
        };
        let judged: Vec<(&RankedAdr, &str)> = ranked
            .iter()
            .filter_map(|c| kind(c).map(|k| (c, k)))
            .collect();
        // Applying links writes the source ADR: hold its sentinel as the
        // reference's writers do.
        let _sentinel = match graph.docs().iter().find(|d| &d.stem == source) {
            Some(doc) if args.apply && args.body.is_none() => context.lock_document(&doc.path)?,
            _ => None,
        };
        let total = judged.len();
        let mut verdicts = Vec::new();
        let (mut source_links, mut source_written) = (0, 0);
        for (candidate, k) in judged.into_iter().take(MAX_VERDICTS) {
            let mut verdict = json!({
                "stem": candidate.stem,
                "kind": k,
                "score": (candidate.score * 1000.0).round() / 1000.0,
                "relation": "related",
                "declared": candidate.declared,
            });
            if k == "link" {
                source_links += 1;
                if args.apply && !candidate.declared && args.body.is_none() {
                    let change = link::add(
                        &storage,
                        source,
                        &candidate.stem,
                        false,
                        false,
                        context.today(),
                    )?;
                    let applied = change.status != vaultspec_vault::ops::Status::Unchanged;
                    verdict["applied"] = json!(applied);
                    source_written += usize::from(applied);
                }
            }
            verdicts.push(verdict);
        }
        links += source_links;
        written += source_written;
        rows.push(json!({
            "source": source, "status": "ok", "verdicts": verdicts, "verdicts_total": total,
            "truncated": total > MAX_VERDICTS, "links": source_links, "written": source_written,
        }));
    }
    let mut summary = format!("{} judged, {links} links", rows.len());
    if written > 0 {
        summary.push_str(&format!(", {written} written"));
    }
    if remaining > 0 {
        summary.push_str(&format!(", {remaining} remaining"));
    }
    let mut value = json!({
        "sources": rows, "judged": sources.len(), "links": links, "written": written,
        "remaining": remaining, "ranking": "local-prefilter",
    });
    if let Some(next) = next_after {
        value["next_after"] = json!(next);
    }
    Ok(Reply {
        summary,
        structured: value,
    })
}

fn resolve_adr(storage: &dyn Storage, reference: &str) -> Result<String, Refusal> {
    let corpus = Corpus::load(storage)?;
    let doc = resolve::resolve(&corpus, reference)?;
    Ok(doc.stem.clone())
}

/// The ADRs a sweep covers, by stem.
fn select(index: &AdrIndex, args: &Args) -> Vec<String> {
    let feature = args.feature.as_deref().map(|f| f.trim_start_matches('#'));
    let mut stems: Vec<String> = index
        .records()
        .iter()
        .filter(|r| feature.is_none_or(|f| r.feature == f))
        .filter(|r| {
            !args.isolated || {
                let linked_out = !r.declared.is_empty();
                let linked_in = index.records().iter().any(|o| o.declared.contains(&r.stem));
                !linked_out && !linked_in
            }
        })
        .map(|r| r.stem.clone())
        .collect();
    stems.sort();
    stems
}

//! `vault adr crossref`: which other ADRs a decision should link to, ranked
//! offline by shared code artifacts and subject (no hosted judge), for one
//! ADR or a bounded sweep; `--apply` writes the strong suggestions.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::graph::{GraphDoc, read_corpus};
use vaultspec_sdk::vault::ops::{Status, link};
use vaultspec_sdk::vault::search::{AdrIndex, AdrRecord, RankedAdr};
use vaultspec_sdk::vault::{Corpus, Date, Document, resolve};

use crate::exports::vaultspec::vault_write::vault_adr::CrossrefOptions;
use crate::report::{self, done, fail, read_input};

/// Candidates shown per source.
const VERDICTS: usize = 5;
/// Artifact cosine from which a candidate counts as a link, not a weak match.
const LINK_SIMILARITY: f64 = 0.3;

fn verdict(r: &RankedAdr) -> Value {
    let kind = if r.artifact_similarity >= LINK_SIMILARITY {
        "link"
    } else {
        "weak"
    };
    json!({
        "stem": r.stem,
        "kind": kind,
        "score": (r.score * 1000.0).round() / 1000.0,
        "relation": format!("artifacts {:.2}, subject {:.2}", r.artifact_similarity, r.header_similarity),
        "declared": r.declared,
    })
}

/// The ADR sources a call judges, and how many more a sweep left for later.
fn select(
    options: &CrossrefOptions,
    refs: &[String],
    adrs: &[&GraphDoc],
    corpus: &Corpus,
) -> Result<(Vec<String>, usize), String> {
    let single = refs.len() == 1
        && options.feature.is_none()
        && !options.isolated
        && !options.all
        && options.after.is_none();
    if !single && options.body_file.is_some() {
        return Err(
            "a draft body (`--body-file`) needs exactly one ADR, without sweep options".into(),
        );
    }
    let mut stems: Vec<String> = if !refs.is_empty() {
        let mut out = Vec::new();
        for r in refs {
            let d: &Document = resolve::resolve(corpus, r).map_err(|e| e.to_string())?;
            if !d.path.starts_with(".vault/adr/") {
                return Err(format!(
                    "`{r}` is not an ADR: expected a document under `.vault/adr/`"
                ));
            }
            out.push(d.stem.clone());
        }
        out
    } else if options.feature.is_some() || options.all || options.isolated {
        let feature = options
            .feature
            .as_deref()
            .map(|f| f.trim().trim_start_matches('#'));
        let adr_stems: Vec<&str> = adrs.iter().map(|d| d.stem.as_str()).collect();
        adrs.iter()
            .filter(|d| feature.is_none_or(|f| d.graph_feature().as_deref() == Some(f)))
            .filter(|d| {
                !options.isolated
                    || !d
                        .related
                        .iter()
                        .any(|r| adr_stems.iter().any(|s| r.contains(s)))
            })
            .map(|d| d.stem.clone())
            .collect()
    } else {
        return Err("name an ADR, or sweep with `--feature`, `--isolated` or `--all`".into());
    };
    stems.sort();
    stems.dedup();
    if let Some(after) = &options.after {
        stems.retain(|s| s.as_str() > after.as_str());
    }
    let max = options.max_sources.unwrap_or(10).clamp(1, 50) as usize;
    let remaining = stems.len().saturating_sub(max);
    stems.truncate(max);
    Ok((stems, remaining))
}

pub fn crossref(options: CrossrefOptions, refs: Vec<String>) -> u8 {
    let json = options.json;
    let ws = WritableWorkspace::open();
    let (docs, _) = match read_corpus(&ws) {
        Ok(c) => c,
        Err(err) => return fail(json, err),
    };
    let corpus = match Corpus::load(&ws) {
        Ok(c) => c,
        Err(err) => return fail(json, err),
    };
    let adrs: Vec<&GraphDoc> = docs
        .iter()
        .filter(|d| d.path.starts_with(".vault/adr/"))
        .collect();
    let (stems, remaining) = match select(&options, &refs, &adrs, &corpus) {
        Ok(s) => s,
        Err(message) => return report::usage(json, &message),
    };
    let index = match AdrIndex::build(&docs) {
        Ok(i) => i,
        Err(err) => return fail(json, err),
    };
    let draft = match options
        .body_file
        .as_deref()
        .map(|f| read_input(&ws, "--body-file", f))
        .transpose()
    {
        Ok(d) => d,
        Err(message) => return fail(json, message),
    };
    let today = Date::today_utc();
    let (mut total_links, mut total_written) = (0, 0);
    let mut sources = Vec::new();
    for stem in &stems {
        let ranked = match (&draft, index.record(stem)) {
            (Some(body), Some(_)) => {
                let doc = adrs
                    .iter()
                    .find(|d| &d.stem == stem)
                    .expect("selected from the corpus");
                let text = format!("{}{body}", &doc.text[..doc.body_start]);
                index.rank_record(&AdrRecord::from_doc(&GraphDoc::from_text(&doc.path, &text)))
            }
            _ => index.rank(stem).unwrap_or_default(),
        };
        let total = ranked.iter().filter(|r| !r.declared).count();
        let shown: Vec<&RankedAdr> = ranked
            .iter()
            .filter(|r| !r.declared)
            .take(VERDICTS)
            .collect();
        let mut verdicts: Vec<Value> = shown.iter().map(|r| verdict(r)).collect();
        let links = verdicts.iter().filter(|v| v["kind"] == "link").count();
        let mut written = 0;
        let mut write_failed = Vec::new();
        if options.apply {
            for v in verdicts.iter_mut().filter(|v| v["kind"] == "link") {
                let dst = v["stem"].as_str().unwrap_or_default().to_owned();
                match link::add(&ws, stem, &dst, false, false, today) {
                    Ok(c) => {
                        v["applied"] = json!(c.status == Status::Created);
                        written += usize::from(c.status == Status::Created);
                    }
                    Err(err) => {
                        write_failed.push(json!({ "stem": dst, "message": err.to_string() }))
                    }
                }
            }
        }
        total_links += links;
        total_written += written;
        let mut source = json!({
            "source": stem,
            "status": "ok",
            "verdicts": verdicts,
            "verdicts_total": total,
            "truncated": total > VERDICTS,
            "links": links,
            "written": written,
            "coverage": { "candidates": ranked.len(), "local_only": true },
        });
        if !write_failed.is_empty() {
            source["write_failed"] = json!(write_failed);
        }
        sources.push(source);
    }
    let mut data = json!({
        "sources": sources,
        "judged": stems.len(),
        "links": total_links,
        "written": total_written,
        "remaining": remaining,
    });
    if remaining > 0
        && let Some(last) = stems.last()
    {
        data["next_after"] = json!(last);
    }
    let status = if total_written > 0 {
        "updated"
    } else {
        "unchanged"
    };
    done(
        json,
        "vaultspec.vault.adr.crossref.v1",
        status,
        &data,
        || {
            for s in data["sources"].as_array().into_iter().flatten() {
                println!("{}", s["source"].as_str().unwrap_or_default());
                for v in s["verdicts"].as_array().into_iter().flatten() {
                    let applied = if v["applied"] == json!(true) {
                        " (linked)"
                    } else {
                        ""
                    };
                    println!(
                        "  {:<5} {}  {}{applied}",
                        v["kind"].as_str().unwrap_or_default(),
                        v["stem"].as_str().unwrap_or_default(),
                        v["relation"].as_str().unwrap_or_default()
                    );
                }
                if s["verdicts"].as_array().is_none_or(|v| v.is_empty()) {
                    println!("  no other ADR to suggest");
                }
            }
            if remaining > 0 {
                println!(
                    "{remaining} more ADRs: continue with --after {}",
                    stems.last().map_or("", String::as_str)
                );
            }
        },
    )
}

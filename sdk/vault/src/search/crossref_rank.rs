//! The crossref prefilter index: artifact fingerprints and header vectors of
//! every ADR, and the reciprocal-rank fusion that ranks them for a source
//! (spec/graph-and-search.md §9, "Index").

use std::collections::HashMap;

use super::crossref::{AdrRecord, CrossrefError, MAX_CORPUS, words};
use crate::graph::{GraphDoc, links};

/// Share of ADRs an artifact may appear in before it is dropped as noise.
const ARTIFACT_NOISE: f64 = 0.3;
/// Reciprocal-rank fusion offset.
const RRF_K: f64 = 10.0;
/// Most artifacts [`AdrIndex::distinctive`] names.
const DISTINCTIVE: usize = 6;

type Vector = Vec<(String, f64)>;

/// One other ADR ranked for a source.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedAdr {
    /// The candidate's stem.
    pub stem: String,
    /// Fused score: `1/(10 + artifact rank) + 1/(10 + header rank)`.
    pub score: f64,
    /// Cosine of the artifact fingerprints.
    pub artifact_similarity: f64,
    /// Cosine of the source's decision text and the candidate's header.
    pub header_similarity: f64,
    /// Whether the source's `related:` already names the candidate.
    pub declared: bool,
}

/// Every ADR of a vault, ready to be ranked against any one of them.
#[derive(Debug, Clone)]
pub struct AdrIndex {
    records: Vec<AdrRecord>,
    n: f64,
    artifact_df: HashMap<String, u32>,
    word_df: HashMap<String, u32>,
    fingerprints: Vec<Vector>,
    headers: Vec<Vector>,
}

fn weigh<'a>(
    counts: impl IntoIterator<Item = (&'a String, u32)>,
    df: &HashMap<String, u32>,
    n: f64,
) -> Vector {
    let mut v: Vector = counts
        .into_iter()
        .filter_map(|(t, c)| {
            let d = f64::from(*df.get(t)?);
            (d > 0.0).then(|| (t.clone(), (1.0 + f64::from(c).ln()) * (n / d).ln()))
        })
        .collect();
    let norm = v.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|(_, w)| *w /= norm);
    } else {
        v.clear();
    }
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn cosine(a: &Vector, b: &Vector) -> f64 {
    let (mut i, mut j, mut dot) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                dot += a[i].1 * b[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    dot
}

impl AdrIndex {
    /// Index the ADRs among `docs` (files directly in `.vault/adr/`), in stem
    /// order; refused when there are more than [`MAX_CORPUS`].
    pub fn build(docs: &[GraphDoc]) -> Result<AdrIndex, CrossrefError> {
        let adrs: Vec<&GraphDoc> = docs
            .iter()
            .filter(|d| {
                d.has_text()
                    && d.path
                        .strip_prefix(".vault/adr/")
                        .is_some_and(|f| !f.contains('/') && f.ends_with(".md"))
            })
            .collect();
        if adrs.len() > MAX_CORPUS {
            return Err(CrossrefError::TooManyAdrs { count: adrs.len() });
        }
        let mut records: Vec<AdrRecord> = adrs.iter().map(|d| AdrRecord::from_doc(d)).collect();
        records.sort_by(|a, b| a.stem.cmp(&b.stem));
        let stems: std::collections::HashSet<String> =
            records.iter().map(|r| r.stem.clone()).collect();
        for (record, doc) in records.iter_mut().zip(sorted_by_stem(adrs)) {
            for item in doc.meta().related() {
                let Some(target) = links::related_target(item) else {
                    continue;
                };
                let stem = target.split('#').next().unwrap_or(target).trim();
                if stem != record.stem
                    && stems.contains(stem)
                    && !record.declared.iter().any(|d| d == stem)
                {
                    record.declared.push(stem.to_owned());
                }
            }
        }
        Ok(AdrIndex::from_records(records))
    }

    /// Index records already read (in the order given).
    pub fn from_records(records: Vec<AdrRecord>) -> AdrIndex {
        let n = records.len().max(1) as f64;
        let mut artifact_df: HashMap<String, u32> = HashMap::new();
        let mut word_df: HashMap<String, u32> = HashMap::new();
        let header_words: Vec<HashMap<String, u32>> =
            records.iter().map(|r| words(&r.header())).collect();
        for (r, hw) in records.iter().zip(&header_words) {
            for (a, _) in &r.artifacts {
                *artifact_df.entry(a.clone()).or_default() += 1;
            }
            for w in hw.keys() {
                *word_df.entry(w.clone()).or_default() += 1;
            }
        }
        artifact_df.retain(|_, df| f64::from(*df) < ARTIFACT_NOISE * n);
        let fingerprints = records
            .iter()
            .map(|r| weigh(r.artifacts.iter().map(|(a, c)| (a, *c)), &artifact_df, n))
            .collect();
        let headers = header_words
            .iter()
            .map(|hw| weigh(hw.iter().map(|(w, c)| (w, *c)), &word_df, n))
            .collect();
        AdrIndex {
            records,
            n,
            artifact_df,
            word_df,
            fingerprints,
            headers,
        }
    }

    /// The indexed ADRs, in stem order.
    pub fn records(&self) -> &[AdrRecord] {
        &self.records
    }

    /// The ADR with this stem.
    pub fn record(&self, stem: &str) -> Option<&AdrRecord> {
        self.records.iter().find(|r| r.stem == stem)
    }

    /// Every other ADR ranked for the indexed ADR `stem`; `None` when no ADR
    /// has that stem.
    pub fn rank(&self, stem: &str) -> Option<Vec<RankedAdr>> {
        Some(self.rank_record(self.record(stem)?))
    }

    /// Every indexed ADR except `source` itself, ranked for `source` (which
    /// may be a draft that is not indexed): by fingerprint cosine and by
    /// decision-to-header cosine, fused by reciprocal rank, ties by stem.
    pub fn rank_record(&self, source: &AdrRecord) -> Vec<RankedAdr> {
        let fp = weigh(
            source.artifacts.iter().map(|(a, c)| (a, *c)),
            &self.artifact_df,
            self.n,
        );
        let dw = words(&source.decision);
        let query = weigh(dw.iter().map(|(w, c)| (w, *c)), &self.word_df, self.n);
        let others: Vec<usize> = (0..self.records.len())
            .filter(|&i| self.records[i].stem != source.stem)
            .collect();
        let art: Vec<f64> = others
            .iter()
            .map(|&i| cosine(&fp, &self.fingerprints[i]))
            .collect();
        let head: Vec<f64> = others
            .iter()
            .map(|&i| cosine(&query, &self.headers[i]))
            .collect();
        let positions = |sims: &[f64]| {
            let mut order: Vec<usize> = (0..others.len()).collect();
            order.sort_by(|&a, &b| {
                sims[b].total_cmp(&sims[a]).then_with(|| {
                    self.records[others[a]]
                        .stem
                        .cmp(&self.records[others[b]].stem)
                })
            });
            let mut rank = vec![0; others.len()];
            order.iter().enumerate().for_each(|(r, &k)| rank[k] = r + 1);
            rank
        };
        let (ra, rh) = (positions(&art), positions(&head));
        let mut ranked: Vec<RankedAdr> = (0..others.len())
            .map(|k| {
                let stem = self.records[others[k]].stem.clone();
                RankedAdr {
                    score: 1.0 / (RRF_K + ra[k] as f64) + 1.0 / (RRF_K + rh[k] as f64),
                    artifact_similarity: art[k],
                    header_similarity: head[k],
                    declared: source.declared.contains(&stem),
                    stem,
                }
            })
            .collect();
        ranked.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.stem.cmp(&b.stem))
        });
        ranked
    }

    /// The top `limit` candidates for `stem` that its `related:` does not
    /// already name: the local answer when no hosted judge is configured.
    pub fn suggestions(&self, stem: &str, limit: usize) -> Option<Vec<RankedAdr>> {
        Some(
            self.rank(stem)?
                .into_iter()
                .filter(|r| !r.declared)
                .take(limit)
                .collect(),
        )
    }

    /// Up to 6 artifacts of `stem` that another ADR also names, by weight
    /// then name.
    pub fn distinctive(&self, stem: &str) -> Vec<String> {
        let Some(i) = self.records.iter().position(|r| r.stem == stem) else {
            return Vec::new();
        };
        let mut shared: Vec<&(String, f64)> = self.fingerprints[i]
            .iter()
            .filter(|(a, _)| self.artifact_df.get(a).is_some_and(|&df| df >= 2))
            .collect();
        shared.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        shared
            .into_iter()
            .take(DISTINCTIVE)
            .map(|(a, _)| a.clone())
            .collect()
    }
}

fn sorted_by_stem(mut docs: Vec<&GraphDoc>) -> Vec<&GraphDoc> {
    docs.sort_by(|a, b| a.stem().cmp(b.stem()));
    docs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adr(stem: &str, feature: &str, related: &[&str], body: &str) -> GraphDoc {
        let mut text = format!("---\ntags:\n  - '#adr'\n  - '#{feature}'\nrelated:\n");
        for r in related {
            text.push_str(&format!("  - '[[{r}]]'\n"));
        }
        text.push_str("---\n\n");
        text.push_str(body);
        GraphDoc::from_text(&format!(".vault/adr/{stem}.md"), &text)
    }

    fn corpus() -> Vec<GraphDoc> {
        let filler = |i: usize| {
            adr(
                &format!("f{i}"),
                "misc",
                &[],
                &format!(
                    "# `misc` adr: `topic {i}` | (**status:** `accepted`)\n\n## Decision\n\nUnrelated `thing{i}.rs`.\n"
                ),
            )
        };
        let mut docs = vec![
            adr(
                "a",
                "cache",
                &["b"],
                "# `cache` adr: `use LRU eviction` | (**status:** `accepted`)\n\n## Problem Statement\n\nEviction is slow in `src/cache.rs:40`.\n\n## Decision\n\nUse LRU eviction in `src/cache.rs` and `CacheConfig::new()`.\n",
            ),
            adr(
                "b",
                "sizes",
                &[],
                "# `sizes` adr: `sizing rules`\n\n## Decision\n\nSize from `Budget`.\n",
            ),
            adr(
                "c",
                "store",
                &[],
                "# `store` adr: `eviction hooks`\n\n## Decision\n\nHooks live in `src/cache.rs`.\n",
            ),
        ];
        docs.extend((0..7).map(filler));
        docs
    }

    #[test]
    fn records_read_title_status_lead_and_artifacts() {
        let index = AdrIndex::build(&corpus()).unwrap();
        let a = index.record("a").unwrap();
        assert_eq!(a.title, "use LRU eviction");
        assert_eq!(a.status.as_deref(), Some("accepted"));
        assert_eq!(a.lead, "Eviction is slow in src/cache.rs:40.");
        assert_eq!(
            a.header(),
            "[cache] use LRU eviction. Eviction is slow in src/cache.rs:40."
        );
        let names: Vec<(&str, u32)> = a.artifacts.iter().map(|(n, c)| (n.as_str(), *c)).collect();
        // The title's code spans count too (`accepted` is a status word, dropped).
        assert_eq!(
            names,
            [
                ("cache", 1),
                ("cacheconfig::new", 1),
                ("src/cache.rs", 2),
                ("use lru eviction", 1)
            ]
        );
        assert!(a.decision.starts_with("## Decision\n"));
        assert_eq!(a.declared, ["b"]);
    }

    #[test]
    fn shared_artifacts_and_header_words_rank_first_and_declared_links_are_marked() {
        let index = AdrIndex::build(&corpus()).unwrap();
        let ranked = index.rank("a").unwrap();
        assert_eq!(ranked.len(), 9);
        assert_eq!(
            ranked[0].stem, "c",
            "shares `src/cache.rs` and the word eviction"
        );
        assert!(ranked.iter().any(|r| r.stem == "b" && r.declared));
        let suggestions = index.suggestions("a", 3).unwrap();
        assert!(suggestions.iter().all(|r| r.stem != "b"));
        assert_eq!(index.distinctive("a"), ["src/cache.rs"]);
        assert!(index.rank("nope").is_none());
    }

    #[test]
    fn artifacts_drop_noise_and_normalise_locators() {
        use super::super::crossref::AdrRecord;
        let doc = adr(
            "x",
            "f",
            &[],
            "`true` `ADR` `42` `MAX` `ab` `2026-01-01-x-adr` `./src/lib.rs:3-9` `run()` `vaultspec-core vault add adr --feature x`\n",
        );
        let r = AdrRecord::from_doc(&doc);
        let names: Vec<&str> = r.artifacts.iter().map(|(a, _)| a.as_str()).collect();
        assert_eq!(names, ["run", "src/lib.rs", "vaultspec-core vault add adr"]);
    }

    #[test]
    fn too_many_adrs_are_refused() {
        let docs: Vec<GraphDoc> = (0..=MAX_CORPUS)
            .map(|i| GraphDoc::from_text(&format!(".vault/adr/{i}.md"), ""))
            .collect();
        assert_eq!(
            AdrIndex::build(&docs).unwrap_err(),
            CrossrefError::TooManyAdrs {
                count: MAX_CORPUS + 1
            }
        );
    }
}

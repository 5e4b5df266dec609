//! The BM25 index over document blocks (spec/graph-and-search.md §8,
//! applied per block instead of per record).
//!
//! A block's terms are its own tokens plus those of its ancestors' headings
//! (so the title and section names count for every block under them).
//! Postings are stored per term as `(block, tf)` in block order, packed
//! ([`postings`](super::postings)); a query accumulates scores into a dense
//! array, so it costs the length of its terms' postings, not the size of the
//! vault.

use std::collections::HashMap;

use super::blocks::{Block, split_blocks};
use super::postings::{Postings, PostingsBuilder};
use super::tokenize::for_each_token;
use crate::doc::DocType;
use crate::graph::GraphDoc;
use crate::graph::fxhash::FxMap;

/// BM25 `k1`.
pub const K1: f64 = 1.4;
/// BM25 `b`.
pub const B: f64 = 0.75;

/// BM25's inverse document frequency (the non-negative form): how much a
/// term found in `containing` of `documents` documents says.
pub fn idf(documents: f64, containing: f64) -> f64 {
    (1.0 + (documents - containing + 0.5) / (containing + 0.5)).ln()
}

/// Record types search reads (indexes are excluded).
pub const SEARCHABLE_TYPES: [&str; 6] = {
    let mut types = [""; 6];
    let (mut from, mut to) = (0, 0);
    while from < DocType::ALL.len() {
        if !matches!(DocType::ALL[from], DocType::Index) {
            types[to] = DocType::ALL[from].as_str();
            to += 1;
        }
        from += 1;
    }
    types
};

/// Term counts of one block, dense by term id: no hashing per token.
#[derive(Debug, Default)]
struct Counts {
    tf: Vec<u32>,
    touched: Vec<u32>,
}

impl Counts {
    fn add(&mut self, term: u32) {
        let t = term as usize;
        if t >= self.tf.len() {
            self.tf.resize(t + 1, 0);
        }
        if self.tf[t] == 0 {
            self.touched.push(term);
        }
        self.tf[t] += 1;
    }

    /// Hand every `(term, count)` to `f` and reset.
    fn drain(&mut self, mut f: impl FnMut(u32, u32)) {
        for &t in &self.touched {
            f(t, std::mem::take(&mut self.tf[t as usize]));
        }
        self.touched.clear();
    }
}

/// The type of `doc` when it is one search indexes.
pub(crate) fn searchable_type(doc: &GraphDoc) -> Option<&'static str> {
    doc.doc_type
        .map(|t| t.as_str())
        .filter(|t| SEARCHABLE_TYPES.contains(t))
}

/// What filters need to know about a document, computed once: its
/// feature, as an index into [`SearchIndex::features`]. Its type and date
/// are read from the document when asked (a copy of the date for every
/// document took more room than the rest of this record).
#[derive(Debug, Clone)]
pub(crate) struct DocMeta {
    pub(crate) feature: Option<u32>,
}

/// A BM25 index over the blocks of a list of documents.
///
/// Built once from [`Graph::docs`](crate::graph::Graph::docs) (or any
/// `&[GraphDoc]`); every query must pass the same slice.
#[derive(Debug, Clone)]
pub struct SearchIndex {
    pub(crate) blocks: Vec<Block>,
    lengths: Vec<u32>,
    avgdl: f64,
    terms: FxMap<Box<str>, u32>,
    postings: Postings,
    pub(crate) docs: Vec<DocMeta>,
    pub(crate) features: Vec<String>,
    paths_fingerprint: u64,
}

fn fingerprint(docs: &[GraphDoc]) -> u64 {
    // FNV-1a over the paths: cheap, and enough to catch a mismatched slice.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for d in docs {
        for b in d.path.bytes().chain([0]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

impl SearchIndex {
    /// Index every block of the searchable documents of `docs`.
    pub fn build(docs: &[GraphDoc]) -> SearchIndex {
        let mut index = SearchIndex {
            blocks: Vec::new(),
            lengths: Vec::new(),
            avgdl: 1.0,
            terms: FxMap::default(),
            postings: Postings::default(),
            docs: Vec::with_capacity(docs.len()),
            features: Vec::new(),
            paths_fingerprint: fingerprint(docs),
        };
        let mut feature_ids: HashMap<String, u32> = HashMap::new();
        let mut postings = PostingsBuilder::default();
        let mut counts = Counts::default();
        let mut heading_terms: Vec<Vec<u32>> = Vec::new();
        for (d, doc) in docs.iter().enumerate() {
            let doc_type = searchable_type(doc);
            let feature = doc.listing_feature().map(|f| match feature_ids.get(f) {
                Some(&id) => id,
                None => {
                    let id = feature_ids.len() as u32;
                    feature_ids.insert(f.to_owned(), id);
                    index.features.push(f.to_owned());
                    id
                }
            });
            index.docs.push(DocMeta { feature });
            if doc_type.is_none() || !doc.has_text() {
                continue;
            }
            let first = index.blocks.len();
            split_blocks(doc, d as u32, &mut index.blocks);
            heading_terms.clear();
            for b in first..index.blocks.len() {
                let block = index.blocks[b];
                let mut own_heading = Vec::new();
                let text = block.text(doc);
                let heading_len = if block.level > 0 {
                    text.find('\n').unwrap_or(text.len())
                } else {
                    0
                };
                for_each_token(&text[..heading_len], |t| {
                    own_heading.push(index.term_id(&mut postings, t))
                });
                own_heading.iter().for_each(|&t| counts.add(t));
                for_each_token(&text[heading_len..], |t| {
                    counts.add(index.term_id(&mut postings, t))
                });
                let mut ancestor = block.parent();
                while let Some(p) = ancestor {
                    heading_terms[p as usize - first]
                        .iter()
                        .for_each(|&t| counts.add(t));
                    ancestor = index.blocks[p as usize].parent();
                }
                heading_terms.push(own_heading);
                let mut length = 0;
                counts.drain(|t, c| {
                    length += c;
                    postings.push(t, b as u32, c);
                });
                index.lengths.push(length);
            }
        }
        let total: u64 = index.lengths.iter().map(|&l| u64::from(l)).sum();
        if total > 0 && !index.lengths.is_empty() {
            index.avgdl = total as f64 / index.lengths.len() as f64;
        }
        index.postings = postings.finish();
        // Kept as long as the server runs: no room grown for blocks that
        // never came.
        index.blocks.shrink_to_fit();
        index.lengths.shrink_to_fit();
        index
    }

    /// The id of `token`, opening a posting list for a token not seen yet.
    fn term_id(&mut self, postings: &mut PostingsBuilder, token: &str) -> u32 {
        if let Some(&id) = self.terms.get(token) {
            return id;
        }
        let id = postings.add_term();
        self.terms.insert(token.into(), id);
        id
    }

    /// Number of indexed blocks.
    pub fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// Whether the index was built from exactly these documents.
    pub fn matches(&self, docs: &[GraphDoc]) -> bool {
        docs.len() == self.docs.len() && fingerprint(docs) == self.paths_fingerprint
    }

    /// BM25 score of every block for `query` (only blocks with a score > 0
    /// appear), unordered. Query terms keep duplicates; terms absent from the
    /// corpus are dropped.
    pub(crate) fn score(&self, query: &str) -> Vec<(u32, f64)> {
        let scores = self.score_dense(query);
        (0..scores.len() as u32)
            .map(|b| (b, scores[b as usize]))
            .filter(|&(_, s)| s > 0.0)
            .collect()
    }

    /// BM25 score of every block (0 for blocks without a query term), by
    /// block index.
    pub(crate) fn score_dense(&self, query: &str) -> Vec<f64> {
        let n = self.blocks.len() as f64;
        let mut scores = vec![0.0f64; self.blocks.len()];
        for_each_token(query, |t| {
            let Some(&id) = self.terms.get(t) else { return };
            let idf = idf(n, f64::from(self.postings.count(id)));
            for (b, tf) in self.postings.list(id) {
                let tf = f64::from(tf);
                let len = f64::from(self.lengths[b as usize]);
                scores[b as usize] +=
                    idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / self.avgdl));
            }
        });
        scores
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(path: &str, body: &str) -> GraphDoc {
        GraphDoc::from_text(path, &format!("---\ntags: ['#adr', '#f']\n---\n{body}"))
    }

    #[test]
    fn indexes_only_searchable_types_and_counts_heading_terms_down_the_path() {
        let docs = vec![
            doc(
                ".vault/adr/a.md",
                "# Cache title\n\n## Eviction\n\nlru lru\n",
            ),
            doc(".vault/index/f.index.md", "# cache index\n"),
        ];
        let index = SearchIndex::build(&docs);
        assert_eq!(
            index.block_count(),
            2,
            "the index document is not searchable"
        );
        // Block 1 ("## Eviction") has its own terms, its heading and the title's.
        assert_eq!(index.lengths, [2, 5]);
        assert!(index.matches(&docs));
        assert!(!index.matches(&docs[..1]));
    }

    #[test]
    fn bm25_matches_the_formula() {
        let docs = vec![
            doc(".vault/adr/a.md", "alpha beta\n"),
            doc(".vault/adr/b.md", "alpha alpha gamma delta\n"),
            doc(".vault/adr/c.md", "gamma\n"),
        ];
        let index = SearchIndex::build(&docs);
        let mut scores = index.score("alpha");
        scores.sort_by_key(|s| s.0);
        let (n, df, avgdl) = (3.0f64, 2.0f64, 7.0 / 3.0);
        let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
        let bm =
            |tf: f64, len: f64| idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / avgdl));
        assert_eq!(scores.len(), 2);
        assert!((scores[0].1 - bm(1.0, 2.0)).abs() < 1e-12);
        assert!((scores[1].1 - bm(2.0, 4.0)).abs() < 1e-12);
        // A repeated query term counts twice; an unknown one not at all.
        let twice = index.score("alpha alpha zzz");
        assert!((twice.iter().find(|s| s.0 == 0).unwrap().1 - 2.0 * bm(1.0, 2.0)).abs() < 1e-12);
    }
}

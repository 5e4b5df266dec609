//! Answering a query: filters, deterministic ranking, and hits with their
//! excerpts and file lines, as `vault search` and MCP `search` report them.

use serde::Serialize;

use super::blocks::{heading_path, line_span};
use super::index::{SearchIndex, searchable_type};
use super::tokenize::for_each_token;
use crate::graph::GraphDoc;

/// Largest excerpt of a hit, in UTF-8 bytes.
pub const EXCERPT_BYTES: usize = 700;
/// Largest supporting passage of a hit, in UTF-8 bytes.
pub const SUPPORTING_BYTES: usize = 300;
/// Default number of hits.
pub const DEFAULT_RESULTS: usize = 4;
/// Largest number of hits a caller may ask for.
pub const MAX_RESULTS: usize = 11;

/// A query and its filters (all filters exact; empty means no filter).
#[derive(Debug, Clone, Default)]
pub struct SearchQuery<'a> {
    /// The question or keywords.
    pub text: &'a str,
    /// Doc types to search; empty: every searchable type.
    pub types: &'a [String],
    /// Feature, without `#` (a leading `#` is ignored).
    pub feature: Option<&'a str>,
    /// Exact date `yyyy-mm-dd`.
    pub date: Option<&'a str>,
    /// Most results to return.
    pub limit: usize,
}

/// A ranked block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlockHit {
    /// Index of the document in the slice given to the index.
    pub doc: usize,
    /// Index of the block in the index.
    pub block: usize,
    /// BM25 score.
    pub score: f64,
}

/// A passage of a document with its file lines (1-based, inclusive).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Excerpt {
    /// The heading of the block the passage comes from (empty before the first heading).
    pub section: String,
    /// First file line of the passage.
    pub line_start: usize,
    /// Last file line of the passage.
    pub line_end: usize,
    /// The passage, at most the byte budget.
    pub text: String,
    /// Whether the passage is shorter than its block.
    pub truncated: bool,
}

/// One document answering a query: its best block as the excerpt, its
/// second best as the supporting passage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchHit {
    /// Workspace-relative path.
    pub path: String,
    /// Doc type.
    #[serde(rename = "type")]
    pub doc_type: String,
    /// Feature, if any.
    pub feature: Option<String>,
    /// Listing date, if any.
    pub date: Option<String>,
    /// First H1 of the document, if any.
    pub title: Option<String>,
    /// BM25 score of the best block.
    pub score: f64,
    /// Headings from the outermost to the best block's own.
    pub heading_path: Vec<String>,
    /// The best block, clipped to [`EXCERPT_BYTES`].
    pub excerpt: Excerpt,
    /// The second best block, clipped to [`SUPPORTING_BYTES`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supporting: Option<Excerpt>,
}

/// How a local search says its hits were ranked.
pub const RANKING: &str = "local-bm25";

/// One page of a local search: what `vault search` and the MCP `search`
/// tool both answer (spec/mcp-tools.md §6.7), counted in one place.
///
/// `total` is how many documents matched the query and its filters before
/// the limit, `returned` how many hits the page carries, `truncated` whether
/// the limit cut any (the reference's `Window`). `answered` is the
/// reference's verdict of a hosted judge that a record answers the query; a
/// BM25 ranking only matches words, so it never claims one: `answered` is
/// false and no `verdict` is given, whatever the hits.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchPage {
    /// Always `ok`: a local ranking never declines.
    pub status: &'static str,
    /// Always false (see above).
    pub answered: bool,
    /// Always [`RANKING`].
    pub ranking: &'static str,
    /// The best documents, best first.
    pub hits: Vec<SearchHit>,
    /// `hits.len()`.
    pub returned: usize,
    /// Documents that matched before the limit.
    pub total: usize,
    /// Whether the limit left matching documents out.
    pub truncated: bool,
}

impl SearchIndex {
    fn admits(&self, docs: &[GraphDoc], doc: usize, query: &SearchQuery<'_>) -> bool {
        let meta = &self.docs[doc];
        let Some(doc_type) = searchable_type(&docs[doc]) else {
            return false;
        };
        if !query.types.is_empty() && !query.types.iter().any(|t| t == doc_type) {
            return false;
        }
        if let Some(f) = query
            .feature
            .map(crate::doc::feature_arg)
            .filter(|f| !f.is_empty())
            && meta
                .feature
                .is_none_or(|id| self.features[id as usize] != f)
        {
            return false;
        }
        query
            .date
            .filter(|d| !d.is_empty())
            .is_none_or(|d| docs[doc].listing_date() == Some(d))
    }

    /// Every block matching the query and filters, by score descending, ties
    /// in index order (document path order, then position in the file).
    pub fn search_blocks(&self, docs: &[GraphDoc], query: &SearchQuery<'_>) -> Vec<BlockHit> {
        assert!(
            self.matches(docs),
            "search index queried with documents it was not built from"
        );
        let mut hits: Vec<BlockHit> = self
            .score(query.text)
            .into_iter()
            .map(|(b, score)| BlockHit {
                doc: self.blocks[b as usize].doc as usize,
                block: b as usize,
                score,
            })
            .filter(|h| self.admits(docs, h.doc, query))
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.block.cmp(&b.block)));
        hits
    }

    /// The documents best answering the query, at most `query.limit` (the
    /// default when 0), each with its best block and a supporting one.
    pub fn search(&self, docs: &[GraphDoc], query: &SearchQuery<'_>) -> Vec<SearchHit> {
        self.page(docs, query).hits
    }

    /// [`SearchIndex::search`] with the counts both `vault search` and the
    /// MCP `search` tool report.
    pub fn page(&self, docs: &[GraphDoc], query: &SearchQuery<'_>) -> SearchPage {
        let limit = if query.limit == 0 {
            DEFAULT_RESULTS
        } else {
            query.limit
        };
        let mut terms = Vec::new();
        for_each_token(query.text, |t| terms.push(t.to_owned()));
        assert!(
            self.matches(docs),
            "search index queried with documents it was not built from"
        );
        // One pass over the blocks (a document's blocks are contiguous) keeps
        // each document's two best blocks in rank order (score descending,
        // then block index); no hashing and no sort over every match.
        let before = |a: &BlockHit, b: &BlockHit| {
            a.score > b.score || (a.score == b.score && a.block < b.block)
        };
        let mut best: Vec<(BlockHit, Option<BlockHit>)> = Vec::new();
        let mut current: Option<(BlockHit, Option<BlockHit>)> = None;
        let mut admitted: Option<(usize, bool)> = None;
        for (b, &score) in self.score_dense(query.text).iter().enumerate() {
            if score <= 0.0 {
                continue;
            }
            let doc = self.blocks[b].doc as usize;
            let admit = match admitted {
                Some((d, ok)) if d == doc => ok,
                _ => {
                    let ok = self.admits(docs, doc, query);
                    admitted = Some((doc, ok));
                    ok
                }
            };
            if !admit {
                continue;
            }
            let hit = BlockHit {
                doc,
                block: b,
                score,
            };
            match &mut current {
                Some((top, second)) if top.doc == doc => {
                    if before(&hit, top) {
                        *second = Some(*top);
                        *top = hit;
                    } else if second.as_ref().is_none_or(|s| before(&hit, s)) {
                        *second = Some(hit);
                    }
                }
                _ => best.extend(current.replace((hit, None))),
            }
        }
        best.extend(current);
        let order = |x: &(BlockHit, Option<BlockHit>), y: &(BlockHit, Option<BlockHit>)| {
            y.0.score
                .total_cmp(&x.0.score)
                .then(x.0.block.cmp(&y.0.block))
        };
        let total = best.len();
        if best.len() > limit {
            best.select_nth_unstable_by(limit - 1, order);
            best.truncate(limit);
        }
        best.sort_by(order);
        let hits: Vec<SearchHit> = best
            .into_iter()
            .map(|(top, second)| {
                let doc = &docs[top.doc];
                let meta = &self.docs[top.doc];
                SearchHit {
                    path: doc.path.clone(),
                    doc_type: doc.type_name().to_owned(),
                    feature: meta.feature.map(|f| self.features[f as usize].clone()),
                    date: doc.listing_date().map(str::to_owned),
                    title: doc.title().map(str::to_owned),
                    score: top.score,
                    heading_path: heading_path(&self.blocks, top.block, doc),
                    excerpt: self.excerpt(doc, top.block, &terms, EXCERPT_BYTES),
                    supporting: second
                        .map(|s| self.excerpt(doc, s.block, &terms, SUPPORTING_BYTES)),
                }
            })
            .collect();
        SearchPage {
            status: "ok",
            answered: false,
            ranking: RANKING,
            returned: hits.len(),
            truncated: hits.len() < total,
            total,
            hits,
        }
    }

    /// A passage of block `block` within `budget` bytes: the whole block when
    /// it fits; otherwise whole lines from the first line holding a query
    /// term (the block's start when none does), the first line clipped at a
    /// character boundary if it alone is too long.
    pub fn excerpt(
        &self,
        doc: &GraphDoc,
        block: usize,
        terms: &[String],
        budget: usize,
    ) -> Excerpt {
        let b = &self.blocks[block];
        let section = b.heading(doc).unwrap_or_default().to_owned();
        let line_end = b.line_end(doc) as usize;
        let span = line_span(&doc.text, b.line_start as usize..line_end + 1);
        let whole = doc.text[span].trim_end_matches('\n');
        let lines: Vec<&str> = whole.split('\n').collect();
        if whole.len() <= budget {
            return Excerpt {
                section,
                line_start: b.line_start as usize,
                line_end,
                text: whole.to_owned(),
                truncated: false,
            };
        }
        let has_term = |line: &str| {
            let mut found = false;
            for_each_token(line, |t| found |= terms.iter().any(|q| q == t));
            found
        };
        let first = lines.iter().position(|l| has_term(l)).unwrap_or(0);
        let mut text = String::new();
        let mut last = first;
        for (i, line) in lines.iter().enumerate().skip(first) {
            let extra = if text.is_empty() {
                line.len()
            } else {
                line.len() + 1
            };
            if text.len() + extra > budget {
                if text.is_empty() {
                    let mut cut = budget;
                    while !line.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    text.push_str(&line[..cut]);
                    last = i;
                }
                break;
            }
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(line);
            last = i;
        }
        let text = text.trim_end().to_owned();
        Excerpt {
            section,
            line_start: b.line_start as usize + first,
            line_end: b.line_start as usize + last,
            truncated: text.len() < whole.len(),
            text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(path: &str, feature: &str, date: &str, body: &str) -> GraphDoc {
        let dir = path.split('/').nth(1).unwrap();
        GraphDoc::from_text(
            path,
            &format!("---\ntags:\n  - '#{dir}'\n  - '#{feature}'\ndate: '{date}'\n---\n\n{body}"),
        )
    }

    fn corpus() -> Vec<GraphDoc> {
        vec![
            doc(
                ".vault/adr/2026-01-01-cache-adr.md",
                "cache",
                "2026-01-01",
                "# `cache` adr: `use LRU`\n\n## Problem Statement\n\nEviction of cache entries is slow.\n\n## Decision\n\nUse LRU eviction for the cache.\n",
            ),
            doc(
                ".vault/research/2026-01-02-cache-research.md",
                "cache",
                "2026-01-02",
                "# research\n\n## Findings\n\nLRU wins.\n",
            ),
            doc(
                ".vault/plan/2026-01-03-auth-plan.md",
                "auth",
                "2026-01-03",
                "# plan\n\n## Steps\n\nrotate tokens\n",
            ),
            doc(
                ".vault/index/cache.index.md",
                "cache",
                "2026-01-04",
                "# cache eviction lru index\n",
            ),
        ]
    }

    fn q<'a>(text: &'a str) -> SearchQuery<'a> {
        SearchQuery {
            text,
            limit: 4,
            ..Default::default()
        }
    }

    #[test]
    fn hits_rank_by_bm25_with_the_best_block_lines_and_heading_path() {
        let docs = corpus();
        let index = SearchIndex::build(&docs);
        let hits = index.search(&docs, &q("LRU eviction"));
        let paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                ".vault/adr/2026-01-01-cache-adr.md",
                ".vault/research/2026-01-02-cache-research.md"
            ]
        );
        let top = &hits[0];
        assert_eq!(top.heading_path, ["`cache` adr: `use LRU`", "Decision"]);
        assert_eq!(top.excerpt.section, "Decision");
        assert_eq!((top.excerpt.line_start, top.excerpt.line_end), (14, 16));
        assert_eq!(
            top.excerpt.text,
            "## Decision\n\nUse LRU eviction for the cache."
        );
        assert!(!top.excerpt.truncated);
        let support = top.supporting.as_ref().expect("a second block matches");
        assert_eq!(support.section, "Problem Statement");
        assert_eq!(top.title.as_deref(), Some("`cache` adr: `use LRU`"));
        assert!(hits[0].score > hits[1].score);
    }

    #[test]
    fn filters_select_type_feature_and_date_and_skip_indexes() {
        let docs = corpus();
        let index = SearchIndex::build(&docs);
        let types = vec!["research".to_owned()];
        let only_research = SearchQuery {
            types: &types,
            ..q("lru")
        };
        assert_eq!(index.search(&docs, &only_research).len(), 1);
        let by_feature = SearchQuery {
            feature: Some("#auth"),
            ..q("lru tokens")
        };
        assert_eq!(
            index.search(&docs, &by_feature)[0].feature.as_deref(),
            Some("auth")
        );
        let by_date = SearchQuery {
            date: Some("2026-01-02"),
            ..q("lru")
        };
        assert_eq!(
            index.search(&docs, &by_date)[0].date.as_deref(),
            Some("2026-01-02")
        );
        assert!(
            index.search(&docs, &q("index")).is_empty(),
            "index documents are not searched"
        );
        assert!(
            index.search(&docs, &q("the of")).is_empty(),
            "stopwords match nothing"
        );
    }

    #[test]
    fn ties_break_by_path_then_position() {
        let docs = vec![
            doc(".vault/adr/b.md", "f", "2026-01-01", "same words\n"),
            doc(".vault/adr/a.md", "f", "2026-01-01", "same words\n"),
        ];
        let mut sorted = docs.clone();
        sorted.sort_by(|x, y| x.path.cmp(&y.path));
        let index = SearchIndex::build(&sorted);
        let hits = index.search_blocks(&sorted, &q("same"));
        assert_eq!(hits[0].score, hits[1].score);
        assert_eq!(sorted[hits[0].doc].path, ".vault/adr/a.md");
    }

    #[test]
    fn document_hits_follow_the_block_ranking_on_a_generated_vault() {
        let storage = crate::MemStorage::new();
        crate::testgen::generate(
            &storage,
            &crate::testgen::GenSpec {
                docs: 300,
                features: 6,
                seed: 3,
            },
        )
        .unwrap();
        let graph = crate::graph::load_graph(&storage).unwrap();
        let docs = graph.docs();
        let index = SearchIndex::build(docs);
        for title in docs.iter().step_by(37).filter_map(|d| d.title()) {
            let query = SearchQuery {
                text: title,
                limit: 5,
                ..Default::default()
            };
            // The naive reading: walk every block in rank order.
            let mut expected: Vec<(usize, usize, Option<usize>)> = Vec::new();
            for hit in index.search_blocks(docs, &query) {
                match expected.iter().position(|e| e.0 == hit.doc) {
                    Some(i) if expected[i].2.is_none() => expected[i].2 = Some(hit.block),
                    Some(_) => {}
                    None if expected.len() < 5 => expected.push((hit.doc, hit.block, None)),
                    None => {}
                }
            }
            let got = index.search(docs, &query);
            assert_eq!(got.len(), expected.len(), "{title}");
            for (hit, (doc, block, second)) in got.iter().zip(&expected) {
                assert_eq!(hit.path, docs[*doc].path, "{title}");
                assert_eq!(
                    Some(hit.excerpt.section.as_str()),
                    index.blocks[*block].heading(&docs[*doc])
                );
                assert_eq!(
                    hit.score,
                    index
                        .score(title)
                        .iter()
                        .find(|s| s.0 as usize == *block)
                        .unwrap()
                        .1
                );
                assert_eq!(hit.supporting.is_some(), second.is_some());
            }
        }
    }

    #[test]
    fn long_blocks_are_clipped_from_the_first_matching_line_within_the_budget() {
        let mut body = String::from("## Long\n\n");
        for i in 0..40 {
            body.push_str(&format!("filler line number {i} with padding text\n"));
        }
        body.push_str("the needle is here\nafter the needle\n");
        let docs = vec![doc(".vault/adr/x.md", "f", "2026-01-01", &body)];
        let index = SearchIndex::build(&docs);
        let hit = &index.search(&docs, &q("needle"))[0];
        let ex = &hit.excerpt;
        assert!(ex.truncated);
        assert!(ex.text.starts_with("the needle is here"));
        assert!(ex.text.len() <= EXCERPT_BYTES);
        assert_eq!(
            docs[0].text.lines().nth(ex.line_start - 1),
            Some("the needle is here")
        );
        assert_eq!(
            docs[0].text.lines().nth(ex.line_end - 1),
            Some("after the needle")
        );
    }

    #[test]
    fn a_single_overlong_line_is_clipped_at_a_char_boundary() {
        let body = format!("{}needle\n", "é".repeat(800));
        let docs = vec![doc(".vault/adr/x.md", "f", "2026-01-01", &body)];
        let index = SearchIndex::build(&docs);
        let ex = &index.search(&docs, &q("needle"))[0].excerpt;
        assert!(
            ex.truncated && ex.text.len() <= EXCERPT_BYTES && ex.text.len() >= EXCERPT_BYTES - 1
        );
        assert_eq!((ex.line_start, ex.line_end), (8, 8));
    }
}

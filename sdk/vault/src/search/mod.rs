//! Local search: BM25 over document blocks, and the local ADR ranking of
//! crossref (spec/graph-and-search.md §8-9). Nothing here needs a network.
//!
//! [`SearchIndex::build`] indexes the blocks of a document list once (each
//! block is a heading and its section, see [`blocks`]); [`SearchIndex::search`]
//! then answers queries with ranked documents, each carrying its best block
//! as an excerpt with file lines. [`AdrIndex`] ranks the other ADRs for one
//! source ADR the way the reference's crossref prefilter does.
//!
//! ```
//! use vaultspec_vault::graph::GraphDoc;
//! use vaultspec_vault::search::{SearchIndex, SearchQuery};
//! let docs = vec![GraphDoc::from_text(".vault/adr/x.md", "---\ntags: ['#adr', '#f']\n---\n## Decision\n\nUse LRU.\n")];
//! let index = SearchIndex::build(&docs);
//! let hits = index.search(&docs, &SearchQuery { text: "lru", limit: 4, ..Default::default() });
//! assert_eq!(hits[0].excerpt.line_start, 4);
//! ```

pub mod blocks;
pub mod crossref;
mod crossref_rank;
mod index;
mod postings;
mod query;
pub mod tokenize;

pub use crossref::{AdrRecord, CrossrefError};
pub use crossref_rank::{AdrIndex, RankedAdr};
pub use index::{B, K1, SEARCHABLE_TYPES, SearchIndex, idf};
pub use query::{
    BlockHit, DEFAULT_RESULTS, EXCERPT_BYTES, Excerpt, MAX_RESULTS, RANKING, SUPPORTING_BYTES,
    SearchHit, SearchPage, SearchQuery,
};

//! The graph's input record: one parsed vault document ([`GraphDoc`]).
//!
//! A `GraphDoc` is the checkers' [`Document`] (path, normalised text, where
//! the frontmatter lies and its modelled keys), parsed once, plus what
//! loading found wrong with the file. The graph, listings, search and the
//! checkers all read the same record: a server keeps one per document.
//! Everything else (title, word count, links) is derived on demand from the
//! text, so loading stays a single pass over each file.

use std::ops::Deref;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

use super::markdown;
use crate::date::Date;
use crate::doc::{DocProblem, Document, frontmatter_problem, yaml_problem};
use crate::storage::StorageError;

/// The seven document types, which are also the directory tags (`#adr` ...).
pub const DOC_TYPES: [&str; 7] = crate::doc::DocType::NAMES;

/// Whether `tag` (with or without `#`) is a directory tag such as `#adr`.
pub fn is_directory_tag(tag: &str) -> bool {
    DOC_TYPES.contains(&tag.strip_prefix('#').unwrap_or(tag))
}

/// One corpus document as the graph, search and the checkers read it: a
/// [`Document`] (it derefs to one) over the text with one BOM removed and
/// `\r\n`/`\r` turned into `\n`, and the file's problem if it has one.
#[derive(Debug, Clone)]
pub struct GraphDoc {
    /// The document: path, stem, type, normalised text, frontmatter split
    /// and modelled keys. Empty text when the file could not be read or is
    /// not UTF-8.
    pub doc: Document,
    /// Why the file is not a usable document (unreadable, not UTF-8, or
    /// malformed frontmatter). It still gets a node; without text it has no
    /// frontmatter, body or links. Boxed: few documents have one, and a
    /// server keeps a record per document.
    pub problem: Option<Box<DocProblem>>,
    /// `text` differs from the file's bytes (a BOM or `\r` was normalised).
    pub normalized: bool,
    /// The blob id of the text, worked out on first use and kept with the
    /// document (a reload keeps the documents whose files did not change).
    blob: OnceLock<Box<str>>,
    /// [`GraphDoc::graph_feature`] and [`GraphDoc::listing_feature`], read
    /// from the tags on first use and kept likewise: every rollup, listing
    /// and check over the vault asks each document for them.
    features: OnceLock<[Option<Arc<str>>; 2]>,
    /// [`recency`](crate::status::recency::recency), kept likewise: every
    /// rollup orders every document by it.
    recency: KeptDate,
}

/// A date worked out on first use, in four bytes (the padding beside
/// `normalized`): 0 until it is, 1 for none, else year, month and day.
#[derive(Debug, Default)]
struct KeptDate(AtomicU32);

impl KeptDate {
    const UNKNOWN: u32 = 0;
    const NONE: u32 = 1;

    fn get_or(&self, read: impl FnOnce() -> Option<Date>) -> Option<Date> {
        match self.0.load(Ordering::Relaxed) {
            KeptDate::UNKNOWN => {
                let date = read();
                self.0.store(KeptDate::pack(date), Ordering::Relaxed);
                date
            }
            KeptDate::NONE => None,
            packed => Date::new(i64::from(packed >> 16), (packed >> 8) & 0xff, packed & 0xff),
        }
    }

    /// Year 0 is no date: neither mark can be mistaken for one.
    fn pack(date: Option<Date>) -> u32 {
        date.map_or(KeptDate::NONE, |d| {
            (d.year() as u32) << 16 | d.month() << 8 | d.day()
        })
    }
}

impl Clone for KeptDate {
    fn clone(&self) -> KeptDate {
        KeptDate(AtomicU32::new(self.0.load(Ordering::Relaxed)))
    }
}

/// Equal documents have the same text and problem; whether the blob id
/// and features were worked out yet does not count.
impl PartialEq for GraphDoc {
    fn eq(&self, other: &Self) -> bool {
        self.doc == other.doc
            && self.problem == other.problem
            && self.normalized == other.normalized
    }
}

impl Deref for GraphDoc {
    type Target = Document;

    fn deref(&self) -> &Document {
        &self.doc
    }
}

/// Where the document of the file at `path` is in `docs`, which are in path
/// order (as a graph's are).
pub fn position(docs: &[GraphDoc], path: &str) -> Option<usize> {
    docs.binary_search_by(|d| d.path.as_str().cmp(path)).ok()
}

impl GraphDoc {
    /// Read a document from its raw bytes. `path` is workspace-relative.
    pub fn from_bytes(path: &str, bytes: &[u8]) -> GraphDoc {
        match std::str::from_utf8(bytes) {
            Ok(text) => GraphDoc::from_text(path, text),
            Err(e) => GraphDoc::without_text(path, DocProblem::from_utf8(&e)),
        }
    }

    /// Read a document from its raw bytes, taken: text that needs no
    /// normalisation (no BOM, no `\r`) is checked in place and copied once,
    /// into the shared text.
    pub fn from_vec(path: &str, bytes: Vec<u8>) -> GraphDoc {
        match String::from_utf8(bytes) {
            Ok(text) if !text.starts_with('\u{feff}') && !crate::text::contains(&text, "\r") => {
                GraphDoc::parse(path, text.into(), false)
            }
            Ok(text) => GraphDoc::from_text(path, &text),
            Err(e) => GraphDoc::without_text(path, DocProblem::from_utf8(&e.utf8_error())),
        }
    }

    /// The document of a corpus file whose read failed: known by its path
    /// (type, stem, date prefix), with the failure as its problem.
    pub fn unreadable(path: &str, err: &StorageError) -> GraphDoc {
        GraphDoc::without_text(path, DocProblem::from_read(err))
    }

    /// Read a document from text already decoded.
    pub fn from_text(path: &str, raw: &str) -> GraphDoc {
        let normalized = raw.starts_with('\u{feff}') || crate::text::contains(raw, "\r");
        let raw = raw.strip_prefix('\u{feff}').unwrap_or(raw);
        let text: Arc<str> = if crate::text::contains(raw, "\r") {
            raw.replace("\r\n", "\n").replace('\r', "\n").into()
        } else {
            raw.into()
        };
        GraphDoc::parse(path, text, normalized)
    }

    /// A document whose text needs no normalisation, taken as it is.
    pub(crate) fn unchanged(doc: Document) -> GraphDoc {
        GraphDoc {
            doc,
            problem: None,
            normalized: false,
            blob: OnceLock::new(),
            features: OnceLock::new(),
            recency: KeptDate::default(),
        }
    }

    fn without_text(path: &str, problem: DocProblem) -> GraphDoc {
        GraphDoc {
            doc: Document::from_text(path, ""),
            problem: Some(Box::new(problem)),
            normalized: false,
            blob: OnceLock::new(),
            features: OnceLock::new(),
            recency: KeptDate::default(),
        }
    }

    /// The document over normalised `text`, and the problem its frontmatter
    /// has, if any.
    fn parse(path: &str, text: Arc<str>, normalized: bool) -> GraphDoc {
        let doc = Document::from_text(path, text);
        let text = &*doc.text;
        // A document whose first line is the opening fence (nearly every
        // one) has the fences `frontmatter::split` found: only the YAML
        // between them is left to check, from line 2.
        let problem = match &doc.split {
            Some(s) if s.yaml.start > 0 && opens_with_fence(text) => yaml_problem(s.yaml(text), 2),
            _ => frontmatter_problem(text),
        }
        .map(Box::new);
        GraphDoc {
            doc,
            problem,
            normalized,
            blob: OnceLock::new(),
            features: OnceLock::new(),
            recency: KeptDate::default(),
        }
    }

    /// Whether the document has text (it was read and is UTF-8); its
    /// frontmatter may still be malformed.
    pub fn has_text(&self) -> bool {
        self.problem.as_ref().is_none_or(|p| !p.no_text())
    }

    /// The document type as the graph keys it: the directory, or `unknown`.
    pub fn type_name(&self) -> &'static str {
        self.doc_type.map_or("unknown", |t| t.as_str())
    }

    /// The body: from the first non-blank line after the frontmatter, or
    /// the whole text when there is none (a second BOM included, as the
    /// graph has always read it).
    pub fn body(&self) -> &str {
        &self.text[self.body_start()..]
    }

    /// Where [`GraphDoc::body`] starts in the text.
    pub fn body_start(&self) -> usize {
        self.split.as_ref().map_or(0, |s| s.body)
    }

    /// `date:` as written (quotes removed), `None` when absent or empty.
    pub fn written_date(&self) -> Option<&str> {
        self.meta().date().filter(|d| !d.is_empty())
    }

    /// The graph's feature: the lexicographically first non-directory tag,
    /// without `#`; else the legacy `feature:` key, lowercased.
    pub fn graph_feature(&self) -> Option<&str> {
        self.features()[0].as_deref()
    }

    /// The listings' feature (`vault list`, `vault stats`, feature listing):
    /// the first non-directory tag in written order, without `#`; else the
    /// legacy `feature:` key, lowercased.
    pub fn listing_feature(&self) -> Option<&str> {
        self.features()[1].as_deref()
    }

    /// The graph's and the listings' features, read once.
    pub(super) fn features(&self) -> &[Option<Arc<str>>; 2] {
        self.features.get_or_init(|| {
            let tags = self.meta().tags();
            let graph = tags
                .iter()
                .filter(|t| !is_directory_tag(t))
                .min()
                .map(|t| crate::doc::tag_name(t).to_owned())
                .filter(|f| !f.is_empty())
                .or_else(|| self.fallback_feature());
            let listing = match tags
                .iter()
                .map(crate::doc::tag_name)
                .find(|t| !DOC_TYPES.contains(t))
            {
                Some(f) if !f.is_empty() => Some(f.to_owned()),
                _ => self.fallback_feature(),
            };
            // Nearly always one feature, kept once for both.
            let graph: Option<Arc<str>> = graph.map(Into::into);
            let listing = match (&graph, listing) {
                (Some(g), Some(l)) if **g == *l => Some(g.clone()),
                (_, l) => l.map(Into::into),
            };
            [graph, listing]
        })
    }

    fn fallback_feature(&self) -> Option<String> {
        let f = self
            .meta()
            .feature()
            .map(crate::doc::feature_arg)?
            .to_lowercase();
        (!f.is_empty()).then_some(f)
    }

    /// [`recency`](crate::status::recency::recency) as `read` works it out,
    /// on first use; kept with the document after that.
    pub(crate) fn kept_recency(&self, read: impl FnOnce() -> Option<Date>) -> Option<Date> {
        self.recency.get_or(read)
    }

    /// The listings' date: `date:` as written, else the `yyyy-mm-dd` prefix
    /// of the filename.
    pub fn listing_date(&self) -> Option<&str> {
        self.written_date().or_else(|| {
            let prefix = self.stem().get(..10)?;
            crate::date::is_ymd_dashed_shape(prefix).then_some(prefix)
        })
    }

    /// The git blob id of the file, when the text is still its exact bytes
    /// (no BOM or `\r` was normalised away); `None` means: hash the raw bytes.
    pub fn blob_oid(&self) -> Option<String> {
        (self.has_text() && !self.normalized).then(|| {
            self.blob
                .get_or_init(|| crate::hash::blob_oid(self.text.as_bytes()).into())
                .to_string()
        })
    }

    /// The text of the first non-empty level-1 heading outside fenced code,
    /// as the graph reads it.
    pub fn title(&self) -> Option<&str> {
        markdown::first_h1(self.body())
    }

    /// `len(body.split())`: whitespace-separated words of the body.
    pub fn word_count(&self) -> usize {
        self.body()
            .split(|c: char| c.is_whitespace() || ('\x1c'..='\x1f').contains(&c))
            .filter(|w| !w.is_empty())
            .count()
    }
}

/// Whether the first line of `text` is an opening fence: `---` and nothing
/// after it but spaces and tabs, so the YAML [`crate::frontmatter::split`]
/// found starts on line 2.
fn opens_with_fence(text: &str) -> bool {
    let first = text.split_once('\n').map_or(text, |(line, _)| line);
    first
        .strip_prefix("---")
        .is_some_and(|rest| rest.bytes().all(|b| b == b' ' || b == b'\t'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\u{feff}---\r\ntags:\r\n  - '#research'\r\n  - \"#cache-layer\"\r\ndate: '2026-03-01'\r\nmodified: 2026-03-02\r\nrelated: ['[[a]]', \"[[b|B]]\"]\r\n---\r\n\r\n\r\n# `cache-layer` research\r\n\r\nSome words here.\r\n";

    #[test]
    fn reads_frontmatter_in_any_quoting_and_normalises_newlines() {
        let doc = GraphDoc::from_text(".vault/research/2026-03-01-cache-layer-research.md", DOC);
        assert_eq!(doc.type_name(), "research");
        assert_eq!(doc.stem(), "2026-03-01-cache-layer-research");
        assert_eq!(doc.meta().tags().to_vec(), ["#research", "#cache-layer"]);
        assert_eq!(doc.written_date(), Some("2026-03-01"));
        assert_eq!(doc.meta().modified(), Some("2026-03-02"));
        assert_eq!(doc.meta().related().to_vec(), ["[[a]]", "[[b|B]]"]);
        assert!(doc.body().starts_with("# `cache-layer` research\n"));
        assert_eq!(doc.title(), Some("`cache-layer` research"));
        assert_eq!(doc.word_count(), 6);
        assert_eq!(doc.graph_feature(), Some("cache-layer"));
    }

    #[test]
    fn graph_feature_is_the_smallest_tag_and_listing_feature_the_first() {
        let doc = GraphDoc::from_text(
            ".vault/adr/x.md",
            "---\ntags:\n  - '#zeta'\n  - '#adr'\n  - '#alpha'\n---\n",
        );
        assert_eq!(doc.graph_feature(), Some("alpha"));
        assert_eq!(doc.listing_feature(), Some("zeta"));
    }

    #[test]
    fn legacy_feature_key_is_the_fallback() {
        let doc = GraphDoc::from_text(
            ".vault/adr/x.md",
            "---\ntags: ['#adr']\nfeature: '#Old'\n---\nbody\n",
        );
        assert_eq!(doc.graph_feature(), Some("old"));
    }

    #[test]
    fn an_unclosed_fence_is_all_body() {
        let doc = GraphDoc::from_text(".vault/adr/x.md", "---\ntags: ['#adr']\nno close\n");
        assert!(doc.meta().tags().is_empty());
        assert_eq!(doc.body_start(), 0);
    }

    #[test]
    fn the_graph_document_is_the_checkers_document_of_the_normalised_text() {
        for text in [
            DOC,
            "---\ntags: []\ntags:\n- '#plan'\ndate:\nmodified: x\nfeature: '#Old'\ngenerated: TRUE\n---\nbody\n",
            "related:\n- '[[x]]'\n---\n",
            "---\ntags: ['#adr'\n---\nmalformed, still read leniently\n",
        ] {
            let doc = GraphDoc::from_text(".vault/adr/x.md", text);
            let normalised = text.trim_start_matches('\u{feff}').replace("\r\n", "\n");
            assert_eq!(
                doc.doc,
                Document::from_text(".vault/adr/x.md", normalised),
                "{text:?}"
            );
        }
        let doc = GraphDoc::from_text(".vault/adr/x.md", "---\ndate:\ngenerated: TRUE\n---\n");
        assert_eq!(doc.written_date(), None, "an empty date is no date");
        assert!(doc.generated());
    }

    #[test]
    fn the_problem_found_at_load_is_the_one_the_whole_text_check_finds() {
        for text in [
            "---\ntags: ['#adr']\n---\nbody\n",
            "---\ntags: ['#adr'\ndate: x\n---\nbody\n",
            "---  \ntags:\n  - '#adr\n---\n",
            "---\ntitle: a # note\nk: {a: b}\n---\n",
            "---\nnotes: |\n  text\n---\n",
            "---\ntags: []\n",
            "\n\n---\ntags: ['#adr'\n---\n",
            "  ---\ntags: [a\n---\n",
            "\u{feff}---\nk: [\n---\n",
            "---\r\nk: [\r\n---\r\n",
            "# title\n---\nk: [\n---\n",
            "---\n---\n",
            "---",
            "",
        ] {
            let doc = GraphDoc::from_text(".vault/adr/x.md", text);
            let normalised = text.trim_start_matches('\u{feff}').replace("\r\n", "\n");
            assert_eq!(
                doc.problem.as_deref(),
                frontmatter_problem(&normalised).as_ref(),
                "{text:?}"
            );
            let read = GraphDoc::from_vec(".vault/adr/x.md", text.as_bytes().to_vec());
            assert_eq!(read.problem, doc.problem, "{text:?}");
        }
    }

    #[test]
    fn undecodable_bytes_still_make_a_document() {
        let doc = GraphDoc::from_bytes(".vault/adr/x.md", b"---\ntags: [\xff]\n---\n");
        assert!(
            matches!(
                doc.problem.as_deref(),
                Some(DocProblem::NotUtf8 { offset: 11, .. })
            ),
            "{:?}",
            doc.problem
        );
        assert!(doc.meta().tags().is_empty());
    }

    #[test]
    fn listing_date_falls_back_to_the_filename() {
        let doc = GraphDoc::from_text(".vault/adr/2026-01-02-x-adr.md", "no frontmatter");
        assert_eq!(doc.listing_date(), Some("2026-01-02"));
        assert_eq!(GraphDoc::from_text(".vault/readme.md", "").doc_type, None);
    }

    #[test]
    fn a_kept_date_is_worked_out_once_and_given_back_whole() {
        for date in [
            None,
            Date::new(1, 1, 1),
            Date::new(2026, 12, 31),
            Date::new(9999, 12, 31),
        ] {
            let kept = KeptDate::default();
            let mut reads = 0;
            for _ in 0..3 {
                let got = kept.get_or(|| {
                    reads += 1;
                    date
                });
                assert_eq!(got, date);
            }
            assert_eq!(reads, 1, "{date:?} was read once");
            assert_eq!(kept.clone().get_or(|| unreachable!()), date);
        }
    }
}

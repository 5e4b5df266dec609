//! The graph's input record: one parsed vault document ([`GraphDoc`]).
//!
//! A `GraphDoc` holds the whole (normalised) text once, plus the few
//! frontmatter values the graph, listings and search read. Everything else
//! (title, word count, links) is derived on demand from that text, so loading
//! stays a single pass over each file.

use std::ops::Range;
use std::sync::Arc;

use super::markdown;
use crate::doc::{DocProblem, frontmatter_problem, yaml_problem};
use crate::storage::StorageError;

/// The seven document types, which are also the directory tags (`#adr` ...).
pub const DOC_TYPES: [&str; 7] = crate::doc::DocType::NAMES;

/// Whether `tag` (with or without `#`) is a directory tag such as `#adr`.
pub fn is_directory_tag(tag: &str) -> bool {
    DOC_TYPES.contains(&tag.strip_prefix('#').unwrap_or(tag))
}

/// One corpus document as the graph and search read it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GraphDoc {
    /// Workspace-relative path, `/`-separated (`.vault/adr/x.md`).
    pub path: String,
    /// The first folder under `.vault/` when it is a document type, else `None`.
    pub doc_type: Option<&'static str>,
    /// The filename without `.md`.
    pub stem: String,
    /// `tags:` items as written (quotes removed), usually `#adr`, `#feature`.
    pub tags: Vec<String>,
    /// `date:` as written (quotes removed).
    pub date: Option<String>,
    /// `modified:` as written (quotes removed).
    pub modified: Option<String>,
    /// `related:` items as written (quotes removed), e.g. `[[stem]]`.
    pub related: Vec<String>,
    /// The legacy bare `feature:` key, if any.
    pub feature_key: Option<String>,
    /// Whether the frontmatter says `generated: true` (feature indexes).
    pub generated: bool,
    /// The text with one BOM removed and `\r\n`/`\r` turned into `\n`
    /// (shared with the checkers' model of the document).
    pub text: Arc<str>,
    /// The YAML between the fences, as a range of `text` (empty when none).
    pub frontmatter: Range<usize>,
    /// Where the body starts in `text` (spec/vault-format.md §5.1).
    pub body_start: usize,
    /// Why the file is not a usable document (unreadable, not UTF-8, or
    /// malformed frontmatter). It still gets a node; without text it has no
    /// frontmatter, body or links.
    pub problem: Option<DocProblem>,
    /// `text` differs from the file's bytes (a BOM or `\r` was normalised).
    pub normalized: bool,
}

/// Where the document of the file at `path` is in `docs`, which are in path
/// order (as a graph's are).
pub fn position(docs: &[GraphDoc], path: &str) -> Option<usize> {
    docs.binary_search_by(|d| d.path.as_str().cmp(path)).ok()
}

impl GraphDoc {
    /// Read a document from its raw bytes. `path` is workspace-relative.
    pub fn from_bytes(path: &str, bytes: &[u8]) -> GraphDoc {
        let mut doc = GraphDoc::bare(path);
        match std::str::from_utf8(bytes) {
            Ok(text) => doc.set_text(text),
            Err(e) => doc.problem = Some(DocProblem::from_utf8(&e)),
        }
        doc
    }

    /// Read a document from its raw bytes, taken: text that needs no
    /// normalisation (no BOM, no `\r`) is checked in place and copied once,
    /// into the shared text.
    pub fn from_vec(path: &str, bytes: Vec<u8>) -> GraphDoc {
        match String::from_utf8(bytes) {
            Ok(text) if !text.starts_with('\u{feff}') && !crate::text::contains(&text, "\r") => {
                let mut doc = GraphDoc::bare(path);
                doc.text = text.into();
                doc.parse_text();
                doc
            }
            Ok(text) => GraphDoc::from_text(path, &text),
            Err(e) => GraphDoc {
                problem: Some(DocProblem::from_utf8(&e.utf8_error())),
                ..GraphDoc::bare(path)
            },
        }
    }

    /// The document of a corpus file whose read failed: known by its path
    /// (type, stem, date prefix), with the failure as its problem.
    pub fn unreadable(path: &str, err: &StorageError) -> GraphDoc {
        GraphDoc {
            problem: Some(DocProblem::from_read(err)),
            ..GraphDoc::bare(path)
        }
    }

    /// Whether the document has text (it was read and is UTF-8); its
    /// frontmatter may still be malformed.
    pub fn has_text(&self) -> bool {
        self.problem.as_ref().is_none_or(|p| !p.no_text())
    }

    /// Read a document from text already decoded.
    pub fn from_text(path: &str, text: &str) -> GraphDoc {
        let mut doc = GraphDoc::bare(path);
        doc.set_text(text);
        doc
    }

    fn bare(path: &str) -> GraphDoc {
        let stem = crate::doc::stem_of(path).to_owned();
        let rel = path.strip_prefix(".vault/").unwrap_or(path);
        let doc_type = rel
            .split_once('/')
            .and_then(|(dir, _)| DOC_TYPES.iter().copied().find(|t| *t == dir));
        GraphDoc {
            path: path.to_owned(),
            doc_type,
            stem,
            ..GraphDoc::default()
        }
    }

    fn set_text(&mut self, raw: &str) {
        self.normalized = raw.starts_with('\u{feff}') || crate::text::contains(raw, "\r");
        let raw = raw.strip_prefix('\u{feff}').unwrap_or(raw);
        self.text = if crate::text::contains(raw, "\r") {
            raw.replace("\r\n", "\n").replace('\r', "\n").into()
        } else {
            raw.into()
        };
        self.parse_text();
    }

    fn parse_text(&mut self) {
        let (yaml, body_start) =
            crate::frontmatter::split(&self.text).map_or((0..0, 0), |s| (s.yaml, s.body));
        self.frontmatter = yaml.clone();
        self.body_start = body_start;
        let text = std::mem::take(&mut self.text);
        scan_frontmatter(&text[yaml.clone()], self);
        // Kept as long as the graph: no room for items never pushed.
        self.tags.shrink_to_fit();
        self.related.shrink_to_fit();
        // A document whose first line is the opening fence (nearly every
        // one) has the fences `frontmatter::split` would find, found above:
        // only the YAML between them is left to check, from line 2.
        self.problem = if yaml.start > 0 && opens_with_fence(&text) {
            yaml_problem(&text[yaml], 2)
        } else {
            frontmatter_problem(&text)
        };
        self.text = text;
    }

    /// The document type as the graph keys it: the directory, or `unknown`.
    pub fn type_name(&self) -> &str {
        self.doc_type.unwrap_or("unknown")
    }

    /// The body: from the first non-blank line after the frontmatter.
    pub fn body(&self) -> &str {
        &self.text[self.body_start..]
    }

    /// The raw YAML between the fences (empty when there is none).
    pub fn frontmatter_yaml(&self) -> &str {
        &self.text[self.frontmatter.clone()]
    }

    /// The graph's feature: the lexicographically first non-directory tag,
    /// without `#`; else the legacy `feature:` key, lowercased.
    pub fn graph_feature(&self) -> Option<String> {
        self.tags
            .iter()
            .filter(|t| !is_directory_tag(t))
            .min()
            .map(|t| crate::doc::tag_name(t).to_owned())
            .filter(|f| !f.is_empty())
            .or_else(|| self.fallback_feature())
    }

    /// The listings' feature (`vault list`, `vault stats`, feature listing):
    /// the first non-directory tag in written order, without `#`; else the
    /// legacy `feature:` key, lowercased.
    pub fn listing_feature(&self) -> Option<String> {
        let first = self
            .tags
            .iter()
            .map(|t| crate::doc::tag_name(t))
            .find(|t| !DOC_TYPES.contains(t));
        match first {
            Some(f) if !f.is_empty() => Some(f.to_owned()),
            _ => self.fallback_feature(),
        }
    }

    fn fallback_feature(&self) -> Option<String> {
        let f = self
            .feature_key
            .as_deref()
            .map(crate::doc::feature_arg)?
            .to_lowercase();
        (!f.is_empty()).then_some(f)
    }

    /// The listings' date: `date:` as written, else the `yyyy-mm-dd` prefix
    /// of the filename.
    pub fn listing_date(&self) -> Option<&str> {
        self.date.as_deref().filter(|d| !d.is_empty()).or_else(|| {
            let prefix = self.stem.get(..10)?;
            crate::date::is_ymd_dashed_shape(prefix).then_some(prefix)
        })
    }

    /// The git blob id of the file, when the text is still its exact bytes
    /// (no BOM or `\r` was normalised away); `None` means: hash the raw bytes.
    pub fn blob_oid(&self) -> Option<String> {
        (self.has_text() && !self.normalized).then(|| crate::hash::blob_oid(self.text.as_bytes()))
    }

    /// The text of the first non-empty level-1 heading outside fenced code.
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

/// The keys the graph reads, by the line scanner of spec/vault-format.md
/// §5.2 ([`crate::frontmatter::scan`], the reference's
/// `parse_vault_metadata`), taken straight from its lines: this runs on
/// every document a verb loads, and the graph needs six keys of the
/// fifteen the scanner models.
fn scan_frontmatter(yaml: &str, doc: &mut GraphDoc) {
    use crate::frontmatter::scan::{Entry, scan_lines, strip_quotes};
    let owned = |v: &str| (!v.is_empty()).then(|| v.to_owned());
    scan_lines(yaml, |entry| match entry {
        Entry::Key { key, value, .. } => {
            let value = strip_quotes(value);
            match key {
                "tags" => doc.tags.clear(),
                "related" => doc.related.clear(),
                "date" => doc.date = owned(value),
                "modified" => doc.modified = owned(value),
                "feature" => doc.feature_key = owned(value),
                "generated" => doc.generated = value.eq_ignore_ascii_case("true"),
                _ => {}
            }
        }
        Entry::Item { key: "tags", item } => doc.tags.push(item.to_owned()),
        Entry::Item {
            key: "related",
            item,
        } => doc.related.push(item.to_owned()),
        Entry::Item { .. } => {}
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\u{feff}---\r\ntags:\r\n  - '#research'\r\n  - \"#cache-layer\"\r\ndate: '2026-03-01'\r\nmodified: 2026-03-02\r\nrelated: ['[[a]]', \"[[b|B]]\"]\r\n---\r\n\r\n\r\n# `cache-layer` research\r\n\r\nSome words here.\r\n";

    #[test]
    fn reads_frontmatter_in_any_quoting_and_normalises_newlines() {
        let doc = GraphDoc::from_text(".vault/research/2026-03-01-cache-layer-research.md", DOC);
        assert_eq!(doc.doc_type, Some("research"));
        assert_eq!(doc.stem, "2026-03-01-cache-layer-research");
        assert_eq!(doc.tags, ["#research", "#cache-layer"]);
        assert_eq!(doc.date.as_deref(), Some("2026-03-01"));
        assert_eq!(doc.modified.as_deref(), Some("2026-03-02"));
        assert_eq!(doc.related, ["[[a]]", "[[b|B]]"]);
        assert!(doc.body().starts_with("# `cache-layer` research\n"));
        assert_eq!(doc.title(), Some("`cache-layer` research"));
        assert_eq!(doc.word_count(), 6);
        assert_eq!(doc.graph_feature().as_deref(), Some("cache-layer"));
    }

    #[test]
    fn graph_feature_is_the_smallest_tag_and_listing_feature_the_first() {
        let doc = GraphDoc::from_text(
            ".vault/adr/x.md",
            "---\ntags:\n  - '#zeta'\n  - '#adr'\n  - '#alpha'\n---\n",
        );
        assert_eq!(doc.graph_feature().as_deref(), Some("alpha"));
        assert_eq!(doc.listing_feature().as_deref(), Some("zeta"));
    }

    #[test]
    fn legacy_feature_key_is_the_fallback() {
        let doc = GraphDoc::from_text(
            ".vault/adr/x.md",
            "---\ntags: ['#adr']\nfeature: '#Old'\n---\nbody\n",
        );
        assert_eq!(doc.graph_feature().as_deref(), Some("old"));
    }

    #[test]
    fn an_unclosed_fence_is_all_body() {
        let doc = GraphDoc::from_text(".vault/adr/x.md", "---\ntags: ['#adr']\nno close\n");
        assert!(doc.tags.is_empty());
        assert_eq!(doc.body_start, 0);
    }

    #[test]
    fn the_graph_reads_its_keys_as_the_metadata_scanner_does() {
        for yaml in [
            "tags:\n  - '#adr'\n  - \"#cache\"\ndate: '2026-01-02'\nrelated: ['[[a]]', \"[[b]]\"]\n",
            "tags: []\ntags:\n- '#plan'\ndate:\nmodified: x\nfeature: '#Old'\ngenerated: TRUE\n",
            "related:\n- '[[x]]'\ntitle: y\n- stray\nrelated: '[[z]]'\ngenerated: no\n# tags: x\n",
        ] {
            let doc = GraphDoc::from_text(".vault/adr/x.md", &format!("---\n{yaml}---\nbody\n"));
            let m = crate::frontmatter::scan::scan(yaml);
            assert_eq!(doc.tags, m.tags, "{yaml:?}");
            assert_eq!(doc.related, m.related, "{yaml:?}");
            assert_eq!(doc.date, m.date.filter(|d| !d.is_empty()), "{yaml:?}");
            assert_eq!(doc.modified, m.modified, "{yaml:?}");
            assert_eq!(doc.feature_key, m.feature, "{yaml:?}");
            let generated = m.generated.is_some_and(|g| g.eq_ignore_ascii_case("true"));
            assert_eq!(doc.generated, generated, "{yaml:?}");
        }
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
            assert_eq!(doc.problem, frontmatter_problem(&normalised), "{text:?}");
            let read = GraphDoc::from_vec(".vault/adr/x.md", text.as_bytes().to_vec());
            assert_eq!(read.problem, doc.problem, "{text:?}");
        }
    }

    #[test]
    fn undecodable_bytes_still_make_a_document() {
        let doc = GraphDoc::from_bytes(".vault/adr/x.md", b"---\ntags: [\xff]\n---\n");
        assert!(
            matches!(doc.problem, Some(DocProblem::NotUtf8 { offset: 11, .. })),
            "{:?}",
            doc.problem
        );
        assert!(doc.tags.is_empty());
    }

    #[test]
    fn listing_date_falls_back_to_the_filename() {
        let doc = GraphDoc::from_text(".vault/adr/2026-01-02-x-adr.md", "no frontmatter");
        assert_eq!(doc.listing_date(), Some("2026-01-02"));
        assert_eq!(GraphDoc::from_text(".vault/readme.md", "").doc_type, None);
    }
}

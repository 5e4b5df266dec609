//! The snapshot every checker reads: the vault read once into a graph, whose
//! documents are the checkers' [`Document`]s, the run options, and the one
//! writer the fixers share (which keeps a file's BOM and line-ending
//! convention).
//!
//! Loading never fails on one bad file: a file that cannot be read, is not
//! UTF-8 or has malformed frontmatter is a graph node with its
//! [`DocProblem`] (so links to it resolve) but has no [`Document`], so no
//! checker reads it and no fixer writes it. The reference leaves unreadable
//! files out of its snapshot, so links to them look dangling and its
//! `dangling` fixer deletes them; we keep them.

use std::borrow::Cow;

use crate::date::Date;
use crate::doc::{DocProblem, DocType, Document};
use crate::error::Result;
use crate::graph::{Graph, LoadError, NodeId, default_threads, read_vault};
use crate::storage::{FileEntry, Storage};
use crate::text;

/// How a check run behaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Apply the fixers.
    pub fix: bool,
    /// Restrict per-document checkers to documents tagged `#<feature>`.
    pub feature: Option<String>,
    /// The UTC date stamps and date prefixes use.
    pub today: Date,
}

impl Options {
    /// A read-only run over the whole vault.
    pub fn check(today: Date) -> Options {
        Options {
            fix: false,
            feature: None,
            today,
        }
    }

    /// A fixing run over the whole vault.
    pub fn fix(today: Date) -> Options {
        Options {
            fix: true,
            feature: None,
            today,
        }
    }

    /// The same options scoped to `feature` (`#` optional).
    pub fn with_feature(mut self, feature: Option<&str>) -> Options {
        self.feature = feature
            .map(|f| crate::doc::feature_arg(f).to_string())
            .filter(|f| !f.is_empty());
        self
    }
}

/// The vault as the checkers see it.
pub struct Snapshot<'s> {
    /// Where the vault lives.
    pub storage: &'s dyn Storage,
    /// The document graph: one node per corpus file, those with a problem
    /// included, so links to them resolve and nothing reports them missing.
    /// Its documents are the checkers' (see [`Snapshot::doc`]). Borrowed
    /// when the snapshot is taken of a load kept elsewhere.
    pub graph: Cow<'s, Graph>,
    /// Every file under `.vault/` as listed when the snapshot was read, so
    /// the checkers that walk the tree do not list it again.
    pub listing: Cow<'s, [FileEntry]>,
    /// When set, only the documents of the graph nodes marked here are
    /// readable (see [`Snapshot::lending`]).
    lent: Option<Vec<bool>>,
}

impl<'s> Snapshot<'s> {
    /// Reads the corpus of `storage` (one read per file) and builds its
    /// graph. Only a failing listing or an exhausted read budget fails.
    pub fn load(storage: &'s dyn Storage) -> Result<Snapshot<'s>> {
        let read = read_vault(storage, default_threads()).map_err(|LoadError::Storage(e)| e)?;
        let graph = Graph::build(read.docs, &read.archived);
        Ok(Snapshot::of(
            storage,
            Cow::Owned(graph),
            Cow::Owned(read.listing),
        ))
    }

    /// The snapshot of a vault already read from `storage`: its graph and
    /// the listing of `.vault/` the graph's corpus was taken from (a server
    /// that keeps its last load lends them, and checks it without reading it
    /// again or copying it).
    pub fn of(
        storage: &'s dyn Storage,
        graph: Cow<'s, Graph>,
        listing: Cow<'s, [FileEntry]>,
    ) -> Snapshot<'s> {
        Snapshot {
            storage,
            graph,
            listing,
            lent: None,
        }
    }

    /// The same vault with only the documents of graph nodes `only`
    /// readable: what a checker that judges each document by itself needs
    /// to judge just those.
    pub fn lending(&self, only: &[NodeId]) -> Snapshot<'_> {
        let mut lent = vec![false; self.graph.docs().len()];
        for &id in only {
            lent[id] = true;
        }
        Snapshot {
            storage: self.storage,
            graph: Cow::Borrowed(&*self.graph),
            listing: Cow::Borrowed(&*self.listing),
            lent: Some(lent),
        }
    }

    /// The corpus files that are documents with a problem, with it, in path
    /// order.
    pub fn problems(&self) -> impl Iterator<Item = (&str, &DocProblem)> {
        self.graph
            .docs()
            .iter()
            .filter_map(|g| g.problem.as_deref().map(|p| (g.path.as_str(), p)))
    }

    /// The document of graph node `id`: `None` for a phantom, a file with a
    /// [`DocProblem`] (no checker reads or fixes it) or one not lent.
    pub fn doc(&self, id: NodeId) -> Option<&Document> {
        let g = self.graph.docs().get(id)?;
        let lent = self.lent.as_ref().is_none_or(|lent| lent[id]);
        (g.problem.is_none() && lent).then_some(&g.doc)
    }

    /// Every readable document with its graph node, in path order.
    pub fn docs(&self) -> impl Iterator<Item = (NodeId, &Document)> {
        (0..self.graph.docs().len()).filter_map(|id| Some((id, self.doc(id)?)))
    }

    /// Every readable document, in path order.
    pub fn all_docs(&self) -> impl Iterator<Item = &Document> {
        self.docs().map(|(_, d)| d)
    }

    /// The documents a per-document checker looks at: every readable one,
    /// or those tagged `#<feature>` when the run is scoped.
    pub fn scoped<'a>(&'a self, opts: &'a Options) -> impl Iterator<Item = &'a Document> + 'a {
        self.all_docs()
            .filter(move |d| opts.feature.as_deref().is_none_or(|f| d.has_feature_tag(f)))
    }

    /// Whether graph node `id` is a document inside the run's scope.
    pub fn node_in_scope(&self, id: NodeId, opts: &Options) -> bool {
        match self.doc(id) {
            Some(d) => opts.feature.as_deref().is_none_or(|f| d.has_feature_tag(f)),
            None => false,
        }
    }

    /// Whether the corpus file at `path` is inside the run's scope, judged
    /// by the tags the graph read (leniently) for a file with a problem.
    pub fn path_in_scope(&self, path: &str, opts: &Options) -> bool {
        let Some(feature) = opts.feature.as_deref() else {
            return true;
        };
        let docs = self.graph.docs();
        crate::graph::position(docs, path).is_some_and(|i| docs[i].has_feature_tag(feature))
    }
}

/// The type a document declares with its directory tag, else its folder.
pub fn declared_type(doc: &Document) -> Option<DocType> {
    doc.meta()
        .tags()
        .iter()
        .filter(|t| t.starts_with('#'))
        .find_map(DocType::from_tag)
        .or(doc.doc_type)
}

/// Rewrites one file through `edit`, which receives the text with the BOM
/// removed and newlines normalised to `\n` and returns the new text (or
/// `None` to leave the file alone). The BOM and a CRLF convention are
/// restored before writing; nothing is written when the bytes would not
/// change. Returns whether the file was written.
pub fn rewrite(
    storage: &dyn Storage,
    path: &str,
    edit: impl FnOnce(&str) -> Option<String>,
) -> Result<bool> {
    let raw = String::from_utf8_lossy(&storage.read(path)?).into_owned();
    let bom = raw.starts_with(text::BOM);
    let crlf = text::uses_crlf(&raw);
    let plain = text::normalize_newlines(text::strip_bom(&raw)).into_owned();
    let Some(new) = edit(&plain) else {
        return Ok(false);
    };
    if new == plain {
        return Ok(false);
    }
    let mut out = if crlf { text::to_crlf(&new) } else { new };
    if bom {
        out.insert(0, text::BOM);
    }
    if out == raw {
        return Ok(false);
    }
    storage.write(path, out.as_bytes())?;
    Ok(true)
}

/// Reads a file as text (lossy: fixers only touch UTF-8 documents).
pub fn read_text(storage: &dyn Storage, path: &str) -> Result<String> {
    Ok(String::from_utf8_lossy(&storage.read(path)?).into_owned())
}

/// Writes `new` when it differs from `old`; returns whether it wrote.
pub fn write_if_changed(storage: &dyn Storage, path: &str, old: &str, new: &str) -> Result<bool> {
    if old == new {
        return Ok(false);
    }
    storage.write(path, new.as_bytes())?;
    Ok(true)
}

/// `n` followed by `one` or `many` (`1 HTML comment block`, `2 ... blocks`).
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

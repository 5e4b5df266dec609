//! The document graph: which vault documents link to which, and every figure
//! derived from it (spec/graph-and-search.md §1-7).
//!
//! [`GraphDoc`] is the input record (one parsed document); [`Graph::build`]
//! turns a list of them into nodes keyed by stem, edges with multiplicity and
//! phantoms for unresolved or archived targets; [`load_graph`] does both from
//! a [`Storage`](crate::Storage), reading files on several threads natively,
//! and [`Graph::from_corpus`] from the document layer's corpus. The figures
//! the verbs and hot tools report are methods on [`Graph`]:
//!
//! | caller | method |
//! |---|---|
//! | MCP `find` (listing / documents) | [`Graph::find_listing`], [`Graph::find_documents`] |
//! | `vault list` | [`Graph::list_documents`] |
//! | `vault stats`, `status` totals | [`Graph::stats`] |
//! | `vault feature list` | [`Graph::feature_list`] |
//! | `vault graph --json` / `--metrics` | [`Graph::to_node_link`], [`Graph::metrics`] |
//! | checks `orphans`, `dangling` | [`Graph::orphans`], [`Graph::dangling_links`] |
//!
//! ```
//! use vaultspec_vault::graph::{Graph, GraphDoc};
//! let a = GraphDoc::from_text(".vault/adr/a.md", "---\ntags: ['#adr', '#f']\n---\nSee [[b]].\n");
//! let graph = Graph::build(vec![a], &[]);
//! assert_eq!(graph.dangling_links().len(), 1);
//! ```

mod adapter;
mod build;
pub mod derived;
mod export;
pub mod features;
mod find;
pub(crate) mod fxhash;
mod input;
pub mod links;
pub mod listing;
mod load;
pub(crate) mod markdown;
pub mod metrics;
mod pagerank;
mod problems;

use fxhash::FxMap;

pub use adapter::archived_paths;
pub use derived::{DEFAULT_TOP_K, DerivedEdge, DerivedSignals};
pub use export::ExportOptions;
pub use features::{FeatureFilter, FeatureRow, FindFeatureRow};
pub use find::{FIND_DEFAULT_TYPES, FindQuery};
pub use input::{DOC_TYPES, GraphDoc, is_directory_tag, position};
pub use listing::{DocRow, DocSelect, Stats, select_rows};
pub use load::{
    LoadError, VaultRead, default_threads, load_graph, load_graph_listed, read_corpus,
    read_corpus_with, read_doc, read_docs, read_vault, read_vault_keeping, read_vault_listed,
};
pub use metrics::{GraphMetrics, Scope};
pub use problems::ProblemRow;

/// Index of a node in [`Graph::nodes`].
pub type NodeId = usize;

/// One graph node: a corpus document or a phantom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The key: the stem, or `<doc_type>/<stem>` when stems collide; for a
    /// phantom, the unresolved target (or archive-relative key).
    pub key: String,
    /// Index into [`Graph::docs`]; `None` for a phantom.
    pub doc: Option<usize>,
    /// A phantom standing for an archived document (never dangling).
    pub archived: bool,
}

impl Node {
    /// Whether the node has no document behind it.
    pub fn is_phantom(&self) -> bool {
        self.doc.is_none()
    }
}

/// How a target was reached from a source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeKind {
    /// Only through body wiki-links.
    Body,
    /// Only through `related:`.
    Related,
    /// Through both.
    Both,
}

impl EdgeKind {
    /// The reference's name: `body`, `related` or `both`.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Body => "body",
            EdgeKind::Related => "related",
            EdgeKind::Both => "both",
        }
    }
}

/// One directed edge `source -> target`, with how often each source of links
/// reached it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// The linking document.
    pub source: NodeId,
    /// The resolved target (possibly a phantom).
    pub target: NodeId,
    /// Body wiki-links reaching the target.
    pub body: u32,
    /// `related:` items reaching the target.
    pub related: u32,
}

impl Edge {
    /// Body count plus related count.
    pub fn multiplicity(&self) -> u32 {
        self.body + self.related
    }

    /// `both`, `body` or `related`.
    pub fn kind(&self) -> EdgeKind {
        match (self.body > 0, self.related > 0) {
            (true, true) => EdgeKind::Both,
            (true, false) => EdgeKind::Body,
            _ => EdgeKind::Related,
        }
    }
}

/// The document graph of one vault.
#[derive(Debug, Clone)]
pub struct Graph {
    docs: Vec<GraphDoc>,
    nodes: Vec<Node>,
    /// Every node's id, ordered by key (then id): looked up by binary
    /// search, so the keys are held once (in `nodes`), not again in a map.
    by_key: Box<[u32]>,
    stem_index: FxMap<String, Vec<NodeId>>,
    edges: Vec<Edge>,
    out_start: Vec<usize>,
    /// The sources linking to node `i` are `in_sources[in_start[i]..in_start[i + 1]]`.
    in_start: Vec<usize>,
    in_sources: Vec<NodeId>,
    max_multiplicity: u32,
}

impl Graph {
    /// The corpus documents, in path order (`docs[i]` is node `i`).
    pub fn docs(&self) -> &[GraphDoc] {
        &self.docs
    }

    /// The corpus documents, in path order, taken out of the graph (to
    /// build the next one without copying them).
    pub fn into_docs(self) -> Vec<GraphDoc> {
        self.docs
    }

    /// The documents with a problem (unreadable, not UTF-8, malformed
    /// frontmatter), in path order.
    pub fn problems(&self) -> impl Iterator<Item = &GraphDoc> {
        self.docs.iter().filter(|d| d.problem.is_some())
    }

    /// Every node: documents first (path order), then phantoms.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// One node.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// The document behind a node, `None` for a phantom.
    pub fn doc(&self, id: NodeId) -> Option<&GraphDoc> {
        self.nodes[id].doc.map(|d| &self.docs[d])
    }

    /// The node with this exact key.
    pub fn node_id(&self, key: &str) -> Option<NodeId> {
        let key_of = |id: u32| self.nodes[id as usize].key.as_str();
        let at = self.by_key.partition_point(|&id| key_of(id) < key);
        self.by_key
            .get(at)
            .filter(|&&id| key_of(id) == key)
            .map(|&id| id as NodeId)
    }

    /// The documents whose file stem is `stem`, in path order: one, none,
    /// or several where folders share the stem.
    pub fn docs_with_stem(&self, stem: &str) -> Vec<&GraphDoc> {
        let shared = self.stem_keys(stem);
        let ids: Vec<NodeId> = if shared.is_empty() {
            self.node_id(stem).into_iter().collect()
        } else {
            shared.iter().filter_map(|key| self.node_id(key)).collect()
        };
        let mut docs: Vec<&GraphDoc> = ids
            .into_iter()
            .filter_map(|id| self.doc(id))
            .filter(|doc| doc.stem() == stem)
            .collect();
        docs.sort_by(|a, b| a.path.cmp(&b.path));
        docs
    }

    /// The keys a colliding bare stem stands for (sorted); empty otherwise.
    pub fn stem_keys(&self, stem: &str) -> Vec<&str> {
        self.stem_index
            .get(stem)
            .map(|ids| ids.iter().map(|&id| self.nodes[id].key.as_str()).collect())
            .unwrap_or_default()
    }

    /// Every edge, sorted by `(source, target)`.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// The edges leaving a node, sorted by target.
    pub fn out_edges(&self, id: NodeId) -> &[Edge] {
        &self.edges[self.out_start[id]..self.out_start[id + 1]]
    }

    /// The distinct targets of a node's links, sorted by id.
    pub fn out_links(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.out_edges(id).iter().map(|e| e.target)
    }

    /// The distinct documents linking to a node, sorted by id.
    pub fn in_links(&self, id: NodeId) -> &[NodeId] {
        &self.in_sources[self.in_start[id]..self.in_start[id + 1]]
    }

    /// The edge `source -> target`, if any.
    pub fn edge(&self, source: NodeId, target: NodeId) -> Option<&Edge> {
        let out = self.out_edges(source);
        out.binary_search_by_key(&target, |e| e.target)
            .ok()
            .map(|i| &out[i])
    }

    /// `multiplicity / max multiplicity over all edges` (spec §2).
    pub fn edge_weight(&self, edge: &Edge) -> f64 {
        if self.max_multiplicity == 0 {
            0.0
        } else {
            f64::from(edge.multiplicity()) / f64::from(self.max_multiplicity)
        }
    }

    /// The graph feature of a node (phantoms have none).
    pub fn feature(&self, id: NodeId) -> Option<&str> {
        self.doc(id).and_then(GraphDoc::graph_feature)
    }
}

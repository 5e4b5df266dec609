//! Building the document graph: keys, link resolution, phantoms and edges
//! (spec/graph-and-search.md §1-2).
//!
//! Nodes are the documents in path order, then phantoms in the order they
//! were first reached. Edges are stored sorted by `(source, target)` with an
//! offset table per node, so `out_links` is a slice and every walk over the
//! graph is deterministic.

use std::collections::HashMap;

use super::fxhash::FxMap;

use super::input::GraphDoc;
use super::links::{self, LinkSource};
use super::{Edge, Graph, Node, NodeId};

/// Where targets that reach archived documents resolve.
#[derive(Debug, Default)]
struct Archive {
    /// Archive-relative path without `.md` (`adr/2026-01-01-x-adr`).
    by_path: HashMap<String, ()>,
    /// Bare stem -> archive-relative keys, sorted.
    by_stem: HashMap<String, Vec<String>>,
}

impl Archive {
    fn new(archived: &[String]) -> Archive {
        let mut archive = Archive::default();
        for path in archived {
            let key = path.strip_suffix(".md").unwrap_or(path).to_owned();
            let stem = key.rsplit('/').next().unwrap_or(&key).to_owned();
            archive.by_stem.entry(stem).or_default().push(key.clone());
            archive.by_path.insert(key, ());
        }
        for keys in archive.by_stem.values_mut() {
            keys.sort();
            keys.dedup();
        }
        archive
    }
}

struct Builder {
    nodes: Vec<Node>,
    by_key: FxMap<String, NodeId>,
    stem_index: FxMap<String, Vec<NodeId>>,
    archive: Archive,
}

impl Builder {
    fn phantom(&mut self, key: &str, archived: bool) -> NodeId {
        if let Some(&id) = self.by_key.get(key) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            key: key.to_owned(),
            doc: None,
            archived,
        });
        self.by_key.insert(key.to_owned(), id);
        id
    }

    /// Resolve a raw target (first hit wins): a node key, every key of a
    /// (colliding) stem, an archived document, else a phantom of the target.
    fn resolve(&mut self, target: &str, out: &mut Vec<NodeId>) {
        if let Some(&id) = self.by_key.get(target) {
            out.push(id);
            return;
        }
        if let Some(ids) = self.stem_index.get(target) {
            out.extend_from_slice(ids);
            return;
        }
        let posix = target.replace('\\', "/");
        if self.archive.by_path.contains_key(&posix) {
            out.push(self.phantom(&posix, true));
            return;
        }
        if let Some(keys) = self.archive.by_stem.get(&posix).cloned() {
            for key in keys {
                out.push(self.phantom(&key, true));
            }
            return;
        }
        out.push(self.phantom(target, false));
    }
}

/// The key of each document: its stem, or `<doc_type>/<stem>` when several
/// documents share the stem; and the bare-stem index of the colliding ones.
fn assign_keys(docs: &[GraphDoc]) -> (Vec<String>, FxMap<String, Vec<NodeId>>) {
    let mut counts: FxMap<&str, usize> = FxMap::default();
    for doc in docs {
        *counts.entry(doc.stem()).or_default() += 1;
    }
    let mut stem_index: FxMap<String, Vec<NodeId>> = FxMap::default();
    let keys = docs
        .iter()
        .enumerate()
        .map(|(id, doc)| {
            if counts[doc.stem()] == 1 {
                doc.stem().to_owned()
            } else {
                stem_index
                    .entry(doc.stem().to_owned())
                    .or_default()
                    .push(id);
                format!("{}/{}", doc.type_name(), doc.stem())
            }
        })
        .collect();
    (keys, stem_index)
}

/// Where a document links: its `related:` targets, then its body's, as
/// written, in order.
fn link_targets(doc: &GraphDoc) -> (Vec<&str>, Vec<String>) {
    let related = doc
        .meta()
        .related()
        .iter()
        .filter_map(links::related_target)
        .collect();
    (related, links::body_links(doc.body()))
}

/// The documents linking to each of `nodes` nodes, as one list of sources
/// (by target, then source, since `edges` are sorted by source) and where
/// each target's part starts.
fn in_links(nodes: usize, edges: &[Edge]) -> (Vec<usize>, Vec<NodeId>) {
    let mut start = vec![0; nodes + 1];
    for edge in edges {
        start[edge.target + 1] += 1;
    }
    for i in 0..nodes {
        start[i + 1] += start[i];
    }
    let mut next = start.clone();
    let mut sources = vec![0; edges.len()];
    for edge in edges {
        sources[next[edge.target]] = edge.source;
        next[edge.target] += 1;
    }
    (start, sources)
}

impl Graph {
    /// Put `doc` in place of the document read before from the same path,
    /// when that leaves the graph as building it anew would: a document
    /// whose links are the same, in the same order, changes no node and no
    /// edge. False, and the graph left as it was, otherwise (a path the
    /// graph does not hold, or links that changed): only a new build holds
    /// `doc` then.
    pub fn replace(&mut self, doc: GraphDoc) -> bool {
        let Some(i) = super::position(&self.docs, &doc.path) else {
            return false;
        };
        if link_targets(&self.docs[i]) != link_targets(&doc) {
            return false;
        }
        self.docs[i] = doc;
        true
    }

    /// Build the graph from corpus documents and the archive.
    ///
    /// `docs` may come in any order (they are sorted by path); `archived`
    /// lists the files under `.vault/_archive/` by archive-relative path
    /// (`adr/2026-01-01-x-adr.md`): links to them end on phantoms that are
    /// not dangling.
    pub fn build(mut docs: Vec<GraphDoc>, archived: &[String]) -> Graph {
        docs.sort_by(|a, b| a.path.cmp(&b.path));
        let (keys, mut stem_index) = assign_keys(&docs);
        let mut by_key = FxMap::default();
        by_key.reserve(docs.len() * 2);
        let mut nodes = Vec::with_capacity(docs.len());
        for (id, key) in keys.into_iter().enumerate() {
            by_key.entry(key.clone()).or_insert(id);
            nodes.push(Node {
                key,
                doc: Some(id),
                archived: false,
            });
        }
        for ids in stem_index.values_mut() {
            ids.sort_by(|&a, &b| nodes[a].key.cmp(&nodes[b].key));
        }
        let mut builder = Builder {
            nodes,
            by_key,
            stem_index,
            archive: Archive::new(archived),
        };

        let mut edges = Vec::new();
        let mut out_start = Vec::with_capacity(docs.len() + 1);
        let mut reached: Vec<(NodeId, LinkSource)> = Vec::new();
        let mut resolved = Vec::new();
        for (source, doc) in docs.iter().enumerate() {
            out_start.push(edges.len());
            reached.clear();
            let (related, body) = link_targets(doc);
            let targets = related
                .into_iter()
                .map(|t| (t, LinkSource::Related))
                .chain(body.iter().map(|t| (t.as_str(), LinkSource::Body)));
            for (target, kind) in targets {
                resolved.clear();
                builder.resolve(target, &mut resolved);
                reached.extend(resolved.iter().map(|&id| (id, kind)));
            }
            reached.sort_unstable();
            for &(target, kind) in &reached {
                if edges
                    .last()
                    .is_none_or(|e: &Edge| e.source != source || e.target != target)
                {
                    edges.push(Edge {
                        source,
                        target,
                        body: 0,
                        related: 0,
                    });
                }
                let edge = edges.last_mut().expect("edge pushed above");
                match kind {
                    LinkSource::Body => edge.body += 1,
                    LinkSource::Related => edge.related += 1,
                }
            }
        }
        let Builder {
            mut nodes,
            stem_index,
            ..
        } = builder;
        out_start.resize(nodes.len() + 1, edges.len());
        // Held for as long as the graph is: no room grown for phantom
        // nodes or edges that never came (a tenth of a large graph).
        nodes.shrink_to_fit();
        edges.shrink_to_fit();
        // A stable sort: of nodes sharing a key (documents at the same
        // type and stem in different folders), the first stays first.
        let mut by_key: Box<[u32]> = (0..nodes.len() as u32).collect();
        by_key.sort_by(|&a, &b| nodes[a as usize].key.cmp(&nodes[b as usize].key));
        let (in_start, in_sources) = in_links(nodes.len(), &edges);
        let max_multiplicity = edges.iter().map(Edge::multiplicity).max().unwrap_or(0);
        Graph {
            docs,
            nodes,
            by_key,
            stem_index,
            edges,
            out_start,
            in_start,
            in_sources,
            max_multiplicity,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::EdgeKind;
    use super::*;

    pub(crate) fn doc(path: &str, related: &[&str], body: &str) -> GraphDoc {
        let mut text = String::from("---\ntags:\n  - '#adr'\n  - '#f'\nrelated:\n");
        for r in related {
            text.push_str(&format!("  - '[[{r}]]'\n"));
        }
        text.push_str("---\n\n");
        text.push_str(body);
        GraphDoc::from_text(path, &text)
    }

    #[test]
    fn a_document_replaced_with_the_same_links_is_the_graph_built_anew() {
        let docs = || {
            vec![
                doc(".vault/adr/a.md", &["b"], "[[b]] then [[c]]\n"),
                doc(".vault/adr/b.md", &[], "[[ghost]]\n"),
                doc(".vault/adr/c.md", &["a"], ""),
            ]
        };
        let mut graph = Graph::build(docs(), &[]);
        let prose = doc(
            ".vault/adr/a.md",
            &["b"],
            "New prose, [[b]] then `x` [[c]]\n",
        );
        assert!(graph.replace(prose.clone()));
        let mut rebuilt = docs();
        rebuilt[0] = prose;
        assert_eq!(
            format!("{graph:?}"),
            format!("{:?}", Graph::build(rebuilt, &[]))
        );

        // Links that change, or a path the graph does not hold, need a build.
        let before = format!("{graph:?}");
        assert!(!graph.replace(doc(".vault/adr/a.md", &["b"], "[[c]] then [[b]]\n")));
        assert!(!graph.replace(doc(".vault/adr/c.md", &[], "[[a]]\n")));
        assert!(!graph.replace(doc(".vault/adr/d.md", &[], "")));
        assert_eq!(format!("{graph:?}"), before, "left as it was");
    }

    #[test]
    fn edges_count_body_and_related_links_with_multiplicity() {
        let g = Graph::build(
            vec![
                doc(".vault/adr/a.md", &["b"], "[[b]] and [[b]]\n"),
                doc(".vault/adr/b.md", &[], "[[c]]\n"),
                doc(".vault/adr/c.md", &["a"], ""),
            ],
            &[],
        );
        let a = g.node_id("a").unwrap();
        let b = g.node_id("b").unwrap();
        let ab = g.edge(a, b).unwrap();
        assert_eq!((ab.body, ab.related, ab.multiplicity()), (2, 1, 3));
        assert_eq!(ab.kind(), EdgeKind::Both);
        assert_eq!(g.edge_weight(ab), 1.0);
        let bc = g.edge(b, g.node_id("c").unwrap()).unwrap();
        assert_eq!(bc.kind(), EdgeKind::Body);
        assert!((g.edge_weight(bc) - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(g.in_links(a), [g.node_id("c").unwrap()]);
    }

    #[test]
    fn colliding_stems_are_keyed_by_type_and_a_bare_link_reaches_all() {
        let g = Graph::build(
            vec![
                doc(".vault/adr/x.md", &[], ""),
                doc(".vault/plan/x.md", &[], ""),
                doc(".vault/research/r.md", &["x", "adr/x"], ""),
            ],
            &[],
        );
        assert!(g.node_id("x").is_none());
        let adr = g.node_id("adr/x").unwrap();
        let plan = g.node_id("plan/x").unwrap();
        assert_eq!(g.stem_keys("x"), ["adr/x", "plan/x"]);
        let r = g.node_id("r").unwrap();
        let adr_edge = g.edge(r, adr).unwrap();
        assert_eq!(
            adr_edge.related, 2,
            "bare stem and qualified key both reach adr/x"
        );
        assert_eq!(g.edge(r, plan).unwrap().related, 1);
    }

    #[test]
    fn a_key_two_documents_share_names_the_first_in_path_order() {
        // Same type and stem in two folders: both are keyed `adr/x`.
        let g = Graph::build(
            vec![
                doc(".vault/adr/x.md", &[], ""),
                doc(".vault/adr/sub/x.md", &[], ""),
                doc(".vault/research/r.md", &["adr/x"], "[[zz]] [[aa]]"),
            ],
            &[],
        );
        let id = g.node_id("adr/x").unwrap();
        assert_eq!(g.doc(id).unwrap().path, ".vault/adr/sub/x.md");
        assert_eq!(g.node(1).key, "adr/x");
        assert_eq!(g.in_links(id), [g.node_id("r").unwrap()]);
        // Every node, phantoms included, is found by its key.
        for (id, node) in g.nodes().iter().enumerate().filter(|(i, _)| *i != 1) {
            assert_eq!(g.node_id(&node.key), Some(id), "{}", node.key);
        }
        assert_eq!(
            g.node_id("zz").map(|id| g.node(id).is_phantom()),
            Some(true)
        );
        assert!(g.node_id("a").is_none() && g.node_id("zzz").is_none());
    }

    #[test]
    fn unresolved_targets_become_phantoms_once() {
        let g = Graph::build(
            vec![
                doc(".vault/adr/a.md", &["gone"], "[[gone]]"),
                doc(".vault/adr/b.md", &["gone"], ""),
            ],
            &[],
        );
        let gone = g.node_id("gone").unwrap();
        assert!(g.node(gone).is_phantom());
        assert_eq!(g.nodes().iter().filter(|n| n.is_phantom()).count(), 1);
        assert_eq!(g.in_links(gone).len(), 2);
    }

    #[test]
    fn a_self_link_is_an_edge_and_an_in_link() {
        let g = Graph::build(vec![doc(".vault/adr/a.md", &["a"], "")], &[]);
        let a = g.node_id("a").unwrap();
        assert_eq!(g.edge(a, a).unwrap().related, 1);
        assert_eq!(g.in_links(a), [a]);
        assert!(g.orphans().is_empty());
    }

    #[test]
    fn an_undecodable_file_is_a_node_and_listed_with_its_problem() {
        let bad = GraphDoc::from_bytes(".vault/adr/bad.md", b"\xff\xfe");
        let g = Graph::build(vec![bad, doc(".vault/adr/b.md", &["bad"], "")], &[]);
        let bad = g.node_id("bad").unwrap();
        assert!(
            !g.node(bad).is_phantom(),
            "the link resolves to the real node"
        );
        assert!(g.dangling_links().is_empty());
        let listed: Vec<(String, bool)> = g
            .list_documents(crate::graph::DocSelect::All, None, None)
            .into_iter()
            .map(|r| {
                (
                    r.name,
                    r.problem.is_some_and(|p| p.contains("not valid UTF-8")),
                )
            })
            .collect();
        assert_eq!(
            listed,
            [("b".to_string(), false), ("bad".to_string(), true)]
        );
    }

    #[test]
    fn archived_targets_resolve_to_archive_keys_by_stem_or_path() {
        let g = Graph::build(
            vec![doc(".vault/adr/a.md", &["old-adr", "plan/old-plan"], "")],
            &["adr/old-adr.md".to_owned(), "plan/old-plan.md".to_owned()],
        );
        for key in ["adr/old-adr", "plan/old-plan"] {
            let id = g.node_id(key).unwrap();
            assert!(g.node(id).is_phantom() && g.node(id).archived, "{key}");
        }
    }
}

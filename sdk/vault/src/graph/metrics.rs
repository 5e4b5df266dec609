//! Scopes of `vault graph` (whole vault, feature, ego neighbourhood) and the
//! `--metrics` figures over them (spec/graph-and-search.md §7).

use std::collections::{BTreeMap, HashSet, VecDeque};

use serde::Serialize;

use super::{Edge, Graph, NodeId};

/// A set of nodes and the directed subgraph they induce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// The nodes, sorted by id.
    pub nodes: Vec<NodeId>,
    member: Vec<bool>,
}

impl Scope {
    fn new(graph: &Graph, mut nodes: Vec<NodeId>) -> Scope {
        nodes.sort_unstable();
        nodes.dedup();
        let mut member = vec![false; graph.nodes.len()];
        for &id in &nodes {
            member[id] = true;
        }
        Scope { nodes, member }
    }

    /// Whether a node is in scope.
    pub fn contains(&self, id: NodeId) -> bool {
        self.member.get(id).copied().unwrap_or(false)
    }
}

/// The figures of `vault graph --metrics`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphMetrics {
    /// Nodes in scope minus phantoms.
    pub total_nodes: usize,
    /// Edges of the induced subgraph.
    pub total_edges: usize,
    /// Distinct features of real nodes in scope.
    pub total_features: usize,
    /// Sum of word counts in scope.
    pub total_words: usize,
    /// `E / (n (n-1))` over all nodes in scope (0 when n < 2).
    pub density: f64,
    /// `E / n` (n includes phantoms).
    pub avg_in_degree: f64,
    /// Same as `avg_in_degree`.
    pub avg_out_degree: f64,
    /// `(key, in-degree)` maximum over real nodes (first in node order wins).
    pub max_in_degree: Option<(String, usize)>,
    /// `(key, out-degree)` maximum over real nodes.
    pub max_out_degree: Option<(String, usize)>,
    /// Top 10 of `in_degree / (n-1)`; empty when n < 2.
    #[serde(serialize_with = "ordered_map")]
    pub in_degree_centrality: Vec<(String, f64)>,
    /// Top 10 normalised betweenness, endpoints excluded; empty when n < 2.
    #[serde(serialize_with = "ordered_map")]
    pub betweenness_centrality: Vec<(String, f64)>,
    /// Phantoms in scope.
    pub phantom_count: usize,
    /// Orphans of the whole vault.
    pub orphan_count: usize,
    /// Dangling pairs whose source is in scope.
    pub dangling_link_count: usize,
    /// Weakly connected components of the induced subgraph.
    pub connected_components: usize,
    /// Real nodes per doc type.
    pub nodes_by_type: BTreeMap<String, usize>,
    /// Real nodes per feature.
    pub nodes_by_feature: BTreeMap<String, usize>,
}

fn ordered_map<S: serde::Serializer>(pairs: &[(String, f64)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

fn top10(graph: &Graph, scope: &Scope, values: &[f64]) -> Vec<(String, f64)> {
    let mut pairs: Vec<(String, f64)> = scope
        .nodes
        .iter()
        .zip(values)
        .map(|(&id, &v)| (graph.nodes[id].key.clone(), v))
        .collect();
    pairs.sort_by(|a, b| b.1.total_cmp(&a.1));
    pairs.truncate(10);
    pairs
}

impl Graph {
    /// Every node.
    pub fn scope_all(&self) -> Scope {
        Scope::new(self, (0..self.nodes.len()).collect())
    }

    /// The documents whose graph feature is `feature` (a leading `#` ignored).
    pub fn scope_feature(&self, feature: &str) -> Scope {
        let feature = crate::doc::feature_arg(feature);
        let ids = (0..self.docs.len())
            .filter(|&id| self.feature(id) == Some(feature))
            .collect();
        Scope::new(self, ids)
    }

    /// The undirected neighbourhood of `key` up to `depth` hops, center
    /// included; `None` when no node has that key.
    pub fn scope_ego(&self, key: &str, depth: usize) -> Option<Scope> {
        let center = self.node_id(key)?;
        let mut seen = HashSet::from([center]);
        let mut queue = VecDeque::from([(center, 0)]);
        while let Some((id, d)) = queue.pop_front() {
            if d == depth {
                continue;
            }
            for next in self.out_links(id).chain(self.in_links(id).iter().copied()) {
                if seen.insert(next) {
                    queue.push_back((next, d + 1));
                }
            }
        }
        Some(Scope::new(self, seen.into_iter().collect()))
    }

    /// The edges of the subgraph induced by `scope`, in edge order.
    pub fn scope_edges<'g>(&'g self, scope: &Scope) -> Vec<&'g Edge> {
        scope
            .nodes
            .iter()
            .flat_map(|&id| self.out_edges(id))
            .filter(|e| scope.contains(e.target))
            .collect()
    }

    /// The `--metrics` figures over a scope.
    pub fn metrics(&self, scope: &Scope) -> GraphMetrics {
        let edges = self.scope_edges(scope);
        let n = scope.nodes.len();
        let e = edges.len();
        let pos: Vec<usize> = {
            let mut pos = vec![usize::MAX; self.nodes.len()];
            scope
                .nodes
                .iter()
                .enumerate()
                .for_each(|(i, &id)| pos[id] = i);
            pos
        };
        let (mut indeg, mut outdeg) = (vec![0usize; n], vec![0usize; n]);
        for edge in &edges {
            outdeg[pos[edge.source]] += 1;
            indeg[pos[edge.target]] += 1;
        }
        let real = |i: &usize| !self.nodes[scope.nodes[*i]].is_phantom();
        let max_of = |deg: &[usize]| {
            (0..n)
                .filter(real)
                .fold(None::<usize>, |best, i| match best {
                    Some(b) if deg[b] >= deg[i] => Some(b),
                    _ => Some(i),
                })
                .map(|i| (self.nodes[scope.nodes[i]].key.clone(), deg[i]))
        };
        let mut nodes_by_type = BTreeMap::new();
        let mut nodes_by_feature = BTreeMap::new();
        let mut total_words = 0;
        for &id in &scope.nodes {
            if let Some(doc) = self.doc(id) {
                *nodes_by_type.entry(doc.type_name().to_owned()).or_insert(0) += 1;
                if let Some(f) = doc.graph_feature() {
                    *nodes_by_feature.entry(f.to_owned()).or_insert(0) += 1;
                }
                total_words += doc.word_count();
            }
        }
        let avg = if n == 0 { 0.0 } else { e as f64 / n as f64 };
        let (in_centrality, betweenness) = if n > 1 {
            let c: Vec<f64> = indeg.iter().map(|&d| d as f64 / (n - 1) as f64).collect();
            (
                top10(self, scope, &c),
                top10(self, scope, &betweenness(n, &edges, &pos)),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        GraphMetrics {
            total_nodes: (0..n).filter(real).count(),
            total_edges: e,
            total_features: nodes_by_feature.len(),
            total_words,
            density: if n > 1 {
                e as f64 / (n * (n - 1)) as f64
            } else {
                0.0
            },
            avg_in_degree: avg,
            avg_out_degree: avg,
            max_in_degree: max_of(&indeg),
            max_out_degree: max_of(&outdeg),
            in_degree_centrality: in_centrality,
            betweenness_centrality: betweenness,
            phantom_count: scope
                .nodes
                .iter()
                .filter(|&&id| self.nodes[id].is_phantom())
                .count(),
            orphan_count: self.orphans().len(),
            dangling_link_count: self
                .dangling_links()
                .iter()
                .filter(|(s, _)| scope.contains(*s))
                .count(),
            connected_components: weak_components(n, &edges, &pos),
            nodes_by_type,
            nodes_by_feature,
        }
    }
}

/// Brandes' betweenness on the directed, unweighted subgraph, normalised by
/// `1 / ((n-1)(n-2))` when n > 2 (as networkx does for directed graphs).
fn betweenness(n: usize, edges: &[&Edge], pos: &[usize]) -> Vec<f64> {
    let mut adj = vec![Vec::new(); n];
    for e in edges {
        if e.source != e.target {
            adj[pos[e.source]].push(pos[e.target]);
        }
    }
    let mut bc = vec![0.0; n];
    let (mut sigma, mut dist, mut delta) = (vec![0.0f64; n], vec![-1i64; n], vec![0.0f64; n]);
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut stack = Vec::with_capacity(n);
    let mut queue = VecDeque::new();
    for s in 0..n {
        stack.clear();
        for v in 0..n {
            preds[v].clear();
            sigma[v] = 0.0;
            dist[v] = -1;
            delta[v] = 0.0;
        }
        sigma[s] = 1.0;
        dist[s] = 0;
        queue.push_back(s);
        while let Some(v) = queue.pop_front() {
            stack.push(v);
            for &w in &adj[v] {
                if dist[w] < 0 {
                    dist[w] = dist[v] + 1;
                    queue.push_back(w);
                }
                if dist[w] == dist[v] + 1 {
                    sigma[w] += sigma[v];
                    preds[w].push(v);
                }
            }
        }
        while let Some(w) = stack.pop() {
            for &v in &preds[w] {
                delta[v] += sigma[v] / sigma[w] * (1.0 + delta[w]);
            }
            if w != s {
                bc[w] += delta[w];
            }
        }
    }
    if n > 2 {
        let scale = 1.0 / ((n - 1) * (n - 2)) as f64;
        bc.iter_mut().for_each(|b| *b *= scale);
    }
    bc
}

fn weak_components(n: usize, edges: &[&Edge], pos: &[usize]) -> usize {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut count = n;
    for e in edges {
        let (a, b) = (
            root(&mut parent, pos[e.source]),
            root(&mut parent, pos[e.target]),
        );
        if a != b {
            parent[a] = b;
            count -= 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::super::GraphDoc;
    use super::*;

    fn doc(stem: &str, feature: &str, body: &str) -> GraphDoc {
        GraphDoc::from_text(
            &format!(".vault/adr/{stem}.md"),
            &format!("---\ntags: ['#adr', '#{feature}']\n---\n{body}\n"),
        )
    }

    /// a -> b -> c, d isolated, e -> missing.
    fn chain() -> Graph {
        Graph::build(
            vec![
                doc("a", "f", "[[b]]"),
                doc("b", "f", "[[c]] two words"),
                doc("c", "f", ""),
                doc("d", "g", ""),
                doc("e", "g", "[[missing]]"),
            ],
            &[],
        )
    }

    #[test]
    fn metrics_count_nodes_edges_components_and_phantoms() {
        let g = chain();
        let m = g.metrics(&g.scope_all());
        assert_eq!((m.total_nodes, m.total_edges, m.phantom_count), (5, 3, 1));
        assert_eq!(m.connected_components, 3);
        assert_eq!(m.max_in_degree, Some(("b".to_owned(), 1)));
        assert!((m.density - 3.0 / 30.0).abs() < 1e-12);
        assert_eq!(m.dangling_link_count, 1);
        assert_eq!(
            m.nodes_by_feature,
            BTreeMap::from([("f".to_owned(), 3), ("g".to_owned(), 2)])
        );
        // b is the only node on a shortest path between two others: a -> c.
        assert_eq!(m.betweenness_centrality[0].0, "b");
        assert!((m.betweenness_centrality[0].1 - 1.0 / 20.0).abs() < 1e-12);
        assert_eq!(m.total_words, 5);
    }

    #[test]
    fn feature_and_ego_scopes_induce_subgraphs() {
        let g = chain();
        let f = g.scope_feature("#f");
        assert_eq!(f.nodes.len(), 3);
        assert_eq!(g.scope_edges(&f).len(), 2);
        let ego = g.scope_ego("a", 1).unwrap();
        let keys: Vec<&str> = ego
            .nodes
            .iter()
            .map(|&id| g.node(id).key.as_str())
            .collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(g.scope_ego("c", 2).unwrap().nodes.len(), 3);
        assert!(g.scope_ego("nope", 1).is_none());
    }
}

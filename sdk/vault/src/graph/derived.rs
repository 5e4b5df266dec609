//! Derived (implicit) relatedness edges of `vault graph --derived`
//! (spec/graph-and-search.md §7): reciprocity, shared feature and tags,
//! Jaccard, Adamic-Adar and co-citation, never mixed into the real edges.
//!
//! Only pairs that can carry a signal are enumerated (reciprocal and
//! co-cited pairs, pairs sharing a neighbour, a feature or a tag), so the cost
//! follows the graph's connectivity rather than `n²`.

use std::collections::HashMap;

use serde::Serialize;

use super::{Graph, NodeId, Scope, is_directory_tag};

/// Edges kept per node by the fan-out cap.
pub const DEFAULT_TOP_K: usize = 8;

const COEFF_RECIPROCITY: f64 = 1.0;
const COEFF_SHARED_FEATURE: f64 = 0.5;
const COEFF_SHARED_TAG: f64 = 0.25;
const COEFF_JACCARD: f64 = 1.0;
const COEFF_ADAMIC_ADAR: f64 = 0.1;
const COEFF_CO_CITATION: f64 = 0.3;

/// The signals that fired for a pair, in the reference's order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DerivedSignals(pub Vec<(&'static str, f64)>);

impl Serialize for DerivedSignals {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// One derived edge between two real documents (endpoints sorted by key).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DerivedEdge {
    /// The smaller key.
    pub source: String,
    /// The larger key.
    pub target: String,
    /// The signal contributing most to the weight.
    pub kind: &'static str,
    /// Every signal that fired, with its raw value.
    pub signals: DerivedSignals,
    /// `sum(coefficient * value)`.
    pub weight: f64,
}

fn coefficient(signal: &str) -> f64 {
    match signal {
        "reciprocity" => COEFF_RECIPROCITY,
        "shared_feature" => COEFF_SHARED_FEATURE,
        "shared_tag" => COEFF_SHARED_TAG,
        "jaccard" => COEFF_JACCARD,
        "adamic_adar" => COEFF_ADAMIC_ADAR,
        _ => COEFF_CO_CITATION,
    }
}

fn dominant(signals: &[(&'static str, f64)]) -> &'static str {
    const PRIORITY: [&str; 6] = [
        "reciprocity",
        "shared_feature",
        "jaccard",
        "co_citation",
        "shared_tag",
        "adamic_adar",
    ];
    let contribution = |(name, v): &(&'static str, f64)| coefficient(name) * v;
    let best = signals.iter().map(contribution).fold(f64::MIN, f64::max);
    PRIORITY
        .into_iter()
        .find(|p| signals.iter().any(|s| s.0 == *p && contribution(s) == best))
        .unwrap_or("none")
}

/// A derived edge before its keys are materialised: node ids `a` and `b`
/// (`a` first in key order), and each signal's value in [`SIGNALS`] order
/// (0 = did not fire).
#[derive(Debug, Clone, Copy)]
struct Raw {
    a: u32,
    b: u32,
    weight: f64,
    values: [f64; 6],
}

/// The signals in the order the reference reports them.
const SIGNALS: [&str; 6] = [
    "reciprocity",
    "shared_feature",
    "shared_tag",
    "jaccard",
    "adamic_adar",
    "co_citation",
];

/// What the pair scoring reads, by node id, built once per call.
struct Tables {
    /// Position of each node in key order (pairs and ties sort by it).
    rank: Vec<u32>,
    /// Neighbours in the undirected projection over in-scope real nodes.
    nbrs: Vec<Vec<u32>>,
    /// networkx degree in that projection (a self-loop counts twice).
    degree: Vec<usize>,
    /// Feature as an id.
    feature: Vec<Option<u32>>,
    /// Tags other than directory tags and the feature tag, as sorted ids.
    tags: Vec<Vec<u32>>,
}

fn intersect_count<T: Ord>(a: &[T], b: &[T]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

fn push_pairs(group: &[u32], pairs: &mut Vec<(u32, u32)>) {
    for (i, &a) in group.iter().enumerate() {
        for &b in &group[i + 1..] {
            pairs.push(if a < b { (a, b) } else { (b, a) });
        }
    }
}

impl Graph {
    fn derive_tables(&self, in_scope: &dyn Fn(NodeId) -> bool) -> Tables {
        let n = self.nodes.len();
        let mut order: Vec<NodeId> = (0..n).collect();
        order.sort_by(|&x, &y| self.nodes[x].key.cmp(&self.nodes[y].key));
        let mut rank = vec![0u32; n];
        order
            .iter()
            .enumerate()
            .for_each(|(r, &id)| rank[id] = r as u32);
        let mut nbrs = vec![Vec::new(); n];
        let mut degree = vec![0usize; n];
        for e in &self.edges {
            if in_scope(e.source) && in_scope(e.target) {
                nbrs[e.source].push(e.target as u32);
                nbrs[e.target].push(e.source as u32);
                if e.source == e.target {
                    degree[e.source] += 1;
                }
            }
        }
        for (id, list) in nbrs.iter_mut().enumerate() {
            list.sort_unstable();
            list.dedup();
            degree[id] += list.len();
        }
        let mut names: HashMap<String, u32> = HashMap::new();
        let mut intern = |s: String| {
            let next = names.len() as u32;
            *names.entry(s).or_insert(next)
        };
        let features = self.node_features();
        let feature = features
            .iter()
            .map(|f| f.map(|f| intern(format!("f:{f}"))))
            .collect();
        let tags = (0..n)
            .map(|id| {
                let Some(doc) = self.doc(id) else {
                    return Vec::new();
                };
                let feature_tag = features[id].map(|f| format!("#{f}"));
                let mut ids: Vec<u32> = doc
                    .meta()
                    .tags()
                    .iter()
                    .filter(|t| !is_directory_tag(t) && Some(*t) != feature_tag.as_deref())
                    .map(|t| intern(format!("t:{t}")))
                    .collect();
                ids.sort_unstable();
                ids.dedup();
                ids
            })
            .collect();
        Tables {
            rank,
            nbrs,
            degree,
            feature,
            tags,
        }
    }

    /// Every pair of in-scope real nodes that can carry a signal, as
    /// `(a, b)` with `a < b` by id, sorted and unique: co-cited pairs (the
    /// citing document may be out of scope), pairs sharing a neighbour
    /// (Jaccard, Adamic-Adar), adjacent pairs (reciprocity), and pairs sharing
    /// a feature or a tag.
    fn derive_candidates(
        &self,
        t: &Tables,
        reals: &[NodeId],
        in_scope: &dyn Fn(NodeId) -> bool,
    ) -> Vec<(u32, u32)> {
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for citing in 0..self.docs.len() {
            let cited: Vec<u32> = self
                .out_links(citing)
                .filter(|&x| in_scope(x))
                .map(|x| x as u32)
                .collect();
            push_pairs(&cited, &mut pairs);
        }
        let mut groups: HashMap<u32, Vec<u32>> = HashMap::new();
        for &id in reals {
            push_pairs(&t.nbrs[id], &mut pairs);
            pairs.extend(
                t.nbrs[id]
                    .iter()
                    .filter(|&&n| n as usize > id)
                    .map(|&n| (id as u32, n)),
            );
            for &g in t.feature[id].iter().chain(&t.tags[id]) {
                groups.entry(g).or_default().push(id as u32);
            }
        }
        for group in groups.values() {
            push_pairs(group, &mut pairs);
        }
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    fn score_pair(&self, t: &Tables, x: usize, y: usize) -> [f64; 6] {
        let mut values = [0.0f64; 6];
        if self.edge(x, y).is_some() && self.edge(y, x).is_some() {
            values[0] = 1.0;
        }
        if t.feature[x].is_some() && t.feature[x] == t.feature[y] {
            values[1] = 1.0;
        }
        values[2] = intersect_count(&t.tags[x], &t.tags[y]) as f64;
        let (na, nb) = (&t.nbrs[x], &t.nbrs[y]);
        let (mut i, mut j, mut common, mut aa) = (0, 0, 0usize, 0.0f64);
        while i < na.len() && j < nb.len() {
            match na[i].cmp(&nb[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    common += 1;
                    let ln = (t.degree[na[i] as usize] as f64).ln();
                    if ln > 0.0 {
                        aa += 1.0 / ln;
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        let union = na.len() + nb.len() - common;
        if common > 0 && union > 0 {
            values[3] = common as f64 / union as f64;
            values[4] = aa;
        }
        // Distinct documents linking to both (in-links hold only real sources).
        values[5] = intersect_count(self.in_links(x), self.in_links(y)) as f64;
        values
    }

    /// Every derived edge over the in-scope real nodes, strongest first, ties
    /// by the endpoints' keys.
    fn derive(&self, scope: Option<&Scope>) -> Vec<Raw> {
        let in_scope =
            |id: NodeId| !self.nodes[id].is_phantom() && scope.is_none_or(|s| s.contains(id));
        let reals: Vec<NodeId> = (0..self.docs.len()).filter(|&id| in_scope(id)).collect();
        let t = self.derive_tables(&in_scope);
        let mut out = Vec::new();
        for (a, b) in self.derive_candidates(&t, &reals, &in_scope) {
            let values = self.score_pair(&t, a as usize, b as usize);
            if values.iter().all(|v| *v == 0.0) {
                continue;
            }
            let weight = values
                .iter()
                .zip(SIGNALS)
                .map(|(v, s)| coefficient(s) * v)
                .sum();
            let (a, b) = if t.rank[a as usize] < t.rank[b as usize] {
                (a, b)
            } else {
                (b, a)
            };
            out.push(Raw {
                a,
                b,
                weight,
                values,
            });
        }
        let rank = &t.rank;
        out.sort_by(|p, q| {
            q.weight
                .total_cmp(&p.weight)
                .then(rank[p.a as usize].cmp(&rank[q.a as usize]))
                .then(rank[p.b as usize].cmp(&rank[q.b as usize]))
        });
        out
    }

    fn materialise(&self, raw: &Raw) -> DerivedEdge {
        let signals: Vec<(&'static str, f64)> = SIGNALS
            .iter()
            .zip(raw.values)
            .filter(|(_, v)| *v != 0.0)
            .map(|(s, v)| (*s, v))
            .collect();
        DerivedEdge {
            source: self.nodes[raw.a as usize].key.clone(),
            target: self.nodes[raw.b as usize].key.clone(),
            kind: dominant(&signals),
            signals: DerivedSignals(signals),
            weight: raw.weight,
        }
    }

    /// Every derived edge over the real nodes of `scope` (the whole graph when
    /// `None`), sorted by `(-weight, source, target)` and cut by the fan-out
    /// cap `top_k` (0 disables it): an edge is kept while either endpoint has
    /// fewer than `top_k` kept edges.
    pub fn derived_edges(&self, scope: Option<&Scope>, top_k: usize) -> Vec<DerivedEdge> {
        self.derived_edges_counted(scope, top_k).0
    }

    /// [`Graph::derived_edges`] and how many edges there were before the cap
    /// (`derived_edges_total` of `vault graph --json`). Keys are copied only
    /// for the edges kept.
    pub fn derived_edges_counted(
        &self,
        scope: Option<&Scope>,
        top_k: usize,
    ) -> (Vec<DerivedEdge>, usize) {
        let raw = self.derive(scope);
        let mut seen = vec![0usize; self.nodes.len()];
        let kept = raw
            .iter()
            .filter(|e| {
                let (a, b) = (e.a as usize, e.b as usize);
                let keep = top_k == 0 || seen[a] < top_k || seen[b] < top_k;
                if keep {
                    seen[a] += 1;
                    seen[b] += 1;
                }
                keep
            })
            .map(|e| self.materialise(e))
            .collect();
        (kept, raw.len())
    }
}

#[cfg(test)]
mod tests {
    use super::super::GraphDoc;
    use super::*;

    fn doc(stem: &str, tags: &str, body: &str) -> GraphDoc {
        GraphDoc::from_text(
            &format!(".vault/adr/{stem}.md"),
            &format!("---\ntags: [{tags}]\n---\n{body}\n"),
        )
    }

    fn find<'e>(edges: &'e [DerivedEdge], a: &str, b: &str) -> &'e DerivedEdge {
        edges
            .iter()
            .find(|e| e.source == a && e.target == b)
            .expect("edge present")
    }

    #[test]
    fn reciprocal_links_and_shared_features_fire_with_their_coefficients() {
        let g = Graph::build(
            vec![
                doc("a", "'#adr', '#f'", "[[b]]"),
                doc("b", "'#adr', '#f'", "[[a]]"),
                doc("c", "'#adr', '#g', '#zz'", "[[a]] [[b]]"),
                doc("d", "'#adr', '#h', '#zz'", ""),
            ],
            &[],
        );
        let edges = g.derived_edges(None, 0);
        let ab = find(&edges, "a", "b");
        assert_eq!(ab.kind, "reciprocity");
        let names: Vec<&str> = ab.signals.0.iter().map(|s| s.0).collect();
        assert_eq!(
            names,
            [
                "reciprocity",
                "shared_feature",
                "jaccard",
                "adamic_adar",
                "co_citation"
            ]
        );
        // jaccard: N(a) = {b, c}, N(b) = {a, c}: common {c}, union {a, b, c}.
        let jac = ab.signals.0.iter().find(|s| s.0 == "jaccard").unwrap().1;
        assert!((jac - 1.0 / 3.0).abs() < 1e-12);
        let cd = find(&edges, "c", "d");
        assert_eq!((cd.kind, cd.weight), ("shared_tag", 0.25));
        assert_eq!(edges[0].source, "a", "the strongest edge comes first");
    }

    #[test]
    fn candidate_pairs_miss_no_pair_that_carries_a_signal() {
        let storage = crate::MemStorage::new();
        crate::testgen::generate(
            &storage,
            &crate::testgen::GenSpec {
                docs: 160,
                features: 4,
                seed: 9,
            },
        )
        .unwrap();
        let g = crate::graph::load_graph(&storage).unwrap();
        let ego = g.scope_ego(&g.nodes()[10].key, 1).unwrap();
        for scope in [None, Some(&ego)] {
            let in_scope =
                |id: NodeId| !g.nodes[id].is_phantom() && scope.is_none_or(|s| s.contains(id));
            let t = g.derive_tables(&in_scope);
            let reals: Vec<NodeId> = (0..g.docs.len()).filter(|&id| in_scope(id)).collect();
            let mut brute = 0;
            for (i, &a) in reals.iter().enumerate() {
                for &b in &reals[i + 1..] {
                    if g.score_pair(&t, a, b).iter().any(|v| *v != 0.0) {
                        brute += 1;
                    }
                }
            }
            assert!(brute > 0);
            assert_eq!(g.derive(scope).len(), brute);
        }
    }

    #[test]
    fn the_fan_out_cap_keeps_an_edge_while_either_end_has_room() {
        let docs: Vec<GraphDoc> = (0..5)
            .map(|i| doc(&format!("n{i}"), "'#adr', '#same'", ""))
            .collect();
        let g = Graph::build(docs, &[]);
        assert_eq!(g.derived_edges(None, 0).len(), 10);
        let capped = g.derived_edges(None, 1);
        assert!(capped.len() < 10 && !capped.is_empty());
    }
}

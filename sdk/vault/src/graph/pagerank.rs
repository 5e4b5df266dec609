//! PageRank over the whole graph, phantoms included (spec/graph-and-search.md §5).

use super::{Graph, NodeId};

/// Damping factor.
pub const ALPHA: f64 = 0.85;
/// Iteration ceiling.
pub const MAX_ITER: usize = 100;
/// Convergence tolerance per node.
pub const TOL: f64 = 1e-6;

impl Graph {
    /// PageRank of every node, by node id: deterministic power iteration in
    /// sorted key order, edges weighted by their normalised weight, the rank
    /// of nodes without out-weight spread evenly.
    pub fn pagerank(&self) -> Vec<f64> {
        let n = self.nodes.len();
        if n == 0 {
            return Vec::new();
        }
        let mut order: Vec<NodeId> = (0..n).collect();
        order.sort_by(|&a, &b| self.nodes[a].key.cmp(&self.nodes[b].key));
        let out_weight: Vec<f64> = (0..n)
            .map(|id| self.out_edges(id).iter().map(|e| self.edge_weight(e)).sum())
            .collect();
        let nf = n as f64;
        let mut rank = vec![1.0 / nf; n];
        let mut next = vec![0.0; n];
        for _ in 0..MAX_ITER {
            let dangling: f64 = ALPHA
                * order
                    .iter()
                    .filter(|&&v| out_weight[v] == 0.0)
                    .map(|&v| rank[v])
                    .sum::<f64>();
            let base = (1.0 - ALPHA) / nf + dangling / nf;
            next.iter_mut().for_each(|x| *x = base);
            for &u in &order {
                let w_u = out_weight[u];
                if w_u > 0.0 {
                    for e in self.out_edges(u) {
                        next[e.target] += ALPHA * rank[u] * self.edge_weight(e) / w_u;
                    }
                }
            }
            let err: f64 = order.iter().map(|&v| (next[v] - rank[v]).abs()).sum();
            std::mem::swap(&mut rank, &mut next);
            if err < nf * TOL {
                break;
            }
        }
        rank
    }
}

#[cfg(test)]
mod tests {
    use super::super::GraphDoc;
    use super::*;

    fn doc(stem: &str, body: &str) -> GraphDoc {
        GraphDoc::from_text(
            &format!(".vault/adr/{stem}.md"),
            &format!("---\ntags: ['#adr', '#f']\n---\n{body}\n"),
        )
    }

    #[test]
    fn ranks_sum_to_one_and_the_most_cited_node_ranks_highest() {
        let g = Graph::build(
            vec![
                doc("a", "[[hub]]"),
                doc("b", "[[hub]] [[a]]"),
                doc("c", "[[hub]]"),
                doc("hub", ""),
            ],
            &[],
        );
        let pr = g.pagerank();
        assert!((pr.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let hub = g.node_id("hub").unwrap();
        let best = (0..pr.len())
            .max_by(|&x, &y| pr[x].total_cmp(&pr[y]))
            .unwrap();
        assert_eq!(best, hub);
        // c is never linked: it keeps only the teleport and dangling share.
        let c = g.node_id("c").unwrap();
        assert!(pr[c] < pr[g.node_id("a").unwrap()]);
    }

    #[test]
    fn a_graph_without_edges_is_uniform() {
        let g = Graph::build(vec![doc("a", ""), doc("b", "")], &[]);
        assert_eq!(g.pagerank(), [0.5, 0.5]);
    }
}

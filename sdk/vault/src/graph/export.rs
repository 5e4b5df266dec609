//! The JSON of `vault graph --json` (`vaultspec.vault.graph.v2` data): the
//! networkx node-link shape with the vault's node attributes, edge
//! attributes, derived edges and metrics (spec/graph-and-search.md §7).

use serde_json::{Map, Value, json};

use super::{DEFAULT_TOP_K, Graph, GraphDoc, NodeId, Scope};

/// What `vault graph --json` exports.
pub struct ExportOptions<'a> {
    /// `--node`: the ego graph around this key (beats `feature`).
    pub node: Option<&'a str>,
    /// `--depth` of the ego graph.
    pub depth: usize,
    /// `--feature`: only this feature's documents.
    pub feature: Option<&'a str>,
    /// `--body`: include each document's body.
    pub body: bool,
    /// `--derived` (default) / `--no-derived`.
    pub derived: bool,
    /// The workspace root as the caller prints it (`root`).
    pub root: &'a str,
    /// The parsed frontmatter of a document as a JSON object. Without it the
    /// keys the graph reads are reported (`tags`, `date`, `modified`,
    /// `related`, `generated`, `feature`).
    pub frontmatter: Option<&'a dyn Fn(&GraphDoc) -> Value>,
}

impl Default for ExportOptions<'_> {
    fn default() -> Self {
        ExportOptions {
            node: None,
            depth: 1,
            feature: None,
            body: false,
            derived: true,
            root: "",
            frontmatter: None,
        }
    }
}

fn scanned_frontmatter(doc: &GraphDoc) -> Value {
    let mut m = Map::new();
    if doc.generated() {
        m.insert("generated".into(), Value::Bool(true));
    }
    m.insert("tags".into(), json!(doc.meta().tags().to_vec()));
    if let Some(d) = doc.written_date() {
        m.insert("date".into(), json!(d));
    }
    if let Some(d) = doc.meta().modified() {
        m.insert("modified".into(), json!(d));
    }
    m.insert("related".into(), json!(doc.meta().related().to_vec()));
    if let Some(f) = doc.meta().feature() {
        m.insert("feature".into(), json!(f));
    }
    Value::Object(m)
}

impl Graph {
    /// The scope `vault graph` exports: the ego graph of `node` when given
    /// (`None` when no node has that key), else the feature, else everything.
    pub fn export_scope(
        &self,
        node: Option<&str>,
        depth: usize,
        feature: Option<&str>,
    ) -> Option<Scope> {
        match (node, feature) {
            (Some(key), _) => self.scope_ego(key, depth),
            (None, Some(f)) => Some(self.scope_feature(f)),
            (None, None) => Some(self.scope_all()),
        }
    }

    fn node_json(&self, id: NodeId, pagerank: f64, opts: &ExportOptions<'_>) -> Value {
        let node = &self.nodes[id];
        let keys = |ids: &mut Vec<&str>| {
            ids.sort_unstable();
            json!(ids)
        };
        let mut out: Vec<&str> = self
            .out_links(id)
            .map(|t| self.nodes[t].key.as_str())
            .collect();
        let mut inl: Vec<&str> = self
            .in_links(id)
            .iter()
            .map(|&s| self.nodes[s].key.as_str())
            .collect();
        let mut m = Map::new();
        m.insert("name".into(), json!(node.key));
        match self.doc(id) {
            Some(doc) => {
                let mut tags: Vec<&str> = doc.meta().tags().iter().collect();
                tags.sort_unstable();
                tags.dedup();
                m.insert("path".into(), json!(doc.path));
                m.insert("doc_type".into(), json!(doc.doc_type));
                m.insert("feature".into(), json!(doc.graph_feature()));
                m.insert("date".into(), json!(doc.written_date()));
                m.insert("modified".into(), json!(doc.meta().modified()));
                m.insert("title".into(), json!(doc.title()));
                m.insert("tags".into(), json!(tags));
                let fm = opts
                    .frontmatter
                    .map_or_else(|| scanned_frontmatter(doc), |f| f(doc));
                m.insert("frontmatter".into(), fm);
                m.insert("word_count".into(), json!(doc.word_count()));
                if opts.body {
                    m.insert("body".into(), json!(doc.body()));
                }
            }
            None => {
                for key in ["path", "doc_type", "feature", "date", "modified", "title"] {
                    m.insert(key.into(), Value::Null);
                }
                m.insert("tags".into(), json!([]));
                m.insert("frontmatter".into(), json!({}));
                m.insert("word_count".into(), json!(0));
            }
        }
        m.insert("out_links".into(), keys(&mut out));
        m.insert("in_links".into(), keys(&mut inl));
        m.insert("phantom".into(), json!(node.is_phantom()));
        m.insert("pagerank".into(), json!(pagerank));
        m.insert("in_degree".into(), json!(self.in_links(id).len()));
        m.insert("id".into(), json!(node.key));
        Value::Object(m)
    }

    /// The node-link document of `vault graph --json`; `None` when `--node`
    /// names no node.
    pub fn to_node_link(&self, opts: &ExportOptions<'_>) -> Option<Value> {
        let scope = self.export_scope(opts.node, opts.depth, opts.feature)?;
        let pagerank = self.pagerank();
        let nodes: Vec<Value> = scope
            .nodes
            .iter()
            .map(|&id| self.node_json(id, pagerank[id], opts))
            .collect();
        let edges: Vec<Value> = self
            .scope_edges(&scope)
            .into_iter()
            .map(|e| {
                json!({
                    "source": self.nodes[e.source].key,
                    "target": self.nodes[e.target].key,
                    "kind": e.kind().as_str(),
                    "multiplicity": e.multiplicity(),
                    "weight": self.edge_weight(e),
                })
            })
            .collect();
        let (derived, total) = if opts.derived {
            let scoped = (opts.node.is_some() || opts.feature.is_some()).then_some(&scope);
            self.derived_edges_counted(scoped, DEFAULT_TOP_K)
        } else {
            (Vec::new(), 0)
        };
        Some(json!({
            "directed": true,
            "multigraph": false,
            "graph": {},
            "nodes": nodes,
            "edges": edges,
            "derived_edges_truncated": derived.len() < total,
            "derived_edges": derived,
            "derived_edges_total": total,
            "root": opts.root,
            "ref": null,
            "feature": opts.feature,
            "metrics": self.metrics(&scope),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(stem: &str, feature: &str, body: &str) -> GraphDoc {
        GraphDoc::from_text(
            &format!(".vault/adr/{stem}.md"),
            &format!(
                "---\ntags: ['#adr', '#{feature}']\ndate: '2026-01-01'\n---\n# {stem}\n{body}\n"
            ),
        )
    }

    #[test]
    fn node_link_export_carries_node_edge_and_metric_attributes() {
        let g = Graph::build(
            vec![
                doc("a", "f", "[[b]] [[b]] [[gone]]"),
                doc("b", "f", ""),
                doc("c", "g", ""),
            ],
            &[],
        );
        let v = g
            .to_node_link(&ExportOptions {
                root: "/ws",
                ..Default::default()
            })
            .unwrap();
        assert_eq!(v["nodes"].as_array().unwrap().len(), 4);
        let a = &v["nodes"][0];
        assert_eq!(a["id"], "a");
        assert_eq!(a["path"], ".vault/adr/a.md");
        assert_eq!(a["out_links"], json!(["b", "gone"]));
        assert_eq!(a["title"], "a");
        assert!(a.get("body").is_none());
        let gone = &v["nodes"][3];
        assert_eq!(
            (gone["phantom"].clone(), gone["path"].clone()),
            (json!(true), Value::Null)
        );
        let ab = &v["edges"][0];
        assert_eq!(
            (
                ab["kind"].clone(),
                ab["multiplicity"].clone(),
                ab["weight"].clone()
            ),
            (json!("body"), json!(2), json!(1.0))
        );
        assert_eq!(v["metrics"]["phantom_count"], 1);
        assert_eq!(v["derived_edges"][0]["kind"], "shared_feature");
    }

    #[test]
    fn node_scope_beats_feature_and_an_unknown_node_is_none() {
        let g = Graph::build(
            vec![doc("a", "f", "[[b]]"), doc("b", "f", ""), doc("c", "g", "")],
            &[],
        );
        let opts = ExportOptions {
            node: Some("c"),
            feature: Some("f"),
            body: true,
            ..Default::default()
        };
        let v = g.to_node_link(&opts).unwrap();
        assert_eq!(v["nodes"].as_array().unwrap().len(), 1);
        assert_eq!(v["nodes"][0]["body"], "# c\n\n");
        assert!(
            g.to_node_link(&ExportOptions {
                node: Some("zz"),
                ..Default::default()
            })
            .is_none()
        );
    }
}

//! `vault graph`: the link graph as a tree of outgoing links, an ASCII
//! diagram, metrics, or the node-link JSON of `vaultspec.vault.graph.v2`.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::graph::{ExportOptions, Graph, GraphMetrics, NodeId, load_graph};

use crate::exports::vaultspec::vault::vault::GraphOptions;
use crate::report::{done, fail};

/// The node key a `--ref` names: its stem, whatever form it is written in.
fn ref_key(raw: &str) -> String {
    let t = raw.trim().trim_start_matches("[[").trim_end_matches("]]");
    let t = t.split('|').next().unwrap_or(t);
    let t = t.rsplit(['/', '\\']).next().unwrap_or(t);
    t.trim_end_matches(".md").to_owned()
}

pub fn graph(options: GraphOptions) -> u8 {
    let json = options.json;
    let graph = match load_graph(&Workspace::open()) {
        Ok(g) => g,
        Err(err) => return fail(json, err),
    };
    let reference = options.ref_.as_deref().map(ref_key);
    let node = options
        .node
        .as_deref()
        .map(str::to_owned)
        .or(reference.clone());
    let depth = options.depth.unwrap_or(1) as usize;
    let feature = options
        .feature
        .as_deref()
        .map(vaultspec_sdk::vault::doc::feature_arg);
    if let Some(key) = &node
        && graph.node_id(key).is_none()
    {
        return fail(
            json,
            format!("no graph node `{key}`: expected a document stem (see `vault list`)"),
        );
    }
    let Some(scope) = graph.export_scope(node.as_deref(), depth, feature) else {
        return fail(json, "the requested graph scope is empty");
    };
    if json {
        let opts = ExportOptions {
            node: node.as_deref(),
            depth,
            feature,
            body: options.body,
            derived: !options.no_derived,
            ..ExportOptions::default()
        };
        let Some(mut data) = graph.to_node_link(&opts) else {
            return fail(json, "the requested graph scope is empty");
        };
        data["ref"] = json!(options.ref_);
        page_derived(&mut data, options.derived_limit, options.derived_offset);
        return done(true, "vaultspec.vault.graph.v2", data, || {});
    }
    let metrics = options.metrics.then(|| graph.metrics(&scope));
    done(false, "", Value::Null, || {
        if options.ascii {
            print_ascii(&graph, &scope.nodes);
        } else if metrics.is_none() {
            print_tree(&graph, &scope.nodes);
        }
        if let Some(m) = &metrics {
            print_metrics(m);
        }
    })
}

/// Keeps one page of `derived_edges`, keeping the total.
fn page_derived(data: &mut Value, limit: Option<u32>, offset: Option<u32>) {
    if limit.is_none() && offset.is_none() {
        return;
    }
    let Some(edges) = data["derived_edges"].as_array().cloned() else {
        return;
    };
    let total = data["derived_edges_total"]
        .as_u64()
        .unwrap_or(edges.len() as u64) as usize;
    let start = (offset.unwrap_or(0) as usize).min(edges.len());
    let end = limit.map_or(edges.len(), |l| {
        start.saturating_add(l as usize).min(edges.len())
    });
    data["derived_edges"] = Value::Array(edges[start..end].to_vec());
    data["derived_edges_truncated"] = json!(end < total);
    if end < total {
        data["derived_next_offset"] = json!(end);
    }
}

fn label(graph: &Graph, id: NodeId) -> String {
    let node = graph.node(id);
    if node.archived {
        format!("{} (archived)", node.key)
    } else if node.is_phantom() {
        format!("{} (missing)", node.key)
    } else {
        node.key.clone()
    }
}

fn print_tree(graph: &Graph, nodes: &[NodeId]) {
    let mut shown = 0;
    for &id in nodes {
        if graph.node(id).is_phantom() {
            continue;
        }
        shown += 1;
        let doc_type = graph
            .doc(id)
            .and_then(|d| d.doc_type)
            .map_or("", |t| t.as_str());
        println!("{} [{doc_type}]", graph.node(id).key);
        let targets: Vec<NodeId> = graph.out_links(id).collect();
        for (i, t) in targets.iter().enumerate() {
            let branch = if i + 1 == targets.len() {
                "└──"
            } else {
                "├──"
            };
            println!("  {branch} {}", label(graph, *t));
        }
    }
    println!("{shown} documents");
}

fn print_ascii(graph: &Graph, nodes: &[NodeId]) {
    for &id in nodes {
        if graph.node(id).is_phantom() {
            continue;
        }
        let key = &graph.node(id).key;
        let width = key.chars().count() + 2;
        println!("+{}+", "-".repeat(width));
        println!("| {key} |");
        println!("+{}+", "-".repeat(width));
        for t in graph.out_links(id) {
            let kind = graph.edge(id, t).map_or("related", |e| e.kind().as_str());
            println!("   |--({kind})--> {}", label(graph, t));
        }
        let incoming = graph.in_links(id).len();
        if incoming > 0 {
            println!("   ({incoming} incoming)");
        }
    }
}

fn print_metrics(m: &GraphMetrics) {
    println!("nodes:                {}", m.total_nodes);
    println!("edges:                {}", m.total_edges);
    println!("features:             {}", m.total_features);
    println!("words:                {}", m.total_words);
    println!("density:              {:.4}", m.density);
    println!("average degree:       {:.2}", m.avg_in_degree);
    if let Some((k, d)) = &m.max_in_degree {
        println!("most linked to:       {k} ({d})");
    }
    if let Some((k, d)) = &m.max_out_degree {
        println!("most links out:       {k} ({d})");
    }
    println!("phantoms:             {}", m.phantom_count);
    println!("orphans:              {}", m.orphan_count);
    println!("dangling links:       {}", m.dangling_link_count);
    println!("connected components: {}", m.connected_components);
    if !m.betweenness_centrality.is_empty() {
        println!("central documents:");
        for (k, v) in &m.betweenness_centrality {
            println!("  {v:.3}  {k}");
        }
    }
}

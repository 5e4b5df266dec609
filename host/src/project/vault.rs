//! The vault's own sources for `project context`, which the reference
//! lists as uncollected: the live plans (open steps, steps waiting on a
//! proposed decision, their ledgers) and the stale `related:` links
//! ([`crate::coherence`]).

use std::path::Path;

use serde_json::{Map, Value, json};
use vaultspec_vault::CapStorage;
use vaultspec_vault::adr::{self, AdrStatus};
use vaultspec_vault::doc::stem_of;
use vaultspec_vault::graph::{self, Graph};
use vaultspec_vault::status::{PlanStatuses, recency};

use super::git::iso_strict;
use super::rank::{Item, compact};

/// The most plans, and the most stale links, listed.
pub const MAX_PER_SOURCE: usize = 30;

const UNKNOWNS: [&str; 2] = ["dependencies", "developer_availability"];

/// The items and the two sources (`vault_plans`, `stale_links`).
pub fn collect(root: &Path) -> (Vec<Item>, Vec<Value>) {
    let unavailable = |reason: &str| {
        ["vault_plans", "stale_links"]
            .map(|name| {
                json!({"name": name, "status": "unavailable", "count": 0, "truncated": false, "reason": reason})
            })
            .to_vec()
    };
    let vault = root.join(".vault").symlink_metadata();
    if !vault.is_ok_and(|m| m.is_dir()) {
        return (Vec::new(), unavailable("no_vault"));
    }
    let Ok(storage) = CapStorage::open(root) else {
        return (Vec::new(), unavailable("no_workspace"));
    };
    let Ok(graph) = graph::load_graph(&storage) else {
        return (Vec::new(), unavailable("vault_unreadable"));
    };
    let mut plans = plans(&graph, &PlanStatuses::read(&storage));
    let mut stale = stale_links(root, &storage, &graph);
    let sources = vec![
        json!({"name": "vault_plans", "status": "ok", "count": plans.len().min(MAX_PER_SOURCE),
               "truncated": plans.len() > MAX_PER_SOURCE, "reason": null}),
        json!({"name": "stale_links", "status": "ok", "count": stale.len().min(MAX_PER_SOURCE),
               "truncated": stale.len() > MAX_PER_SOURCE, "reason": null}),
    ];
    plans.truncate(MAX_PER_SOURCE);
    stale.truncate(MAX_PER_SOURCE);
    plans.append(&mut stale);
    (plans, sources)
}

/// One item per plan with open steps, most recently modified first.
fn plans(graph: &Graph, statuses: &PlanStatuses) -> Vec<Item> {
    let mut items = Vec::new();
    for (entry, status) in statuses.entries() {
        let Some(status) = status else { continue };
        let open = status.step_count - status.steps_completed;
        if open == 0 {
            continue;
        }
        // Documents are the graph's first nodes, in path order.
        let Ok(id) = graph.docs().binary_search_by(|d| d.path.cmp(&entry.path)) else {
            continue;
        };
        let Some(doc) = graph.doc(id) else { continue };
        let waits_on: Vec<&str> = graph
            .out_links(id)
            .filter_map(|to| graph.doc(to))
            .filter(|d| d.type_name() == "adr" && adr::status(d) == Some(AdrStatus::Proposed))
            .map(|d| stem_of(&d.path))
            .collect();
        let ledgers: Vec<&str> = graph
            .in_links(id)
            .iter()
            .filter_map(|from| graph.doc(*from))
            .filter(|d| d.type_name() == "exec")
            .map(|d| stem_of(&d.path))
            .collect();
        let blocked = if waits_on.is_empty() { 0 } else { open };
        let mut facts = Map::new();
        facts.insert("path".into(), json!(entry.path));
        facts.insert("feature".into(), json!(entry.feature));
        facts.insert("steps_open".into(), json!(open));
        facts.insert("steps_total".into(), json!(status.step_count));
        facts.insert("next_open_step".into(), json!(status.next_open_step));
        facts.insert("blocked_steps".into(), json!(blocked));
        facts.insert("waits_on".into(), json!(waits_on));
        facts.insert("ledgers".into(), json!(ledgers));
        facts.insert(
            "unrecorded_steps".into(),
            json!(status.exec_missing_ids.len()),
        );
        let mut signals = Vec::new();
        if blocked > 0 {
            signals.push("blocked_steps");
        }
        signals.push("open_steps");
        if !status.exec_missing_ids.is_empty() {
            signals.push("unrecorded_steps");
        }
        let updated = recency(doc).map_or_else(String::new, |d| format!("{d}T00:00:00Z"));
        items.push(Item {
            id: format!("vault:{}", entry.path),
            kind: "plan",
            title: compact(
                &format!("{}: {}", entry.stem, doc.title().unwrap_or_default()),
                240,
            ),
            updated,
            facts,
            signals,
            unknowns: UNKNOWNS.to_vec(),
        });
    }
    items.sort_by(|a, b| b.updated.cmp(&a.updated).then_with(|| a.id.cmp(&b.id)));
    items
}

/// One item per stale `related:` link.
fn stale_links(root: &Path, storage: &CapStorage, graph: &Graph) -> Vec<Item> {
    let findings = crate::coherence::find(root, storage, graph, None);
    findings
        .stale
        .iter()
        .map(|s| {
            let (document, upstream) = (s.document(graph), s.upstream(graph));
            let mut facts = Map::new();
            facts.insert("document".into(), json!(document));
            facts.insert("upstream".into(), json!(upstream));
            facts.insert("document_changed".into(), json!(s.document_changed.by));
            facts.insert("upstream_changed".into(), json!(s.upstream_changed.by));
            Item {
                id: format!("vault:{document}#related:{}", stem_of(upstream)),
                kind: "stale_link",
                title: compact(
                    &format!(
                        "{} is older than a change to {}",
                        stem_of(document),
                        stem_of(upstream)
                    ),
                    240,
                ),
                updated: iso_strict(s.upstream_changed.time, 0),
                facts,
                signals: vec!["stale_upstream"],
                unknowns: UNKNOWNS.to_vec(),
            }
        })
        .collect()
}

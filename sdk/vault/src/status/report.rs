//! The rollup report of the `status` verb (`vaultspec.vault.status.v1`
//! data): the rollup's features, plans and totals, with the recently
//! completed plans, the recent documents and the execution activity.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::features::{ActiveFeature, active_features, plan_buckets};
use super::recency::recency;
use super::{PlanStatuses, hosted_search, totals};
use crate::date::Date;
use crate::graph::{DocSelect, Graph, GraphDoc};

/// What the report shows.
#[derive(Debug, Clone, Default)]
pub struct ReportOptions {
    /// Rows per section (features, completed plans, documents per type).
    pub limit: usize,
    /// The earliest recency kept (`yyyy-mm-dd`), from `--since`.
    pub cutoff: Option<String>,
    /// `--since` as a number of days, echoed as `since_days`.
    pub since_days: Option<i64>,
    /// Give each recent document its path.
    pub paths: bool,
    /// List execution records among the recent documents instead of
    /// summing them up per feature in `exec_activity`.
    pub verbose_exec: bool,
    /// The companion's provisioning, as [`super::companion::probe`] found it.
    pub companion: Value,
}

/// The report of `graph` and its plans: the reference's `status --json`
/// data (`vaultspec.vault.status.v1`), field for field, plus `problems`
/// naming the documents that cannot be read.
pub fn rollup_report(graph: &Graph, statuses: &PlanStatuses, options: &ReportOptions) -> Value {
    let limit = options.limit;
    let all = active_features(graph, statuses);
    let shown: Vec<&ActiveFeature> = all.iter().take(limit.max(1)).collect();
    let (in_flight, completed) = plan_buckets(graph, statuses);
    let cutoff = options
        .cutoff
        .as_deref()
        .and_then(|c| Date::parse_lenient(c).ok());
    let exec = if options.verbose_exec {
        Vec::new()
    } else {
        exec_activity(graph, cutoff, limit)
    };
    let mut report = json!({
        "hosted_search": hosted_search(),
        "companion": options.companion,
        "active_features": shown,
        "active_features_total": all.len(),
        "active_features_truncated": all.len() > shown.len(),
        "plans_in_flight": in_flight,
        "recently_completed": completed,
        "recent_documents": recent_documents(graph, cutoff, limit, options),
        "exec_activity": exec,
        "totals": totals(graph.stats(DocSelect::All, None, None)),
        "limit": limit,
        "since_days": options.since_days,
    });
    // Documents the vault cannot read or parse are named, not just counted.
    let problems = graph.problem_rows();
    if !problems.is_empty() {
        report["problems"] = json!(problems);
    }
    report
}

/// The newest documents of each type by [`recency`] (ties: key,
/// descending), at most `limit` a type, none older than `cutoff` (nor
/// undated, then). Feature indexes are left out, and execution records too
/// unless `--verbose-exec` asks for them here instead of in
/// `exec_activity`. Types come in the order their newest document does; a
/// document whose stem another shares is named by its qualified key
/// (`adr/<stem>`), as the graph names it.
fn recent_documents(
    graph: &Graph,
    cutoff: Option<Date>,
    limit: usize,
    options: &ReportOptions,
) -> Map<String, Value> {
    let mut dated: Vec<(Option<Date>, &str, &GraphDoc)> = graph
        .docs()
        .iter()
        .enumerate()
        .filter(|(_, d)| d.type_name() != "index")
        .filter(|(_, d)| options.verbose_exec || d.type_name() != "exec")
        .map(|(id, d)| (recency(d), graph.node(id).key.as_str(), d))
        .filter(|(when, _, _)| cutoff.is_none_or(|c| when.is_some_and(|w| w >= c)))
        .collect();
    dated.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(a.1)));
    let mut grouped: Map<String, Value> = Map::new();
    for (when, key, doc) in dated {
        let doc_type = doc.type_name();
        let rows = grouped
            .entry(doc_type.to_owned())
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(rows) = rows else {
            continue;
        };
        if rows.len() >= limit {
            continue;
        }
        let mut row = json!({
            "stem": key,
            "doc_type": doc_type,
            "feature": doc.graph_feature(),
            "modified": when.map(|d| d.to_string()),
        });
        if options.paths {
            row["path"] = json!(doc.path);
        }
        rows.push(row);
    }
    grouped
}

/// Execution records per feature: how many and the newest recency, most
/// recently active first (ties: feature, descending), at most `limit`
/// features, none older than `cutoff`.
fn exec_activity(graph: &Graph, cutoff: Option<Date>, limit: usize) -> Vec<Value> {
    let mut by_feature: BTreeMap<Option<&str>, (usize, Option<Date>)> = BTreeMap::new();
    for doc in graph.docs().iter().filter(|d| d.type_name() == "exec") {
        let when = recency(doc);
        if cutoff.is_some_and(|c| when.is_none_or(|w| w < c)) {
            continue;
        }
        let entry = by_feature.entry(doc.graph_feature()).or_default();
        entry.0 += 1;
        entry.1 = entry.1.max(when);
    }
    let mut rows: Vec<_> = by_feature.into_iter().collect();
    rows.sort_by(|a, b| (b.1.1, b.0.unwrap_or("")).cmp(&(a.1.1, a.0.unwrap_or(""))));
    rows.into_iter()
        .take(limit)
        .map(|(feature, (count, latest))| {
            json!({ "feature": feature, "count": count, "latest": latest.map(|d| d.to_string()) })
        })
        .collect()
}

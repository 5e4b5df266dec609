//! The rollup report of the `status` verb (`vaultspec.vault.status.v1`
//! data): the rollup's features, plans and totals, with the recently
//! completed plans, the recent documents and the execution activity.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Value, json};

use super::PlanStatuses;
use crate::graph::{Graph, GraphDoc};
use crate::plan::PlanStatus;

/// What the report shows.
#[derive(Debug, Clone, Default)]
pub struct ReportOptions {
    /// Rows per section (features, completed plans, documents per type).
    pub limit: usize,
    /// The earliest `modified` kept (`yyyy-mm-dd`), from `--since`.
    pub cutoff: Option<String>,
    /// `--since` as a number of days, echoed as `since_days`.
    pub since_days: Option<i64>,
    /// Give each recent document its path.
    pub paths: bool,
    /// List the records of each feature's execution activity.
    pub verbose_exec: bool,
}

/// The report of `graph` and its plans.
pub fn rollup_report(graph: &Graph, statuses: &PlanStatuses, options: &ReportOptions) -> Value {
    let limit = options.limit;
    let roll = statuses.rollup(graph, limit);
    let plans = statuses.entries();
    let active: Vec<Value> = roll
        .features
        .iter()
        .map(|f| {
            let ours = || {
                plans
                    .iter()
                    .filter(|(e, _)| e.feature.as_deref() == Some(f.name.as_str()))
            };
            let readable: Vec<&PlanStatus> = ours().filter_map(|(_, s)| s.as_ref()).collect();
            let count = ours().count();
            json!({
                "name": f.name,
                "doc_count": f.doc_count,
                "latest_activity": f.latest_activity,
                "has_plan": f.has_plan,
                "status": f.status,
                "plan_tier": f.plan_tier,
                "plan_steps_completed": readable.iter().map(|s| s.steps_completed).sum::<usize>(),
                "plan_step_count": readable.iter().map(|s| s.step_count).sum::<usize>(),
                "plan_completion_percent": f.plan_completion_percent,
                "plan_count": count,
                "plans_unreadable": count - readable.len(),
            })
        })
        .collect();
    let cutoff = options.cutoff.as_deref();
    // The `modified` of the first document (in path order) of each stem.
    let mut modified_of: HashMap<&str, Option<&str>> = HashMap::new();
    for doc in graph.docs() {
        modified_of
            .entry(doc.stem.as_str())
            .or_insert(doc.modified.as_deref());
    }
    let completed: Vec<Value> = plans
        .iter()
        .filter_map(|(e, s)| s.as_ref().map(|s| (e, s)))
        .filter(|(_, s)| s.step_count > 0 && s.steps_completed == s.step_count)
        .map(|(e, s)| {
            let modified = modified_of.get(e.stem.as_str()).copied().flatten();
            json!({
                "stem": e.stem, "feature": e.feature, "tier": format!("{:?}", s.tier),
                "open_steps": 0, "closed_steps": s.steps_completed, "total_steps": s.step_count,
                "completion_percent": s.completion_percent, "wave_count": s.wave_count,
                "waves_completed": s.waves_completed, "phase_count": s.phase_count,
                "phases_completed": s.phases_completed, "next_open_step": s.next_open_step,
                "exec_missing": s.exec_missing_ids, "modified": modified,
            })
        })
        .filter(|v| cutoff.is_none_or(|c| v["modified"].as_str().is_some_and(|m| m >= c)))
        .take(limit)
        .collect();
    let mut report = json!({
        "hosted_search": { "configured": false, "source": null },
        "active_features": active,
        "active_features_total": roll.features_total,
        "active_features_truncated": roll.features_total > roll.features.len(),
        "plans_in_flight": roll.plans_in_flight,
        "recently_completed": completed,
        "recent_documents": recent_documents(graph, cutoff, limit, options.paths),
        "exec_activity": exec_activity(graph, options.verbose_exec),
        "totals": roll.totals,
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

/// The newest documents of each type (by `modified`, else `date`), at most
/// `limit` a type, none older than `cutoff`.
fn recent_documents(
    graph: &Graph,
    cutoff: Option<&str>,
    limit: usize,
    paths: bool,
) -> BTreeMap<String, Vec<Value>> {
    let mut by_type: BTreeMap<&str, Vec<(&str, &GraphDoc)>> = BTreeMap::new();
    for doc in graph.docs() {
        let Some(stamp) = doc.modified.as_deref().or(doc.date.as_deref()) else {
            continue;
        };
        if cutoff.is_some_and(|c| stamp < c) || doc.doc_type.is_none() {
            continue;
        }
        by_type
            .entry(doc.type_name())
            .or_default()
            .push((stamp, doc));
    }
    let row = |stamp: &str, doc: &GraphDoc| {
        let mut row = json!({
            "stem": doc.stem,
            "doc_type": doc.doc_type,
            "feature": doc.graph_feature(),
            "modified": stamp,
        });
        if paths {
            row["path"] = json!(doc.path);
        }
        row
    };
    by_type
        .into_iter()
        .map(|(t, mut docs)| {
            // Stable: documents of one stamp stay in path order.
            docs.sort_by(|a, b| b.0.cmp(a.0));
            (
                t.to_owned(),
                docs.into_iter()
                    .take(limit)
                    .map(|(stamp, doc)| row(stamp, doc))
                    .collect(),
            )
        })
        .collect()
}

/// Execution records per feature: how many, the latest stamp, and (when
/// `verbose`) their stems.
fn exec_activity(graph: &Graph, verbose: bool) -> Vec<Value> {
    let mut by_feature: BTreeMap<String, (usize, String, Vec<String>)> = BTreeMap::new();
    for doc in graph.docs().iter().filter(|d| d.type_name() == "exec") {
        let Some(f) = doc.graph_feature() else {
            continue;
        };
        let entry = by_feature.entry(f).or_default();
        entry.0 += 1;
        let stamp = doc
            .modified
            .clone()
            .or(doc.date.clone())
            .unwrap_or_default();
        if stamp > entry.1 {
            entry.1 = stamp;
        }
        entry.2.push(doc.stem.clone());
    }
    by_feature
        .into_iter()
        .map(|(feature, (count, latest, records))| {
            let mut v = json!({ "feature": feature, "count": count, "latest": latest });
            if verbose {
                v["records"] = json!(records);
            }
            v
        })
        .collect()
}

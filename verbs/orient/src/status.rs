//! `status`: the rollup of the vault (active features, plans in flight,
//! recently completed plans, recent documents, execution activity, totals),
//! or the grounding trace of one feature or plan. The figures come from
//! `vaultspec_vault::status`, which the MCP `status` tool shares.

use std::collections::BTreeMap;

use vaultspec_sdk::Workspace;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::Date;
use vaultspec_sdk::vault::graph::{Graph, load_graph};
use vaultspec_sdk::vault::plan::PlanStatus;
use vaultspec_sdk::vault::status::{DEFAULT_FEATURE_LIMIT, PlanStatuses, trace};

use crate::StatusOptions;
use crate::report::{self, done, fail};

const SCHEMA: &str = "vaultspec.vault.status.v1";

/// `--since`: a number of days, or a date; the earliest `modified` kept.
fn since(raw: Option<&str>, today: Date) -> Result<(Option<String>, Option<i64>), String> {
    let Some(raw) = raw.map(str::trim) else { return Ok((None, None)) };
    if let Ok(days) = raw.trim_end_matches('d').parse::<i64>() {
        return Ok((today.add_days(-days).map(|d| d.to_string()), Some(days)));
    }
    let date = Date::parse_lenient(raw).map_err(|_| format!("invalid `--since` `{raw}`: expected a number of days or a date `yyyy-mm-dd`"))?;
    Ok((Some(date.to_string()), Some(today.to_days() - date.to_days())))
}

fn recent_documents(graph: &Graph, cutoff: Option<&str>, limit: usize, paths: bool) -> BTreeMap<String, Vec<Value>> {
    let mut by_type: BTreeMap<String, Vec<(&str, Value)>> = BTreeMap::new();
    for doc in graph.docs() {
        let Some(stamp) = doc.modified.as_deref().or(doc.date.as_deref()) else { continue };
        if cutoff.is_some_and(|c| stamp < c) || doc.doc_type.is_none() {
            continue;
        }
        let mut row = json!({
            "stem": doc.stem,
            "doc_type": doc.doc_type,
            "feature": doc.graph_feature(),
            "modified": stamp,
        });
        if paths {
            row["path"] = json!(doc.path);
        }
        by_type.entry(doc.type_name().to_owned()).or_default().push((stamp, row));
    }
    by_type
        .into_iter()
        .map(|(t, mut rows)| {
            rows.sort_by(|a, b| b.0.cmp(a.0));
            (t, rows.into_iter().take(limit).map(|(_, v)| v).collect())
        })
        .collect()
}

fn exec_activity(graph: &Graph, verbose: bool) -> Vec<Value> {
    let mut by_feature: BTreeMap<String, (usize, String, Vec<String>)> = BTreeMap::new();
    for doc in graph.docs().iter().filter(|d| d.type_name() == "exec") {
        let Some(f) = doc.graph_feature() else { continue };
        let entry = by_feature.entry(f).or_default();
        entry.0 += 1;
        let stamp = doc.modified.clone().or(doc.date.clone()).unwrap_or_default();
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

pub fn status(options: StatusOptions, target: Option<String>) -> u8 {
    let json = options.json;
    let ws = Workspace::open();
    let graph = match load_graph(&ws) {
        Ok(g) => g,
        Err(err) => return fail(json, err),
    };
    if let Some(target) = target {
        return match trace(&ws, &graph, &target) {
            Ok(t) => {
                let data = json!({ "kind": "trace", "target": target, "trace_kind": t.trace_kind, "plans": t.plans });
                done(json, SCHEMA, data, || print_trace(&t))
            }
            Err(err) => fail(json, err),
        };
    }
    let today = Date::today_utc();
    let (cutoff, since_days) = match since(options.since.as_deref(), today) {
        Ok(s) => s,
        Err(message) => return report::usage(json, &message),
    };
    let limit = options.limit.map_or(DEFAULT_FEATURE_LIMIT, |l| l as usize);
    // One read of every plan and ledger serves the rollup and the rows
    // below (ledger evidence gives `exec_missing` of completed plans).
    let statuses = PlanStatuses::read(&ws);
    let roll = statuses.rollup(&graph, limit);
    let plans = statuses.entries();
    let active: Vec<Value> = roll
        .features
        .iter()
        .map(|f| {
            let mine: Vec<&PlanStatus> =
                plans.iter().filter(|(e, _)| e.feature.as_deref() == Some(f.name.as_str())).filter_map(|(_, s)| s.as_ref()).collect();
            let count = plans.iter().filter(|(e, _)| e.feature.as_deref() == Some(f.name.as_str())).count();
            json!({
                "name": f.name,
                "doc_count": f.doc_count,
                "latest_activity": f.latest_activity,
                "has_plan": f.has_plan,
                "status": f.status,
                "plan_tier": f.plan_tier,
                "plan_steps_completed": mine.iter().map(|s| s.steps_completed).sum::<usize>(),
                "plan_step_count": mine.iter().map(|s| s.step_count).sum::<usize>(),
                "plan_completion_percent": f.plan_completion_percent,
                "plan_count": count,
                "plans_unreadable": count - mine.len(),
            })
        })
        .collect();
    let completed: Vec<Value> = plans
        .iter()
        .filter_map(|(e, s)| s.as_ref().map(|s| (e, s)))
        .filter(|(_, s)| s.step_count > 0 && s.steps_completed == s.step_count)
        .map(|(e, s)| {
            let modified = graph.docs().iter().find(|d| d.stem == e.stem).and_then(|d| d.modified.clone());
            json!({
                "stem": e.stem, "feature": e.feature, "tier": format!("{:?}", s.tier),
                "open_steps": 0, "closed_steps": s.steps_completed, "total_steps": s.step_count,
                "completion_percent": s.completion_percent, "wave_count": s.wave_count,
                "waves_completed": s.waves_completed, "phase_count": s.phase_count,
                "phases_completed": s.phases_completed, "next_open_step": s.next_open_step,
                "exec_missing": s.exec_missing_ids, "modified": modified,
            })
        })
        .filter(|v| cutoff.as_deref().is_none_or(|c| v["modified"].as_str().is_some_and(|m| m >= c)))
        .take(limit)
        .collect();
    let data = json!({
        "hosted_search": { "configured": false, "source": null },
        "active_features": active,
        "active_features_total": roll.features_total,
        "active_features_truncated": roll.features_total > roll.features.len(),
        "plans_in_flight": roll.plans_in_flight,
        "recently_completed": completed,
        "recent_documents": recent_documents(&graph, cutoff.as_deref(), limit, options.paths),
        "exec_activity": exec_activity(&graph, options.verbose_exec),
        "totals": roll.totals,
        "limit": limit,
        "since_days": since_days,
    });
    done(json, SCHEMA, data.clone(), || print_rollup(&data))
}

fn print_rollup(data: &Value) {
    let t = &data["totals"];
    println!("{} documents, {} features", t["total_docs"], t["total_features"]);
    let s = |v: &Value| v.as_str().unwrap_or("-").to_owned();
    println!("\nactive features:");
    for f in data["active_features"].as_array().into_iter().flatten() {
        println!("  {:<24} {:>3} docs  {:<11} latest {}", s(&f["name"]), f["doc_count"], s(&f["status"]), s(&f["latest_activity"]));
    }
    let plans = data["plans_in_flight"].as_array().cloned().unwrap_or_default();
    if !plans.is_empty() {
        println!("\nplans in flight:");
        for p in &plans {
            println!("  {}  {}/{} steps  next {}", s(&p["stem"]), p["closed_steps"], p["total_steps"], s(&p["next_open_step"]));
        }
    }
    if let Some(recent) = data["recent_documents"].as_object().filter(|r| !r.is_empty()) {
        println!("\nrecent documents:");
        for (t, rows) in recent {
            for r in rows.as_array().into_iter().flatten() {
                let path = r.get("path").map(|p| format!("  {}", s(p))).unwrap_or_default();
                println!("  {:<9} {}  {}{path}", t, s(&r["modified"]), s(&r["stem"]));
            }
        }
    }
    println!("\n{} orphaned documents, {} dangling links", t["orphaned_count"], t["dangling_link_count"]);
}

fn print_trace(t: &vaultspec_sdk::vault::status::Trace) {
    for p in &t.plans {
        println!("{} ({}): {}/{} steps", p.stem, p.tier.as_deref().unwrap_or("unreadable"), p.closed_steps, p.total_steps);
        if let Some(err) = &p.error {
            println!("  cannot read the plan: {err}");
        }
        for s in &p.steps {
            let mark = if s.checked { "x" } else { " " };
            let record = s.record_stem.as_deref().map(|r| format!("  <- {r}")).unwrap_or_default();
            println!("  [{mark}] {}{record}", s.display_path);
        }
        for (t, stems) in &p.grounding {
            println!("  {t}: {}", stems.join(", "));
        }
        for r in &p.unlinked_records {
            println!("  unlinked record {r}");
        }
    }
    if t.plans.is_empty() {
        println!("no plan to trace");
    }
}

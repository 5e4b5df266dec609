//! `status`: the rollup of the vault (active features, plans in flight,
//! recently completed plans, recent documents, execution activity, totals),
//! or the grounding trace of one feature or plan. The figures come from
//! `vaultspec_vault::status`, which the MCP `status` tool shares; the
//! report itself is `status::rollup_report`.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::Date;
use vaultspec_sdk::vault::graph::load_graph;
use vaultspec_sdk::vault::status::{
    DEFAULT_FEATURE_LIMIT, PlanStatuses, ReportOptions, rollup_report, trace,
};

use crate::StatusOptions;
use crate::report::{self, done, fail};

const SCHEMA: &str = "vaultspec.vault.status.v1";

/// `--since`: a number of days, or a date; the earliest `modified` kept.
fn since(raw: Option<&str>, today: Date) -> Result<(Option<String>, Option<i64>), String> {
    let Some(raw) = raw.map(str::trim) else {
        return Ok((None, None));
    };
    if let Ok(days) = raw.trim_end_matches('d').parse::<i64>() {
        return Ok((today.add_days(-days).map(|d| d.to_string()), Some(days)));
    }
    let date = Date::parse_lenient(raw).map_err(|_| {
        format!("invalid `--since` `{raw}`: expected a number of days or a date `yyyy-mm-dd`")
    })?;
    Ok((
        Some(date.to_string()),
        Some(today.to_days() - date.to_days()),
    ))
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
                done(json, SCHEMA, &data, || print_trace(&t))
            }
            Err(err) => fail(json, err),
        };
    }
    let today = Date::today_utc();
    let (cutoff, since_days) = match since(options.since.as_deref(), today) {
        Ok(s) => s,
        Err(message) => return report::usage(json, &message),
    };
    let report = ReportOptions {
        limit: options.limit.map_or(DEFAULT_FEATURE_LIMIT, |l| l as usize),
        cutoff,
        since_days,
        paths: options.paths,
        verbose_exec: options.verbose_exec,
    };
    // One read of every plan and ledger serves the whole report (ledger
    // evidence gives `exec_missing` of completed plans).
    let data = rollup_report(&graph, &PlanStatuses::read(&ws), &report);
    done(json, SCHEMA, &data, || print_rollup(&data))
}

fn print_rollup(data: &Value) {
    let t = &data["totals"];
    println!(
        "{} documents, {} features",
        t["total_docs"], t["total_features"]
    );
    for p in data["problems"].as_array().into_iter().flatten() {
        println!(
            "  problem: {} ({})",
            p["path"].as_str().unwrap_or(""),
            p["problem"].as_str().unwrap_or("")
        );
    }
    let s = |v: &Value| v.as_str().unwrap_or("-").to_owned();
    println!("\nactive features:");
    for f in data["active_features"].as_array().into_iter().flatten() {
        println!(
            "  {:<24} {:>3} docs  {:<11} latest {}",
            s(&f["name"]),
            f["doc_count"],
            s(&f["status"]),
            s(&f["latest_activity"])
        );
    }
    let plans = data["plans_in_flight"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if !plans.is_empty() {
        println!("\nplans in flight:");
        for p in &plans {
            println!(
                "  {}  {}/{} steps  next {}",
                s(&p["stem"]),
                p["closed_steps"],
                p["total_steps"],
                s(&p["next_open_step"])
            );
        }
    }
    if let Some(recent) = data["recent_documents"]
        .as_object()
        .filter(|r| !r.is_empty())
    {
        println!("\nrecent documents:");
        for (t, rows) in recent {
            for r in rows.as_array().into_iter().flatten() {
                let path = r
                    .get("path")
                    .map(|p| format!("  {}", s(p)))
                    .unwrap_or_default();
                println!("  {:<9} {}  {}{path}", t, s(&r["modified"]), s(&r["stem"]));
            }
        }
    }
    println!(
        "\n{} orphaned documents, {} dangling links",
        t["orphaned_count"], t["dangling_link_count"]
    );
}

fn print_trace(t: &vaultspec_sdk::vault::status::Trace) {
    for p in &t.plans {
        println!(
            "{} ({}): {}/{} steps",
            p.stem,
            p.tier.as_deref().unwrap_or("unreadable"),
            p.closed_steps,
            p.total_steps
        );
        if let Some(err) = &p.error {
            println!("  cannot read the plan: {err}");
        }
        for s in &p.steps {
            let mark = if s.checked { "x" } else { " " };
            let record = s
                .record_stem
                .as_deref()
                .map(|r| format!("  <- {r}"))
                .unwrap_or_default();
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

//! `status`: the rollup of the vault (active features, plans in flight,
//! recently completed plans, recent documents, execution activity, totals),
//! or the grounding trace of one feature or plan. The figures come from
//! `vaultspec_vault::status`, which the MCP `status` tool shares; the
//! report itself is `status::rollup_report`.

use vaultspec_sdk::hints::Hints;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::Date;
use vaultspec_sdk::vault::checks::SnapshotStorage;
use vaultspec_sdk::vault::coherence;
use vaultspec_sdk::vault::framework::legacy_server;
use vaultspec_sdk::vault::graph::load_graph_listed;
use vaultspec_sdk::vault::ops::journal;
use vaultspec_sdk::vault::status::companion;
use vaultspec_sdk::vault::status::{
    DEFAULT_FEATURE_LIMIT, PlanStatuses, ReportOptions, Trace, rollup_report, trace, trace_paths,
};
use vaultspec_sdk::{Workspace, history, output};

use crate::StatusOptions;
use crate::report::{self, fail};
use crate::table::Section;

const SCHEMA: &str = "vaultspec.vault.status.v1";

/// What moves agents from `vaultspec-core`'s server to ours.
const TAKE_OVER: &str = "vaultspec spec mcps trust && vaultspec spec mcps sync";

/// The next steps after the rollup: trace a feature (the busiest one, by
/// name) or check the workspace's health, the reference's two in its
/// order; in a vault with nothing to trace, write its first document.
fn rollup_hints(data: &Value) -> Hints {
    let first_feature = data["active_features"]
        .as_array()
        .and_then(|features| features.first())
        .and_then(|f| f["name"].as_str());
    let first = match first_feature {
        Some(feature) => (
            "Trace a feature: its plans, steps, records and grounding documents".to_owned(),
            format!("vaultspec status {feature}"),
        ),
        None => (
            "Start the vault with a research note on what you are about to build".to_owned(),
            "vaultspec vault add research --feature <feature>".to_owned(),
        ),
    };
    Hints::steps([
        first,
        (
            "Check the workspace's health".to_owned(),
            "vaultspec doctor".to_owned(),
        ),
    ])
}

/// The next steps after a trace: the feature's graph, then the first
/// plan's own status (placeholders where the trace names neither).
fn trace_hints(t: &Trace) -> Hints {
    let feature = t
        .plans
        .iter()
        .find_map(|p| p.feature.as_deref())
        .unwrap_or("<feature>");
    let plan = t.plans.first().map_or("<plan>", |p| p.stem.as_str());
    Hints::steps([
        (
            "See how the feature's documents link to each other".to_owned(),
            format!("vaultspec vault graph --feature {feature}"),
        ),
        (
            "Validate the plan's structure and which steps are done".to_owned(),
            format!("vaultspec vault plan status {plan}"),
        ),
    ])
}

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
    let no_hints = options.no_hints;
    let ws = Workspace::open();
    let (graph, listing) = match load_graph_listed(&ws) {
        Ok(loaded) => loaded,
        Err(err) => return fail(json, err),
    };
    // Plans and ledgers are read again from what the load already holds.
    let loaded = SnapshotStorage::over(&ws, &graph, &listing);
    if let Some(target) = target {
        return match trace(&loaded, &graph, &target) {
            Ok(t) => {
                // The reference's shape: `kind` is how the target resolved.
                let plans: Vec<Value> = t.plans.iter().map(|p| p.cli_payload()).collect();
                let paths = if options.paths {
                    trace_paths(&graph, &t)
                } else {
                    Default::default()
                };
                let data = json!({ "target": target, "kind": t.trace_kind, "plans": plans, "paths": paths });
                let hints = trace_hints(&t).unless(no_hints);
                output::done_with_hints(
                    json,
                    SCHEMA,
                    output::status::UNCHANGED,
                    &data,
                    hints.as_ref(),
                    || print_trace(&t),
                )
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
        // A sandboxed verb cannot look on `PATH`; `spec doctor` does.
        companion: companion::probe(&ws, None),
    };
    // One read of every plan and ledger serves the whole report (ledger
    // evidence gives `exec_missing` of completed plans).
    let mut data = rollup_report(&graph, &PlanStatuses::read(&loaded), &report);
    // Only where something is stale: otherwise the reference's shape.
    let (stale, dated_by) = history::stale_links(&ws, &graph, None);
    if let Some(section) = coherence::status_section(&stale, &graph, report.limit, dated_by) {
        data["stale"] = section;
    }
    if let Some(notice) = journal::notice(&ws) {
        data["journal"] = json!(notice);
    }
    let launching = legacy_server::files_launching_reference(&ws);
    if !launching.is_empty() {
        data["legacy_server"] = json!({ "files": launching, "command": TAKE_OVER });
    }
    let hints = rollup_hints(&data).unless(no_hints);
    output::done_with_hints(
        json,
        SCHEMA,
        output::status::UNCHANGED,
        &data,
        hints.as_ref(),
        || print_rollup(&data),
    )
}

/// The rollup as text: the totals, then each section that has rows, in
/// aligned columns, capped at `--limit` rows with "and N more" and the
/// command that lists the rest.
fn print_rollup(data: &Value) {
    let s = |v: &Value| v.as_str().unwrap_or("-").to_owned();
    let n = |v: &Value| v.as_u64().unwrap_or(0) as usize;
    let list = |v: &Value| v.as_array().cloned().unwrap_or_default();
    let limit = data["limit"]
        .as_u64()
        .map_or(DEFAULT_FEATURE_LIMIT, |l| l as usize)
        .max(1);
    let t = &data["totals"];
    let mut out = format!(
        "{} {}, {} {}\n",
        n(&t["total_docs"]),
        plural(n(&t["total_docs"]), "document"),
        n(&t["total_features"]),
        plural(n(&t["total_features"]), "feature")
    );
    let mut sections = Vec::new();

    if let Some(message) = data["journal"]["message"].as_str() {
        out.push_str(&format!(
            "\nUndo journal {}: {message}\n",
            s(&data["journal"]["path"])
        ));
    }
    if let Some(files) = data["legacy_server"]["files"].as_array() {
        let files: Vec<String> = files.iter().map(s).collect();
        out.push_str(&format!(
            "\nAgents here still start vaultspec-core's Python MCP server ({}).\n\
             Take it over (you approve the new launch at this terminal):\n  {TAKE_OVER}\n",
            files.join(", ")
        ));
    }

    if data["companion"]["found"]
        .as_array()
        .is_some_and(|found| !found.is_empty())
    {
        out.push_str(&format!(
            "\nSemantic search: {}\n",
            companion::line(&data["companion"])
        ));
    }

    let mut problems = Section::new("Unreadable files");
    for p in list(&data["problems"]) {
        problems.row(vec![s(&p["path"]), s(&p["problem"])]);
    }
    sections.push(problems);

    let mut plans = Section::new("Plans in flight");
    for p in list(&data["plans_in_flight"]) {
        plans.row(vec![
            s(&p["stem"]),
            s(&p["tier"]),
            format!("{}/{} steps", n(&p["closed_steps"]), n(&p["total_steps"])),
            format!("{:.0}%", p["completion_percent"].as_f64().unwrap_or(0.0)),
            format!("next {}", s(&p["next_open_step"])),
        ]);
    }
    sections.push(plans);

    let mut stale = Section::new("Behind what they were written from");
    for link in list(&data["stale"]["links"]) {
        stale.row(vec![
            s(&link["document"]),
            format!(
                "{} changed {}",
                s(&link["upstream"]),
                s(&link["upstream_changed"]["date"])
            ),
            format!("this {}", s(&link["document_changed"]["date"])),
        ]);
    }
    let more = n(&data["stale"]["more"]);
    if more > 0 {
        stale.more(more, "vaultspec vault check coherence");
    }
    sections.push(stale);

    let mut features = Section::new("Active features");
    let shown = list(&data["active_features"]);
    for f in &shown {
        let plan = if f["has_plan"].as_bool().unwrap_or(false) {
            format!(
                "{} {}/{} steps",
                s(&f["plan_tier"]),
                n(&f["plan_steps_completed"]),
                n(&f["plan_step_count"])
            )
        } else {
            "no plan".to_owned()
        };
        features.row(vec![
            s(&f["name"]),
            format!(
                "{} {}",
                n(&f["doc_count"]),
                plural(n(&f["doc_count"]), "doc")
            ),
            plan,
            format!("latest {}", s(&f["latest_activity"])),
        ]);
    }
    let total = n(&data["active_features_total"]);
    if total > shown.len() {
        features.more(total - shown.len(), "vaultspec vault feature list");
    }
    sections.push(features);

    let mut completed = Section::new("Recently completed plans");
    for p in list(&data["recently_completed"]) {
        completed.row(vec![s(&p["stem"]), s(&p["tier"]), s(&p["modified"])]);
    }
    sections.push(completed);

    if let Some(recent) = data["recent_documents"].as_object() {
        for (doc_type, rows) in recent {
            let mut section = Section::new(format!("Recent {doc_type} documents"));
            let rows = list(rows);
            for r in &rows {
                let mut cells = vec![s(&r["stem"]), s(&r["modified"])];
                if let Some(path) = r.get("path") {
                    cells.push(s(path));
                }
                section.row(cells);
            }
            let of_type = n(&t["counts_by_type"][doc_type]);
            if data["since_days"].is_null() && of_type > rows.len() {
                section.more(
                    of_type - rows.len(),
                    format!("vaultspec vault list {doc_type}"),
                );
            }
            sections.push(section);
        }
    }

    let mut exec = Section::new("Execution activity");
    for e in list(&data["exec_activity"]) {
        exec.row(vec![
            s(&e["feature"]),
            format!("{} {}", n(&e["count"]), plural(n(&e["count"]), "record")),
            format!("latest {}", s(&e["latest"])),
        ]);
    }
    if list(&data["exec_activity"]).len() > limit {
        exec.more(0, "vaultspec vault list exec");
    }
    sections.push(exec);

    let mut links = Section::new("Link health");
    let (orphans, dangling) = (n(&t["orphaned_count"]), n(&t["dangling_link_count"]));
    if orphans > 0 {
        links.row(vec![
            format!("{orphans} orphaned {}", plural(orphans, "document")),
            "vaultspec vault check orphans".to_owned(),
        ]);
    }
    if dangling > 0 {
        links.row(vec![
            format!("{dangling} dangling {}", plural(dangling, "link")),
            "vaultspec vault check dangling".to_owned(),
        ]);
    }
    sections.push(links);

    for section in sections {
        let text = section.render(limit);
        if !text.is_empty() {
            out.push('\n');
            out.push_str(&text);
        }
    }
    print!("{out}");
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    }
}

fn print_trace(t: &Trace) {
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

//! `status`: the vault rollup, or a trace of one feature or plan
//! (`spec/mcp-tools.md` §6.5).

use serde::Deserialize;
use serde_json::{Value, json};
use vaultspec_vault::CapStorage;
use vaultspec_vault::coherence;
use vaultspec_vault::status::{self, DEFAULT_FEATURE_LIMIT};

use super::parse;
use crate::coherence::Findings;
use crate::mcp::context::ServerContext;
use crate::mcp::instructions::TOOL_SCHEMA_VERSION;
use crate::mcp::reply::{Reply, ToolError, ToolResult};
use crate::mcp::vault_cache::LoadedVault;

#[derive(Deserialize)]
struct Args {
    target: Option<String>,
}

/// Answer with the rollup, or the trace of `target`.
pub fn call(context: &ServerContext, args: Value) -> ToolResult {
    let raw = args.clone();
    let args: Args = parse(args)?;
    let storage = context.storage()?;
    let root = context.workspace.root();
    let loaded = context.vault.get(root, &storage)?;
    // The companion is read from files outside the vault and from `PATH`,
    // which the kept replies do not watch: its answer is part of the key.
    let companion = crate::workspace::companion(&storage);
    // Only the rollup has a stale section (a trace dates nothing). Its
    // links are dated from the repository, which the kept replies do not
    // watch either: the state `HEAD` was read in is part of the key.
    let rollup = args.target.as_deref().is_none_or(|t| t.trim().is_empty());
    let stale = rollup.then(|| loaded.stale(root, &storage));
    let head = stale.as_ref().map(|s| s.state.clone());
    let key = json!({ "args": raw, "companion": companion, "head": head });
    loaded
        .replies
        .get_or(root, context.today(), "status", &key, || {
            reply(&storage, &loaded, args.target, companion, stale.as_deref())
        })
}

/// The rollup, or the trace of `target`, from the loaded vault.
fn reply(
    storage: &CapStorage,
    loaded: &LoadedVault,
    target: Option<String>,
    companion: Value,
    stale: Option<&Findings>,
) -> ToolResult {
    let graph = &loaded.graph;
    match target.filter(|t| !t.trim().is_empty()) {
        None => {
            let rollup = loaded.plans(storage).rollup(graph, DEFAULT_FEATURE_LIMIT);
            let summary = if rollup.features.is_empty() && rollup.plans_in_flight.is_empty() {
                "grounding trace".to_owned()
            } else {
                let shown = rollup.features.len();
                let of = if shown < rollup.features_total {
                    format!(" of {}", rollup.features_total)
                } else {
                    String::new()
                };
                format!(
                    "{shown}{of} active features, {} plans in flight",
                    rollup.plans_in_flight.len()
                )
            };
            let mut value = serde_json::to_value(&rollup)?;
            value["tool_schema_version"] = json!(TOOL_SCHEMA_VERSION);
            value["kind"] = json!("rollup");
            value["plans"] = json!([]);
            value["hosted_search"] = status::hosted_search();
            value["companion"] = companion;
            // Only where something is stale: otherwise the reference's shape.
            if let Some(section) = stale.and_then(|stale| {
                coherence::status_section(
                    &stale.stale,
                    graph,
                    DEFAULT_FEATURE_LIMIT,
                    stale.source(),
                )
            }) {
                value["stale"] = section;
            }
            let problems = graph.problem_rows();
            if !problems.is_empty() {
                value["problems"] = json!(problems);
            }
            if let Some(notice) = vaultspec_vault::ops::journal::notice(storage) {
                value["journal"] = json!(notice);
            }
            Ok(Reply {
                summary,
                structured: value.into(),
            })
        }
        Some(target) => {
            let trace = status::trace(storage, graph, &target)
                .map_err(|e| ToolError::tool(e.to_string()))?;
            let value = json!({
                "tool_schema_version": TOOL_SCHEMA_VERSION,
                "kind": "trace",
                "target": target,
                "trace_kind": trace.trace_kind,
                "plans": trace.plans,
                "features": [],
                "features_total": 0,
                "plans_in_flight": [],
                "totals": {},
                "hosted_search": status::hosted_search(),
            });
            Ok(Reply {
                summary: "grounding trace".to_owned(),
                structured: value.into(),
            })
        }
    }
}

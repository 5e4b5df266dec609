//! Every hot tool's happy path and documented refusals, over stdio against
//! the real binary, on a vault the test builds.

use serde_json::{Value, json};
use vaultspec_test_support::TestVault;

use crate::mcp::{Session, text};

fn structured(result: &rmcp::model::CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(false), "{}", text(result));
    result
        .structured_content
        .clone()
        .expect("structured content")
}

/// A small vault: a feature with research, an ADR and an L2 plan.
fn vault_with_plan(session: &Session) -> anyhow::Result<()> {
    let reply = structured(&session.call(
        "create",
        json!({"documents": [
            {"feature": "cache-layer", "type": "research", "topic": "eviction", "date": "2026-03-01",
             "content": "Least recently used eviction keeps hot keys resident."},
            {"feature": "cache-layer", "type": "adr", "title": "evict the oldest entry first", "date": "2026-03-02",
             "related": ["2026-03-01-cache-layer-eviction-research"]},
            {"feature": "cache-layer", "type": "plan", "date": "2026-03-03", "tier": "L1"}
        ]}),
    )?);
    assert_eq!(reply["status"], "ok", "{reply}");
    assert_eq!(reply["counts"]["created"], 3);
    Ok(())
}

#[test]
fn tools_list_matches_its_snapshot_in_both_modes() -> anyhow::Result<()> {
    let vault = TestVault::new();
    for (mode, args) in [("normal", vec![]), ("read-only", vec!["--read-only"])] {
        let session = Session::start(&vault, &args)?;
        let tools = session.runtime.block_on(session.client.list_all_tools())?;
        insta::assert_json_snapshot!(format!("tools-list-{mode}"), tools);
    }
    Ok(())
}

#[test]
fn find_lists_features_then_documents_with_hashes_and_excerpts() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let session = Session::start(&vault, &[])?;
    vault_with_plan(&session)?;
    let listing = session.call("find", json!({}))?;
    assert_eq!(text(&listing), "1 row");
    let rows = structured(&listing);
    assert_eq!(rows["result"][0]["name"], "cache-layer");
    assert_eq!(
        rows["result"][0]["doc_count"], 4,
        "three documents and the generated index"
    );

    let docs = structured(&session.call(
        "find",
        json!({"feature": "cache-layer", "type": ["adr"], "body": "excerpt"}),
    )?);
    let row = &docs["result"][0];
    assert_eq!(row["name"], "2026-03-02-cache-layer-adr");
    assert_eq!(row["path"], ".vault/adr/2026-03-02-cache-layer-adr.md");
    let bytes = std::fs::read(
        vault
            .root()
            .join(".vault/adr/2026-03-02-cache-layer-adr.md"),
    )?;
    assert_eq!(row["blob_hash"], vaultspec_vault::hash::blob_oid(&bytes));
    assert!(row["body"].as_str().unwrap().starts_with("---\n"));

    let refused = session.call("find", json!({"text": "cache", "body": "full", "limit": 6}))?;
    assert_eq!(refused.is_error, Some(true));
    assert!(text(&refused).contains("limited to 5 rows; got limit=6"));
    Ok(())
}

#[test]
fn edit_replaces_a_section_and_refuses_a_stale_hash() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let session = Session::start(&vault, &[])?;
    vault_with_plan(&session)?;
    let path = ".vault/research/2026-03-01-cache-layer-eviction-research.md";
    let stale = session.call(
        "edit",
        json!({"operations": [{"target": "2026-03-01-cache-layer-eviction-research",
        "operation": "set_body", "content": "gone", "expected_blob_hash": "0".repeat(40)}]}),
    )?;
    let reply = structured(&stale);
    assert_eq!(reply["status"], "failed");
    assert_eq!(reply["items"][0]["error"]["conflict"], true);
    assert!(
        vault.read(path).unwrap().contains("Least recently used"),
        "a conflict changes nothing"
    );

    let reply = structured(&session.call("edit", json!({"operations": [
        {"target": path, "operation": "append_section", "section": "## Context", "content": "Measured on the staging cache."},
        {"target": "nope", "operation": "set_body", "content": "x"},
        {"target": path, "operation": "rewrite", "content": "x"}
    ]}))?);
    assert_eq!(reply["status"], "mixed");
    assert_eq!(reply["items"][0]["status"], "updated");
    assert!(
        vault
            .read(path)
            .unwrap()
            .contains("Measured on the staging cache.")
    );
    assert_eq!(
        reply["items"][1]["error"]["message"],
        "Cannot resolve document: 'nope'"
    );
    assert_eq!(
        reply["items"][2]["error"]["message"],
        "Unknown edit operation: rewrite"
    );

    let empty = session.call("edit", json!({"operations": []}))?;
    assert_eq!(
        text(&empty),
        "Error executing tool edit: edit requires at least one operation"
    );
    Ok(())
}

#[test]
fn plan_tools_and_log_move_a_plan_forward() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let session = Session::start(&vault, &[])?;
    vault_with_plan(&session)?;
    let added = structured(&session.call(
        "plan_edit",
        json!({"plan": "cache-layer", "operations": [
            {"operation": "add", "action": "write the cache", "scope": "src/cache.rs"},
            {"operation": "add", "action": "test eviction", "scope": "tests/cache.rs"}
        ]}),
    )?);
    assert_eq!(added["status"], "ok", "{added}");
    let first = added["items"][0]["step_id"].as_str().unwrap().to_owned();

    let progress = structured(&session.call(
        "plan_progress",
        json!({"plan": "2026-03-03-cache-layer-plan",
        "steps": [{"step_id": first, "state": "checked"}, {"step_id": "S99", "state": "checked"}]}),
    )?);
    assert_eq!(progress["status"], "mixed");
    assert_eq!(progress["steps_completed"], 1);
    assert_eq!(progress["items"][1]["status"], "failed");

    let logged = structured(&session.call(
        "log",
        json!({"feature": "cache-layer", "plan": "2026-03-03-cache-layer-plan",
        "step": first, "rows": ["A:src/cache.rs"], "verify": ["cargo test=pass"]}),
    )?);
    assert_eq!(logged["created"], true);
    let again = structured(&session.call(
        "log",
        json!({"feature": "cache-layer", "plan": "2026-03-03-cache-layer-plan",
        "step": first, "rows": ["A:src/cache.rs"], "verify": ["cargo test=pass"]}),
    )?);
    assert_eq!(again["changed"], false);
    // The plan by its feature, as `plan_edit` and `plan_progress` take it:
    // the same ledger, not a new plan.
    let by_feature = structured(&session.call(
        "log",
        json!({"feature": "cache-layer", "plan": "cache-layer",
        "step": first, "rows": ["M:src/cache.rs"]}),
    )?);
    assert_eq!(by_feature["created"], false, "{by_feature}");
    assert_eq!(by_feature["changed"], true, "{by_feature}");
    let nowhere = session.call(
        "log",
        json!({"feature": "cache-layer", "plan": "no-such-plan", "step": first}),
    )?;
    assert!(
        text(&nowhere).contains("name an existing plan")
            && !text(&nowhere).contains("create the plan"),
        "{}",
        text(&nowhere)
    );

    let bad = session.call(
        "plan_progress",
        json!({"plan": ".vault/plan/x.md", "steps": [{"step_id": "S01", "state": "checked"}]}),
    )?;
    assert_eq!(
        text(&bad),
        "Error executing tool plan_progress: MCP plan targets must be a stem or feature handle, not a path"
    );
    let missing = session.call(
        "plan_edit",
        json!({"plan": "nothing-here", "operations": [{"operation": "add"}]}),
    )?;
    assert!(
        text(&missing)
            .starts_with("Error executing tool plan_edit: Cannot resolve plan 'nothing-here'"),
        "{}",
        text(&missing)
    );

    let trace = structured(&session.call("status", json!({"target": "cache-layer"}))?);
    assert_eq!(trace["kind"], "trace");
    assert_eq!(trace["plans"][0]["closed_steps"], 1);
    let rollup = structured(&session.call("status", json!({}))?);
    assert_eq!(rollup["kind"], "rollup");
    assert_eq!(rollup["plans_in_flight"][0]["open_steps"], 1);
    assert_eq!(rollup["features"][0]["status"], "In Progress");
    let unknown = session.call("status", json!({"target": "no-such-thing"}))?;
    assert!(text(&unknown).contains("Could not resolve orientation target 'no-such-thing'"));
    Ok(())
}

#[test]
fn search_and_crossref_rank_locally() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let session = Session::start(&vault, &[])?;
    vault_with_plan(&session)?;
    let reply = structured(&session.call(
        "search",
        json!({"query": "which eviction keeps hot keys resident"}),
    )?);
    assert_eq!(reply["status"], "ok");
    assert_eq!(reply["ranking"], "local-bm25");
    let hit = &reply["hits"][0];
    assert_eq!(
        hit["path"],
        ".vault/research/2026-03-01-cache-layer-eviction-research.md"
    );
    assert!(
        hit["excerpt"]["text"]
            .as_str()
            .unwrap()
            .contains("hot keys")
    );
    assert!(hit["excerpt"]["line_start"].as_u64().unwrap() > 0);
    assert!(
        hit.get("answers").is_none(),
        "a local ranking does not claim answers"
    );

    let crossref =
        structured(&session.call("crossref", json!({"refs": ["2026-03-02-cache-layer-adr"]}))?);
    assert_eq!(crossref["judged"], 1);
    assert_eq!(crossref["sources"][0]["status"], "ok");
    let sweep = session.call("crossref", json!({}))?;
    assert!(text(&sweep).contains("name an ADR, or sweep by feature, isolation or all"));
    Ok(())
}

#[test]
fn check_reports_and_fixes() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.write(
        ".vault/research/notes.md",
        "---\ntags:\n  - research\n---\n\n# Notes\n",
    );
    let session = Session::start(&vault, &[])?;
    let report = structured(&session.call("check", json!({}))?);
    assert_eq!(report["fixed"], false);
    assert!(
        report["total_errors"].as_u64().unwrap() + report["total_warnings"].as_u64().unwrap() > 0,
        "{report}"
    );
    assert_eq!(report["checks"][0]["check"], "structure");
    let read_only = Session::start(&vault, &["--read-only"])?;
    let report = structured(&read_only.call("check", json!({"feature": "x"}))?);
    assert_eq!(report["fixed"], false);
    Ok(())
}

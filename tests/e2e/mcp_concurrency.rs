//! Two MCP servers on one vault, 32 calls at once: mutations are serialized
//! across processes, nothing is lost, every file still parses, and stale
//! blob hashes are reported as conflicts.

use std::sync::Arc;

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use vaultspec_test_support::TestVault;

use crate::mcp::Session;

fn args(value: Value) -> CallToolRequestParams {
    let Value::Object(map) = value else {
        unreachable!()
    };
    CallToolRequestParams::new("x").with_arguments(map)
}

#[test]
fn concurrent_edits_and_step_checks_from_two_servers_lose_nothing() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let setup = Session::start(&vault, &[])?;
    let mut documents = vec![json!({"feature": "race", "type": "plan", "date": "2026-03-01"})];
    for i in 0..8 {
        documents.push(json!({"feature": "race", "type": "research", "topic": format!("note-{i}"), "date": "2026-03-02"}));
    }
    setup.call("create", json!({"documents": documents}))?;
    let steps: Vec<Value> = (0..16)
        .map(|i| json!({"operation": "add", "action": format!("step {i}"), "scope": "src/x.rs"}))
        .collect();
    setup.call("plan_edit", json!({"plan": "race", "operations": steps}))?;
    drop(setup);

    let first = Arc::new(Session::start(&vault, &[])?);
    let second = Arc::new(Session::start(&vault, &[])?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let results: Vec<(String, Value)> = runtime.block_on(async {
        let mut tasks = Vec::new();
        for i in 0..32usize {
            let session = if i % 2 == 0 {
                first.clone()
            } else {
                second.clone()
            };
            tasks.push(tokio::spawn(async move {
                let (tool, arguments) = if i < 16 {
                    let step = format!("S{:02}", i + 1);
                    (
                        "plan_progress",
                        json!({"plan": "race", "steps": [{"step_id": step, "state": "checked"}]}),
                    )
                } else {
                    let note = format!("2026-03-02-race-note-{}-research", i % 8);
                    (
                        "edit",
                        json!({"operations": [{"target": note, "operation": "append_section",
                        "section": "## Findings", "content": format!("finding {i}")}]}),
                    )
                };
                let mut params = args(arguments);
                params.name = tool.into();
                let result = session
                    .client
                    .call_tool(params)
                    .await
                    .expect("the call completes");
                (
                    tool.to_owned(),
                    result.structured_content.unwrap_or(Value::Null),
                )
            }));
        }
        let mut out = Vec::new();
        for task in tasks {
            out.push(task.await.unwrap());
        }
        out
    });
    for (tool, reply) in &results {
        assert_ne!(reply["status"], "failed", "{tool}: {reply}");
    }
    // Every step checked: no plan_progress overwrote another's write.
    let plan = std::fs::read_to_string(vault.root().join(".vault/plan/2026-03-01-race-plan.md"))?;
    assert_eq!(plan.matches("- [x]").count(), 16, "{plan}");
    assert!(!plan.contains("- [ ]"));
    // Every appended finding is present exactly once.
    for i in 16..32 {
        let path = vault.root().join(format!(
            ".vault/research/2026-03-02-race-note-{}-research.md",
            i % 8
        ));
        let text = std::fs::read_to_string(path)?;
        assert_eq!(
            text.matches(&format!("finding {i}\n")).count(),
            1,
            "finding {i} lost"
        );
    }
    // The files still parse and check clean of errors.
    let check = first.call("check", json!({}))?;
    assert_eq!(check.structured_content.unwrap()["total_errors"], 0);

    // A stale hash from before another server's write is a conflict.
    let path = ".vault/research/2026-03-02-race-note-0-research.md";
    let stale = vaultspec_vault::hash::blob_oid(b"not the current bytes");
    let reply = second.call(
        "edit",
        json!({"operations": [{"target": path, "operation": "set_body",
        "content": "x", "expected_blob_hash": stale}]}),
    )?;
    let reply = reply.structured_content.unwrap();
    assert_eq!(reply["items"][0]["error"]["conflict"], true);
    assert!(vault.read(path).unwrap().contains("finding 16"));
    Ok(())
}

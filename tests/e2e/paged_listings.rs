//! Listings page their JSON like `vaultspec-core` 0.3.9: 50 rows unless
//! `--limit` says otherwise, with `returned`, `total`, `truncated` and
//! `next_offset`, so a listing of a large vault fits a caller's output budget.

use std::process::Output;

use serde_json::{Value, json};
use vaultspec_host::gateway::invoke::{Request, Runners, invoke};
use vaultspec_host::workspace::Workspace;
use vaultspec_test_support::TestVault;

use crate::support::sandbox;

use crate::binary::vaultspec;

fn data(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let envelope: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    envelope["data"].clone()
}

/// A vault of `n` research notes over `n / 10 + 1` features.
fn vault_of(n: usize) -> TestVault {
    let vault = TestVault::new();
    for i in 0..n {
        let feature = format!("feature-{:03}", i / 10);
        vault.doc(
            "research",
            "2026-03-01",
            &feature,
            Some(&format!("note-{i:05}")),
        );
    }
    vault
}

fn window(data: &Value) -> Value {
    json!({
        "returned": data["returned"],
        "total": data["total"],
        "truncated": data["truncated"],
        "offset": data.get("offset"),
        "next_offset": data.get("next_offset"),
    })
}

#[test]
fn vault_list_json_pages_fifty_by_default_and_every_page_can_be_reached() {
    let vault = vault_of(120);
    let first = data(&vaultspec(&vault, &["vault", "list", "--json"]));
    assert_eq!(first["documents"].as_array().unwrap().len(), 50);
    assert_eq!(
        window(&first),
        json!({"returned": 50, "total": 120, "truncated": true, "offset": null, "next_offset": 50})
    );
    let mut seen: Vec<String> = Vec::new();
    let mut offset = Some(0);
    while let Some(at) = offset {
        let page = data(&vaultspec(
            &vault,
            &["vault", "list", "--json", "--offset", &at.to_string()],
        ));
        for doc in page["documents"].as_array().unwrap() {
            seen.push(doc["path"].as_str().unwrap().to_string());
        }
        offset = page.get("next_offset").and_then(Value::as_u64);
    }
    let mut unique = seen.clone();
    unique.dedup();
    assert_eq!((seen.len(), unique.len()), (120, 120));
    let last = data(&vaultspec(
        &vault,
        &[
            "vault", "list", "--json", "--limit", "30", "--offset", "100",
        ],
    ));
    assert_eq!(
        window(&last),
        json!({"returned": 20, "total": 120, "truncated": false, "offset": 100, "next_offset": null})
    );
    // Text still lists every document unless a page is asked for.
    let text = vaultspec(&vault, &["vault", "list"]);
    assert_eq!(
        String::from_utf8_lossy(&text.stdout)
            .lines()
            .filter(|l| l.contains("-research.md"))
            .count(),
        120
    );
}

#[test]
fn vault_feature_list_json_pages_fifty_by_default() {
    let vault = vault_of(600);
    let first = data(&vaultspec(&vault, &["vault", "feature", "list", "--json"]));
    assert_eq!(first["features"].as_array().unwrap().len(), 50);
    assert_eq!(
        window(&first),
        json!({"returned": 50, "total": 60, "truncated": true, "offset": null, "next_offset": 50})
    );
}

#[test]
fn invoke_of_vault_list_answers_on_a_ten_thousand_document_vault() -> anyhow::Result<()> {
    let vault = vault_of(10_000);
    let catalog = vaultspec_host::builtins::catalog()?;
    let workspace = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let request = Request {
        verb: "vault list".into(),
        timeout: Some(120.0),
        ..Request::default()
    };
    let reply = runtime
        .block_on(invoke(
            &catalog,
            Runners::components(sandbox()),
            &workspace,
            &request,
        ))
        .map_err(anyhow::Error::msg)?;
    let shown: String = reply.to_string().chars().take(500).collect();
    assert_eq!(reply["ok"], true, "{shown}");
    let listed = &reply["data"]["data"];
    assert_eq!(
        window(listed),
        json!({"returned": 50, "total": 10_000, "truncated": true, "offset": null, "next_offset": 50})
    );
    Ok(())
}

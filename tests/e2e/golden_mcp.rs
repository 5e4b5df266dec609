//! The MCP golden vectors (95–99) run through our server: the same files
//! afterwards, and the same reply fields.

use serde_json::Value;
use vaultspec_test_support::TestVault;
use vaultspec_test_support::contract::Contract;
use vaultspec_test_support::golden::{self, GENERATION_DAY};

use crate::mcp::Session;

fn run_vector(name: &str) -> anyhow::Result<()> {
    let vector = golden::dir().join(name);
    let vault = TestVault::new();
    golden::copy_tree(&vector.join("before"), vault.root());
    let root = vault.root().display().to_string();
    let expected: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(vector.join("stdout.json"))?)?;
    let session = Session::start(&vault, &[])?;
    let hashes = golden::today() == GENERATION_DAY;
    let mut diffs = Vec::new();
    for (i, line) in std::fs::read_to_string(vector.join("command.txt"))?
        .lines()
        .enumerate()
    {
        let call: Value = serde_json::from_str(line)?;
        let result = session.call(call["tool"].as_str().unwrap(), call["arguments"].clone())?;
        let actual = serde_json::to_value(&result)?;
        let text = serde_json::to_string(&expected[i])?.replace("<ROOT>", &root);
        let want: Value = serde_json::from_str(&text)?;
        // Blob hashes hash dated bytes: they agree only on the vectors' day.
        let contract = Contract {
            wording: if hashes {
                &["message"]
            } else {
                &["message", "blob_hash"]
            },
            roots: (&root, &root),
            string_sets: false,
        };
        for key in ["structuredContent", "isError"] {
            diffs.extend(contract.diff(&want[key], &actual[key], &format!("reply {i} {key}")));
        }
        let summary = |v: &Value| v["content"][0]["text"].clone();
        if want["isError"] == Value::Bool(false) && summary(&want) != summary(&actual) {
            diffs.push(format!(
                "reply {i} summary: expected {}, got {}",
                summary(&want),
                summary(&actual)
            ));
        }
    }
    diffs.extend(golden::compare_vault(&vector, vault.root()));
    anyhow::ensure!(diffs.is_empty(), "{name}:\n{}", diffs.join("\n"));
    Ok(())
}

#[test]
fn mcp_create_matches_the_reference() -> anyhow::Result<()> {
    run_vector("95-mcp-create")
}

#[test]
fn mcp_edit_with_a_stale_hash_matches_the_reference() -> anyhow::Result<()> {
    run_vector("96-mcp-edit-conflict")
}

#[test]
fn mcp_plan_progress_matches_the_reference() -> anyhow::Result<()> {
    run_vector("97-mcp-plan-progress")
}

#[test]
fn mcp_plan_edit_matches_the_reference() -> anyhow::Result<()> {
    run_vector("98-mcp-plan-edit")
}

#[test]
fn mcp_log_matches_the_reference() -> anyhow::Result<()> {
    run_vector("99-mcp-log")
}

//! `status --json` and the MCP `status` tool agree with `vaultspec-core`
//! 0.3.9 field for field on `tests/fixtures/status-rollup/`: a vault with a
//! feature index, a stem two types share, a plan in flight per tier, a
//! completed plan and a ledger. `reference-status.json` (the `data` of the
//! reference's `status --json`) and `reference-mcp-status.json` (its MCP
//! `status` structured result) were recorded by running the reference on a
//! copy of that vault, as was `reference-trace.json` (the `data` of
//! `status 2026-03-01-alpha-plan --json --paths`); the reference is not
//! needed to run these tests.
//!
//! One key is ours alone: `stale`, present only where a document is older
//! than a change to one it was written from. Two of the fixture's plans
//! are, by their `modified:` dates; the section is checked on its own and
//! set aside before the comparison.

use std::path::Path;

use serde_json::{Value, json};
use vaultspec_test_support::{TestVault, golden};

use crate::binary::{text, vaultspec};
use crate::mcp::Session;

fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/status-rollup")
}

fn vault() -> TestVault {
    let vault = TestVault::new();
    golden::copy_tree(&fixture().join(".vault"), &vault.root().join(".vault"));
    vault
}

/// `value` without its `stale` section, which must name the fixture's two
/// plans that are older than what they were written from.
fn without_stale(mut value: Value) -> Value {
    let stale = value
        .as_object_mut()
        .unwrap()
        .remove("stale")
        .expect("a stale section");
    let pairs: Vec<(&str, &str)> = stale["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["document"].as_str().unwrap(),
                l["upstream"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [
            (
                ".vault/plan/2026-02-01-beta-plan.md",
                ".vault/adr/2026-03-02-beta-adr.md"
            ),
            (
                ".vault/plan/2026-03-01-alpha-plan.md",
                ".vault/research/2026-03-01-alpha-research.md"
            ),
        ]
    );
    assert_eq!(stale["dated_by"], "dates");
    value
}

fn recorded(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture().join(name)).unwrap()).unwrap()
}

/// Every path where `ours` differs from `theirs`, keys and order of arrays
/// included.
fn differences(ours: &Value, theirs: &Value, at: &str, out: &mut Vec<String>) {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            for key in a.keys().chain(b.keys()) {
                let here = format!("{at}.{key}");
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => differences(x, y, &here, out),
                    (Some(_), None) => out.push(format!("{here}: only ours has it")),
                    (None, _) => out.push(format!("{here}: missing")),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                differences(x, y, &format!("{at}[{i}]"), out);
            }
        }
        _ if ours != theirs => out.push(format!("{at}: ours {ours}, reference {theirs}")),
        _ => {}
    }
}

#[test]
fn status_json_is_the_references_field_for_field() {
    let vault = vault();
    let out = vaultspec(&vault, &["status", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ours: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(ours["schema"], "vaultspec.vault.status.v1");
    let mut diffs = Vec::new();
    differences(
        &without_stale(ours["data"].clone()),
        &recorded("reference-status.json"),
        "data",
        &mut diffs,
    );
    diffs.dedup();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    // The same two next steps, in our words.
    let steps = ours["hints"]["next_steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2, "{ours}");
    // Types come in the order of their newest document, as the reference's.
    let types: Vec<&String> = ours["data"]["recent_documents"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(types, ["research", "plan", "reference", "adr"]);
}

#[test]
fn a_status_trace_is_the_references_field_for_field() {
    let vault = vault();
    let out = vaultspec(
        &vault,
        &["status", "2026-03-01-alpha-plan", "--json", "--paths"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ours: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut diffs = Vec::new();
    differences(
        &ours["data"],
        &recorded("reference-trace.json"),
        "data",
        &mut diffs,
    );
    diffs.dedup();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

#[test]
fn the_mcp_status_tool_is_the_references_field_for_field() -> anyhow::Result<()> {
    let vault = vault();
    let session = Session::start(&vault, &[])?;
    let result = session.call("status", json!({}))?;
    let ours = without_stale(result.structured_content.expect("a structured result"));
    let mut diffs = Vec::new();
    differences(
        &ours,
        &recorded("reference-mcp-status.json"),
        "",
        &mut diffs,
    );
    diffs.dedup();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    Ok(())
}

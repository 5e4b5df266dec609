//! The framework through the gateway: `discover` finds the `spec` verbs by
//! what people ask, `invoke` lists, adds and syncs rules through the
//! builtin component's `framework-write`, and runs the host's read-only
//! `spec doctor` and `spec mcps status`; file imports and the editor stay
//! at the terminal.

use serde_json::{Value, json};
use vaultspec_test_support::TestVault;

use crate::mcp::{Session, text};

/// A workspace set up for Claude (no MCP enrollment), and a server on it.
fn served() -> anyhow::Result<(TestVault, Session)> {
    let vault = TestVault::new();
    let home = tempfile::tempdir()?;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_vaultspec"))
        .arg("--target")
        .arg(vault.root())
        .args(["install", "claude", "--skip", "mcp"])
        .env("HOME", home.path())
        .output()?;
    anyhow::ensure!(out.status.success(), "{out:?}");
    let session = Session::start(&vault, &[])?;
    Ok((vault, session))
}

fn invoke(session: &Session, arguments: Value) -> anyhow::Result<(bool, Value)> {
    let result = session.call("invoke", arguments)?;
    let refused = result.is_error == Some(true);
    let reply = if refused {
        json!(text(&result))
    } else {
        result.structured_content.expect("an invoke reply")
    };
    Ok((refused, reply))
}

/// What a verb printed, whether it succeeded (its parsed envelope) or
/// exited non-zero (its stdout).
fn printed(reply: &Value) -> String {
    reply["stdout"]
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| reply["data"].to_string())
}

fn discover(session: &Session, arguments: Value) -> anyhow::Result<Value> {
    let result = session.call("discover", arguments)?;
    Ok(result.structured_content.expect("a discover reply"))
}

#[test]
fn discover_finds_the_rules_listing_by_what_a_person_asks() -> anyhow::Result<()> {
    let (_vault, session) = served()?;
    let found = discover(
        &session,
        json!({"query": "which rules do agents follow", "limit": 3}),
    )?;
    assert_eq!(found["verbs"][0]["verb"], "spec rules list", "{found:#}");
    assert_eq!(found["verbs"][0]["read_only"], true);
    let found = discover(&session, json!({"query": "diagnose the agent setup"}))?;
    let doctor = found["verbs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["verb"] == "spec doctor")
        .expect("spec doctor is found");
    assert_eq!(doctor["read_only"], true);
    Ok(())
}

#[test]
fn invoke_lists_adds_and_syncs_a_rule_and_runs_the_doctor() -> anyhow::Result<()> {
    let (vault, session) = served()?;

    let (refused, listed) = invoke(&session, json!({"verb": "spec rules list"}))?;
    assert!(!refused && listed["ok"] == true, "{listed:#}");
    let names: Vec<&str> = listed["data"]["data"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["name"].as_str())
        .collect();
    assert!(names.contains(&"vaultspec.builtin"), "{names:?}");

    let (_, added) = invoke(
        &session,
        json!({"verb": "spec rules add", "positionals": ["team-style"],
               "arguments": {"body": "Write short sentences."}}),
    )?;
    assert_eq!(added["ok"], true, "{added:#}");
    assert!(vault.read(".vaultspec/rules/team-style.md").is_some());

    let (_, synced) = invoke(&session, json!({"verb": "spec rules sync"}))?;
    assert_eq!(synced["ok"], true, "{synced:#}");
    assert_eq!(synced["read_only"], false);
    let rendered = vault
        .read(".claude/rules/team-style.md")
        .expect("the rule reached Claude's folder");
    assert!(rendered.contains("Write short sentences."));
    let changed: Vec<&str> = synced["changed"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        changed.contains(&".claude/rules/team-style.md"),
        "{changed:?}"
    );

    let (refused, doctor) = invoke(&session, json!({"verb": "spec doctor"}))?;
    assert!(!refused, "{doctor}");
    assert!(
        printed(&doctor).contains("vaultspec.spec.doctor.v1"),
        "{doctor:#}"
    );
    assert_eq!(doctor["read_only"], true);

    // The root doctor nests the host's report there too.
    let (refused, root) = invoke(&session, json!({"verb": "doctor"}))?;
    assert!(!refused, "{root}");
    let nested = printed(&root);
    assert!(
        nested.contains("\"provider_hooks\"") && nested.contains("\"gitignore\""),
        "{root:#}"
    );

    let (refused, status) = invoke(&session, json!({"verb": "spec mcps status"}))?;
    assert!(!refused, "{status}");
    assert!(
        printed(&status).contains("vaultspec.spec.mcps.status.v1"),
        "{status:#}"
    );
    Ok(())
}

#[test]
fn file_imports_the_editor_and_setup_stay_at_the_terminal() -> anyhow::Result<()> {
    let (vault, session) = served()?;
    let (refused, reply) = invoke(
        &session,
        json!({"verb": "spec rules add", "positionals": ["x"],
               "arguments": {"from_file": "/etc/passwd"}}),
    )?;
    assert!(refused, "{reply}");
    assert!(reply.as_str().unwrap().contains("--from-file"), "{reply}");
    let (refused, reply) = invoke(
        &session,
        json!({"verb": "spec rules edit", "positionals": ["vaultspec.builtin"]}),
    )?;
    assert!(
        refused && reply.as_str().unwrap().contains("unknown verb"),
        "{reply}"
    );
    let (refused, reply) = invoke(&session, json!({"verb": "sync"}))?;
    assert!(
        refused && reply.as_str().unwrap().contains("denylisted"),
        "{reply}"
    );
    assert!(vault.read(".vaultspec/rules/x.md").is_none());
    Ok(())
}

//! `discover` and `invoke`: ranking, every refusal before a verb runs, and
//! the folding of what a verb did into the reply.

use std::sync::Arc;

use serde_json::{Map, Value, json};
use vaultspec_host::catalog::Catalog;
use vaultspec_host::gateway::invoke::{Request, Runners, invoke};
use vaultspec_host::workspace::Workspace;
use vaultspec_test_support::{TestVault, guests};

use crate::mcp::{Session, text};
use crate::support::{load, sandbox};

fn request(verb: &str, arguments: Value, positionals: &[&str], timeout: Option<f64>) -> Request {
    Request {
        verb: verb.to_owned(),
        arguments: arguments.as_object().cloned().unwrap_or_else(Map::new),
        positionals: positionals.iter().map(|s| s.to_string()).collect(),
        timeout,
        began: None,
    }
}

/// A catalog holding the hostile probe guest, run in-process.
fn probe_catalog() -> anyhow::Result<Catalog> {
    let mut catalog = Catalog::new();
    catalog.add(load(guests::PROBE)?)?;
    catalog.add(load(guests::ECHO)?)?;
    Ok(catalog)
}

fn run(
    catalog: &Catalog,
    vault: &TestVault,
    req: &Request,
) -> anyhow::Result<Result<Value, String>> {
    let workspace = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(runtime.block_on(invoke(
        catalog,
        Runners::components(sandbox()),
        &workspace,
        req,
    )))
}

#[test]
fn a_flooding_verb_is_stopped_at_the_output_limit() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let catalog = probe_catalog()?;
    let reply = run(
        &catalog,
        &vault,
        &request("probe flood", json!({}), &[], None),
    )?
    .unwrap();
    assert_eq!(reply["ok"], false);
    assert_eq!(reply["exit_code"], -1);
    assert_eq!(reply["error"]["kind"], "output_limit");
    assert!(
        reply.get("stdout").is_none(),
        "no partial output is returned"
    );
    Ok(())
}

#[test]
fn a_verb_that_runs_too_long_times_out() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let catalog = probe_catalog()?;
    let reply = run(
        &catalog,
        &vault,
        &request("probe spin", json!({}), &[], Some(0.3)),
    )?
    .unwrap();
    assert_eq!(reply["error"]["kind"], "timeout");
    assert_eq!(
        reply["error"]["message"],
        "verb timed out after 0.3 seconds"
    );
    Ok(())
}

#[test]
fn values_are_rendered_one_item_each_and_reach_the_verb() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let catalog = probe_catalog()?;
    let args = json!({"times": 2, "--word": ["a b", "c"], "mood": "calm", "shout": false});
    let reply = run(
        &catalog,
        &vault,
        &request("echo say", args, &["one", ""], None),
    )?
    .unwrap();
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(reply["format"], "json");
    assert_eq!(reply["data"]["data"]["words"], json!(["a b", "c"]));
    assert_eq!(
        reply["data"]["data"]["env"],
        json!(["VAULTSPEC_MCP_GATEWAY_INVOCATION=1"])
    );
    let command: Vec<String> = serde_json::from_value(reply["command"].clone())?;
    let root = vault.root().display().to_string();
    assert_eq!(
        command,
        [
            "vaultspec",
            "--target",
            root.as_str(),
            "echo",
            "say",
            "one",
            "",
            "--times",
            "2",
            "--word",
            "a b",
            "--word",
            "c",
            "--mood",
            "calm",
            "--json"
        ]
    );
    Ok(())
}

#[test]
fn a_nonzero_exit_and_what_was_written_are_reported() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let catalog = probe_catalog()?;
    let reply = run(
        &catalog,
        &vault,
        &request("probe read", json!({}), &[".vault/none.md"], None),
    )?
    .unwrap();
    assert_eq!(reply["error"]["kind"], "nonzero_exit");
    assert_eq!(reply["error"]["message"], "verb exited with status 1");
    assert!(reply["stdout"].as_str().unwrap().contains("does not exist"));
    let reply = run(
        &catalog,
        &vault,
        &request("probe write", json!({}), &[".vault/a.md", "x"], None),
    )?
    .unwrap();
    assert_eq!(reply["changed"], json!([".vault/a.md"]));
    assert_eq!(reply["read_only"], false, "the probe imports write access");
    Ok(())
}

#[test]
fn every_refusal_names_its_culprit_before_anything_runs() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let catalog = probe_catalog()?;
    let cases = [
        (
            request("echo say", json!({}), &["x"], Some(0.0)),
            "timeout must be finite and greater than zero",
        ),
        (
            request("vault feature index", json!({}), &[], None),
            "is out of scope for the gateway (denylisted)",
        ),
        (
            request("echo", json!({}), &[], None),
            "unknown verb 'echo'; use discover",
        ),
        (
            request("echo say", json!({"json": true}), &["x"], None),
            "maps to reserved flag '--json'",
        ),
        (
            request("echo say", json!({"target": "/"}), &["x"], None),
            "maps to reserved flag '--target'",
        ),
        (
            request("echo say", json!({"body_file": "x"}), &["x"], None),
            "flag '--body-file' is not available through the gateway",
        ),
        (
            request("echo say", json!({"wrod": ["x"]}), &["x"], None),
            "unknown flag '--wrod' for this verb (did you mean `--word`?)",
        ),
        (
            request("echo say", json!({"times": "many"}), &["x"], None),
            "`--times` does not accept `many`",
        ),
        (
            request("echo say", json!({"mood": "angry"}), &["x"], None),
            "one of calm, loud",
        ),
        (
            request("echo say", json!({"word": {"a": 1}}), &["x"], None),
            "argument 'word' must be a string",
        ),
        (
            request("echo say", json!({}), &["--flag"], None),
            "positional '--flag' begins with '-'",
        ),
        (
            request("echo say", json!({}), &[], None),
            "needs the operand `FIRST`",
        ),
        (
            request("noop", json!({}), &["extra"], None),
            "takes no operands",
        ),
    ];
    for (req, expected) in cases {
        let refusal = run(&catalog, &vault, &req)?.expect_err(expected);
        assert!(
            refusal.contains(expected),
            "{expected:?} not in {refusal:?}"
        );
    }
    Ok(())
}

#[test]
fn concurrent_invokes_that_write_lose_nothing() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let catalog = Arc::new(probe_catalog()?);
    let workspace = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let replies: Vec<Value> = runtime.block_on(async {
        let mut tasks = Vec::new();
        for i in 0..16 {
            let (catalog, workspace) = (catalog.clone(), workspace.clone());
            tasks.push(tokio::spawn(async move {
                let req = request(
                    "probe write",
                    json!({}),
                    &[&format!(".vault/n/{i}.md"), &format!("note {i}")],
                    None,
                );
                invoke(&catalog, Runners::components(sandbox()), &workspace, &req).await
            }));
        }
        let mut replies = Vec::new();
        for task in tasks {
            replies.push(task.await.unwrap().unwrap());
        }
        replies
    });
    assert!(replies.iter().all(|r| r["ok"] == true));
    for i in 0..16 {
        assert_eq!(
            vault.read(&format!(".vault/n/{i}.md")).as_deref(),
            Some(format!("note {i}").as_str())
        );
    }
    Ok(())
}

#[test]
fn discover_and_invoke_answer_over_mcp() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    let session = Session::start(&vault, &[])?;
    let found = session.call("discover", json!({"query": "list the documents"}))?;
    let reply = found.structured_content.clone().unwrap();
    assert_eq!(reply["verbs"][0]["verb"], "vault list", "{reply}");
    let flags: Vec<&str> = reply["verbs"][0]["flags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert!(
        !flags.contains(&"--json") && !flags.contains(&"--target") && !flags.contains(&"--help")
    );
    let bad = session.call("discover", json!({"query": "x", "limit": -1}))?;
    assert_eq!(bad.is_error, Some(true));
    // A verb says whether its component can write at all.
    assert_eq!(reply["verbs"][0]["read_only"], true, "{reply}");
    let add = session.call("discover", json!({"query": "add a research note"}))?;
    let add = add.structured_content.unwrap();
    let entry = add["verbs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["verb"] == "vault add")
        .unwrap_or_else(|| panic!("vault add is found: {add}"));
    assert_eq!(entry["read_only"], false);

    let listed = session.call(
        "invoke",
        json!({"verb": "  vault   list ", "arguments": {"feature": "cache-layer"}}),
    )?;
    assert_eq!(text(&listed), "vault list: ok");
    let reply = listed.structured_content.clone().unwrap();
    assert_eq!(reply["verb"], "vault list");
    assert_eq!(
        reply["read_only"], true,
        "vault list's component cannot write"
    );
    assert_eq!(reply["data"]["schema"], "vaultspec.vault.list.v2");
    let refused = session.call("invoke", json!({"verb": "vault plan"}))?;
    assert!(text(&refused).starts_with("Error executing tool invoke: unknown verb 'vault plan'"));
    let read_only = Session::start(&vault, &["--read-only"])?;
    assert_eq!(
        text(&read_only.call("invoke", json!({"verb": "vault list"}))?),
        "Unknown tool: invoke"
    );
    Ok(())
}

#[test]
fn a_spinning_verb_leaves_the_runtime_free_for_other_work() -> anyhow::Result<()> {
    // One thread for everything, as a busy server's workers would be: a
    // verb that computes without pause must hand it back while it runs,
    // or nothing else is served until its deadline stops it.
    let vault = TestVault::new();
    let catalog = probe_catalog()?;
    let workspace = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // Compiled before the clock starts (a compile holds the thread).
    let warm = request("probe spin", json!({}), &[], Some(0.05));
    let _ = runtime.block_on(invoke(
        &catalog,
        Runners::components(sandbox()),
        &workspace,
        &warm,
    ));
    let start = std::time::Instant::now();
    let spin = request("probe spin", json!({}), &[], Some(2.0));
    let (reply, other_work_done) = runtime.block_on(async {
        tokio::join!(
            invoke(&catalog, Runners::components(sandbox()), &workspace, &spin),
            async {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                start.elapsed()
            }
        )
    });
    assert_eq!(reply.unwrap()["error"]["kind"], "timeout");
    assert!(
        other_work_done < std::time::Duration::from_millis(1500),
        "a 50 ms timer fired only after {other_work_done:?}, when the verb was stopped"
    );
    Ok(())
}

/// How many `invoke` calls the server's log says it answered from a kept
/// reply.
fn given_from_kept(log: &std::path::Path) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|line| line.contains("an invoke reply is kept") && line.contains("holds=true"))
        .count()
}

#[test]
fn a_read_verb_is_answered_again_from_its_kept_reply_until_what_it_read_changes()
-> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.doc("adr", "2026-01-01", "alpha", None);
    vault.doc("plan", "2026-01-02", "alpha", None);
    // Nothing the verbs read may have changed within the racy window.
    std::thread::sleep(std::time::Duration::from_millis(3100));
    let log = tempfile::NamedTempFile::new()?;
    let session = Session::start_logging(&vault, &[], "debug", log.reopen()?)?;
    let ask = |verb: &str| -> anyhow::Result<Value> {
        let result = session.call("invoke", json!({"verb": verb}))?;
        Ok(result.structured_content.unwrap_or_default())
    };
    // Its findings make it exit 1: that is an answer like any other.
    let first = ask("vault check all")?;
    assert_eq!(first["exit_code"], 1, "{first}");
    assert_eq!(given_from_kept(log.path()), 0);
    assert_eq!(ask("vault check all")?, first, "asked again");
    assert_eq!(given_from_kept(log.path()), 1, "the second call was kept");

    // A document changes: the vault is a new state, the verb runs again.
    let adr = vault.doc("adr", "2026-01-03", "alpha", Some("second"));
    let after_edit = ask("vault check all")?;
    assert_ne!(after_edit, first);
    assert_eq!(given_from_kept(log.path()), 1);

    // A file outside `.vault/` that a verb read is as much a part of its
    // reply: `check code-boundary` lists the whole workspace for source
    // files naming documents.
    std::thread::sleep(std::time::Duration::from_millis(3100));
    let settled = ask("vault check code-boundary")?;
    assert_eq!(ask("vault check code-boundary")?, settled);
    assert_eq!(given_from_kept(log.path()), 2);
    let stem = adr.rsplit('/').next().unwrap().trim_end_matches(".md");
    vault.write("src/lib.rs", &format!("// see {stem}\n"));
    let fresh = Session::start(&vault, &[])?
        .call("invoke", json!({"verb": "vault check code-boundary"}))?
        .structured_content;
    let after = ask("vault check code-boundary")?;
    assert_ne!(after, settled, "the new source file is reported");
    assert_eq!(Some(after), fresh, "as a new server answers");
    assert_eq!(given_from_kept(log.path()), 2, "the listed folder changed");

    // Under `--no-cache` every call runs its verb.
    let log = tempfile::NamedTempFile::new()?;
    let session = Session::start_logging(&vault, &["--no-cache"], "debug", log.reopen()?)?;
    for _ in 0..2 {
        session.call("invoke", json!({"verb": "vault list"}))?;
    }
    assert_eq!(given_from_kept(log.path()), 0);
    Ok(())
}

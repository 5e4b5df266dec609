//! Stale documents where an agent looks first: a `stale` section in
//! `status` (the CLI verb, which reads the history through the host's
//! `vault-history` interface, and the MCP tool) and a `stale` flag on
//! `find` rows, present only when something is stale. A commit that
//! changes no file under `.vault/` can still change what is stale, and no
//! kept answer (the CLI's cache, the server's kept replies, a kept
//! `invoke`) may hide it.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};
use vaultspec_test_support::TestVault;

use crate::binary::envelope;
use crate::mcp::Session;

const PLAN: &str = ".vault/plan/2026-01-01-auth-plan.md";

fn git(root: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(root)
        .env("GIT_AUTHOR_DATE", "2026-01-05T12:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-05T12:00:00Z")
        .env_remove("GIT_DIR")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}");
}

/// Set a file's modification time `secs` seconds before now.
fn age(vault: &TestVault, path: &str, secs: u64) {
    let file = std::fs::File::options()
        .write(true)
        .open(vault.root().join(path))
        .unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(secs))
        .unwrap();
}

/// A repository whose plan links an ADR, both committed; then the plan
/// edited, and the ADR edited after it, neither committed: the ADR is
/// stale for the plan until both are committed together.
fn edited_out_of_order() -> (TestVault, String) {
    let vault = TestVault::new();
    git(vault.root(), &["init", "-q"]);
    let adr = vault.doc("adr", "2026-01-01", "auth", None);
    let stem = adr.rsplit('/').next().unwrap().trim_end_matches(".md");
    vault.write(
        PLAN,
        &format!(
            "---\ntags:\n  - '#plan'\n  - '#auth'\ndate: '2026-01-01'\nmodified: '2026-01-01'\nrelated:\n  - '[[{stem}]]'\n---\n\n# `auth` plan\n\nWords.\n"
        ),
    );
    git(vault.root(), &["add", "-A"]);
    git(vault.root(), &["commit", "-q", "-m", "first"]);
    for (path, line, secs) in [(PLAN, "Plan edited.", 600), (&*adr, "ADR amended.", 300)] {
        let text = vault.read(path).unwrap();
        vault.write(path, &format!("{text}\n{line}\n"));
        age(&vault, path, secs);
    }
    (vault, adr)
}

fn stale_links(data: &Value) -> Vec<(String, String)> {
    data["stale"]["links"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| {
            (
                l["document"].as_str().unwrap().to_owned(),
                l["upstream"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_cli_status_lists_stale_links_until_a_commit_settles_them() {
    let (vault, adr) = edited_out_of_order();
    for _ in 0..2 {
        // The second run may be answered from the CLI's cache.
        let (code, json) = envelope(&vault, &["status"]);
        assert_eq!(code, 0, "{json}");
        let data = &json["data"];
        assert_eq!(
            stale_links(data),
            [(PLAN.to_owned(), adr.clone())],
            "{data}"
        );
        assert_eq!(data["stale"]["dated_by"], "git");
        assert_eq!(data["stale"]["total"], 1);
        assert_eq!(
            data["stale"]["links"][0]["upstream_changed"]["by"],
            "uncommitted"
        );
    }
    let out = crate::binary::vaultspec(&vault, &["status"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Behind what they were written from"),
        "{text}"
    );

    // One commit of both: same commit time, nothing stale, and no file
    // under `.vault/` changed on the way.
    git(vault.root(), &["commit", "-q", "-a", "-m", "both"]);
    let (_, json) = envelope(&vault, &["status"]);
    assert!(json["data"].get("stale").is_none(), "{json}");
}

#[test]
fn the_mcp_status_find_and_a_kept_invoke_see_a_commit_behind_the_servers_back() {
    let (vault, adr) = edited_out_of_order();
    let session = Session::start(&vault, &[]).unwrap();
    let status = || {
        session
            .call("status", json!({}))
            .unwrap()
            .structured_content
            .unwrap()
    };
    let find = || {
        session
            .call("find", json!({"feature": "auth"}))
            .unwrap()
            .structured_content
            .unwrap()
    };
    let invoked = || {
        let reply = session
            .call("invoke", json!({"verb": "status"}))
            .unwrap()
            .structured_content
            .unwrap();
        reply["data"]["data"].clone()
    };
    let flagged = |found: &Value| -> Vec<String> {
        found["result"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["stale"] == true)
            .map(|r| r["path"].as_str().unwrap().to_owned())
            .collect()
    };
    for _ in 0..2 {
        assert_eq!(stale_links(&status()), [(PLAN.to_owned(), adr.clone())]);
        assert_eq!(flagged(&find()), [PLAN]);
        assert_eq!(stale_links(&invoked()), [(PLAN.to_owned(), adr.clone())]);
    }
    // The ADR row carries no `stale` key at all.
    let rows = find();
    let adr_row = rows["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["path"] == adr.as_str())
        .cloned()
        .unwrap();
    assert!(adr_row.get("stale").is_none(), "{adr_row}");

    git(vault.root(), &["commit", "-q", "-a", "-m", "both"]);
    assert!(status().get("stale").is_none());
    assert!(flagged(&find()).is_empty());
    assert!(invoked().get("stale").is_none());
}

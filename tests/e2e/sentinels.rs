//! The reference's lock sentinels (`spec/gateway.md` §9): a write of ours
//! waits while another process (a Python `vaultspec-core`) holds the
//! sentinel of the document it is about to change.

use std::time::{Duration, Instant};

use serde_json::json;
use vaultspec_host::sentinel;
use vaultspec_test_support::TestVault;

use crate::mcp::{Session, text};

const PLAN: &str = ".vault/plan/2026-03-11-long-work-plan.md";

/// Lock `sentinel` as the reference does (`flock` on a file left on disk).
fn hold(vault: &TestVault, sentinel: &str) -> std::fs::File {
    let path = vault.root().join(sentinel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = std::fs::OpenOptions::new().create(true).read(true).write(true).truncate(false).open(&path).unwrap();
    file.lock().unwrap();
    file
}

#[test]
fn plan_progress_waits_for_the_plan_sentinel_held_by_another_process() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.write(PLAN, &vaultspec_vault::testgen::long_plan(3));
    let session = Session::start(&vault, &[])?;
    let held = hold(&vault, &sentinel::document_path(PLAN));
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(400));
        drop(held);
    });
    let start = Instant::now();
    let reply = session.call("plan_progress", json!({"plan": "2026-03-11-long-work-plan",
        "steps": [{"step_id": "S01", "state": "checked"}]}))?;
    let waited = start.elapsed();
    release.join().unwrap();
    assert_eq!(reply.is_error, Some(false), "{}", text(&reply));
    assert!(waited >= Duration::from_millis(350), "the write went ahead after {waited:?}");
    let plan = vault.read(PLAN).unwrap();
    assert!(plan.contains("- [x] `P01.S01`"), "{plan}");
    Ok(())
}

#[test]
fn a_writing_verb_waits_for_the_docs_domain_sentinel() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.write(PLAN, &vaultspec_vault::testgen::long_plan(3));
    let session = Session::start(&vault, &[])?;
    let held = hold(&vault, sentinel::DOCS_DOMAIN);
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(400));
        drop(held);
    });
    let start = Instant::now();
    let reply = session.call("invoke", json!({"verb": "vault plan step check",
        "positionals": ["2026-03-11-long-work-plan", "S01"]}))?;
    let waited = start.elapsed();
    release.join().unwrap();
    assert_eq!(reply.is_error, Some(false), "{}", text(&reply));
    assert!(waited >= Duration::from_millis(350), "the verb ran after {waited:?}");
    let plan = vault.read(PLAN).unwrap();
    assert!(plan.contains("- [x] `P01.S01`"), "{plan}");
    Ok(())
}

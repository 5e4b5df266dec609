//! The reference's lock sentinels (`spec/gateway.md` §9): a write of ours
//! waits while another process (a Python `vaultspec-core`) holds the
//! sentinel of the document it is about to change.

use std::time::{Duration, Instant};

use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use vaultspec_host::sentinel;
use vaultspec_test_support::TestVault;

use crate::mcp::{Session, text};

const PLAN: &str = ".vault/plan/2026-03-11-long-work-plan.md";

/// Lock `sentinel` as the reference does (`flock` on a file left on disk).
fn hold(vault: &TestVault, sentinel: &str) -> std::fs::File {
    let path = vault.root().join(sentinel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .write(true)
        .truncate(false)
        .open(&path)
        .unwrap();
    file.lock().unwrap();
    file
}

/// How long [`call_while_held`] holds a sentinel; a write that waited for
/// it took at least [`WAITED`].
const HELD: Duration = Duration::from_millis(400);
const WAITED: Duration = Duration::from_millis(350);

/// Call `tool` while another process holds `sentinel` for [`HELD`]: the
/// reply (which must not be an error) and how long the call took.
fn call_while_held(
    session: &Session,
    vault: &TestVault,
    sentinel: &str,
    tool: &str,
    arguments: Value,
) -> anyhow::Result<(CallToolResult, Duration)> {
    let held = hold(vault, sentinel);
    let release = std::thread::spawn(move || {
        std::thread::sleep(HELD);
        drop(held);
    });
    let start = Instant::now();
    let reply = session.call(tool, arguments)?;
    let waited = start.elapsed();
    release.join().unwrap();
    assert_eq!(reply.is_error, Some(false), "{}", text(&reply));
    Ok((reply, waited))
}

#[test]
fn plan_progress_waits_for_the_plan_sentinel_held_by_another_process() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.write(PLAN, &vaultspec_vault::testgen::long_plan(3));
    let session = Session::start(&vault, &[])?;
    let (_, waited) = call_while_held(
        &session,
        &vault,
        &sentinel::document_path(PLAN),
        "plan_progress",
        json!({"plan": "2026-03-11-long-work-plan", "steps": [{"step_id": "S01", "state": "checked"}]}),
    )?;
    assert!(waited >= WAITED, "the write went ahead after {waited:?}");
    let plan = vault.read(PLAN).unwrap();
    assert!(plan.contains("- [x] `P01.S01`"), "{plan}");
    Ok(())
}

#[test]
fn a_writing_verb_waits_for_the_docs_domain_sentinel() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.write(PLAN, &vaultspec_vault::testgen::long_plan(3));
    let session = Session::start(&vault, &[])?;
    let (_, waited) = call_while_held(
        &session,
        &vault,
        sentinel::DOCS_DOMAIN,
        "invoke",
        json!({"verb": "vault plan step check", "positionals": ["2026-03-11-long-work-plan", "S01"]}),
    )?;
    assert!(waited >= WAITED, "the verb ran after {waited:?}");
    let plan = vault.read(PLAN).unwrap();
    assert!(plan.contains("- [x] `P01.S01`"), "{plan}");
    Ok(())
}

#[test]
fn create_waits_for_the_sentinels_of_the_new_document_and_of_the_feature_index()
-> anyhow::Result<()> {
    let vault = TestVault::new();
    let session = Session::start(&vault, &[])?;
    let created = ".vault/research/2026-03-01-cache-layer-research.md";
    for sentinel in [
        sentinel::document_path(created),
        sentinel::feature_index_path("cache-layer").unwrap(),
    ] {
        let _ = std::fs::remove_file(vault.root().join(created));
        let (reply, waited) = call_while_held(
            &session,
            &vault,
            &sentinel,
            "create",
            json!({"documents": [{"feature": "cache-layer", "type": "research", "date": "2026-03-01"}]}),
        )?;
        assert!(
            waited >= WAITED,
            "create went ahead of `{sentinel}` after {waited:?}"
        );
        assert!(vault.read(created).is_some(), "{}", text(&reply));
    }
    Ok(())
}

#[test]
fn crossref_apply_waits_for_the_sentinel_of_the_adr_it_links() -> anyhow::Result<()> {
    let vault = TestVault::new();
    // Two ADRs sharing artifacts and header words, among others that do not
    // (what every ADR shares weighs nothing in the ranking).
    let adrs = [
        (
            "2026-03-01",
            "cache-layer",
            "evict the oldest cache entry",
            "Evict through `LruCache` in `src/cache/evict.rs`.",
        ),
        (
            "2026-03-02",
            "cache-store",
            "evict cache entries by age",
            "Evict through `LruCache` in `src/cache/evict.rs`.",
        ),
        (
            "2026-03-03",
            "auth-tokens",
            "rotate signing keys",
            "Rotate keys in `src/auth/keys.rs`.",
        ),
        (
            "2026-03-04",
            "log-format",
            "write logs as json lines",
            "Format with `JsonLayer` in `src/log.rs`.",
        ),
        (
            "2026-03-05",
            "http-retry",
            "retry idempotent requests",
            "Retry in `src/http/retry.rs`.",
        ),
    ];
    for (date, feature, title, decision) in adrs {
        vault.write(
            &format!(".vault/adr/{date}-{feature}-adr.md"),
            &format!("---\ntags:\n  - '#adr'\n  - '#{feature}'\ndate: '{date}'\nmodified: '{date}'\nrelated: []\n---\n\n\
                # `{feature}` adr: {title}\n\n## Decision\n\n{decision}\n"),
        );
    }
    let session = Session::start(&vault, &[])?;
    let source = ".vault/adr/2026-03-01-cache-layer-adr.md";
    let (reply, waited) = call_while_held(
        &session,
        &vault,
        &sentinel::document_path(source),
        "crossref",
        json!({"refs": ["2026-03-01-cache-layer-adr"], "apply": true}),
    )?;
    assert!(waited >= WAITED, "the link was written after {waited:?}");
    let adr = vault.read(source).unwrap();
    assert!(
        adr.contains("[[2026-03-02-cache-store-adr]]"),
        "{:?}\n{adr}",
        reply.structured_content
    );
    Ok(())
}

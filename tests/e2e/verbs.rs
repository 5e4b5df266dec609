//! The builtin vault verbs at the command line: every verb of the `vault`,
//! `vault-write`, `orient` and `admin` components run through the real
//! binary on a vault the test builds, as text and as a `--json` envelope.

use std::process::{Command, Output};

use serde_json::Value;
use vaultspec_test_support::{TestVault, cache_dir};
use vaultspec_vault::checks::{Options, Severity, run_all};
use vaultspec_vault::{CapStorage, Date};

/// Runs the binary from the workspace root, as a user would: input files
/// (`--body-file`, `--manifest`) are read relative to the current folder.
fn run(vault: &TestVault, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vaultspec"))
        .current_dir(vault.root())
        .args(args)
        .arg("--target")
        .arg(vault.root())
        .env(
            "VAULTSPEC_CACHE_DIR",
            cache_dir().parent().unwrap().join("test-cli-cache"),
        )
        .env("VAULTSPEC_NO_HINTS", "1")
        .env_remove("VAULTSPEC_TARGET_DIR")
        .output()
        .expect("running vaultspec")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a verb that must succeed and returns its human output.
fn human(vault: &TestVault, args: &[&str]) -> String {
    let out = run(vault, args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}\nstdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs a verb with `--json` and returns its exit code and envelope.
fn envelope(vault: &TestVault, args: &[&str]) -> (i32, Value) {
    let mut args = args.to_vec();
    args.push("--json");
    crate::binary::parsed(&args, &run(vault, &args))
}

/// Runs a verb with `--json` that must succeed; returns its envelope.
fn ok(vault: &TestVault, args: &[&str], schema: &str, status: &str) -> Value {
    let (code, value) = envelope(vault, args);
    assert_eq!(code, 0, "{args:?}: {value}");
    assert_eq!(value["schema"], schema, "{value}");
    assert_eq!(value["status"], status, "{value}");
    value["data"].clone()
}

const ACCEPTED_ADR: &str = "---\ntags:\n  - '#adr'\n  - '#cache-layer'\ndate: '2026-03-09'\nmodified: '2026-03-09'\nrelated: []\n---\n# `cache-layer` adr: `cap by bytes` | (**status:** `accepted`)\n\n## Problem Statement\n\nEntry counts say little about `memory_budget` use.\n\n## Considerations\n\nMemory is tight.\n\n## Constraints\n\nNo new dependency.\n\n## Implementation\n\nCount bytes in `memory_budget`.\n\n## Rationale\n\nBytes are what run out.\n\n## Consequences\n\nA little bookkeeping.\n";

/// A vault made by our own verbs: research, reference, an L2 plan and two ADRs.
fn built() -> TestVault {
    let vault = TestVault::new();
    ok(
        &vault,
        &[
            "vault",
            "add",
            "research",
            "-f",
            "cache-layer",
            "--date",
            "2026-03-01",
            "--topic",
            "eviction",
        ],
        "vaultspec.vault.add.v1",
        "created",
    );
    ok(
        &vault,
        &[
            "vault",
            "add",
            "reference",
            "-f",
            "cache-layer",
            "--date",
            "2026-03-02",
            "--topic",
            "key-format",
            "-r",
            "2026-03-01-cache-layer-eviction-research",
        ],
        "vaultspec.vault.add.v1",
        "created",
    );
    ok(
        &vault,
        &[
            "vault",
            "add",
            "plan",
            "-f",
            "cache-layer",
            "--date",
            "2026-03-05",
            "--tier",
            "L2",
        ],
        "vaultspec.vault.add.v1",
        "created",
    );
    vault.write(
        ".vault/adr/2026-03-09-cache-layer-byte-cap-adr.md",
        ACCEPTED_ADR,
    );
    vault.write(
        ".vault/adr/2026-03-03-cache-layer-size-cap-adr.md",
        &ACCEPTED_ADR
            .replace("2026-03-09", "2026-03-03")
            .replace("cap by bytes", "cap by count"),
    );
    vault
}

#[test]
fn vault_add_writes_a_document_from_its_template_and_dry_run_writes_nothing() {
    let vault = TestVault::new();
    let data = ok(
        &vault,
        &[
            "vault",
            "add",
            "research",
            "--feature",
            "#cache-layer",
            "--date",
            "2026/3/4",
            "--topic",
            "eviction",
        ],
        "vaultspec.vault.add.v1",
        "created",
    );
    assert_eq!(
        data["path"],
        ".vault/research/2026-03-04-cache-layer-eviction-research.md"
    );
    assert_eq!(data["type"], "research");
    assert_eq!(data["name"], "2026-03-04-cache-layer-eviction-research");
    assert!(
        vault
            .read(".vault/research/2026-03-04-cache-layer-eviction-research.md")
            .is_some()
    );

    let data = ok(
        &vault,
        &[
            "vault",
            "add",
            "adr",
            "-f",
            "cache-layer",
            "--date",
            "2026-03-05",
            "--dry-run",
        ],
        "vaultspec.vault.add.v1",
        "created",
    );
    assert_eq!(data["dry_run"], true);
    assert!(
        vault
            .read(".vault/adr/2026-03-05-cache-layer-adr.md")
            .is_none()
    );

    let out = human(
        &vault,
        &[
            "vault",
            "add",
            "plan",
            "-f",
            "cache-layer",
            "--date",
            "2026-03-06",
            "--tier",
            "l3",
        ],
    );
    assert!(
        out.contains(".vault/plan/2026-03-06-cache-layer-plan.md"),
        "{out}"
    );
    assert!(
        vault
            .read(".vault/plan/2026-03-06-cache-layer-plan.md")
            .unwrap()
            .contains("tier: L3")
    );
}

#[test]
fn vault_add_refusals_fail_with_the_error_envelope() {
    let vault = TestVault::new();
    let (code, value) = envelope(&vault, &["vault", "add", "index", "-f", "x"]);
    assert_eq!(
        (code, value["schema"].as_str()),
        (1, Some("vaultspec.error.v1")),
        "{value}"
    );
    let (code, value) = envelope(
        &vault,
        &["vault", "add", "research", "-f", "x", "--tags", "#extra"],
    );
    assert_eq!(code, 1, "{value}");
    assert!(
        value["data"]["message"]
            .as_str()
            .unwrap()
            .contains("#extra"),
        "{value}"
    );
    let out = run(&vault, &["vault", "add", "research"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--feature"));
}

#[test]
fn read_verbs_list_count_graph_and_search_the_vault() {
    let vault = built();
    let data = ok(
        &vault,
        &["vault", "list", "--limit", "2"],
        "vaultspec.vault.list.v2",
        "unchanged",
    );
    assert_eq!(
        (
            data["returned"].as_u64(),
            data["total"].as_u64(),
            data["next_offset"].as_u64()
        ),
        (Some(2), Some(5), Some(2))
    );
    assert!(
        human(&vault, &["vault", "list", "research"])
            .contains("2026-03-01-cache-layer-eviction-research.md")
    );

    let data = ok(
        &vault,
        &["vault", "stats"],
        "vaultspec.vault.stats.v1",
        "unchanged",
    );
    assert_eq!(data["total_docs"], 5);
    assert_eq!(data["counts_by_type"]["adr"], 2);
    assert!(human(&vault, &["vault", "stats", "--orphaned"]).contains("orphaned"));

    let data = ok(
        &vault,
        &["vault", "feature", "list"],
        "vaultspec.vault.feature.list.v2",
        "unchanged",
    );
    assert_eq!(data["features"][0]["name"], "cache-layer");
    assert_eq!(data["features"][0]["has_plan"], true);
    assert!(human(&vault, &["vault", "feature", "list"]).contains("cache-layer"));

    let data = ok(
        &vault,
        &[
            "vault",
            "link",
            "list",
            "2026-03-02-cache-layer-key-format-reference",
        ],
        "vaultspec.vault.link.list.v1",
        "unchanged",
    );
    assert_eq!(data["count"], 1);
    assert_eq!(
        data["edges"][0]["dst"],
        "2026-03-01-cache-layer-eviction-research"
    );
    assert!(human(&vault, &["vault", "link", "list"]).contains("->"));

    let data = ok(
        &vault,
        &["vault", "graph"],
        "vaultspec.vault.graph.v2",
        "unchanged",
    );
    assert_eq!(data["directed"], true);
    assert_eq!(data["nodes"].as_array().map(Vec::len), Some(5));
    let data = ok(
        &vault,
        &[
            "vault",
            "graph",
            "--node",
            "2026-03-01-cache-layer-eviction-research",
            "--no-derived",
        ],
        "vaultspec.vault.graph.v2",
        "unchanged",
    );
    assert_eq!(data["derived_edges"], serde_json::json!([]));
    assert!(human(&vault, &["vault", "graph"]).contains("└──"));
    assert!(human(&vault, &["vault", "graph", "--metrics"]).contains("connected components"));
    assert!(human(&vault, &["vault", "graph", "--ascii"]).contains("-->"));

    let data = ok(
        &vault,
        &["vault", "search", "memory budget bytes", "--type", "adr"],
        "vaultspec.vault.search.v1",
        "unchanged",
    );
    assert!(data["returned"].as_u64().unwrap() >= 1, "{data}");
    assert!(
        data["hits"][0]["path"]
            .as_str()
            .unwrap()
            .starts_with(".vault/adr/")
    );
    assert!(human(&vault, &["vault", "search", "bytes"]).contains("lines"));
}

#[test]
fn edits_change_the_document_and_guard_with_the_blob_hash() {
    let vault = built();
    let stem = "2026-03-02-cache-layer-key-format-reference";
    let path = format!(".vault/reference/{stem}.md");
    vault.write(
        "body.md",
        "# `cache-layer` reference: `key format`\n\n## Summary\n\nKeys are `feature/key`.\n",
    );
    let data = ok(
        &vault,
        &["vault", "set-body", stem, "--body-file", "body.md"],
        "vaultspec.vault.set-body.v1",
        "updated",
    );
    let hash = data["blob_hash"].as_str().unwrap().to_owned();
    assert!(
        vault
            .read(&path)
            .unwrap()
            .contains("Keys are `feature/key`.")
    );

    let (code, value) = envelope(
        &vault,
        &[
            "vault",
            "edit",
            stem,
            "--date",
            "2026-03-03",
            "--expected-blob-hash",
            "0000000000000000000000000000000000000000",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        (
            value["status"].as_str(),
            value["data"]["conflict"].as_bool()
        ),
        (Some("failed"), Some(true)),
        "{value}"
    );
    assert_eq!(value["data"]["actual"], hash.as_str());

    let data = ok(
        &vault,
        &[
            "vault",
            "edit",
            stem,
            "--date",
            "2026-03-03",
            "--expected-blob-hash",
            &hash,
        ],
        "vaultspec.vault.edit.v1",
        "updated",
    );
    assert_ne!(data["blob_hash"], hash.as_str());
    assert!(vault.read(&path).unwrap().contains("date: '2026-03-03'"));

    let data = ok(
        &vault,
        &[
            "vault",
            "set-frontmatter",
            stem,
            "--tags",
            "#reference",
            "--tags",
            "#cache-layer",
            "-r",
            "2026-03-09-cache-layer-byte-cap-adr",
        ],
        "vaultspec.vault.set-frontmatter.v1",
        "updated",
    );
    assert_eq!(data["checks"], serde_json::json!([]));
    assert!(
        vault
            .read(&path)
            .unwrap()
            .contains("[[2026-03-09-cache-layer-byte-cap-adr]]")
    );

    vault.write(
        "bad.md",
        "See [[2026-03-01-cache-layer-eviction-research]].\n",
    );
    let (code, value) = envelope(
        &vault,
        &["vault", "set-body", stem, "--body-file", "bad.md"],
    );
    assert_eq!(
        (code, value["data"]["refused"].as_bool()),
        (1, Some(true)),
        "{value}"
    );
    assert!(!vault.read(&path).unwrap().contains("See [["));

    vault.write(
        "body2.md",
        "# `cache-layer` reference: `key format`\n\n## Summary\n\nKeys change.\n",
    );
    let out = human(
        &vault,
        &[
            "vault",
            "set-body",
            stem,
            "--body-file",
            "body2.md",
            "--dry-run",
        ],
    );
    assert!(out.contains("would update"), "{out}");
    assert!(!vault.read(&path).unwrap().contains("Keys change."));
    let out = run(&vault, &["vault", "set-body", stem]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn rename_and_links_repoint_related_lists() {
    let vault = built();
    let data = ok(
        &vault,
        &[
            "vault",
            "rename",
            "2026-03-01-cache-layer-eviction-research",
            "--to",
            "2026-03-01-cache-layer-aging-research",
        ],
        "vaultspec.vault.rename.v1",
        "updated",
    );
    assert_eq!(data["incoming_rewritten"], 1);
    assert_eq!(
        data["new_node_id"],
        "doc:2026-03-01-cache-layer-aging-research"
    );
    let reference = ".vault/reference/2026-03-02-cache-layer-key-format-reference.md";
    assert!(
        vault
            .read(reference)
            .unwrap()
            .contains("[[2026-03-01-cache-layer-aging-research]]")
    );

    let data = ok(
        &vault,
        &[
            "vault",
            "link",
            "add",
            "2026-03-05-cache-layer-plan",
            "2026-03-09-cache-layer-byte-cap-adr",
        ],
        "vaultspec.vault.link.add.v1",
        "created",
    );
    assert_eq!(data["dst"], "2026-03-09-cache-layer-byte-cap-adr");
    ok(
        &vault,
        &[
            "vault",
            "link",
            "add",
            "2026-03-05-cache-layer-plan",
            "2026-03-09-cache-layer-byte-cap-adr",
        ],
        "vaultspec.vault.link.add.v1",
        "unchanged",
    );
    ok(
        &vault,
        &[
            "vault",
            "link",
            "remove",
            "2026-03-05-cache-layer-plan",
            "2026-03-09-cache-layer-byte-cap-adr",
        ],
        "vaultspec.vault.link.remove.v1",
        "removed",
    );
    let out = human(
        &vault,
        &[
            "vault",
            "link",
            "add",
            "2026-03-05-cache-layer-plan",
            "2026-03-09-cache-layer-byte-cap-adr",
            "--dry-run",
        ],
    );
    assert!(out.contains("would link"), "{out}");
    assert!(
        human(
            &vault,
            &[
                "vault",
                "rename",
                "2026-03-01-cache-layer-aging-research",
                "--to",
                "2026-03-01-cache-layer-x-research",
                "--dry-run"
            ]
        )
        .contains("would rename")
    );
}

#[test]
fn feature_verbs_index_rename_archive_and_restore() {
    let vault = built();
    let data = ok(
        &vault,
        &["vault", "feature", "index", "-f", "cache-layer"],
        "vaultspec.vault.feature.index.v1",
        "updated",
    );
    assert_eq!(data["generated"][0], ".vault/index/cache-layer.index.md");
    ok(
        &vault,
        &["vault", "feature", "index"],
        "vaultspec.vault.feature.index.v1",
        "unchanged",
    );
    assert!(human(&vault, &["vault", "feature", "index"]).contains("up to date"));

    let data = ok(
        &vault,
        &[
            "vault",
            "feature",
            "rename",
            "cache-layer",
            "entry-store",
            "--dry-run",
        ],
        "vaultspec.vault.feature.rename.v1",
        "updated",
    );
    assert_eq!(data["dry_run"], true);
    assert!(
        vault
            .read(".vault/research/2026-03-01-cache-layer-eviction-research.md")
            .is_some()
    );
    let data = ok(
        &vault,
        &["vault", "feature", "rename", "cache-layer", "entry-store"],
        "vaultspec.vault.feature.rename.v1",
        "updated",
    );
    assert_eq!(data["renamed_count"], 5);
    assert!(vault.read(".vault/index/entry-store.index.md").is_some());

    let data = ok(
        &vault,
        &["vault", "feature", "archive", "entry-store"],
        "vaultspec.vault.feature.archive.v1",
        "removed",
    );
    let archived = data["archived_count"].as_u64().unwrap();
    assert!(archived >= 5, "{data}");
    assert!(
        vault
            .read(".vault/_archive/adr/2026-03-09-entry-store-byte-cap-adr.md")
            .is_some()
    );
    let data = ok(
        &vault,
        &["vault", "feature", "unarchive", "entry-store"],
        "vaultspec.vault.feature.unarchive.v1",
        "restored",
    );
    assert_eq!(data["unarchived_count"].as_u64(), Some(archived));

    vault.write(
        "manifest.txt",
        ".vault/research/2026-03-01-entry-store-eviction-research.md\n",
    );
    let data = ok(
        &vault,
        &[
            "vault",
            "archive",
            "documents",
            "--manifest",
            "manifest.txt",
        ],
        "vaultspec.vault.archive.documents.v1",
        "updated",
    );
    assert_eq!(data["archived_count"], 1);
    vault.write(
        "restore.txt",
        ".vault/_archive/research/2026-03-01-entry-store-eviction-research.md\n",
    );
    let out = human(
        &vault,
        &["vault", "archive", "restore", "--manifest", "restore.txt"],
    );
    assert!(
        out.contains("restored .vault/research/2026-03-01-entry-store-eviction-research.md"),
        "{out}"
    );
    assert!(
        human(
            &vault,
            &["vault", "feature", "archive", "entry-store", "--dry-run"]
        )
        .contains("would be archived")
    );
}

#[test]
fn adr_verbs_supersede_and_crossref() {
    let vault = built();
    let (code, value) = envelope(
        &vault,
        &[
            "vault",
            "adr",
            "supersede",
            "2026-03-03-cache-layer-size-cap-adr",
        ],
    );
    assert_eq!(
        (code, value["schema"].as_str(), value["status"].as_str()),
        (1, Some("vaultspec.vault.adr.supersede.v1"), Some("failed"))
    );

    let data = ok(
        &vault,
        &[
            "vault",
            "adr",
            "crossref",
            "2026-03-03-cache-layer-size-cap-adr",
        ],
        "vaultspec.vault.adr.crossref.v1",
        "unchanged",
    );
    assert_eq!(data["judged"], 1);
    assert_eq!(
        data["sources"][0]["verdicts"][0]["stem"],
        "2026-03-09-cache-layer-byte-cap-adr"
    );
    assert!(
        human(&vault, &["vault", "adr", "crossref", "--all"])
            .contains("2026-03-09-cache-layer-byte-cap-adr")
    );

    let old = ".vault/adr/2026-03-03-cache-layer-size-cap-adr.md";
    ok(
        &vault,
        &[
            "vault",
            "adr",
            "supersede",
            "2026-03-03-cache-layer-size-cap-adr",
            "--by",
            "2026-03-09-cache-layer-byte-cap-adr",
            "--dry-run",
        ],
        "vaultspec.vault.adr.supersede.v1",
        "updated",
    );
    assert!(!vault.read(old).unwrap().contains("superseded_by"));
    let data = ok(
        &vault,
        &[
            "vault",
            "adr",
            "supersede",
            "2026-03-03-cache-layer-size-cap-adr",
            "--by",
            "2026-03-09-cache-layer-byte-cap-adr",
        ],
        "vaultspec.vault.adr.supersede.v1",
        "updated",
    );
    assert_eq!(data["old_path"], old);
    assert!(vault.read(old).unwrap().contains("superseded_by"));
}

#[test]
fn rule_promote_repair_and_sanitize() {
    let vault = built();
    ok(
        &vault,
        &[
            "vault",
            "add",
            "audit",
            "-f",
            "cache-layer",
            "--date",
            "2026-03-10",
            "--title",
            "eviction review",
        ],
        "vaultspec.vault.add.v1",
        "created",
    );
    let data = ok(
        &vault,
        &[
            "vault",
            "rule",
            "promote",
            "--from",
            "2026-03-10-cache-layer-audit",
            "--as",
            "bounded-caches",
        ],
        "vaultspec.vault.rule.promote.v1",
        "created",
    );
    assert_eq!(data["path"], ".vaultspec/rules/bounded-caches.md");
    // The reference's shape: a rule template that names its source, and the
    // audit records where it went.
    let rule = vault.read(".vaultspec/rules/bounded-caches.md").unwrap();
    assert!(
        rule.starts_with("---\nderived_from:\n  - \"audit:2026-03-10-cache-layer-audit\"\n---\n"),
        "{rule}"
    );
    let audit = vault
        .read(".vault/audit/2026-03-10-cache-layer-audit.md")
        .unwrap();
    assert!(
        audit.contains("promoted_to:\n  - 'rule:bounded-caches'\n"),
        "{audit}"
    );
    let (code, _) = envelope(
        &vault,
        &[
            "vault",
            "rule",
            "promote",
            "--from",
            "2026-03-10-cache-layer-audit",
            "--as",
            "bounded-caches",
        ],
    );
    assert_eq!(code, 1);

    vault.write(".vault/research/2026-03-11-cache-layer-notes-research.md", "---\ntags:\n  - '#research'\n  - '#cache-layer'\ndate: '2026-03-11'\nmodified: '2026-03-11'\nrelated: []\n---\n\n# notes\n\n<!-- fill this in -->\nText.\n");
    let data = ok(
        &vault,
        &["vault", "sanitize", "annotations", "--dry-run"],
        "vaultspec.vault.sanitize.annotations.v1",
        "unchanged",
    );
    assert!(data["fixed_count"].as_u64().unwrap() >= 1, "{data}");
    assert!(
        vault
            .read(".vault/research/2026-03-11-cache-layer-notes-research.md")
            .unwrap()
            .contains("<!--")
    );
    let out = human(&vault, &["vault", "sanitize", "annotations", "-v"]);
    assert!(out.contains("stripped annotations"), "{out}");
    assert!(
        !vault
            .read(".vault/research/2026-03-11-cache-layer-notes-research.md")
            .unwrap()
            .contains("<!--")
    );

    let (code, value) = envelope(&vault, &["vault", "repair", "--dry-run"]);
    assert_eq!(value["schema"], "vaultspec.vault.repair.v2", "{value}");
    assert_eq!(value["data"]["dry_run"], true);
    assert!(code == 0 || code == 1);
    let out = run(&vault, &["vault", "repair"]);
    assert!(
        text(&out.stdout).contains("errors remain"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn status_counts_the_closed_steps_of_a_completed_plan_that_no_ledger_records() {
    let vault = TestVault::new();
    let plan = vaultspec_vault::testgen::long_plan(1).replace("- [ ] `P01.S01`", "- [x] `P01.S01`");
    vault.write(".vault/plan/2026-03-11-long-work-plan.md", &plan);
    let data = ok(
        &vault,
        &["status"],
        "vaultspec.vault.status.v1",
        "unchanged",
    );
    let completed = &data["recently_completed"][0];
    assert_eq!(completed["stem"], "2026-03-11-long-work-plan", "{data}");
    // The rollup counts them, as the reference does; the plan's trace names them.
    assert_eq!(completed["exec_missing"], 1, "{data}");
    let trace = ok(
        &vault,
        &["status", "2026-03-11-long-work-plan"],
        "vaultspec.vault.status.v1",
        "unchanged",
    );
    let step = &trace["plans"][0]["steps"][0];
    assert_eq!(step["canonical_id"], "S01", "{trace}");
    assert_eq!(step["checked"], true, "{trace}");
    assert_eq!(step["record_stem"], serde_json::Value::Null, "{trace}");
}

#[test]
fn status_and_doctor_orient_in_the_workspace() {
    let vault = built();
    let data = ok(
        &vault,
        &["status"],
        "vaultspec.vault.status.v1",
        "unchanged",
    );
    assert_eq!(data["active_features"][0]["name"], "cache-layer");
    assert_eq!(data["totals"]["total_docs"], 5);
    assert!(human(&vault, &["status", "--paths"]).contains("Active features"));
    let data = ok(
        &vault,
        &["status", "cache-layer"],
        "vaultspec.vault.status.v1",
        "unchanged",
    );
    assert_eq!(data["kind"], "feature");
    let (code, value) = envelope(&vault, &["status", "no-such-thing"]);
    assert_eq!(
        (code, value["schema"].as_str()),
        (1, Some("vaultspec.error.v1"))
    );

    let (code, value) = envelope(&vault, &["doctor"]);
    assert_eq!(value["schema"], "vaultspec.doctor.v1", "{value}");
    assert!(value["data"]["vault"]["checks"].is_array(), "{value}");
    assert_eq!(code == 2, value["status"] == "failed");
    let out = run(&vault, &["doctor"]);
    assert!(
        text(&out.stdout).contains("framework"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn migrations_and_config_keep_their_files() {
    let vault = TestVault::new();
    let data = ok(
        &vault,
        &["migrations", "status"],
        "vaultspec.migrations.status.v1",
        "unchanged",
    );
    assert_eq!(data["status"], "no_manifest");
    vault.write(
        ".vaultspec/providers.json",
        "{\n  \"vaultspec_version\": \"0.2.4\",\n  \"providers\": []\n}\n",
    );
    vault.write(".vault/cache-layer.index.md", "---\ntags:\n  - '#index'\n  - '#cache-layer'\ndate: '2026-03-01'\ngenerated: true\n---\n\n# index\n");
    let (code, value) = envelope(&vault, &["migrations", "status"]);
    assert_eq!(
        (code, value["data"]["status"].as_str()),
        (1, Some("pending")),
        "{value}"
    );
    assert_eq!(value["data"]["pending"][0]["name"], "commit_gate");
    assert!(human(&vault, &["migrations", "run", "--dry-run"]).contains("would apply"));
    let data = ok(
        &vault,
        &["migrations", "run", "--yes"],
        "vaultspec.migrations.run.v1",
        "updated",
    );
    assert_eq!(data["manifest_version"]["new"], "0.3.9");
    assert!(
        vault
            .read(".vaultspec/providers.json")
            .unwrap()
            .contains("\"vaultspec_version\": \"0.3.9\"")
    );
    ok(
        &vault,
        &["migrations", "status"],
        "vaultspec.migrations.status.v1",
        "unchanged",
    );

    let data = ok(
        &vault,
        &["config", "list"],
        "vaultspec.config.list.v1",
        "unchanged",
    );
    assert_eq!(data["entries"], serde_json::json!({ "editor": null }));
    let data = ok(
        &vault,
        &["config", "set", "editor", "vim"],
        "vaultspec.config.set.v1",
        "updated",
    );
    assert_eq!(
        (data["key"].as_str(), data["value"].as_str()),
        (Some("editor"), Some("vim"))
    );
    assert_eq!(
        vault.read(".vaultspec/config.toml").as_deref(),
        Some("editor = \"vim\"\n")
    );
    assert_eq!(human(&vault, &["config", "get", "editor"]), "vim\n");
    ok(
        &vault,
        &["config", "unset", "editor"],
        "vaultspec.config.unset.v1",
        "removed",
    );
    assert!(human(&vault, &["config", "list"]).contains("editor = (not set)"));
    let (code, value) = envelope(&vault, &["config", "get", "colour"]);
    assert_eq!(
        (code, value["schema"].as_str()),
        (1, Some("vaultspec.error.v1"))
    );
}

#[test]
fn read_only_verbs_run_in_a_component_without_write_access() {
    let catalog = vaultspec_host::builtins::catalog().expect("the builtin catalog loads");
    for verb in [
        "vault list",
        "vault stats",
        "vault graph",
        "vault search",
        "vault feature list",
        "vault link list",
        "status",
        "doctor",
        "migrations status",
        "config get",
        "config list",
    ] {
        let entry = catalog
            .get(verb)
            .unwrap_or_else(|| panic!("no verb `{verb}`"));
        assert!(
            !catalog.component_of(entry).capabilities.write,
            "`{verb}` runs with write access"
        );
    }
    for verb in [
        "vault add",
        "vault edit",
        "vault feature index",
        "vault link add",
        "migrations run",
        "config set",
    ] {
        let entry = catalog
            .get(verb)
            .unwrap_or_else(|| panic!("no verb `{verb}`"));
        assert!(
            catalog.component_of(entry).capabilities.write,
            "`{verb}` cannot write"
        );
    }
}

#[test]
fn a_vault_written_by_the_verbs_passes_every_check_without_errors() -> anyhow::Result<()> {
    let vault = built();
    vault.write("body.md", "# `cache-layer` research: `eviction`\n\n## Summary\n\nOld entries leave first.\n\n## Findings\n\nLRU works.\n");
    human(
        &vault,
        &[
            "vault",
            "set-body",
            "2026-03-01-cache-layer-eviction-research",
            "--body-file",
            "body.md",
        ],
    );
    human(
        &vault,
        &[
            "vault",
            "link",
            "add",
            "2026-03-05-cache-layer-plan",
            "2026-03-09-cache-layer-byte-cap-adr",
        ],
    );
    for adr in [
        "2026-03-03-cache-layer-size-cap-adr",
        "2026-03-09-cache-layer-byte-cap-adr",
    ] {
        human(
            &vault,
            &[
                "vault",
                "link",
                "add",
                adr,
                "2026-03-01-cache-layer-eviction-research",
            ],
        );
    }
    human(
        &vault,
        &[
            "vault",
            "rename",
            "2026-03-02-cache-layer-key-format-reference",
            "--to",
            "2026-03-02-cache-layer-keys-reference",
        ],
    );
    human(
        &vault,
        &[
            "vault",
            "adr",
            "supersede",
            "2026-03-03-cache-layer-size-cap-adr",
            "--by",
            "2026-03-09-cache-layer-byte-cap-adr",
        ],
    );
    human(&vault, &["vault", "feature", "index"]);
    std::fs::remove_file(vault.root().join("body.md"))?;
    let storage = CapStorage::open(vault.root())?;
    let results = run_all(&storage, &Options::check(Date::today_utc()))?;
    let errors: Vec<String> = results
        .iter()
        .flat_map(|r| &r.findings)
        .filter(|f| f.severity == Severity::Error)
        .map(|f| {
            format!(
                "{}: {} {}",
                f.check,
                f.path.as_deref().unwrap_or(""),
                f.message
            )
        })
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    Ok(())
}

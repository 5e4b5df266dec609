//! Orientation and housekeeping: status, doctor, migrations and config.

use super::*;

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

//! Creating documents: `vault add` from every template, dry runs, and its refusals.

use super::*;

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

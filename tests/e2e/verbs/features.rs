//! Whole features and decisions: index, rename, archive and restore; ADR supersede and crossref; rule promote, repair and sanitize.

use super::*;

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

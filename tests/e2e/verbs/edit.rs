//! Changing documents: body and frontmatter edits guarded by the blob hash, renames and links.

use super::*;

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

//! The migrations that change files no verb may write (`.gitignore`, the
//! commit hook file, the Codex configuration, the protected folders of
//! `.vaultspec/`): at a terminal `migrations run` does them in the host
//! before its component does the documents; through the gateway they stay
//! pending, and the manifest stays below the first of them.

use serde_json::{Value, json};
use vaultspec_test_support::TestVault;

use crate::binary::vaultspec;
use crate::mcp::Session;
use crate::migrations::files;

/// A workspace as releases before 0.1.20 left it.
fn old_workspace() -> TestVault {
    let vault = TestVault::new();
    vault
        .write(
            ".vaultspec/providers.json",
            "{\n  \"version\": \"2.0\",\n  \"vaultspec_version\": \"0.1.19\",\n  \"serial\": 3,\n  \"installed\": []\n}\n",
        )
        .write(
            ".gitignore",
            "dist/\n# >>> vaultspec-managed (do not edit this block) >>>\n.vaultspec/\n.mcp.json\n# <<< vaultspec-managed <<<\n",
        )
        .write(".vaultspec/rules/rules/team.md", "# Our rule\n")
        .write(
            ".vaultspec/rules/hooks/audit-on-create.yaml",
            "event: vault.document.created\nenabled: false\n",
        )
        .write(
            ".pre-commit-config.yaml",
            "repos:\n  - repo: local\n    hooks:\n      - id: vault-fix\n        entry: old fix\n      - id: spec-check\n        entry: old check\n",
        )
        .write(
            ".codex/config.toml",
            "model = \"o3\"\n\n# BEGIN VAULTSPEC MANAGED CODEX AGENTS\n[agents.old]\nprompt = \"x\"\n# END VAULTSPEC MANAGED CODEX AGENTS\n",
        )
        .write(".vaultspec/mcp-ownership.json", "{\"claims\": {}}\n")
        .write(
            ".vault/research/2026-01-05-auth-research.md",
            "---\ntags:\n  - '#research'\n  - '#auth'\ndate: '2026-01-05'\n---\n\n# Auth\n\nNotes.\n",
        );
    vault
}

fn read(vault: &TestVault, path: &str) -> String {
    std::fs::read_to_string(vault.root().join(path)).unwrap_or_default()
}

fn item<'v>(run: &'v Value, name: &str) -> &'v Value {
    run["data"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name)
        .unwrap()
}

#[test]
fn at_a_terminal_every_migration_acts_and_a_second_run_finds_nothing() {
    let vault = old_workspace();
    let out = vaultspec(&vault, &["migrations", "run", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run: Value = serde_json::from_slice(&out.stdout).unwrap();
    for name in vaultspec_vault::migrations::HOST_MIGRATIONS {
        assert_eq!(item(&run, name)["outcome"], "updated", "{name}: {run:#}");
    }

    let gitignore = read(&vault, ".gitignore");
    assert!(
        gitignore.starts_with("dist/\n# >>> vaultspec-managed"),
        "{gitignore}"
    );
    assert!(gitignore.contains(".vault/data/\n") && !gitignore.contains(".mcp.json\n"));
    assert_eq!(read(&vault, ".vaultspec/rules/team.md"), "# Our rule\n");
    assert!(!vault.root().join(".vaultspec/rules/rules").exists());
    // The trigger was moved up with its folder, then out of the hooks.
    assert!(
        vault
            .root()
            .join(".vaultspec/triggers/audit-on-create.yaml")
            .is_file()
    );
    assert!(
        !vault
            .root()
            .join(".vaultspec/hooks/audit-on-create.yaml")
            .exists()
    );
    let hooks = read(&vault, ".pre-commit-config.yaml");
    assert!(
        hooks.contains("id: vaultspec-commit-gate") && !hooks.contains("vault-fix"),
        "{hooks}"
    );
    assert_eq!(read(&vault, ".codex/config.toml"), "model = \"o3\"\n\n");
    // The repository's ownership claims go, a copy kept.
    assert!(!vault.root().join(".vaultspec/mcp-ownership.json").exists());
    let trash = std::fs::read_dir(vault.root().join(".vault/.trash")).unwrap();
    let kept: Vec<_> = trash
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with("-mcp_ownership"))
        .collect();
    assert_eq!(
        std::fs::read_to_string(kept[0].join(".vaultspec/mcp-ownership.json")).unwrap(),
        "{\"claims\": {}}\n"
    );
    assert!(
        read(&vault, ".vault/research/2026-01-05-auth-research.md")
            .contains("modified: '2026-01-05'")
    );
    assert!(read(&vault, ".vaultspec/providers.json").contains("\"vaultspec_version\": \"0.3.9\""));

    let again = vaultspec(&vault, &["migrations", "run", "--json"]);
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["status"], "unchanged", "{again}");
}

#[test]
fn a_dry_run_at_a_terminal_says_what_the_host_would_change_and_writes_nothing() {
    let vault = old_workspace();
    let before = read(&vault, ".gitignore");
    let out = vaultspec(&vault, &["migrations", "run", "--dry-run", "--json"]);
    let run: Value = serde_json::from_slice(&out.stdout).unwrap();
    let gate = run["data"]["migrations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "commit_gate")
        .unwrap();
    assert_eq!(
        gate["changes"],
        json!([".pre-commit-config.yaml"]),
        "{run:#}"
    );
    assert_eq!(read(&vault, ".gitignore"), before);
    assert!(
        vault
            .root()
            .join(".vaultspec/rules/rules/team.md")
            .is_file()
    );
    assert!(vault.root().join(".vaultspec/mcp-ownership.json").is_file());
}

#[test]
fn through_the_gateway_they_stay_pending_and_the_manifest_stays_below_them() -> anyhow::Result<()> {
    let vault = old_workspace();
    let gitignore = read(&vault, ".gitignore");
    let session = Session::start(&vault, &[])?;
    let result = session.call("invoke", json!({"verb": "migrations run"}))?;
    let reply = result.structured_content.expect("an invoke reply");
    // `invoke` carries the verb's envelope under `data`.
    let reply = &reply["data"];
    assert_eq!(
        item(reply, "gitignore_reversal")["outcome"],
        "skipped",
        "{reply:#}"
    );
    assert_eq!(item(reply, "modified_stamp_backfill")["outcome"], "updated");
    // The documents were stamped; nothing outside the vault changed.
    assert!(read(&vault, ".vault/research/2026-01-05-auth-research.md").contains("modified:"));
    assert_eq!(read(&vault, ".gitignore"), gitignore);
    assert!(vault.root().join(".vaultspec/mcp-ownership.json").is_file());
    // 0.1.20 is the first pending: the manifest does not move.
    assert!(
        read(&vault, ".vaultspec/providers.json").contains("\"vaultspec_version\": \"0.1.19\"")
    );
    let status = vaultspec(&vault, &["migrations", "status", "--json"]);
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["data"]["status"], "pending", "{status}");
    Ok(())
}

#[cfg(unix)]
#[test]
fn a_claims_file_that_links_out_stops_the_run_before_anything_changes() {
    let vault = old_workspace();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.json");
    std::fs::write(&secret, "{}").unwrap();
    let sidecar = vault.root().join(".vaultspec/mcp-ownership.json");
    std::fs::remove_file(&sidecar).unwrap();
    std::os::unix::fs::symlink(&secret, &sidecar).unwrap();
    let gitignore = read(&vault, ".gitignore");
    let out = vaultspec(&vault, &["migrations", "run", "--json"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("mcp_ownership"),
        "{out:?}"
    );
    // Decided first, written together: the earlier migrations wrote nothing.
    assert_eq!(read(&vault, ".gitignore"), gitignore);
    assert!(
        vault
            .root()
            .join(".vaultspec/rules/rules/team.md")
            .is_file()
    );
    assert!(sidecar.symlink_metadata().unwrap().file_type().is_symlink());
    assert!(secret.is_file());
}

#[test]
fn a_0_1_20_framework_folder_comes_out_as_the_reference_left_it() {
    // A sample of each folder 0.1.20's install nested in `.vaultspec/rules/`,
    // the old hooks in the commit hook file, and what 0.3.9 made of them.
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/migrations/0.1.20-framework");
    let vault = TestVault::new();
    for (rel, bytes) in files(&fixture.join("before")) {
        let path = vault.root().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let out = vaultspec(&vault, &["migrations", "run", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let ours = files(vault.root());
    let theirs = files(&fixture.join("after"));
    let mut differences = Vec::new();
    for (rel, bytes) in &theirs {
        // Two files are ours by design: the commit hook names our binary,
        // and the rules folder's comment-only ignore file keeps its words.
        if rel == ".pre-commit-config.yaml" || rel == ".vaultspec/rules/.gitignore" {
            assert!(ours.contains_key(rel), "{rel} is missing");
            continue;
        }
        if ours.get(rel) != Some(bytes) {
            differences.push(format!("{rel} differs or is missing"));
        }
    }
    for rel in ours
        .keys()
        .filter(|r| r.starts_with(".vaultspec/") && !theirs.contains_key(*r))
    {
        if !rel.ends_with("providers.json") {
            differences.push(format!("{rel} is only ours"));
        }
    }
    assert!(differences.is_empty(), "{differences:#?}");
    let hooks = read(&vault, ".pre-commit-config.yaml");
    assert!(
        hooks.contains("id: vaultspec-commit-gate") && !hooks.contains("vault-fix"),
        "{hooks}"
    );
}

#[test]
fn install_on_an_old_workspace_says_which_migrations_are_pending() {
    let vault = old_workspace();
    let out = vaultspec(&vault, &["install", "claude", "--skip", "mcp"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("schema migration(s) from an older release are pending (gitignore_reversal,")
            && said.contains("migrations run --dry-run"),
        "{said}"
    );
    let json = vaultspec(&vault, &["install", "claude", "--skip", "mcp", "--json"]);
    let json: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        json["data"]["pending_migrations"][0], "gitignore_reversal",
        "{json}"
    );
}

//! Finding the workspace from the current folder, at the command line: from
//! anywhere inside it, and a "no workspace" error that says where it looked
//! and how to make one.

use std::path::Path;

use vaultspec_test_support::TestVault;

use crate::binary::{run_in, text};

fn sample() -> TestVault {
    let vault = TestVault::new();
    vault.doc("plan", "2026-03-03", "search", None);
    vault
}

fn lists_the_plan_from(cwd: &Path) {
    let out = run_in(cwd, &["vault", "list"]);
    assert!(
        out.status.success(),
        "from {}: {}",
        cwd.display(),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("2026-03-03-search-plan.md"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn from_inside_the_vaults_plan_folder_the_workspace_is_found() {
    let vault = sample();
    lists_the_plan_from(&vault.root().join(".vault/plan"));
}

#[test]
fn from_a_deep_subfolder_the_workspace_is_found() {
    let vault = sample();
    let deep = vault.root().join("src/a/b/c/d");
    std::fs::create_dir_all(&deep).unwrap();
    lists_the_plan_from(&deep);
}

#[test]
fn a_workspace_nested_in_a_repository_is_found_from_inside_it() {
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(repo.path().join(".git")).unwrap();
    let vault = sample();
    let nested = repo.path().join("examples/ws");
    std::fs::create_dir_all(&nested).unwrap();
    vaultspec_test_support::golden::copy_tree(vault.root(), &nested);
    lists_the_plan_from(&nested.join(".vault/plan"));
}

#[test]
fn no_workspace_names_the_folders_looked_at_and_how_to_make_one() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().join("a/b");
    std::fs::create_dir_all(&cwd).unwrap();
    let out = run_in(&cwd, &["vault", "list"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no workspace found"), "{stderr}");
    for looked in [&cwd, &dir.path().join("a"), &dir.path().to_owned()] {
        assert!(
            stderr.contains(&format!("\n  {}\n", looked.display())),
            "{} not named:\n{stderr}",
            looked.display()
        );
    }
    assert!(
        stderr.contains(&format!("vaultspec install --target {}", cwd.display())),
        "{stderr}"
    );
}

#[test]
fn a_vault_without_vaultspec_says_what_to_create() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().join(".vault/adr");
    std::fs::create_dir_all(&cwd).unwrap();
    let out = run_in(&cwd, &["vault", "list"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("`{}` has a `.vault/`", dir.path().display()))
            && stderr.contains(&format!(
                "vaultspec install --target {}",
                dir.path().display()
            )),
        "{stderr}"
    );
}

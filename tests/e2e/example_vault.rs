//! The README's example workspace, `examples/vault`, stays complete and
//! valid: a copy of it (as a fresh clone has it) lists its documents and
//! passes `check all`, from its root and from inside its vault.

use std::path::{Path, PathBuf};

use vaultspec_test_support::golden;

use crate::binary::{run_in, text};

/// A copy of `examples/vault` in a temporary folder.
fn example_copy() -> tempfile::TempDir {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/vault");
    let dir = tempfile::tempdir().unwrap();
    golden::copy_tree(&source, dir.path());
    dir
}

#[test]
fn the_example_workspace_has_its_vaultspec_folder_and_templates() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/vault");
    for template in [
        "adr",
        "audit",
        "exec-ledger",
        "index",
        "plan",
        "reference",
        "research",
    ] {
        let path = root.join(format!(".vaultspec/templates/{template}.md"));
        assert!(path.is_file(), "missing {}", path.display());
    }
}

#[test]
fn a_copy_of_the_example_lists_every_document() {
    let copy = example_copy();
    let out = run_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["--target", copy.path().to_str().unwrap(), "vault", "list"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    for name in [
        "2026-02-04-offline-sync-adr.md",
        "2026-02-05-offline-sync-ledger.md",
        "2026-02-05-offline-sync-plan.md",
        "2026-02-10-search-index-tokenizer-rules-reference.md",
        "2026-02-02-offline-sync-conflict-models-research.md",
    ] {
        assert!(listed.contains(name), "{name} not listed:\n{listed}");
    }
}

#[test]
fn a_copy_of_the_example_passes_every_check_from_inside_its_vault() {
    let copy = example_copy();
    let out = run_in(&copy.path().join(".vault/plan"), &["vault", "check", "all"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

//! The `vaultspec` binary at a terminal: help, usage errors and a reader
//! that stops early.

use std::process::Command;

use vaultspec_test_support::{TestVault, cache_dir};

use crate::binary::{text, vaultspec};

#[test]
fn help_shows_the_verbs_own_documentation() {
    let vault = TestVault::new();
    let out = vaultspec(&vault, &["vault", "list", "--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    assert!(help.contains("List the documents of the vault"), "{help}");
    assert!(help.contains("--feature"), "{help}");
    let out = vaultspec(&vault, &["vault", "--help"]);
    assert!(text(&out.stdout).contains("feature"));
}

#[test]
fn an_unknown_flag_is_a_usage_error_with_a_suggestion() {
    let vault = TestVault::new();
    let out = vaultspec(&vault, &["vault", "list", "--featur", "x"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--featur") && stderr.contains("--feature"),
        "{stderr}"
    );
}

#[test]
fn a_misspelt_verb_gets_a_suggestion() {
    let vault = TestVault::new();
    let out = vaultspec(&vault, &["vault", "lst"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("list"));
}

#[test]
fn a_wrongly_typed_value_is_a_usage_error() {
    let vault = TestVault::new();
    let out = vaultspec(&vault, &["vault", "list", "--limit", "many"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("many"));
}

#[test]
fn a_surplus_operand_is_a_usage_error() {
    let vault = TestVault::new();
    let out = vaultspec(&vault, &["vault", "list", "adr", "plan"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("plan"), "{}", text(&out.stderr));
}

#[test]
fn a_folder_without_vaultspec_is_refused_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_vaultspec"))
        .args(["vault", "list", "--target"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(".vaultspec/"));
}

#[test]
fn a_missing_operand_is_a_usage_error_naming_it() {
    let vault = TestVault::new();
    let out = vaultspec(&vault, &["vault", "add", "--feature", "cache-layer"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.to_uppercase().contains("DOC"), "{stderr}");
    assert!(
        vault.read(".vault/research").is_none(),
        "nothing was written"
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_listing_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use vaultspec_vault::testgen::{GenSpec, generate};

    // 1,500 rows are over 100 KiB: more than a pipe holds, so the verb is
    // still printing when the reader goes away (as with `| head -1`).
    let vault = TestVault::new();
    let storage = vaultspec_vault::CapStorage::open(vault.root()).unwrap();
    generate(
        &storage,
        &GenSpec {
            docs: 1500,
            features: 10,
            seed: 3,
        },
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_vaultspec"))
        .args(["vault", "list", "--target"])
        .arg(vault.root())
        .env(
            "VAULTSPEC_CACHE_DIR",
            cache_dir().parent().unwrap().join("test-cli-cache"),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running vaultspec");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains(".md"), "{first}");
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

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
    // Two letters swapped: the one word meant, not every word near it.
    let out = vaultspec(&vault, &["stauts"]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains("'status'") && !said.contains("'vault'"),
        "{said}"
    );
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

/// A `vault add` with neither `--title` nor `--topic` writes a heading of
/// the feature's words, never a placeholder that `check all` then refuses.
#[test]
fn a_bare_vault_add_of_every_type_leaves_no_placeholder() {
    let vault = TestVault::new();
    for doc_type in ["adr", "audit", "plan", "reference", "research"] {
        let out = vaultspec(
            &vault,
            &["vault", "add", doc_type, "--feature", "cache-layer"],
        );
        assert!(out.status.success(), "{doc_type}: {}", text(&out.stderr));
    }
    let out = vaultspec(&vault, &["vault", "check", "all", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let placeholders: Vec<&serde_json::Value> = report["data"]["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["check_name"] == "placeholders")
        .flat_map(|c| c["diagnostics"]["items"].as_array().into_iter().flatten())
        .collect();
    assert!(placeholders.is_empty(), "{placeholders:?}\n{report}");
    let research = std::fs::read_dir(vault.root().join(".vault/research"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(research).unwrap();
    assert!(
        text.contains("# `cache-layer` research: `cache layer`"),
        "{text}"
    );
}

/// `vault exec log` finds the plan by its feature, as every plan verb does:
/// named with `--related FEATURE`, or not named at all.
#[test]
fn exec_log_takes_the_plan_by_its_feature() {
    let vault = TestVault::new();
    let out = vaultspec(
        &vault,
        &["vault", "add", "plan", "--feature", "cache-layer"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = vaultspec(
        &vault,
        &[
            "vault",
            "plan",
            "step",
            "add",
            "cache-layer",
            "--action",
            "write it",
            "--scope",
            "src",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stdout));
    for related in [Some("cache-layer"), None] {
        let mut args = vec![
            "vault",
            "exec",
            "log",
            "--feature",
            "cache-layer",
            "--step",
            "S01",
        ];
        args.extend(related.map(|r| ["--related", r]).into_iter().flatten());
        args.extend(["--row", "A:src/lib.rs", "--json"]);
        let out = vaultspec(&vault, &args);
        assert!(
            out.status.success(),
            "{related:?}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
    }
    let plans = std::fs::read_dir(vault.root().join(".vault/plan"))
        .unwrap()
        .count();
    assert_eq!(plans, 1, "no second plan");
    let exec = vault.root().join(".vault/exec");
    // One folder per plan, its ledger inside.
    let ledgers: Vec<_> = std::fs::read_dir(&exec)
        .unwrap()
        .flatten()
        .flat_map(|folder| {
            std::fs::read_dir(folder.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|file| file.path())
        .collect();
    assert_eq!(ledgers.len(), 1, "{ledgers:?}");
}

/// Every page `vaultspec man` lists can be printed: `vaultspec man vault`
/// prints `vaultspec-vault(1)`, which lists its own.
#[test]
fn every_manual_page_listed_can_be_printed() {
    let vault = TestVault::new();
    let top = text(&vaultspec(&vault, &["man"]).stdout);
    let listed: Vec<String> = top
        .lines()
        .filter_map(|l| l.strip_prefix("vaultspec\\-")?.strip_suffix("(1)"))
        .map(|name| name.replace("\\-", "-"))
        .collect();
    assert!(listed.len() > 5, "{top}");
    assert!(listed.iter().any(|n| n == "vault"), "{listed:?}");
    for name in &listed {
        let out = vaultspec(&vault, &["man", name]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let page = text(&out.stdout);
        let title = format!(".TH vaultspec-{name} 1 ");
        assert!(
            page.contains(&title),
            "{name}: {}",
            &page[..page.len().min(300)]
        );
    }
    let out = vaultspec(&vault, &["man", "vault", "add"]);
    assert!(text(&out.stdout).contains(".TH vaultspec-vault-add 1 "));
    let out = vaultspec(&vault, &["man", "no-such"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no command `vaultspec no-such`"));
}

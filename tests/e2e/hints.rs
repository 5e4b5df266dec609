//! Next-step hints where the reference gives them (`vault add`, `vault
//! feature rename|archive`, `check all`, `status`, `migrations status`): the
//! footer after the text, the `hints` key of the JSON envelope in the
//! reference's shape, and none with `--no-hints` or `VAULTSPEC_NO_HINTS`.
//!
//! Observed on `vaultspec-core` 0.3.9: `vault add research|adr|plan|audit`
//! print one step (reference documents none), in JSON as
//! `"hints": {"text", "command"}`; a plan's step depends on its tier (Step at
//! L1, Phase at L2, Wave at L3/L4); a `--dry-run` suggests nothing; verbs
//! such as `vault plan step add`, `vault rename` or `vault exec log` print
//! none.

use serde_json::Value;
use vaultspec_test_support::TestVault;

use crate::binary::{command, text, vaultspec};

fn json(vault: &TestVault, args: &[&str]) -> Value {
    let out = vaultspec(vault, args);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", text(&out.stdout)))
}

/// The text after the `Next:` header, if there is one.
fn footer(stdout: &[u8]) -> Option<String> {
    let out = text(stdout);
    out.split_once("\nNext:\n").map(|(_, rest)| rest.to_owned())
}

#[test]
fn vault_add_suggests_the_next_document_and_no_hints_silences_it() {
    let vault = TestVault::new();
    let out = vaultspec(
        &vault,
        &["vault", "add", "research", "--feature", "cache-layer"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let next = footer(&out.stdout).unwrap_or_else(|| panic!("a footer: {stdout}"));
    assert!(
        stdout.find("created ").unwrap() < stdout.find("\nNext:").unwrap(),
        "the hint follows the result: {stdout}"
    );
    let stem = stdout
        .lines()
        .find_map(|l| l.strip_prefix("created .vault/research/"))
        .and_then(|f| f.strip_suffix(".md"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        next.contains(&format!(
            "vaultspec vault add adr --feature cache-layer --related {stem}"
        )),
        "{next}"
    );

    let quiet = vaultspec(
        &vault,
        &[
            "--no-hints",
            "vault",
            "add",
            "adr",
            "--feature",
            "quiet-one",
        ],
    );
    assert!(quiet.status.success());
    assert!(footer(&quiet.stdout).is_none(), "{}", text(&quiet.stdout));
    let by_env = command(&["vault", "add", "adr", "--feature", "quiet-two"])
        .arg("--target")
        .arg(vault.root())
        .env("VAULTSPEC_NO_HINTS", "1")
        .output()
        .unwrap();
    assert!(footer(&by_env.stdout).is_none(), "{}", text(&by_env.stdout));

    // A preview suggests nothing.
    let dry = vaultspec(
        &vault,
        &["vault", "add", "adr", "--feature", "dry", "--dry-run"],
    );
    assert!(footer(&dry.stdout).is_none(), "{}", text(&dry.stdout));
}

#[test]
fn vault_add_json_carries_one_hint_object_unless_silenced() {
    let vault = TestVault::new();
    let adr = json(
        &vault,
        &["vault", "add", "adr", "--feature", "cache-layer", "--json"],
    );
    let stem = adr["data"]["name"].as_str().unwrap();
    assert_eq!(
        adr["hints"]["command"],
        format!("vaultspec vault add plan --feature cache-layer --related {stem}"),
        "{adr}"
    );
    assert!(adr["hints"]["text"].as_str().is_some_and(|t| !t.is_empty()));
    assert_eq!(adr["hints"].as_object().unwrap().len(), 2, "{adr}");

    for (tier, container) in [
        ("L1", "step"),
        ("L2", "phase"),
        ("L3", "wave"),
        ("L4", "wave"),
    ] {
        let feature = format!("tier-{}", tier.to_lowercase());
        let plan = json(
            &vault,
            &[
                "vault",
                "add",
                "plan",
                "--feature",
                &feature,
                "--tier",
                tier,
                "--json",
            ],
        );
        let stem = plan["data"]["name"].as_str().unwrap();
        let command = plan["hints"]["command"].as_str().unwrap_or_default();
        assert!(
            command.starts_with(&format!("vaultspec vault plan {container} add {stem} ")),
            "{tier}: {plan}"
        );
    }
    let audit = json(
        &vault,
        &[
            "vault",
            "add",
            "audit",
            "--feature",
            "cache-layer",
            "--json",
        ],
    );
    assert!(
        audit["hints"]["command"]
            .as_str()
            .unwrap()
            .ends_with("--as cache-layer-rule"),
        "{audit}"
    );
    let reference = json(
        &vault,
        &[
            "vault",
            "add",
            "reference",
            "--feature",
            "cache-layer",
            "--json",
        ],
    );
    assert!(reference.get("hints").is_none(), "{reference}");
    let silenced = json(
        &vault,
        &[
            "vault",
            "add",
            "research",
            "--feature",
            "x",
            "--json",
            "--no-hints",
        ],
    );
    assert!(silenced.get("hints").is_none(), "{silenced}");
    assert_eq!(silenced["status"], "created");
}

#[test]
fn a_feature_rename_or_archive_suggests_checking_the_vault() {
    let vault = TestVault::new();
    vault.doc("research", "2026-03-01", "old-name", None);
    vault.doc("research", "2026-03-02", "gone", None);
    let renamed = json(
        &vault,
        &[
            "vault", "feature", "rename", "old-name", "new-name", "--json",
        ],
    );
    assert_eq!(
        renamed["hints"]["command"], "vaultspec vault check all",
        "{renamed}"
    );
    let archived = vaultspec(&vault, &["vault", "feature", "archive", "gone"]);
    assert!(
        footer(&archived.stdout).is_some_and(|f| f.contains("vaultspec vault check all")),
        "{}",
        text(&archived.stdout)
    );
    // Nothing changed, nothing to verify.
    let again = json(
        &vault,
        &[
            "vault",
            "feature",
            "rename",
            "no-such",
            "other",
            "--json",
            "--dry-run",
        ],
    );
    assert!(again.get("hints").is_none(), "{again}");
}

#[test]
fn check_all_suggests_a_repair_preview_on_errors_and_the_status_when_clean() {
    let vault = TestVault::new();
    let research = vault.doc("research", "2026-03-01", "cache-layer", None);
    // Clean with nothing fixed: nothing to commit, so the next step is
    // where the work stands (the reference says commit even then).
    let clean = json(&vault, &["vault", "check", "all", "--json"]);
    assert_eq!(clean["hints"]["command"], "vaultspec status", "{clean}");
    // What `--fix` changed is for committing.
    let body = vault.read(&research).unwrap();
    vault.write(&research, &format!("{body}trailing   \n"));
    let fixed = json(&vault, &["vault", "check", "all", "--fix", "--json"]);
    assert_eq!(fixed["hints"]["command"], "git commit", "{fixed}");
    // A broken related link is an error.
    let path = vault.doc("adr", "2026-03-02", "cache-layer", None);
    let body = vault.read(&path).unwrap();
    vault.write(
        &path,
        &body.replacen("related: []", "related:\n  - \"[[no-such-doc]]\"", 1),
    );
    let failing = json(&vault, &["vault", "check", "all", "--json"]);
    assert_eq!(failing["status"], "failed", "{failing}");
    assert_eq!(
        failing["hints"]["command"], "vaultspec vault repair --dry-run",
        "{failing}"
    );
    // One check alone suggests nothing.
    let one = json(&vault, &["vault", "check", "links", "--json"]);
    assert!(one.get("hints").is_none(), "{one}");
}

#[test]
fn a_status_trace_suggests_the_graph_and_the_plan_status() {
    let vault = TestVault::new();
    let plan = json(
        &vault,
        &[
            "vault",
            "add",
            "plan",
            "--feature",
            "cache-layer",
            "--json",
            "--no-hints",
        ],
    );
    let stem = plan["data"]["name"].as_str().unwrap().to_owned();
    let trace = json(&vault, &["status", &stem, "--json"]);
    let steps = trace["hints"]["next_steps"].as_array().unwrap();
    assert_eq!(
        steps[0]["command"],
        "vaultspec vault graph --feature cache-layer"
    );
    assert_eq!(
        steps[1]["command"],
        format!("vaultspec vault plan status {stem}")
    );
    assert!(
        json(&vault, &["status", &stem, "--json", "--no-hints"])
            .get("hints")
            .is_none()
    );
    let text_trace = vaultspec(&vault, &["status", &stem]);
    assert!(
        footer(&text_trace.stdout).is_some_and(|f| f.contains("vaultspec vault plan status")),
        "{}",
        text(&text_trace.stdout)
    );
}

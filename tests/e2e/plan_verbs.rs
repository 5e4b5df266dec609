//! The plan, exec and check verbs through the real binary: every plan verb on
//! plans of every tier (text and JSON), the refusals a caller must be able to
//! act on, the golden vectors 40–91, and a long scripted session checked
//! against the plan model's invariants after every step.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use vaultspec_test_support::{TestVault, cache_dir};
use vaultspec_vault::hash::blob_oid;
use vaultspec_vault::plan::parse_plan;

mod golden;
mod session;

const L1: &str = ".vault/plan/2026-03-10-tiny-fix-plan.md";
pub(crate) const L2: &str = ".vault/plan/2026-03-11-mid-work-plan.md";
const L3: &str = ".vault/plan/2026-03-12-wide-work-plan.md";
const L4: &str = ".vault/plan/2026-03-13-huge-work-plan.md";

fn front(feature: &str, date: &str, tier: &str) -> String {
    format!(
        "---\ntags:\n  - '#plan'\n  - '#{feature}'\ndate: '{date}'\ntier: {tier}\n---\n\n# `{feature}` plan\n\n## Description\n\nThe work in a few lines.\n\n## Steps\n\n"
    )
}

const TAIL: &str = "\n## Verification\n\nHow we know it is done.\n";

fn l1() -> String {
    front("tiny-fix", "2026-03-10", "L1")
        + "- [x] `S01` - read the bug report; `docs/bug.md`.\n- [ ] `S02` - patch the parser; `src/parse.rs`.\n- [ ] `S03` - add a regression test; `tests/parse.rs`.\n"
        + TAIL
}

pub(crate) fn l2() -> String {
    front("mid-work", "2026-03-11", "L2")
        + "### Phase `P01` - first cut\n\nGet a working handler in place.\n\n- [x] `P01.S01` - sketch the api; `docs/api.md`.\n- [ ] `P01.S02` - add the handler; `src/handler.rs`.\n\n### Phase `P02` - hardening\n\nMake the handler safe under load.\n\n- [ ] `P02.S03` - add request limits; `src/limits.rs`.\n"
        + TAIL
}

const WAVES: &str = "## Wave `W01` - foundation\n\nEverything the callers need first.\n\n### Phase `W01.P01` - client\n\nBring in the new client.\n\n- [ ] `W01.P01.S01` - list the callers; `docs/callers.md`.\n- [ ] `W01.P01.S02` - add the new client; `src/client.rs`.\n\n## Wave `W02` - migration\n\nMove each caller to the new client.\n\n### Phase `W02.P02` - callers\n\nSwitch the callers over.\n\n- [ ] `W02.P02.S03` - switch the callers; `src/callers.rs`.\n";

fn l3() -> String {
    front("wide-work", "2026-03-12", "L3") + WAVES + TAIL
}

fn l4() -> String {
    front("huge-work", "2026-03-13", "L4")
        + "## Epic intent\n\nMove every store to the new engine.\n\n"
        + WAVES
        + TAIL
}

/// A workspace holding one plan of each tier.
fn tiers() -> TestVault {
    let vault = TestVault::new();
    vault
        .write(L1, &l1())
        .write(L2, &l2())
        .write(L3, &l3())
        .write(L4, &l4());
    vault
}

pub(crate) fn cli_cache() -> std::path::PathBuf {
    cache_dir().parent().unwrap().join("test-cli-cache")
}

/// `vaultspec --target ROOT ARGS`: the workspace comes first, since a
/// `--target` after `plan tier promote|demote` names the tier.
pub(crate) fn vaultspec(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vaultspec"))
        .arg("--target")
        .arg(root)
        .args(args)
        .env("VAULTSPEC_CACHE_DIR", cli_cache())
        .env("VAULTSPEC_NO_HINTS", "1")
        .env_remove("VAULTSPEC_TARGET_DIR")
        .output()
        .expect("running vaultspec")
}

pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a `--json` verb and returns its exit code and envelope.
fn json(root: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.push("--json");
    crate::binary::parsed(&all, &vaultspec(root, &all))
}

fn ok_json(root: &Path, args: &[&str]) -> Value {
    let (code, value) = json(root, args);
    assert_eq!(code, 0, "{args:?}: {value}");
    value
}

pub(crate) fn read(vault: &TestVault, path: &str) -> String {
    vault.read(path).expect("the plan exists")
}

/// A mutation's reply names the plan's new blob, which is the file's.
fn assert_blob(vault: &TestVault, path: &str, reply: &Value) {
    assert_eq!(
        reply["data"]["blob_hash"],
        blob_oid(read(vault, path).as_bytes()),
        "{reply}"
    );
}

#[test]
fn every_tier_reports_status_tier_and_query_in_text_and_json() {
    let vault = tiers();
    for (stem, tier, steps) in [
        ("tiny-fix", "L1", 3),
        ("mid-work", "L2", 3),
        ("wide-work", "L3", 3),
        ("huge-work", "L4", 3),
    ] {
        let status = ok_json(vault.root(), &["vault", "plan", "status", stem]);
        assert_eq!(status["schema"], "vaultspec.vault.plan.status.v1");
        assert_eq!(status["status"], "unchanged");
        assert_eq!(status["data"]["tier"], tier);
        assert_eq!(status["data"]["step_count"], steps);
        let shown = ok_json(vault.root(), &["vault", "plan", "tier", "show", stem]);
        assert_eq!(shown["schema"], "vaultspec.vault.plan.tier.show.v1");
        assert_eq!(shown["data"]["tier"], tier);
        let open = ok_json(vault.root(), &["vault", "plan", "query", stem, "--open"]);
        assert_eq!(open["schema"], "vaultspec.vault.plan.query.v1");
        assert_eq!(open["data"]["total"], steps);
        let out = vaultspec(vault.root(), &["vault", "plan", "status", stem]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains(tier), "{}", text(&out.stdout));
        let out = vaultspec(vault.root(), &["vault", "plan", "tier", "show", stem]);
        assert!(text(&out.stdout).starts_with(tier), "{}", text(&out.stdout));
    }
    let l2_p02 = ok_json(
        vault.root(),
        &["vault", "plan", "query", "mid-work", "--phase", "P02"],
    );
    assert_eq!(l2_p02["data"]["matched"], 1);
    assert_eq!(l2_p02["data"]["steps"][0]["display_path"], "P02.S03");
    let closed = ok_json(
        vault.root(),
        &["vault", "plan", "query", "tiny-fix", "--closed"],
    );
    assert_eq!(closed["data"]["matched"], 1);
    let by_path = ok_json(vault.root(), &["vault", "plan", "status", L1]);
    assert_eq!(by_path["data"]["steps_completed"], 1);
}

#[test]
fn step_verbs_work_on_every_tier_and_reply_with_the_new_blob() {
    let vault = tiers();
    for (stem, path, first) in [
        ("tiny-fix", L1, "S02"),
        ("mid-work", L2, "P01.S02"),
        ("wide-work", L3, "W01.P01.S02"),
        ("huge-work", L4, "S02"),
    ] {
        let r = ok_json(
            vault.root(),
            &["vault", "plan", "step", "check", stem, first],
        );
        assert_eq!(r["schema"], "vaultspec.vault.plan.step.check.v1");
        assert_eq!(r["status"], "updated");
        assert_blob(&vault, path, &r);
        // These plans start without stamps: the first write adds them after
        // `date:`, the next moves them below `tier:` (as the reference does),
        // and from then on checking a closed Step changes no byte.
        let mut again = Value::Null;
        for _ in 0..2 {
            again = ok_json(
                vault.root(),
                &["vault", "plan", "step", "check", stem, first],
            );
        }
        assert_eq!(again["status"], "unchanged");
        assert_eq!(again["data"]["changed"], false);
        for verb in ["uncheck", "toggle"] {
            let r = ok_json(vault.root(), &["vault", "plan", "step", verb, stem, "S03"]);
            assert_eq!(r["schema"], format!("vaultspec.vault.plan.step.{verb}.v1"));
            assert_blob(&vault, path, &r);
        }
        // From L2 up a new Step needs its Phase.
        let into: &[&str] = if stem == "tiny-fix" {
            &[]
        } else {
            &["--phase", "P02"]
        };
        let add = [
            "vault",
            "plan",
            "step",
            "add",
            stem,
            "--action",
            "write the notes",
            "--scope",
            "docs/notes.md",
        ];
        let r = ok_json(vault.root(), &[&add[..], into].concat());
        assert!(
            r["data"]["message"].as_str().unwrap().contains("S04"),
            "{r}"
        );
        assert!(read(&vault, path).contains("write the notes; `docs/notes.md`"));
        let r = ok_json(
            vault.root(),
            &[
                "vault",
                "plan",
                "step",
                "insert",
                stem,
                "--before",
                "S03",
                "--action",
                "review it",
                "--scope",
                "docs/review.md",
            ],
        );
        assert_blob(&vault, path, &r);
        let r = ok_json(
            vault.root(),
            &[
                "vault",
                "plan",
                "step",
                "edit",
                stem,
                "S05",
                "--scope",
                "docs/review2.md",
            ],
        );
        assert!(
            read(&vault, path).contains("review it; `docs/review2.md`"),
            "{r}"
        );
        ok_json(
            vault.root(),
            &[
                "vault", "plan", "step", "move", stem, "S05", "--after", "S04",
            ],
        );
        let r = ok_json(
            vault.root(),
            &["vault", "plan", "step", "remove", stem, "S05"],
        );
        assert_blob(&vault, path, &r);
        let after = read(&vault, path);
        assert!(
            after.contains("RETIRED") && !after.contains("review it"),
            "{after}"
        );
        let add = [
            "vault", "plan", "step", "add", stem, "--action", "one more", "--scope", "x.rs",
        ];
        let r = ok_json(vault.root(), &[&add[..], into].concat());
        assert!(
            r["data"]["message"].as_str().unwrap().contains("S06"),
            "a retired id is never reused: {r}"
        );
        assert_eq!(
            parse_plan(&read(&vault, path))
                .expect("re-parses")
                .steps
                .len(),
            5
        );
    }
    // Human output names the plan and what happened.
    let out = vaultspec(
        vault.root(),
        &["vault", "plan", "step", "toggle", "tiny-fix", "S01"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("updated .vault/plan/2026-03-10-tiny-fix-plan.md"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn phase_and_wave_verbs_work_on_the_tiers_that_have_them() {
    let vault = tiers();
    for (stem, path) in [("mid-work", L2), ("wide-work", L3)] {
        // From L3 up a new Phase needs its Wave.
        let into: &[&str] = if stem == "mid-work" {
            &[]
        } else {
            &["--wave", "W02"]
        };
        let add = [
            "vault",
            "plan",
            "phase",
            "add",
            stem,
            "--title",
            "rollout",
            "--intent",
            "Turn it on.",
        ];
        let r = ok_json(vault.root(), &[&add[..], into].concat());
        assert_eq!(r["schema"], "vaultspec.vault.plan.phase.add.v1");
        assert_blob(&vault, path, &r);
        ok_json(
            vault.root(),
            &[
                "vault",
                "plan",
                "phase",
                "insert",
                stem,
                "--before",
                "P02",
                "--title",
                "pilot",
                "--intent",
                "Try it once.",
            ],
        );
        ok_json(
            vault.root(),
            &[
                "vault", "plan", "phase", "edit", stem, "P03", "--title", "launch",
            ],
        );
        ok_json(
            vault.root(),
            &[
                "vault", "plan", "phase", "move", stem, "P03", "--before", "P02",
            ],
        );
        ok_json(
            vault.root(),
            &[
                "vault", "plan", "phase", "renumber", stem, "P03", "--to", "P07",
            ],
        );
        let r = ok_json(
            vault.root(),
            &["vault", "plan", "phase", "remove", stem, "P07"],
        );
        assert_blob(&vault, path, &r);
        assert!(parse_plan(&read(&vault, path)).is_ok());
    }
    let (code, refused) = json(
        vault.root(),
        &[
            "vault", "plan", "phase", "add", "tiny-fix", "--title", "x", "--intent", "y",
        ],
    );
    assert_eq!(code, 1, "an L1 plan has no Phases: {refused}");
    for (stem, path) in [("wide-work", L3), ("huge-work", L4)] {
        let r = ok_json(
            vault.root(),
            &[
                "vault",
                "plan",
                "wave",
                "add",
                stem,
                "--title",
                "cleanup",
                "--intent",
                "Delete the old client.",
            ],
        );
        assert_eq!(r["schema"], "vaultspec.vault.plan.wave.add.v1");
        ok_json(
            vault.root(),
            &[
                "vault",
                "plan",
                "wave",
                "insert",
                stem,
                "--after",
                "W01",
                "--title",
                "pilot",
                "--intent",
                "One caller first.",
            ],
        );
        ok_json(
            vault.root(),
            &[
                "vault",
                "plan",
                "wave",
                "edit",
                stem,
                "W03",
                "--intent",
                "Delete it all.",
            ],
        );
        ok_json(
            vault.root(),
            &[
                "vault", "plan", "wave", "move", stem, "W03", "--before", "W01",
            ],
        );
        let r = ok_json(
            vault.root(),
            &["vault", "plan", "wave", "remove", stem, "W03"],
        );
        assert_blob(&vault, path, &r);
    }
    let epic = ok_json(
        vault.root(),
        &["vault", "plan", "epic", "intent", "show", "huge-work"],
    );
    assert_eq!(epic["data"]["text"], "Move every store to the new engine.");
    let r = ok_json(
        vault.root(),
        &[
            "vault",
            "plan",
            "epic",
            "intent",
            "edit",
            "huge-work",
            "--text",
            "Finish the move by June.",
        ],
    );
    assert_blob(&vault, L4, &r);
    let out = vaultspec(
        vault.root(),
        &["vault", "plan", "epic", "intent", "show", "huge-work"],
    );
    assert_eq!(text(&out.stdout).trim(), "Finish the move by June.");
    let (code, _) = json(
        vault.root(),
        &["vault", "plan", "epic", "intent", "show", "tiny-fix"],
    );
    assert_eq!(code, 1);
}

#[test]
fn tiers_promote_and_demote_and_collapsing_needs_force() {
    let vault = tiers();
    let r = ok_json(
        vault.root(),
        &[
            "vault",
            "plan",
            "tier",
            "promote",
            "tiny-fix",
            "--to",
            "L4",
            "--phase-title",
            "the fix",
            "--phase-intent",
            "Fix it.",
            "--wave-title",
            "one",
            "--wave-intent",
            "In one pass.",
            "--epic-intent",
            "Close bug 12.",
        ],
    );
    assert_eq!(r["schema"], "vaultspec.vault.plan.tier.promote.v1");
    assert_eq!(
        ok_json(vault.root(), &["vault", "plan", "tier", "show", "tiny-fix"])["data"]["tier"],
        "L4"
    );
    let before = read(&vault, L2);
    let (code, refused) = json(
        vault.root(),
        &["vault", "plan", "tier", "demote", "mid-work", "--to", "L1"],
    );
    assert_eq!(code, 1, "{refused}");
    assert_eq!(refused["status"], "failed");
    assert_eq!(
        refused["data"]["count"], 2,
        "the refusal says how many Phases collapse: {refused}"
    );
    assert_eq!(
        refused["data"]["collapses"],
        serde_json::json!(["P01", "P02"]),
        "the refusal says which Phases collapse: {refused}"
    );
    assert!(
        refused["data"]["message"]
            .as_str()
            .unwrap()
            .contains("--force")
    );
    assert_eq!(
        read(&vault, L2),
        before,
        "a refused demotion changes nothing"
    );
    let r = ok_json(
        vault.root(),
        &[
            "vault", "plan", "tier", "demote", "mid-work", "--to", "L1", "--force",
        ],
    );
    assert_blob(&vault, L2, &r);
    let (code, missing) = json(
        vault.root(),
        &["vault", "plan", "tier", "promote", "mid-work"],
    );
    assert_eq!(code, 1, "a promotion without titles is refused: {missing}");
    let (code, bad) = json(
        vault.root(),
        &["vault", "plan", "tier", "promote", "mid-work", "--to", "L9"],
    );
    assert_eq!(code, 1, "{bad}");
}

#[test]
fn refusals_name_what_would_be_accepted_and_change_nothing() {
    let vault = tiers();
    let before = read(&vault, L1);
    let (code, unknown) = json(
        vault.root(),
        &["vault", "plan", "step", "check", "tiny-fix", "S09"],
    );
    assert_eq!(code, 1);
    assert_eq!(unknown["schema"], "vaultspec.vault.plan.mutate.v1");
    let near: Vec<&str> = unknown["data"]["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(near.contains(&"S01") || near.contains(&"S03"), "{unknown}");
    let (_, far) = json(
        vault.root(),
        &["vault", "plan", "step", "check", "tiny-fix", "S7"],
    );
    assert!(
        !far["data"]["suggestions"].as_array().unwrap().is_empty(),
        "an id near nothing still names the ids that exist: {far}"
    );
    let out = vaultspec(
        vault.root(),
        &["vault", "plan", "step", "check", "tiny-fix", "S09"],
    );
    assert!(
        text(&out.stderr).contains("did you mean"),
        "{}",
        text(&out.stderr)
    );

    let (code, stale) = json(
        vault.root(),
        &[
            "vault",
            "plan",
            "step",
            "check",
            "tiny-fix",
            "S02",
            "--expected-blob-hash",
            "0000000000000000000000000000000000000000",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(stale["data"]["conflict"], true);
    assert_eq!(stale["data"]["actual"], blob_oid(before.as_bytes()));
    assert_eq!(read(&vault, L1), before, "a stale hash changes nothing");
    let current = blob_oid(before.as_bytes());
    let r = ok_json(
        vault.root(),
        &[
            "vault",
            "plan",
            "step",
            "check",
            "tiny-fix",
            "S02",
            "--expected-blob-hash",
            &current,
        ],
    );
    assert_eq!(r["data"]["previous_blob_hash"], current);
    assert_blob(&vault, L1, &r);

    let dry = read(&vault, L1);
    let r = ok_json(
        vault.root(),
        &[
            "vault",
            "plan",
            "step",
            "remove",
            "tiny-fix",
            "S03",
            "--dry-run",
        ],
    );
    assert_eq!(r["data"]["dry_run"], true);
    assert_eq!(read(&vault, L1), dry, "a dry run writes nothing");

    // A feature with several plans is refused with the candidate stems.
    vault.write(
        ".vault/plan/2026-04-01-tiny-fix-plan.md",
        &l1().replace("2026-03-10", "2026-04-01"),
    );
    // An ambiguous or unknown plan is a refusal (1), as an unknown
    // document is; the reference exits 2, its parser's code.
    let (code, many) = json(vault.root(), &["vault", "plan", "status", "tiny-fix"]);
    assert_eq!(code, 1, "{many}");
    let message = many["data"]["message"].as_str().unwrap();
    assert!(
        message.contains("2026-03-10-tiny-fix-plan")
            && message.contains("2026-04-01-tiny-fix-plan"),
        "{message}"
    );
    let (code, none) = json(vault.root(), &["vault", "plan", "status", "no-such-plan"]);
    assert_eq!(code, 1, "{none}");
}

#[test]
fn a_malformed_plan_is_reported_with_its_line_and_never_rewritten() {
    let vault = TestVault::new();
    let broken = l1().replace(
        "- [ ] `S02` - patch the parser; `src/parse.rs`.",
        "- [ ] `S02` - patch the parser `src/parse.rs`.",
    );
    vault.write(L1, &broken);
    let (code, refused) = json(
        vault.root(),
        &["vault", "plan", "step", "check", "tiny-fix", "S03"],
    );
    assert_eq!(code, 1, "{refused}");
    let message = refused["data"]["message"].as_str().unwrap();
    assert!(
        message.contains("line"),
        "the refusal names the line: {message}"
    );
    assert_eq!(
        read(&vault, L1),
        broken,
        "a malformed plan is never rewritten"
    );
    let (code, report) = json(vault.root(), &["vault", "plan", "check", "tiny-fix"]);
    assert_eq!(code, 1);
    assert_eq!(report["schema"], "vaultspec.vault.plan.check.v1");
    let findings = report["data"]["findings"].as_array().unwrap();
    assert!(
        findings
            .iter()
            .any(|f| f["code"] == "PLAN040" && f["line"].as_u64().unwrap() > 0),
        "{report}"
    );
    let fixable = l1()
        .replace("- [x] `S01`", "- [X] `S01`")
        .replace("patch the parser", "patch \u{2014} the parser");
    vault.write(L1, &fixable);
    let (code, fixed) = json(
        vault.root(),
        &["vault", "plan", "check", "tiny-fix", "--fix"],
    );
    assert_eq!(code, 0, "{fixed}");
    assert_eq!(fixed["data"]["fixed"], true);
    assert!(
        read(&vault, L1).contains("- [x] `S01`") && read(&vault, L1).contains("patch - the parser")
    );
    assert_eq!(
        ok_json(vault.root(), &["vault", "plan", "check", "tiny-fix"])["data"]["findings"],
        Value::Array(vec![])
    );
}

#[test]
fn trailers_are_emitted_and_validated() {
    let vault = TestVault::new();
    let out = vaultspec(
        vault.root(),
        &["vault", "plan", "trailer", "emit", "--step", "P02.S06"],
    );
    assert_eq!(text(&out.stdout).trim(), "Vaultspec-Step: P02.S06");
    let out = vaultspec(
        vault.root(),
        &[
            "vault",
            "plan",
            "trailer",
            "emit",
            "--feature",
            "#cache-layer",
        ],
    );
    assert_eq!(text(&out.stdout).trim(), "Vaultspec-Feature: cache-layer");
    let out = vaultspec(vault.root(), &["vault", "plan", "trailer", "emit"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "exactly one of --step and --feature"
    );
    vault.write(
        "msg.txt",
        "fix the parser\n\nVaultspec-Step: P2.S6\nVaultspec-Feature: cache-layer\n",
    );
    let r = ok_json(
        vault.root(),
        &["vault", "plan", "trailer", "validate", "msg.txt"],
    );
    assert_eq!(r["schema"], "vaultspec.vault.plan.trailer.validate.v1");
    assert_eq!(r["data"]["problems"].as_array().unwrap().len(), 1, "{r}");
}

#[test]
fn every_check_verb_answers_in_its_own_schema() {
    let vault = tiers();
    for check in [
        "body-links",
        "exec-mapping",
        "body-sections",
        "annotations",
        "markdown",
        "placeholders",
        "dangling",
        "orphans",
        "frontmatter",
        "modified-stamp",
        "links",
        "features",
        "references",
        "schema",
        "adr-status",
        "code-boundary",
        "structure",
        "rename-integrity",
        "encoding",
        "feature-rename-integrity",
        "foreign",
    ] {
        let (code, r) = json(vault.root(), &["vault", "check", check]);
        assert_eq!(
            r["schema"],
            format!("vaultspec.vault.check.{check}.v2"),
            "{r}"
        );
        assert_eq!(r["data"]["check_name"], check);
        assert!(code == 0 || code == 1, "{check}: exit {code}");
    }
    let (_, all) = json(vault.root(), &["vault", "check", "all"]);
    assert_eq!(all["schema"], "vaultspec.vault.check.all.v1");
    assert_eq!(all["data"]["checks"].as_array().unwrap().len(), 20);
    let (code, gate) = json(vault.root(), &["commit-gate", ".vault/data/cache.json"]);
    assert_eq!(gate["schema"], "vaultspec.commit-gate.v1");
    assert_eq!(code, 1, "a per-machine file blocks: {gate}");
    assert_eq!(gate["data"]["per_machine"][0], ".vault/data/cache.json");
    let out = vaultspec(vault.root(), &["vault", "check", "markdown"]);
    assert!(out.status.code().is_some(), "{}", text(&out.stderr));
}

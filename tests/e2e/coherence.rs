//! `vault check coherence`: a document whose `related:` upstream changed
//! after it was written, dated from a small git history made here (git
//! builds the fixtures; vaultspec reads them in process), from `modified:`
//! without one, and with hostile repositories that must neither hang nor
//! be followed out of the workspace.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use vaultspec_test_support::TestVault;

use crate::binary::envelope;

/// Run git in `root` with every commit dated `day` (2026-01-DD).
fn git(root: &Path, day: u32, args: &[&str]) {
    let date = format!("2026-01-{day:02}T12:00:00Z");
    let status = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(root)
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .env_remove("GIT_DIR")
        .output()
        .expect("running git");
    assert!(
        status.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

fn commit_all(root: &Path, day: u32, message: &str) {
    git(root, day, &["add", "-A"]);
    git(root, day, &["commit", "-q", "-m", message]);
}

/// A plan linking an ADR that links a research note, each written on
/// `2026-01-01`, committed on day 1.
fn linked(vault: &TestVault) -> (String, String, String) {
    let research = vault.doc("research", "2026-01-01", "auth", Some("tokens"));
    let adr = vault.doc("adr", "2026-01-01", "auth", Some("format"));
    let plan = vault.doc("plan", "2026-01-01", "auth", None);
    let link = |path: &str, to: &str| {
        let stem = to.rsplit('/').next().unwrap().trim_end_matches(".md");
        let text = vault.read(path).unwrap();
        vault.write(
            path,
            &text.replace("related: []", &format!("related:\n  - '[[{stem}]]'")),
        );
    };
    link(&adr, &research);
    link(&plan, &adr);
    (research, adr, plan)
}

fn append(vault: &TestVault, path: &str, line: &str) {
    let text = vault.read(path).unwrap();
    vault.write(path, &format!("{text}\n{line}\n"));
}

/// `(document, upstream)` of each finding, and the envelope.
fn stale(vault: &TestVault) -> (Vec<(String, String)>, Value) {
    let (code, json) = envelope(vault, &["vault", "check", "coherence"]);
    assert_eq!(code, 0, "warnings only: {json}");
    assert_eq!(json["schema"], "vaultspec.vault.check.coherence.v1");
    let pairs = json["data"]["diagnostics"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["path"].as_str().unwrap().to_owned(),
                i["upstream"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (pairs, json)
}

#[test]
fn an_adr_amended_after_its_plan_makes_the_plan_stale_and_an_earlier_one_does_not() {
    let vault = TestVault::new();
    git(vault.root(), 1, &["init", "-q"]);
    let (research, adr, plan) = linked(&vault);
    commit_all(vault.root(), 1, "write them");
    let (found, json) = stale(&vault);
    assert!(found.is_empty(), "{json}");
    assert_eq!(json["data"]["dated_by"]["source"], "git");

    // The research changes, then the ADR is amended the day after: the
    // ADR is current with its research, the plan is not with its ADR.
    append(&vault, &research, "A new finding.");
    commit_all(vault.root(), 2, "research");
    append(&vault, &adr, "Amended after review.");
    commit_all(vault.root(), 3, "amend the ADR");
    let (found, json) = stale(&vault);
    assert_eq!(found, [(plan.clone(), adr.clone())], "{json}");
    let item = &json["data"]["diagnostics"]["items"][0];
    assert_eq!(item["upstream_changed"]["date"], "2026-01-03");
    assert_eq!(item["document_changed"]["date"], "2026-01-01");
    assert_eq!(item["severity"], "warning");

    // `--feature` narrows it; another feature has nothing stale.
    let (code, other) = envelope(
        &vault,
        &["vault", "check", "coherence", "--feature", "billing"],
    );
    assert_eq!(
        (code, other["data"]["diagnostics"]["total"].clone()),
        (0, 0.into())
    );

    // Editing the plan, even before a commit, is what clears it.
    append(&vault, &plan, "Reviewed against the amended ADR.");
    assert!(stale(&vault).0.is_empty());
    commit_all(vault.root(), 4, "review the plan");
    assert!(stale(&vault).0.is_empty());
}

#[test]
fn a_ledger_behind_its_plans_changed_steps_is_stale() {
    let vault = TestVault::new();
    git(vault.root(), 1, &["init", "-q"]);
    let plan = vault.doc("plan", "2026-01-01", "auth", None);
    let ledger = vault.doc("exec", "2026-01-01", "auth", None);
    let text = vault.read(&ledger).unwrap();
    vault.write(
        &ledger,
        &text.replace("related: []", "related:\n  - '[[2026-01-01-auth-plan]]'"),
    );
    commit_all(vault.root(), 2, "plan and ledger");
    append(&vault, &plan, "- [ ] `S09` A step added later `src/x.rs`");
    commit_all(vault.root(), 5, "steps changed");
    assert_eq!(stale(&vault).0, [(ledger, plan)]);
}

#[test]
fn a_rename_carries_history_and_only_content_counts() {
    let vault = TestVault::new();
    git(vault.root(), 1, &["init", "-q"]);
    let (_research, adr, plan) = linked(&vault);
    commit_all(vault.root(), 1, "write them");
    // The plan is revised on day 2; the ADR is only moved on day 3.
    append(&vault, &plan, "Revised.");
    commit_all(vault.root(), 2, "revise the plan");
    std::fs::create_dir_all(vault.root().join(".vault/adr/old")).unwrap();
    let moved = ".vault/adr/old/2026-01-01-auth-format-adr.md";
    git(vault.root(), 3, &["mv", &adr, moved]);
    commit_all(vault.root(), 3, "move the ADR");
    assert!(stale(&vault).0.is_empty(), "a move is not a change");
    // Changed under its new name on day 4: stale, named by where it is.
    append(&vault, moved, "Amended in its new place.");
    commit_all(vault.root(), 4, "amend it");
    assert_eq!(stale(&vault).0, [(plan.clone(), moved.to_owned())]);

    // The plan renamed too, without a change: its history follows it, so
    // it is still behind the ADR's day-4 change.
    let renamed = ".vault/plan/2026-01-01-auth-v2-plan.md";
    git(vault.root(), 5, &["mv", &plan, renamed]);
    commit_all(vault.root(), 5, "rename the plan");
    let (found, json) = stale(&vault);
    assert_eq!(found, [(renamed.to_owned(), moved.to_owned())], "{json}");
    assert_eq!(
        json["data"]["diagnostics"]["items"][0]["document_changed"]["date"], "2026-01-02",
        "the plan's last change, before its rename"
    );
}

#[test]
fn without_git_the_modified_dates_decide() {
    let vault = TestVault::new();
    let (_research, adr, plan) = linked(&vault);
    let text = vault.read(&adr).unwrap();
    vault.write(
        &adr,
        &text.replace("modified: '2026-01-01'", "modified: '2026-01-05'"),
    );
    let (found, json) = stale(&vault);
    assert_eq!(found, [(plan, adr)], "{json}");
    assert_eq!(json["data"]["dated_by"]["source"], "dates");
    assert!(
        json["data"]["dated_by"]["reason"]
            .as_str()
            .unwrap()
            .contains("not a git repository"),
        "{json}"
    );
}

#[test]
fn a_hostile_repository_is_reported_never_followed_and_never_hangs() {
    // `.git` a link to a repository outside the workspace.
    let outside = tempfile::tempdir().unwrap();
    git(outside.path(), 1, &["init", "-q"]);
    let vault = TestVault::new();
    linked(&vault);
    std::os::unix::fs::symlink(outside.path().join(".git"), vault.root().join(".git")).unwrap();
    let (_, json) = stale(&vault);
    let reason = json["data"]["dated_by"]["reason"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(reason.contains("symbolic link"), "{json}");

    // A `gitdir:` file pointing out of the workspace.
    std::fs::remove_file(vault.root().join(".git")).unwrap();
    vault.write(
        ".git",
        &format!("gitdir: {}\n", outside.path().join(".git").display()),
    );
    let (_, json) = stale(&vault);
    assert!(
        json["data"]["dated_by"]["reason"]
            .as_str()
            .unwrap()
            .contains("outside the workspace"),
        "{json}"
    );

    // Packs past the budget (a sparse file: nothing is read of it).
    std::fs::remove_file(vault.root().join(".git")).unwrap();
    git(vault.root(), 1, &["init", "-q"]);
    commit_all(vault.root(), 1, "write them");
    let pack = std::fs::File::create(vault.root().join(".git/objects/pack/pack-big.pack")).unwrap();
    pack.set_len(600 << 20).unwrap();
    let (_, json) = stale(&vault);
    assert!(
        json["data"]["dated_by"]["reason"]
            .as_str()
            .unwrap()
            .contains("budget"),
        "{json}"
    );
    std::fs::remove_file(vault.root().join(".git/objects/pack/pack-big.pack")).unwrap();

    // A loop of symbolic refs.
    vault.write(".git/HEAD", "ref: refs/heads/a\n");
    vault.write(".git/refs/heads/a", "ref: refs/heads/b\n");
    vault.write(".git/refs/heads/b", "ref: refs/heads/a\n");
    let (_, json) = stale(&vault);
    assert_eq!(json["data"]["dated_by"]["source"], "dates", "{json}");
}

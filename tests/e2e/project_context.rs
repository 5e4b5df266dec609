//! `project context`: the work in hand across the repository and the
//! vault. On the review fixture repository with four worktrees (a branch
//! checked out twice, a merge left in conflict, a locked detached one and
//! an edit in the main one) the git items equal what vaultspec-core 0.3.9
//! printed (`tests/fixtures/project-context/reference.json`); the vault's
//! plans and stale links come after them as sources of their own; GitHub
//! is read through a `gh` on `PATH` and every failure of it is a source's
//! reason, never the answer's.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use vaultspec_test_support::TestVault;

use crate::binary::{command, text};
use crate::mcp::Session;

const OBJECTIVE: &str = "refresh auth token expiry";

fn git(root: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(root)
        .env("GIT_AUTHOR_DATE", "2026-01-05T12:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-05T12:00:00Z")
        .env_remove("GIT_DIR")
        .output()
        .unwrap();
    assert!(
        out.status.success() || args.first() == Some(&"merge"),
        "git {args:?}: {}",
        text(&out.stderr)
    );
}

/// `parent/repo` cloned from the review fixture bundle, with the four
/// worktrees the reference was recorded with.
fn recorded_state(parent: &Path) -> PathBuf {
    let repo = parent.join("repo");
    std::fs::create_dir(&repo).unwrap();
    let bundle =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/review-context/repo.bundle");
    git(&repo, &["init", "-q"]);
    git(
        &repo,
        &[
            "fetch",
            "-q",
            "--update-head-ok",
            bundle.to_str().unwrap(),
            "refs/heads/*:refs/heads/*",
        ],
    );
    git(&repo, &["checkout", "-q", "-f", "main"]);
    let readme = repo.join("README.md");
    let mut text = std::fs::read_to_string(&readme).unwrap();
    text.push_str("edited\n");
    std::fs::write(&readme, text).unwrap();
    git(
        &repo,
        &["worktree", "add", "-q", "../wt-a", "docs/readme-cleanup"],
    );
    git(
        &repo,
        &[
            "worktree",
            "add",
            "-q",
            "--force",
            "../wt-b",
            "docs/readme-cleanup",
        ],
    );
    git(
        &repo,
        &["worktree", "add", "-q", "../wt-c", "conflict-demo"],
    );
    git(&parent.join("wt-c"), &["merge", "-q", "conflict-b"]);
    git(
        &repo,
        &["worktree", "add", "-q", "--detach", "../wt-d", "big2"],
    );
    git(&repo, &["worktree", "lock", "../wt-d"]);
    repo
}

fn context(root: &Path, args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["project", "context"];
    all.extend_from_slice(args);
    let out = command(&all).arg("--target").arg(root).output().unwrap();
    let value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), value, text(&out.stderr))
}

/// `value` with every string's `from` replaced by `to`.
fn replaced(value: &Value, from: &str, to: &str) -> Value {
    match value {
        Value::String(s) => Value::String(s.replace(from, to)),
        Value::Array(a) => Value::Array(a.iter().map(|v| replaced(v, from, to)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), replaced(v, from, to)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn the_repositorys_items_equal_the_references_and_the_vault_sources_follow() {
    let parent = tempfile::tempdir().unwrap();
    let parent = parent.path().canonicalize().unwrap();
    let repo = recorded_state(&parent);
    let (code, ours, stderr) = context(&repo, &[OBJECTIVE, "--json", "--limit", "10"]);
    assert_eq!(code, 0, "{stderr}");
    let recorded: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../tests/fixtures/project-context/reference.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let reference = replaced(&recorded, "/tmp/pcfix", parent.to_str().unwrap());
    assert_eq!(ours["schema"], reference["schema"]);
    let (ours, reference) = (&ours["data"], &reference["data"]);

    // The same shape, key for key, down to items, sources and hosted.
    assert_eq!(keys(ours), keys(reference));
    assert_eq!(keys(&ours["hosted"]), keys(&reference["hosted"]));
    assert_eq!(keys(&ours["bounds"]), keys(&reference["bounds"]));
    assert_eq!(keys(&ours["collection"]), keys(&reference["collection"]));
    assert_eq!(keys(&ours["items"][0]), keys(&reference["items"][0]));
    assert_eq!(keys(&ours["sources"][0]), keys(&reference["sources"][0]));

    // The same items in the same order (our own wording of the next
    // action aside); the ids, which hash this run's paths, are each
    // `git:` and the SHA-256 of the repository folder and the ref or
    // worktree path, as the reference's are.
    let strip = |item: &Value| {
        let mut item = item.clone();
        item.as_object_mut().unwrap().remove("next_action");
        item.as_object_mut().unwrap().remove("id");
        item
    };
    let items: Vec<Value> = ours["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(strip)
        .collect();
    let expected: Vec<Value> = reference["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(strip)
        .collect();
    assert_eq!(items, expected);
    let common = format!("{}/repo/.git", parent.display());
    for item in ours["items"].as_array().unwrap() {
        let name = match item["kind"].as_str().unwrap() {
            "worktree" => item["facts"]["path"].as_str().unwrap(),
            _ => item["facts"]["branch"].as_str().unwrap(),
        };
        let digest = Sha256::digest(format!("{common}\0{name}").as_bytes());
        assert_eq!(item["id"], format!("git:{}", hex::encode(digest)));
    }

    // Our sources follow the reference's; what we collect is no longer
    // listed as uncollected.
    let names: Vec<&str> = ours["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "branches",
            "worktrees",
            "github_issue",
            "github_pr",
            "vault_plans",
            "stale_links"
        ]
    );
    assert_eq!(
        &ours["sources"].as_array().unwrap()[..4],
        &reference["sources"].as_array().unwrap()[..]
    );
    // The fixture's vault has no plan and nothing stale.
    assert_eq!(ours["sources"][4]["status"], "ok");
    assert_eq!(ours["sources"][5]["count"], 0);
    assert_eq!(
        ours["uncollected"],
        json!([
            "boards",
            "milestones",
            "dependency_edges",
            "untracked_files"
        ])
    );
    for key in [
        "observed_items",
        "shortlisted",
        "returned",
        "truncated",
        "judgments",
    ] {
        assert_eq!(ours[key], reference[key], "{key}");
    }
    assert_eq!(ours["hosted"]["status"], "not_configured");
}

/// A vault whose plan has open steps behind a proposed ADR, and another
/// plan written before its ADR was amended.
#[test]
fn live_plans_and_stale_links_come_with_their_signals() {
    let vault = TestVault::new();
    git(vault.root(), &["init", "-q"]);
    let proposed = vault.doc("adr", "2026-01-01", "auth", Some("tokens"));
    let text = vault.read(&proposed).unwrap();
    vault.write(
        &proposed,
        &text.replace(
            "# `auth` adr",
            "# `auth` adr: tokens | (**status:** `proposed`)",
        ),
    );
    let amended = vault.doc("adr", "2026-01-01", "billing", Some("ledger"));
    let plan_text = |feature: &str, adr: &str| {
        let stem = adr.rsplit('/').next().unwrap().trim_end_matches(".md");
        format!(
            "---\ntags:\n  - '#plan'\n  - '#{feature}'\ndate: '2026-01-01'\nmodified: '2026-01-01'\nrelated:\n  - '[[{stem}]]'\ntier: L1\n---\n\n# `{feature}` plan\n\n## Steps\n\n- [x] `S01` - write the token format; `src/token.rs`.\n- [ ] `S02` - refresh tokens; `src/refresh.rs`.\n- [ ] `S03` - expire old tokens; `src/expire.rs`.\n"
        )
    };
    vault.write(
        ".vault/plan/2026-01-01-auth-plan.md",
        &plan_text("auth", &proposed),
    );
    vault.write(
        ".vault/plan/2026-01-01-billing-plan.md",
        &plan_text("billing", &amended),
    );
    git(vault.root(), &["add", "-A"]);
    git(vault.root(), &["commit", "-q", "-m", "plans"]);
    let text = vault.read(&amended).unwrap();
    vault.write(&amended, &format!("{text}\nAmended after the plan.\n"));

    let (code, json, stderr) = context(vault.root(), &["auth token refresh", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let data = &json["data"];
    let source = |name: &str| {
        data["sources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(source("vault_plans")["count"], 2, "{data}");
    assert_eq!(source("stale_links")["count"], 1, "{data}");

    let items = data["items"].as_array().unwrap();
    // Blocked steps and the stale link lead; the plain plan comes later.
    let first = &items[0];
    assert_eq!(first["kind"], "plan", "{data}");
    assert_eq!(first["id"], "vault:.vault/plan/2026-01-01-auth-plan.md");
    assert_eq!(first["attention_band"], 0);
    // S01 is checked with no ledger row behind it.
    assert_eq!(
        first["signals"],
        json!(["blocked_steps", "open_steps", "unrecorded_steps"])
    );
    assert_eq!(first["facts"]["unrecorded_steps"], 1);
    assert_eq!(first["facts"]["steps_open"], 2);
    assert_eq!(first["facts"]["blocked_steps"], 2);
    assert_eq!(
        first["facts"]["waits_on"],
        json!(["2026-01-01-auth-tokens-adr"])
    );
    let stale = &items[1];
    assert_eq!(stale["kind"], "stale_link", "{data}");
    assert_eq!(stale["signals"], json!(["stale_upstream"]));
    assert_eq!(
        stale["facts"]["document"],
        ".vault/plan/2026-01-01-billing-plan.md"
    );
    assert_eq!(stale["facts"]["upstream_changed"], "uncommitted");
    let billing = items
        .iter()
        .find(|i| i["id"] == "vault:.vault/plan/2026-01-01-billing-plan.md")
        .unwrap();
    assert_eq!(billing["attention_band"], 1, "{data}");
    assert_eq!(
        billing["signals"],
        json!(["open_steps", "unrecorded_steps"])
    );

    // Editing the plan clears the stale link.
    let plan = ".vault/plan/2026-01-01-billing-plan.md";
    let text = vault.read(plan).unwrap();
    vault.write(plan, &format!("{text}\nReviewed against the amendment.\n"));
    let (_, json, _) = context(vault.root(), &["auth", "--json"]);
    assert!(
        !json["data"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["kind"] == "stale_link"),
        "{json}"
    );
}

/// A `gh` that answers from files, for `--repo`.
fn fake_gh(dir: &Path, issues: &str, prs: &str) -> String {
    std::fs::write(dir.join("issues.json"), issues).unwrap();
    std::fs::write(dir.join("prs.json"), prs).unwrap();
    let script = format!(
        "#!/bin/sh\n[ \"$GH_PROMPT_DISABLED\" = 1 ] || exit 9\ncase \"$1\" in issue) cat '{0}/issues.json';; pr) cat '{0}/prs.json';; *) exit 3;; esac\n",
        dir.display()
    );
    let gh = dir.join("gh");
    std::fs::write(&gh, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:/usr/bin:/bin", dir.display())
}

fn with_path(root: &Path, path: &str, args: &[&str]) -> Value {
    with_env(root, &[("PATH", path)], args)
}

fn with_env(root: &Path, env: &[(&str, &str)], args: &[&str]) -> Value {
    let mut all = vec!["project", "context"];
    all.extend_from_slice(args);
    let mut command = command(&all);
    command
        .arg("--target")
        .arg(root)
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN");
    for (name, value) in env {
        command.env(name, value);
    }
    let out = command.output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn github_issues_and_pull_requests_come_through_gh_and_its_failures_are_reasons() {
    let vault = TestVault::new();
    let bin = tempfile::tempdir().unwrap();
    let path = fake_gh(
        bin.path(),
        r#"[{"number":3,"title":"Token expiry is wrong","updatedAt":"2026-01-02T00:00:00Z",
             "assignees":[],"labels":[{"name":"blocked"}]}]"#,
        r#"[{"number":4,"title":"Refresh tokens","updatedAt":"2026-01-03T00:00:00Z",
             "assignees":[{"login":"ann"}],"labels":[],"headRefOid":"abc","headRefName":"refresh",
             "isDraft":false,"reviewDecision":null,"mergeable":"MERGEABLE",
             "statusCheckRollup":[{"conclusion":"FAILURE"}]}]"#,
    );
    let json = with_path(
        vault.root(),
        &path,
        &["token refresh", "--repo", "acme/app", "--json"],
    );
    let data = &json["data"];
    let ids: Vec<&str> = data["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["github:acme/app:pr:4", "github:acme/app:issue:3"],
        "{data}"
    );
    assert_eq!(data["items"][0]["signals"], json!(["ci_failed"]));
    assert_eq!(data["items"][1]["signals"], json!(["labelled_blocked"]));
    assert_eq!(data["collection"]["commands"], 2);
    // No repository here: one `git` source says so, then GitHub's two.
    assert_eq!(data["sources"][0]["reason"], "no_repository");
    assert_eq!(data["sources"][1]["status"], "ok", "{data}");
    assert_eq!(data["sources"][2]["count"], 1, "{data}");

    // A reply that is not a listing, and no `gh` at all.
    let path = fake_gh(bin.path(), "{}", "not json");
    let json = with_path(vault.root(), &path, &["x", "--repo", "acme/app", "--json"]);
    assert_eq!(json["data"]["sources"][1]["reason"], "invalid_response");
    assert_eq!(json["data"]["sources"][2]["reason"], "invalid_response");
    let json = with_path(
        vault.root(),
        "/nonexistent",
        &["x", "--repo", "acme/app", "--json"],
    );
    assert_eq!(json["data"]["sources"][1]["reason"], "command_unavailable");
    assert_eq!(json["data"]["sources"][2]["status"], "unavailable");
}

#[test]
fn bad_requests_are_refused_naming_what_is_accepted() {
    let vault = TestVault::new();
    let big = vault.root().join("big.json");
    std::fs::write(&big, " ".repeat(64_001)).unwrap();
    let other = vault.root().join("other.json");
    std::fs::write(
        &other,
        r#"{"schema":"vaultspec.review.context.v1","data":{}}"#,
    )
    .unwrap();
    let good = vault.root().join("good.json");
    std::fs::write(
        &good,
        r#"{"schema":"vaultspec.project.context.v1","data":{"judgments":{}}}"#,
    )
    .unwrap();
    for (args, message) in [
        (vec!["  "], "objective must contain 1..1000 UTF-8 bytes"),
        (vec!["x", "--limit", "11"], "limit must be 1..10"),
        (vec!["x", "--repo", "not a repo"], "repo must be OWNER/REPO"),
        (
            vec!["x", "--previous", big.to_str().unwrap()],
            "previous result exceeds 64000 bytes",
        ),
        (
            vec!["x", "--previous", other.to_str().unwrap()],
            "previous must be a project context JSON result",
        ),
    ] {
        let (code, json, stderr) = context(vault.root(), &[&args[..], &["--json"]].concat());
        assert_eq!((code, json), (2, Value::Null), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let (code, _, stderr) = context(
        vault.root(),
        &["x", "--previous", good.to_str().unwrap(), "--json"],
    );
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_git_folder_that_links_out_is_not_read_and_the_vault_still_is() {
    let vault = TestVault::new();
    let outside = tempfile::tempdir().unwrap();
    git(outside.path(), &["init", "-q"]);
    std::os::unix::fs::symlink(outside.path().join(".git"), vault.root().join(".git")).unwrap();
    vault.doc("research", "2026-01-01", "auth", None);
    let (code, json, stderr) = context(vault.root(), &["auth", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let sources = &json["data"]["sources"];
    assert_eq!(sources[0]["name"], "git");
    assert_eq!(sources[0]["reason"], "linked_git_dir");
    assert_eq!(sources[3]["name"], "vault_plans");
    assert_eq!(sources[3]["status"], "ok");
}

#[test]
fn agents_reach_it_through_invoke_and_a_previous_file_must_be_in_the_workspace() {
    let vault = TestVault::new();
    git(vault.root(), &["init", "-q", "-b", "main"]);
    vault.doc("research", "2026-01-01", "auth", None);
    git(vault.root(), &["add", "-A"]);
    git(vault.root(), &["commit", "-q", "-m", "auth token research"]);
    let session = Session::start(&vault, &[]).unwrap();
    let reply = session
        .call(
            "invoke",
            json!({"verb": "project context", "positionals": [OBJECTIVE],
                   "arguments": {"limit": 1}}),
        )
        .unwrap();
    let structured = reply
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("{reply:?}"));
    let data = &structured["data"]["data"];
    assert_eq!(data["returned"], 1, "{data}");
    assert_eq!(data["observed_items"], 1, "{data}");
    assert_eq!(data["items"][0]["kind"], "worktree");
    assert_eq!(data["items"][0]["title"], "main: auth token research");

    let outside = tempfile::tempdir().unwrap();
    let previous = outside.path().join("previous.json");
    std::fs::write(
        &previous,
        r#"{"schema":"vaultspec.project.context.v1","data":{"judgments":{}}}"#,
    )
    .unwrap();
    let reply = session
        .call(
            "invoke",
            json!({"verb": "project context", "positionals": [OBJECTIVE],
                   "arguments": {"previous": previous.to_str().unwrap()}}),
        )
        .unwrap();
    let shown = format!("{reply:?}");
    assert!(shown.contains("inside the workspace"), "{shown}");

    // A tool call may have the person's GitHub login read only this
    // repository's own remotes.
    let with_repo = |repo: &str| {
        let reply = session
            .call(
                "invoke",
                json!({"verb": "project context", "positionals": [OBJECTIVE],
                       "arguments": {"repo": repo}}),
            )
            .unwrap();
        format!("{reply:?}")
    };
    let refused = with_repo("someone/private");
    assert!(
        refused.contains("must name a github.com remote"),
        "{refused}"
    );
    git(
        vault.root(),
        &["remote", "add", "origin", "git@github.com:acme/app.git"],
    );
    let refused = with_repo("someone/private");
    assert!(refused.contains("(acme/app)"), "{refused}");
    let allowed = with_repo("acme/app");
    assert!(allowed.contains("github_issue"), "{allowed}");
}

/// Without `gh` but with a token, GitHub's REST API is asked through
/// `curl`, the token on its stdin and never among its arguments.
#[test]
fn a_token_without_gh_reads_github_through_curl_keeping_the_token_off_the_command_line() {
    let vault = TestVault::new();
    let bin = tempfile::tempdir().unwrap();
    let dir = bin.path();
    std::fs::write(
        dir.join("issues.json"),
        r#"[{"number":3,"title":"Token expiry","updated_at":"2026-01-02T00:00:00Z",
             "assignees":[],"labels":[{"name":"blocked"}]},
            {"number":4,"title":"A pull request","updated_at":"2026-01-03T00:00:00Z",
             "assignees":[],"labels":[],"pull_request":{}}]"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("pulls.json"),
        r#"[{"number":4,"title":"A pull request","updated_at":"2026-01-03T00:00:00Z",
             "assignees":[{"login":"ann"}],"labels":[],"head":{"sha":"abc","ref":"fix"},"draft":true}]"#,
    )
    .unwrap();
    // The fake fails unless the token came on stdin and not as an
    // argument. Its PATH holds it alone (no `gh` anywhere), so its tools
    // are named by their paths.
    let tool = |name: &str| {
        ["/usr/bin", "/bin"]
            .iter()
            .map(|d| format!("{d}/{name}"))
            .find(|p| Path::new(p).exists())
            .unwrap()
    };
    let script = format!(
        "#!/bin/sh\ncase \"$*\" in *secret-token*) exit 7;; esac\n\
         {grep} -q 'Authorization: Bearer secret-token' || exit 8\n\
         case \"$*\" in *api.github.com/repos/acme/app/issues*) {cat} '{0}/issues.json';; \
         *api.github.com/repos/acme/app/pulls*) {cat} '{0}/pulls.json';; *) exit 9;; esac\n",
        dir.display(),
        grep = tool("grep"),
        cat = tool("cat"),
    );
    std::fs::write(dir.join("curl"), script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.join("curl"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.display().to_string();
    let json = with_env(
        vault.root(),
        &[("PATH", &path), ("GH_TOKEN", "secret-token")],
        &["token", "--repo", "acme/app", "--json"],
    );
    let data = &json["data"];
    assert_eq!(data["sources"][1]["status"], "ok", "{data}");
    assert_eq!(
        data["sources"][1]["count"], 1,
        "the pull request is not an issue: {data}"
    );
    assert_eq!(data["sources"][2]["count"], 1, "{data}");
    let pr = data["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == "github:acme/app:pr:4")
        .cloned()
        .unwrap_or_else(|| panic!("{data}"));
    assert_eq!(pr["signals"], json!(["draft"]));
    assert_eq!(pr["facts"]["ci"], "unknown");

    // Neither `gh` nor a token: the reason says so.
    let json = with_env(
        vault.root(),
        &[("PATH", &path)],
        &["token", "--repo", "acme/app", "--json"],
    );
    assert_eq!(json["data"]["sources"][1]["reason"], "command_unavailable");
}

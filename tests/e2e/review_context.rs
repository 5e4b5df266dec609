//! `review context`: the passages a review names, read from a commit or the
//! tracked working tree, equal to what vaultspec-core 0.3.9 read on the
//! same repository (`tests/fixtures/review-context/`), and every bad
//! request refused before anything is read.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use vaultspec_test_support::TestVault;

use crate::binary::{command, text};
use crate::mcp::Session;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/review-context")
        .join(name)
}

/// A workspace holding the fixture repository, on `main`.
fn clone() -> TestVault {
    let vault = TestVault::new();
    let bundle = fixture("repo.bundle");
    let git = |args: &[&std::ffi::OsStr]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(vault.root())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    };
    let os = std::ffi::OsStr::new;
    git(&[os("init"), os("-q")]);
    git(&[
        os("fetch"),
        os("-q"),
        os("--update-head-ok"),
        bundle.as_os_str(),
        os("refs/heads/*:refs/heads/*"),
    ]);
    git(&[os("checkout"), os("-q"), os("-f"), os("main")]);
    vault
}

fn review(root: &Path, args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["review", "context"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = command(&all).arg("--target").arg(root).output().unwrap();
    let value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), value, text(&out.stderr))
}

fn recorded(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture(name)).unwrap()).unwrap()
}

/// The passages and the commits: what must equal the reference's.
fn passages(envelope: &Value) -> Value {
    let data = &envelope["data"];
    json!({
        "base": data["scope"]["base"], "head": data["scope"]["head"],
        "source": data["scope"]["source"],
        "selected": data["selected"], "unselected": data["unselected"],
        "excluded": data["excluded"], "ordering": data["ordering"],
    })
}

#[test]
fn passages_from_commits_equal_the_references() {
    let repo = clone();
    let (code, ours, stderr) = review(
        repo.root(),
        &[
            "Token refresh returns a derived token",
            "--base",
            "576588d",
            "--head",
            "feature/auth-refresh",
            "--limit",
            "2",
            "--candidate",
            "src/auth.py:17-22",
            "--candidate",
            "tests/test_auth.py:9-14",
            "--candidate",
            "src/auth.py:17-22",
            "--candidate",
            "src/auth.py:5",
            "--candidate",
            "../outside.py",
            "--candidate",
            "/etc/passwd",
            "--candidate",
            ".env.example",
            "--candidate",
            "src/missing.py",
            "--candidate",
            "src/auth.py:1-121",
            "--candidate",
            "src/auth.py:30-40",
            "--candidate",
            "src/a:b.py",
            "--candidate",
            "src",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(passages(&ours), passages(&recorded("commits.json")));
    assert_eq!(ours["schema"], "vaultspec.review.context.v1");

    let (code, ours, stderr) = review(
        repo.root(),
        &[
            "Big files are read in bounded passages",
            "--base",
            "576588d",
            "--head",
            "d615082",
            "--candidate",
            "src/big.txt",
            "--candidate",
            "src/big.txt:100-219",
            "--candidate",
            "src/big.txt:1-70",
            "--candidate",
            "src/blob.bin",
            "--candidate",
            "README.md:1",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(passages(&ours), passages(&recorded("private-diff.json")));
}

#[test]
fn passages_from_the_working_tree_equal_the_references() {
    let repo = clone();
    let reference = recorded("worktree.json");
    // The reference read an edited README (its first passage, whole).
    let readme = reference["data"]["selected"][0]["content"]
        .as_str()
        .unwrap();
    std::fs::write(repo.root().join("README.md"), readme).unwrap();
    let (code, ours, stderr) = review(
        repo.root(),
        &[
            "Document the auth flow",
            "--base",
            "576588d",
            "--candidate",
            "README.md",
            "--candidate",
            "src/auth.py:1-8",
            "--candidate",
            ".vault/research/2026-12-07-auth-flow-research.md:1-12",
            "--candidate",
            "tests/test_auth.py:1-10",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(passages(&ours), passages(&reference));

    // A tracked file replaced by a link is never followed.
    std::fs::remove_file(repo.root().join("src/auth.py")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", repo.root().join("src/auth.py")).unwrap();
    let (_, ours, _) = review(
        repo.root(),
        &["x", "--base", "576588d", "--candidate", "src/auth.py:1-3"],
    );
    assert_eq!(
        ours["data"]["excluded"],
        json!([{"candidate": "c0", "reason": "linked_path"}]),
        "{ours}"
    );
}

#[test]
fn bad_requests_are_refused_naming_what_is_wrong() {
    let repo = clone();
    let thirteen: Vec<String> = (0..13)
        .flat_map(|_| ["--candidate".to_owned(), "README.md".to_owned()])
        .collect();
    let mut many = vec!["x", "--base", "576588d"];
    many.extend(thirteen.iter().map(String::as_str));
    for (args, says) in [
        (
            vec!["  ", "--base", "576588d", "--candidate", "README.md"],
            "objective must contain 1..1000 UTF-8 bytes",
        ),
        (
            vec![
                "x",
                "--base",
                "576588d",
                "--limit",
                "7",
                "--candidate",
                "README.md",
            ],
            "limit must be 1..6",
        ),
        (many, "supply 1..12 candidate locators"),
        (
            vec!["x", "--base", "no-such-rev", "--candidate", "README.md"],
            "git_read_failed",
        ),
        (
            vec!["x", "--base", "main\u{1}", "--candidate", "README.md"],
            "base and head must be Git commit references",
        ),
    ] {
        let (code, out, stderr) = review(repo.root(), &args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(out, Value::Null, "nothing on stdout: {out}");
    }
    let (code, _, stderr) = review(
        &repo.root().join("src"),
        &["x", "--base", "576588d", "--candidate", "auth.py"],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("target must be the Git repository root"),
        "{stderr}"
    );

    // A `.git` that links to a repository elsewhere is not read through.
    let elsewhere = TestVault::new();
    std::os::unix::fs::symlink(repo.root().join(".git"), elsewhere.root().join(".git")).unwrap();
    let (code, _, stderr) = review(
        elsewhere.root(),
        &["x", "--base", "576588d", "--candidate", "README.md"],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("symbolic link"), "{stderr}");
}

#[test]
fn agents_reach_it_through_invoke() {
    let repo = clone();
    let session = Session::start(&repo, &[]).unwrap();
    let reply = session
        .call(
            "invoke",
            json!({"verb": "review context", "positionals": ["Token refresh"],
                   "arguments": {"base": "576588d", "head": "feature/auth-refresh",
                                 "candidate": ["src/auth.py:17-22", "src/missing.py"]}}),
        )
        .unwrap();
    let structured = reply
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("{reply:?}"));
    let data = &structured["data"]["data"];
    assert_eq!(
        data["selected"][0]["locator"], "src/auth.py:17-22",
        "{data}"
    );
    assert_eq!(data["excluded"][0]["reason"], "not_one_tracked_file");
}

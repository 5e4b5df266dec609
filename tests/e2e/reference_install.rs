//! A workspace as `vaultspec-core install` 0.3.9 leaves it (fixture
//! `tests/fixtures/reference-install`, bodies trimmed, names and frontmatter
//! as written) gets no problem from `check all`, and no fixer touches it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use vaultspec_test_support::{cache_dir, golden};

/// The document folders `install` creates, empty (git keeps no empty folder).
const VAULT_FOLDERS: [&str; 7] = [
    "adr",
    "audit",
    "exec",
    "index",
    "plan",
    "reference",
    "research",
];

/// A copy of the fixture with the empty folders `install` also makes.
fn installed_copy() -> tempfile::TempDir {
    let source =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/reference-install");
    let dir = tempfile::tempdir().unwrap();
    golden::copy_tree(&source, dir.path());
    for folder in VAULT_FOLDERS {
        std::fs::create_dir_all(dir.path().join(".vault").join(folder)).unwrap();
    }
    for folder in ["hooks", "triggers"] {
        std::fs::create_dir_all(dir.path().join(".vaultspec").join(folder)).unwrap();
    }
    dir
}

fn run(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vaultspec"))
        .arg("--target")
        .arg(root)
        .args(args)
        .env(
            "VAULTSPEC_CACHE_DIR",
            cache_dir().parent().unwrap().join("test-cli-cache"),
        )
        .env_remove("VAULTSPEC_TARGET_DIR")
        .output()
        .expect("running vaultspec")
}

/// Every file of the workspace but the runtime ones under `.vault/data`
/// and `.vault/logs`, by path.
fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if relative == ".vault/data" || relative == ".vault/logs" {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// Every error and warning `check all --json` reports, as `check: path: message`.
fn problems(out: &Output) -> Vec<String> {
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let checks = report["data"]["checks"]
        .as_array()
        .expect("a list of checks");
    assert_eq!(checks.len(), 20, "every check ran");
    let mut found = Vec::new();
    for check in checks {
        for item in check["diagnostics"]["items"].as_array().unwrap() {
            if matches!(item["severity"].as_str(), Some("error" | "warning")) {
                found.push(format!(
                    "{}: {}: {}",
                    check["check_name"], item["path"], item["message"]
                ));
            }
        }
    }
    found
}

#[test]
fn a_freshly_installed_workspace_passes_every_check() {
    let copy = installed_copy();
    let out = run(copy.path(), &["vault", "check", "all", "--json"]);
    assert_eq!(problems(&out), Vec::<String>::new());
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn no_fixer_rewrites_a_freshly_installed_workspace() {
    let copy = installed_copy();
    let before = tree(copy.path());
    assert!(before.contains_key(".vaultspec/rules/vaultspec-cli.builtin.md"));
    for args in [
        &["vault", "check", "all", "--fix"][..],
        &["vault", "check", "rename-integrity", "--fix"][..],
        &["vault", "repair"][..],
    ] {
        let out = run(copy.path(), args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let after = tree(copy.path());
        let changed: Vec<&String> = after
            .iter()
            .filter(|(path, bytes)| before.get(*path) != Some(*bytes))
            .map(|(path, _)| path)
            .chain(before.keys().filter(|path| !after.contains_key(*path)))
            .collect();
        assert!(changed.is_empty(), "{args:?} changed {changed:?}");
    }
}

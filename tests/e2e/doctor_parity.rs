//! `spec doctor --json` against the reference's own, on a workspace
//! `vaultspec-core` 0.3.9 installed and five ways of breaking it: the same
//! keys with the same values, and the same exit code; the root `doctor`
//! nests the same report.
//!
//! The reference's reports were recorded on the same workspace
//! (`tests/fixtures/doctor/reference.json`); where vaultspec knowingly
//! reads a value differently it is named in [`OURS`].

use std::path::Path;

use serde_json::{Map, Value};

use crate::binary::run_in;

/// Keys whose value depends on the machine or the tool, not the workspace:
/// the companion's version (a Python package's metadata) and `mcp`, which
/// vaultspec weighs against its own launch (never weighed either way).
const OURS: [&str; 3] = ["home.companion.version", "home.companion.signal", "mcp"];

/// How one set-up breaks the installed workspace.
type Breakage = fn(&Path);

fn flatten(value: &Value, prefix: &str, out: &mut Map<String, Value>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let path = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(inner, &path, out);
            }
        }
        other => {
            out.insert(prefix.to_owned(), other.clone());
        }
    }
}

fn copy(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

fn append(root: &Path, path: &str, text: &str) {
    let file = root.join(path);
    let mut old = std::fs::read_to_string(&file).unwrap();
    old.push_str(text);
    std::fs::write(file, old).unwrap();
}

#[test]
fn the_doctor_agrees_with_the_reference_on_a_fresh_install_and_five_breakages() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/doctor");
    let reference: Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("reference.json")).unwrap())
            .unwrap();
    let breakages: [(&str, Breakage); 7] = [
        ("fresh", |_| {}),
        ("a_gitignore_block_deleted", |r| {
            std::fs::write(r.join(".gitignore"), "").unwrap()
        }),
        ("b_provider_rule_edited", |r| {
            append(r, ".claude/rules/vaultspec.builtin.md", "local edit\n")
        }),
        ("c1_builtin_source_modified", |r| {
            append(r, ".vaultspec/rules/vaultspec.builtin.md", "local edit\n")
        }),
        ("c2_stale_mcp_seed", |r| {
            std::fs::write(
                r.join(".vaultspec/mcps/vaultspec-core.builtin.json"),
                "{\n  \"command\": \"uv\",\n  \"args\": [\"run\", \"vaultspec-core-mcp\"]\n}\n",
            )
            .unwrap()
        }),
        ("d_hook_unapproved", |r| {
            std::fs::create_dir_all(r.join(".vaultspec/hooks")).unwrap();
            std::fs::write(
                r.join(".vaultspec/hooks/x.yaml"),
                "event: pre_tool_use\ncommand: echo hi\n",
            )
            .unwrap()
        }),
        ("e_precommit_missing", |r| {
            std::fs::remove_file(r.join(".pre-commit-config.yaml")).unwrap()
        }),
    ];
    let mut differences = Vec::new();
    for (case, break_it) in breakages {
        let ws = tempfile::tempdir().unwrap();
        copy(&fixtures.join("fresh"), ws.path());
        break_it(ws.path());
        let out = run_in(ws.path(), &["spec", "doctor", "--json"]);
        let ours: Value = serde_json::from_slice(&out.stdout).unwrap();
        let theirs = &reference[case];
        if out.status.code() != theirs["exit"].as_i64().map(|c| c as i32) {
            differences.push(format!(
                "{case}: exit {:?}, the reference's {}\n{:#}",
                out.status.code(),
                theirs["exit"],
                ours["data"]["signals"]
            ));
        }
        if ours["status"] != theirs["status"] {
            differences.push(format!(
                "{case}: status {}, the reference's {}",
                ours["status"], theirs["status"]
            ));
        }
        // The root doctor nests the same report and weighs it the same
        // (the vault itself is clean here); it fails only on errors.
        let root = run_in(ws.path(), &["doctor", "--json"]);
        let root_report: Value = serde_json::from_slice(&root.stdout).unwrap();
        let root_status = if theirs["exit"] == 2 {
            "failed"
        } else {
            "unchanged"
        };
        if root.status.code() != theirs["exit"].as_i64().map(|c| c as i32)
            || root_report["status"] != root_status
            || root_report["data"]["spec"]["gitignore"] != theirs["data"]["gitignore"]
        {
            differences.push(format!("{case}: the root doctor says {root_report:#}"));
        }
        let (mut want, mut got) = (Map::new(), Map::new());
        flatten(&theirs["data"], "", &mut want);
        flatten(&ours["data"], "", &mut got);
        for (key, value) in &want {
            if OURS.contains(&key.as_str()) {
                continue;
            }
            // Each hook row without its absolute path, which differs by folder.
            let mine = match (key.as_str(), got.get(key)) {
                ("home.provider_hooks", Some(Value::Array(rows))) => Value::Array(
                    rows.iter()
                        .map(|row| {
                            let mut row = row.clone();
                            row.as_object_mut().map(|r| r.remove("native_path"));
                            row
                        })
                        .collect(),
                ),
                (_, mine) => mine.cloned().unwrap_or(Value::String("<absent>".into())),
            };
            if &mine != value {
                differences.push(format!(
                    "{case}: `{key}` is {mine}, the reference's {value}"
                ));
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

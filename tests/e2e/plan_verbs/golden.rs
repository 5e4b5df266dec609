//! The golden vectors 40–91 (plan, exec and check verbs) through our
//! binary: the same `.vault/` bytes afterwards, the same exit codes and the
//! same contract values on stdout (not the wording).
//!
//! Each `command.txt` line runs with the workspace as the current folder, no
//! `--target`, `VAULTSPEC_NO_HINTS=1`, exactly as the reference ran it (its
//! tier flag `--target Ln` included).

use std::process::Command;

use serde_json::Value;
use vaultspec_test_support::TestVault;
use vaultspec_test_support::contract::Contract;
use vaultspec_test_support::golden::{self, GENERATION_DAY};

use super::{cli_cache, text};

/// Wording keys aside, every value as the reference printed it.
const CONTRACT: Contract<'static> = Contract {
    wording: &["message", "hint", "fix_description"],
    roots: ("", ""),
    string_sets: false,
};

fn run_vector(name: &str) -> anyhow::Result<()> {
    let vector = golden::dir().join(name);
    let vault = TestVault::new();
    golden::copy_tree(&vector.join("before"), vault.root());
    let root = vault.root().to_string_lossy().into_owned();
    let commands = std::fs::read_to_string(vector.join("command.txt"))?;
    let exits: Vec<String> = std::fs::read_to_string(vector.join("exit.txt"))?
        .lines()
        .map(str::to_owned)
        .collect();
    let outputs: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(vector.join("stdout.json"))?)?;
    let mut problems = Vec::new();
    for (i, line) in commands
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
    {
        let words = shell_words::split(line)?;
        assert_eq!(words[0], "vaultspec-core", "{name}: CLI lines only");
        let out = Command::new(env!("CARGO_BIN_EXE_vaultspec"))
            .args(&words[1..])
            .current_dir(vault.root())
            .env("VAULTSPEC_NO_HINTS", "1")
            .env("VAULTSPEC_CACHE_DIR", cli_cache())
            .env_remove("VAULTSPEC_TARGET_DIR")
            .output()?;
        let stdout = text(&out.stdout);
        let code = out
            .status
            .code()
            .map_or("signal".to_owned(), |c| c.to_string());
        if exits.get(i).map(String::as_str) != Some(code.as_str()) {
            problems.push(format!(
                "line {}: exit {code}, expected {:?}\nstdout: {stdout}\nstderr: {}",
                i + 1,
                exits.get(i),
                text(&out.stderr)
            ));
        }
        let expected = outputs.get(i).cloned().unwrap_or(Value::Null);
        if expected.is_null() || expected.get("_text").is_some() {
            continue;
        }
        match serde_json::from_str::<Value>(&stdout) {
            Ok(actual) => {
                let diffs = CONTRACT.with_root(&root).diff(&expected, &actual, "");
                if !diffs.is_empty() {
                    problems.push(format!(
                        "line {}: {}\nactual: {actual}",
                        i + 1,
                        diffs.join("\n")
                    ));
                }
            }
            Err(e) => problems.push(format!("line {}: no JSON on stdout ({e}): {stdout}", i + 1)),
        }
    }
    problems.extend(golden::compare_vault(&vector, vault.root()));
    assert!(
        problems.is_empty(),
        "vector `{name}`:\n{}",
        problems.join("\n\n")
    );
    Ok(())
}

/// Every plan, exec and check vector (40–91) through our binary.
#[test]
fn golden_plan_exec_and_check_vectors_leave_the_same_bytes() -> anyhow::Result<()> {
    let dir = golden::dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| {
            n.get(..2)
                .and_then(|p| p.parse::<u32>().ok())
                .is_some_and(|n| (40..=91).contains(&n))
        })
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let mut failed = Vec::new();
    for name in &names {
        match std::panic::catch_unwind(|| run_vector(name)) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failed.push(format!("vector `{name}`: {e:#}")),
            Err(panic) => failed.push(
                panic
                    .downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| format!("vector `{name}` panicked")),
            ),
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} vectors failed (run on {}; vectors made {GENERATION_DAY}):\n{}",
        failed.len(),
        names.len(),
        golden::today(),
        failed.join("\n\n")
    );
    Ok(())
}

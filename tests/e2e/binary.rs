//! Running the real `vaultspec` binary at the command line, the way the CLI
//! tests share: the tests' compile cache, and no workspace or hint settings
//! leaking in from the environment of the test run.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use vaultspec_test_support::{TestVault, cache_dir};

/// `vaultspec ARGS` with the shared compile cache and a clean environment.
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vaultspec"));
    command
        .args(args)
        .env(
            "VAULTSPEC_CACHE_DIR",
            cache_dir().parent().unwrap().join("test-cli-cache"),
        )
        // A home of the tests' own: `install` records MCP ownership under
        // `~/.vaultspec`, and no test may write into the real home. A test
        // that needs a home of its own sets `HOME` again.
        .env("HOME", cache_dir().parent().unwrap().join("test-home"))
        .env_remove("CODEX_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("VAULTSPEC_TARGET_DIR")
        .env_remove("VAULTSPEC_NO_HINTS")
        .env_remove("GIT_INDEX_FILE");
    command
}

/// `vaultspec ARGS --target VAULT`, run to completion.
pub fn vaultspec(vault: &TestVault, args: &[&str]) -> Output {
    command(args)
        .arg("--target")
        .arg(vault.root())
        .output()
        .expect("running vaultspec")
}

/// `vaultspec ARGS` run from `cwd`, with no workspace named.
pub fn run_in(cwd: &Path, args: &[&str]) -> Output {
    command(args)
        .current_dir(cwd)
        .output()
        .expect("running vaultspec")
}

/// Output bytes as text, lossily.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `vaultspec ARGS --json --target VAULT`: the exit code and the JSON
/// envelope (the test fails when no JSON was printed).
pub fn envelope(vault: &TestVault, args: &[&str]) -> (i32, Value) {
    let mut args = args.to_vec();
    args.push("--json");
    parsed(&args, &vaultspec(vault, &args))
}

/// The exit code and JSON document of a run of `args` (the test fails when
/// no JSON was printed).
pub fn parsed(args: &[&str], out: &Output) -> (i32, Value) {
    let value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?} printed no JSON ({e}):\n{}\n{}",
            text(&out.stdout),
            text(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), value)
}

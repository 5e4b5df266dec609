//! A user of the real binary: a home folder of their own (so the trust file
//! `~/.vaultspec/verb-trust.json`, their component folder and the SDK folder
//! are the test's own), and a pseudo-terminal made by `script(1)` for what
//! needs a person at a terminal.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use anyhow::Context;
use serde_json::Value;
use vaultspec_test_support::{TestVault, cache_dir};

/// A user: a home folder of their own, holding their trust file.
pub struct User {
    home: tempfile::TempDir,
}

impl User {
    pub fn new() -> Self {
        Self {
            home: tempfile::tempdir().expect("creating a home folder"),
        }
    }

    pub fn home(&self) -> &Path {
        self.home.path()
    }

    pub fn trust_file(&self) -> Option<Value> {
        let text = std::fs::read_to_string(self.home().join(".vaultspec/verb-trust.json")).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// `vaultspec ARGS --target VAULT`, stdin closed (not a terminal).
    pub fn run(&self, vault: &TestVault, args: &[&str]) -> Output {
        self.command(vault, args)
            .stdin(Stdio::null())
            .output()
            .expect("running vaultspec")
    }

    /// `vaultspec ARGS --target VAULT` at a pseudo-terminal, typing `answer`.
    pub fn run_at_terminal(&self, vault: &TestVault, args: &[&str], answer: &str) -> Output {
        let mut words: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        words.extend(["--target".to_owned(), vault.root().display().to_string()]);
        at_terminal(env!("CARGO_BIN_EXE_vaultspec"), &words, answer, |command| {
            command.envs(self.env()).env_remove("VAULTSPEC_TARGET_DIR");
        })
    }

    pub fn command(&self, vault: &TestVault, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_vaultspec"));
        command
            .args(args)
            .arg("--target")
            .arg(vault.root())
            .envs(self.env())
            .env_remove("VAULTSPEC_TARGET_DIR");
        command
    }

    pub fn env(&self) -> Vec<(&'static str, PathBuf)> {
        vec![
            ("HOME", self.home().to_owned()),
            (
                "VAULTSPEC_CACHE_DIR",
                cache_dir().parent().unwrap().join("test-cli-cache"),
            ),
        ]
    }
}

/// `program ARGS` at a pseudo-terminal made by `script(1)`, typing
/// `answer`; `configure` sets the folder and environment of the run.
pub fn at_terminal(
    program: &str,
    args: &[String],
    answer: &str,
    configure: impl FnOnce(&mut Command),
) -> Output {
    let mut line = vec![quote(program)];
    line.extend(args.iter().map(|a| quote(a)));
    let mut command = Command::new("script");
    command.args(["-qec", &line.join(" "), "/dev/null"]);
    configure(&mut command);
    let mut child = command
        .env("SHELL", "/bin/sh")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running a command under script(1)");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), answer.as_bytes()).unwrap();
    drop(child.stdin.take());
    child.wait_with_output().expect("waiting for script(1)")
}

pub fn quote(arg: &str) -> String {
    format!("'{}'", arg.replace('\'', r"'\''"))
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn json(out: &Output) -> anyhow::Result<Value> {
    serde_json::from_slice(&out.stdout)
        .with_context(|| format!("stdout is not JSON: {}", text(&out.stdout)))
}

//! A new user's second hour, as the README tells it: `vaultspec` on `PATH`
//! where `cargo install` puts it, a fresh repository, `install`, approval
//! at a pseudo-terminal, one document of each type, a plan worked and
//! logged by its feature name, the checks and both doctors agreeing, then
//! a verb of their own (`verbs new`, build, the install step exactly as
//! printed, trust) called by an agent through the MCP server the
//! enrollment names. Every step is the one the previous printed.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use anyhow::{Context, ensure};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use vaultspec_test_support::cache_dir;

use crate::user::{at_terminal, text};

/// A person: a home of their own with `~/.cargo/bin/vaultspec` on `PATH`,
/// and a fresh git repository to work in.
struct Person {
    home: tempfile::TempDir,
    repo: tempfile::TempDir,
}

impl Person {
    fn new() -> anyhow::Result<Self> {
        let home = tempfile::tempdir()?;
        let bin = home.path().join(".cargo/bin");
        std::fs::create_dir_all(&bin)?;
        // What `cargo install --locked --path host` leaves there.
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_vaultspec"), bin.join("vaultspec"))?;
        let repo = tempfile::tempdir()?;
        let git = Command::new("git")
            .args(["init", "-q"])
            .current_dir(repo.path())
            .output()?;
        ensure!(git.status.success(), "git init: {}", text(&git.stderr));
        Ok(Self { home, repo })
    }

    fn path_var(&self) -> String {
        format!(
            "{}:/usr/local/bin:/usr/bin:/bin",
            self.home.path().join(".cargo/bin").display()
        )
    }

    fn env(&self) -> Vec<(&'static str, PathBuf)> {
        vec![
            ("HOME", self.home.path().to_owned()),
            ("PATH", self.path_var().into()),
            ("CODEX_HOME", self.home.path().join(".codex")),
            (
                "VAULTSPEC_CACHE_DIR",
                cache_dir().parent().unwrap().join("test-cli-cache"),
            ),
        ]
    }

    /// `vaultspec ARGS` typed in the repository, found on `PATH`.
    fn run(&self, args: &[&str]) -> Output {
        Command::new("vaultspec")
            .args(args)
            .current_dir(self.repo.path())
            .env_clear()
            .envs(self.env())
            .stdin(Stdio::null())
            .output()
            .expect("running vaultspec from PATH")
    }

    /// [`Person::run`], requiring exit code `code`.
    fn expect(&self, code: i32, args: &[&str]) -> Output {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(code),
            "`vaultspec {}`:\n{}{}",
            args.join(" "),
            text(&out.stdout),
            text(&out.stderr)
        );
        out
    }

    /// `vaultspec ARGS --json`, requiring `code`; its document.
    fn json(&self, code: i32, args: &[&str]) -> Value {
        let mut args = args.to_vec();
        args.push("--json");
        let out = self.expect(code, &args);
        serde_json::from_slice(&out.stdout).expect("one JSON document")
    }

    /// `vaultspec ARGS` at a pseudo-terminal, typing `answer`.
    fn at_terminal(&self, args: &[&str], answer: &str) -> Output {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        at_terminal("vaultspec", &args, answer, |command| {
            command
                .current_dir(self.repo.path())
                .env_clear()
                .envs(self.env())
                .env("TERM", "dumb");
        })
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.repo.path().join(path))
            .unwrap_or_else(|e| panic!("reading {path}: {e}"))
    }
}

/// The command lines of a `Next:` footer.
fn next_commands(printed: &str) -> Vec<String> {
    printed
        .lines()
        .skip_while(|l| !l.starts_with("Next:"))
        .filter(|l| l.starts_with("    "))
        .map(|l| l.trim().to_owned())
        .collect()
}

#[test]
fn a_new_users_second_hour_has_no_wrong_turn() -> anyhow::Result<()> {
    let person = Person::new()?;

    // Install; its next step is the doctor of the agents' setup.
    let install = person.expect(0, &["install"]);
    let said = text(&install.stdout);
    assert!(said.contains("vaultspec spec doctor"), "{said}");
    assert!(
        !said.contains("--force"),
        "no --force the person never used: {said}"
    );
    assert!(
        said.contains("\n    vaultspec spec doctor\n") && !said.contains("not this binary"),
        "on PATH, the short name: {said}"
    );

    // Approve the MCP server at a terminal, then sync: the entry names
    // the command on PATH, never a path inside a build folder.
    let trust = person.at_terminal(&["spec", "mcps", "trust"], "y\n");
    assert!(trust.status.success(), "{}", text(&trust.stdout));
    person.json(0, &["spec", "mcps", "sync"]);
    let mcp: Value = serde_json::from_str(&person.read(".mcp.json"))?;
    let entry = &mcp["mcpServers"]["vaultspec-core"];
    assert_eq!(
        entry,
        &json!({"command": "vaultspec", "args": ["mcp"]}),
        "{mcp}"
    );
    person.expect(0, &["spec", "mcps", "status"]);

    // One document of each type, bare: each passes the vault's own checks.
    for doc_type in ["research", "adr", "reference", "audit", "plan"] {
        person.json(0, &["vault", "add", doc_type, "--feature", "cache-layer"]);
    }
    // A plan worked by its feature name: steps added, checked, logged.
    for action in ["Add the eviction policy", "Wire the cache into reads"] {
        person.json(
            0,
            &[
                "vault",
                "plan",
                "step",
                "add",
                "cache-layer",
                "--action",
                action,
                "--scope",
                "src/cache.rs",
            ],
        );
    }
    person.json(0, &["vault", "plan", "step", "check", "cache-layer", "S01"]);
    let logged = person.json(
        0,
        &[
            "vault",
            "exec",
            "log",
            "--feature",
            "cache-layer",
            "--step",
            "S01",
            "--row",
            "A:src/cache.rs",
            "--verify",
            "cargo test=pass",
        ],
    );
    assert_eq!(logged["status"], "logged", "{logged}");
    let progress = person.json(0, &["vault", "plan", "status", "cache-layer"]);
    assert_eq!(progress["data"]["steps_completed"], 1, "{progress}");
    assert_eq!(progress["data"]["next_open_step"], "S02", "{progress}");
    assert_eq!(
        progress["data"]["exec_missing_ids"],
        json!([]),
        "S01 was logged: {progress}"
    );

    // The checks pass; each finding they still have names a command that
    // settles it (here: the feature's index), and it runs.
    let check = person.json(0, &["vault", "check", "all"]);
    let mut fixes = Vec::new();
    for finding in check["data"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["diagnostics"]["items"].as_array().unwrap())
    {
        let fix = finding["fix_description"].as_str().unwrap_or_default();
        assert!(
            fix.starts_with("vaultspec "),
            "a finding with no command: {finding}"
        );
        fixes.push(fix.to_owned());
    }
    for fix in &fixes {
        let words: Vec<&str> = fix.split_whitespace().collect();
        person.expect(0, &words[1..]);
    }
    let check = person.json(0, &["vault", "check", "all"]);
    assert_eq!(
        check["status"], "unchanged",
        "clean after {fixes:?}: {check}"
    );
    assert!(
        !check.to_string().contains("\"severity\""),
        "no finding left: {check}"
    );
    let doctor = person.run(&["doctor"]);
    let spec_doctor = person.run(&["spec", "doctor"]);
    assert_eq!(
        doctor.status.code(),
        spec_doctor.status.code(),
        "doctor:\n{}\nspec doctor:\n{}{}",
        text(&doctor.stdout),
        text(&spec_doctor.stdout),
        text(&spec_doctor.stderr)
    );
    assert_eq!(doctor.status.code(), Some(0), "{}", text(&doctor.stdout));

    // Every command `status` suggests runs.
    let status = person.expect(0, &["status"]);
    for command in next_commands(&text(&status.stdout)) {
        let words: Vec<&str> = command.split_whitespace().collect();
        ensure!(
            words[0] == "vaultspec",
            "a next step that is not ours: {command}"
        );
        person.expect(0, &words[1..]);
    }

    // A verb of their own: scaffold, build, install as printed, trust.
    let scratch = tempfile::tempdir()?;
    let crate_dir = scratch.path().join("my-notes");
    let created = person.json(
        0,
        &[
            "verbs",
            "new",
            "my-notes",
            "--dir",
            crate_dir.to_str().unwrap(),
        ],
    );
    let wasm = crate::verb_author::build(&crate_dir)?;
    let built = crate_dir.join(created["data"]["component"].as_str().context("component")?);
    std::fs::create_dir_all(built.parent().unwrap())?;
    std::fs::copy(&wasm, &built)?;
    let install_step = created["data"]["install"]
        .as_str()
        .context("install step")?;
    let install = Command::new("sh")
        .args(["-c", install_step])
        .current_dir(&crate_dir)
        .env_clear()
        .envs(person.env())
        .output()?;
    ensure!(
        install.status.success(),
        "`{install_step}`: {}",
        text(&install.stderr)
    );
    let trust = person.at_terminal(&["verbs", "trust", "my-notes"], "y\n");
    ensure!(trust.status.success(), "{}", text(&trust.stdout));

    // An agent starts the server the enrollment names and invokes the verb.
    let documents = person.json(0, &["vault", "list"])["data"]["total"].clone();
    let reply = invoke_as_an_agent(&person, entry, "my notes count")?;
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(reply["data"]["data"]["count"], documents, "{reply}");
    Ok(())
}

/// Start `entry` (an `.mcp.json` server) in the repository as an agent
/// would, and call `invoke` on `verb`; its structured reply.
fn invoke_as_an_agent(person: &Person, entry: &Value, verb: &str) -> anyhow::Result<Value> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let program = entry["command"].as_str().context("command")?;
    let mut command = tokio::process::Command::new(program);
    command
        .args(
            entry["args"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str),
        )
        .current_dir(person.repo.path())
        .env_clear()
        .envs(person.env())
        .env("VAULTSPEC_STDIO_WATCHDOG", "0")
        .env("VAULTSPEC_LOG_LEVEL", "error");
    runtime.block_on(async {
        let client = ().serve(TokioChildProcess::new(command)?).await?;
        let mut params = CallToolRequestParams::new("invoke");
        if let Value::Object(map) = json!({"verb": verb}) {
            params = params.with_arguments(map);
        }
        let result = client.call_tool(params).await?;
        client.cancel().await?;
        result
            .structured_content
            .context("invoke answered without structured content")
    })
}

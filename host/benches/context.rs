//! Benchmarks of what reads the repository's history: `vault check
//! coherence`, `status` (whose `stale` section dates documents through the
//! host's `vault-history` interface) and `project context`, one process
//! each, and the MCP `status` and `find` of a warm server right after one
//! edit, on generated vaults of 1,250 documents (the size of the
//! reference's own repository) and 10,000, each committed and then changed
//! by 300 more commits of three documents apiece.
//!
//! Run with `cargo bench -p vaultspec-host --bench context`. Where
//! `vaultspec-core-ref` (the reference, `../shared/tools/reference`) is on
//! `PATH`, its `project context` is timed on the same repository in the
//! same run. Target: each within a second on the reference-sized vault.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use support::{Server, median, ms, vault};

const SAMPLES: usize = 5;
const COMMITS: usize = 300;

fn git(root: &Path, day: usize, args: &[&str]) -> anyhow::Result<()> {
    let date = format!("@{} +0000", 1_767_225_600 + day * 3_600);
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=bench",
            "-c",
            "user.email=bench@example.com",
        ])
        .args(args)
        .current_dir(root)
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .output()?;
    anyhow::ensure!(out.status.success(), "git {args:?} failed");
    Ok(())
}

/// The vault's documents committed, then [`COMMITS`] commits of three
/// documents each (every 7th, 11th and 13th, in turn).
fn history(root: &Path) -> anyhow::Result<()> {
    let mut docs = Vec::new();
    let mut stack = vec![root.join(".vault")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                docs.push(path);
            }
        }
    }
    docs.sort();
    git(root, 0, &["init", "-q"])?;
    git(root, 0, &["add", "-A"])?;
    git(root, 0, &["commit", "-q", "-m", "the vault"])?;
    for n in 1..=COMMITS {
        for step in [7, 11, 13] {
            let path = &docs[(n * step) % docs.len()];
            let mut text = std::fs::read_to_string(path)?;
            text.push_str(&format!("\nRevised in commit {n}.\n"));
            std::fs::write(path, text)?;
        }
        git(
            root,
            n,
            &["commit", "-q", "-a", "-m", &format!("revise {n}")],
        )?;
    }
    Ok(())
}

fn run(program: &Path, root: &Path, cache: &Path, args: &[&str]) -> anyhow::Result<Duration> {
    let mut command = Command::new(program);
    command.args(args).current_dir(root);
    support::timed_run(command, cache)
}

fn timed(program: &Path, root: &Path, cache: &Path, args: &[&str]) -> anyhow::Result<Duration> {
    run(program, root, cache, args)?;
    (0..SAMPLES)
        .map(|_| run(program, root, cache, args))
        .collect::<anyhow::Result<Vec<_>>>()
        .map(median)
}

/// Whether `program` runs at all.
fn on_path(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn main() -> anyhow::Result<()> {
    let cache = tempfile::tempdir()?;
    let ours = Path::new(env!("CARGO_BIN_EXE_vaultspec"));
    let reference = on_path("vaultspec-core-ref").then(|| Path::new("vaultspec-core-ref"));
    println!("| measure | documents | time |");
    println!("|---|---:|---:|");
    for docs in [1_250, 10_000] {
        let root = vault(docs)?;
        let started = Instant::now();
        history(root.path())?;
        eprintln!(
            "{docs} documents: {COMMITS} commits made in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        let root = root.path();
        let row = |what: &str, took: Duration| println!("| {what} | {docs} | {} |", ms(took));
        let objective = "revise the plans of the busiest feature";
        row(
            "`vault check coherence --json`",
            timed(
                ours,
                root,
                cache.path(),
                &["vault", "check", "coherence", "--json"],
            )?,
        );
        row(
            "`status --json --no-cache`",
            timed(
                ours,
                root,
                cache.path(),
                &["--no-cache", "status", "--json"],
            )?,
        );
        row(
            "`project context --json`",
            timed(
                ours,
                root,
                cache.path(),
                &["project", "context", objective, "--json"],
            )?,
        );
        match reference {
            Some(reference) => row(
                "reference `project context --json`",
                timed(
                    reference,
                    root,
                    cache.path(),
                    &["project", "context", objective, "--json"],
                )?,
            ),
            None => eprintln!("vaultspec-core-ref is not on PATH: the reference's row is left out"),
        }

        // A warm server, then one edit behind its back: the next `status`
        // and `find` (which date every linked document) after it.
        let (mut server, _) = Server::spawn(root, cache.path())?;
        server.call("status", json!({}))?;
        server.call("find", json!({"type": ["plan"]}))?;
        let mut after_status = Vec::new();
        let mut after_find = Vec::new();
        let target = root
            .join(".vault/research")
            .read_dir()?
            .next()
            .unwrap()?
            .path();
        for n in 0..SAMPLES {
            let mut text = std::fs::read_to_string(&target)?;
            text.push_str(&format!("\nEdited {n}.\n"));
            std::fs::write(&target, text)?;
            std::thread::sleep(Duration::from_millis(200));
            after_status.push(server.call("status", json!({}))?);
            let mut text = std::fs::read_to_string(&target)?;
            text.push_str(&format!("\nEdited again {n}.\n"));
            std::fs::write(&target, text)?;
            std::thread::sleep(Duration::from_millis(200));
            after_find.push(server.call("find", json!({"type": ["plan"]}))?);
        }
        row("MCP `status` right after one edit", median(after_status));
        row("MCP `find` right after one edit", median(after_find));
    }
    Ok(())
}

//! Benchmarks of the agent framework against the reference, in one run:
//! `install` (every agent) in a fresh git repository, and a `sync` with
//! nothing to do, each a whole process as a person runs it.
//!
//! Run with `cargo bench -p vaultspec-host --bench framework`. The
//! reference is timed when `vaultspec-core-ref` (from
//! `shared/tools/reference`) is on PATH, or `VAULTSPEC_REFERENCE` names its
//! launcher; without it only our rows are printed. Target: both at least
//! 20× faster than the reference.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{median, ms};

const SAMPLES: usize = 5;

/// One timed run of `program args` in `root` with a private HOME.
fn run(program: &str, root: &Path, home: &Path, args: &[&str]) -> anyhow::Result<Duration> {
    let start = Instant::now();
    let out = Command::new(program)
        .args(args)
        .current_dir(root)
        .env("HOME", home)
        .env("VAULTSPEC_LOG_LEVEL", "error")
        .stdin(Stdio::null())
        .output()?;
    let elapsed = start.elapsed();
    anyhow::ensure!(
        matches!(out.status.code(), Some(0 | 1)),
        "{program} {}: {}\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(elapsed)
}

/// A fresh git repository and a private home folder.
fn repository() -> anyhow::Result<(tempfile::TempDir, tempfile::TempDir)> {
    let root = tempfile::tempdir()?;
    std::fs::create_dir(root.path().join(".git"))?;
    Ok((root, tempfile::tempdir()?))
}

/// The medians of `install` and of a no-op `sync` for one tool.
fn time(program: &str) -> anyhow::Result<(Duration, Duration)> {
    let mut installs = Vec::new();
    let mut syncs = Vec::new();
    for _ in 0..SAMPLES {
        let (root, home) = repository()?;
        installs.push(run(program, root.path(), home.path(), &["install"])?);
        // The first sync may settle what install left; time the next ones.
        run(program, root.path(), home.path(), &["sync"])?;
        syncs.push(run(program, root.path(), home.path(), &["sync"])?);
    }
    Ok((median(installs), median(syncs)))
}

fn reference() -> Option<String> {
    if let Some(path) = std::env::var_os("VAULTSPEC_REFERENCE") {
        return Some(path.to_string_lossy().into_owned());
    }
    let found = Command::new("vaultspec-core-ref")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    found.then(|| "vaultspec-core-ref".to_owned())
}

fn main() -> anyhow::Result<()> {
    let ours = time(env!("CARGO_BIN_EXE_vaultspec"))?;
    println!("| command | vaultspec | reference | speed-up |");
    println!("|---|---:|---:|---:|");
    let theirs = reference().map(|r| time(&r)).transpose()?;
    for (name, mine, other) in [
        ("install (every agent)", ours.0, theirs.map(|t| t.0)),
        ("sync, nothing to do", ours.1, theirs.map(|t| t.1)),
    ] {
        match other {
            Some(other) => println!(
                "| {name} | {} | {} | {:.0}× |",
                ms(mine),
                ms(other),
                other.as_secs_f64() / mine.as_secs_f64()
            ),
            None => println!("| {name} | {} | (not run) | |", ms(mine)),
        }
    }
    Ok(())
}

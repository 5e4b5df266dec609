//! What the stdio benchmarks share: a generated vault on disk, an MCP
//! server driven over stdio with plain JSON-RPC lines, and medians.

#![allow(dead_code)] // each bench uses its own part

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tempfile::TempDir;
use vaultspec_vault::CapStorage;
use vaultspec_vault::testgen::{GenSpec, generate};

/// One timed run of `command` as a person runs it (the bench's cache, quiet
/// logs, no stdin): it may report problems (exit 1) but must print an
/// answer and not fail otherwise.
pub fn timed_run(mut command: Command, cache: &Path) -> anyhow::Result<Duration> {
    let start = Instant::now();
    let out = command
        .env("VAULTSPEC_CACHE_DIR", cache)
        .env("VAULTSPEC_LOG_LEVEL", "error")
        .stdin(Stdio::null())
        .output()?;
    let elapsed = start.elapsed();
    anyhow::ensure!(
        matches!(out.status.code(), Some(0 | 1)) && !out.stdout.is_empty(),
        "{command:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(elapsed)
}

/// A workspace with `docs` generated documents over 50 features.
pub fn vault(docs: usize) -> anyhow::Result<TempDir> {
    let dir = tempfile::tempdir()?;
    std::fs::create_dir_all(dir.path().join(".vaultspec"))?;
    generate(
        &CapStorage::open(dir.path())?,
        &GenSpec {
            docs,
            features: 50,
            seed: 7,
        },
    )?;
    Ok(dir)
}

/// The bytes of every file under `.vault/` of the workspace at `root`.
pub fn text_bytes(root: &Path) -> anyhow::Result<u64> {
    fn walk(dir: &Path) -> std::io::Result<u64> {
        let mut total = 0;
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let meta = entry.metadata()?;
            total += if meta.is_dir() {
                walk(&entry.path())?
            } else {
                meta.len()
            };
        }
        Ok(total)
    }
    Ok(walk(&root.join(".vault"))?)
}

/// The median of several durations.
pub fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Milliseconds with one decimal (three below one millisecond).
pub fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 1.0 {
        format!("{ms:.3} ms")
    } else {
        format!("{ms:.1} ms")
    }
}

/// `vaultspec mcp` over stdio, initialized.
pub struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Server {
    /// Spawn the server on `root` and wait for its `initialize` reply;
    /// also returns how long that took.
    pub fn spawn(root: &Path, cache: &Path) -> anyhow::Result<(Self, Duration)> {
        Self::spawn_binary(Path::new(env!("CARGO_BIN_EXE_vaultspec")), root, cache)
    }

    /// [`Server::spawn`] of another `vaultspec` binary (an older build, to
    /// compare against).
    pub fn spawn_binary(
        binary: &Path,
        root: &Path,
        cache: &Path,
    ) -> anyhow::Result<(Self, Duration)> {
        Self::spawn_with(binary, &[], root, cache)
    }

    /// [`Server::spawn_binary`] with `flags` before `mcp`
    /// (`--no-cache`).
    pub fn spawn_with(
        binary: &Path,
        flags: &[&str],
        root: &Path,
        cache: &Path,
    ) -> anyhow::Result<(Self, Duration)> {
        let start = Instant::now();
        let mut child = Command::new(binary)
            .args(flags)
            .args(["mcp", "--target"])
            .arg(root)
            .env("VAULTSPEC_CACHE_DIR", cache)
            .env("VAULTSPEC_STDIO_WATCHDOG", "0")
            .env("VAULTSPEC_LOG_LEVEL", "error")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut server = Self {
            child,
            stdin,
            stdout,
            next: 1,
        };
        server.request("initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}))?;
        let elapsed = start.elapsed();
        writeln!(
            server.stdin,
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
        )?;
        Ok((server, elapsed))
    }

    /// The most memory the server held at once (`VmHWM`, bytes), where the
    /// system tells it (Linux).
    pub fn peak_memory(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    }

    /// One JSON-RPC request and its reply.
    pub fn request(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        Ok(serde_json::from_str(&self.exchange(method, params)?.0)?)
    }

    /// One JSON-RPC request, the line that answers it, and the time from
    /// writing the one to reading the last byte of the other. The time
    /// ends there: reading the reply into values is the client's work
    /// (some 10 ms for the megabyte-sized rollup of 100,000 documents).
    pub fn exchange(&mut self, method: &str, params: Value) -> anyhow::Result<(String, Duration)> {
        let id = self.next;
        self.next += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let start = Instant::now();
        writeln!(self.stdin, "{request}")?;
        let mut line = String::new();
        self.stdout.read_line(&mut line)?;
        Ok((line, start.elapsed()))
    }

    /// The next line the server writes (a reply or a notification).
    pub fn next_line(&mut self) -> anyhow::Result<String> {
        let mut line = String::new();
        self.stdout.read_line(&mut line)?;
        Ok(line)
    }

    /// One successful tool call, timed.
    pub fn call(&mut self, tool: &str, arguments: Value) -> anyhow::Result<Duration> {
        self.call_accepting(tool, arguments, "")
    }

    /// One tool call, timed, that succeeds or fails with a message
    /// containing `accepted` (never, when it is empty).
    pub fn call_accepting(
        &mut self,
        tool: &str,
        arguments: Value,
        accepted: &str,
    ) -> anyhow::Result<Duration> {
        let (line, elapsed) =
            self.exchange("tools/call", json!({"name": tool, "arguments": arguments}))?;
        let reply: Value = serde_json::from_str(&line)?;
        let text = reply["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        let ok = reply["result"]["isError"] == false
            || (!accepted.is_empty() && text.contains(accepted));
        anyhow::ensure!(ok, "{tool}: {reply}");
        Ok(elapsed)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

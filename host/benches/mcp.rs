//! Benchmarks of the MCP server over stdio: spawn to `initialize` reply, and
//! the round trip of find (listing and search mode), status, check and search
//! on generated vaults of 2,000 and 10,000 documents.
//!
//! Run with `cargo bench -p vaultspec-host --bench mcp`. Targets: initialize
//! under 20 ms; status and find on 10,000 documents under 150 ms; a warm
//! search under 30 ms.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use vaultspec_vault::CapStorage;
use vaultspec_vault::testgen::{GenSpec, generate};

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Server {
    fn spawn(root: &Path, cache: &Path) -> anyhow::Result<(Self, Duration)> {
        let start = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_vaultspec"))
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
        let mut server = Self { child, stdin, stdout, next: 1 };
        server.request("initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}))?;
        let elapsed = start.elapsed();
        writeln!(server.stdin, r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#)?;
        Ok((server, elapsed))
    }

    fn request(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        let id = self.next;
        self.next += 1;
        writeln!(self.stdin, "{}", json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let mut line = String::new();
        self.stdout.read_line(&mut line)?;
        Ok(serde_json::from_str(&line)?)
    }

    fn call(&mut self, tool: &str, arguments: Value) -> anyhow::Result<Duration> {
        let start = Instant::now();
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}))?;
        let elapsed = start.elapsed();
        anyhow::ensure!(reply["result"]["isError"] == false, "{tool}: {reply}");
        Ok(elapsed)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn main() -> anyhow::Result<()> {
    let cache = tempfile::tempdir()?;
    println!("| measure | 2,000 docs | 10,000 docs |\n|---|---|---|");
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    for docs in [2_000, 10_000] {
        let dir = tempfile::tempdir()?;
        std::fs::create_dir_all(dir.path().join(".vaultspec"))?;
        let storage = CapStorage::open(dir.path())?;
        generate(&storage, &GenSpec { docs, features: 50, seed: 7 })?;
        let inits: Vec<Duration> = (0..5).map(|_| Server::spawn(dir.path(), cache.path()).map(|s| s.1)).collect::<Result<_, _>>()?;
        let (mut server, _) = Server::spawn(dir.path(), cache.path())?;
        let measures: [(&str, &str, Value); 6] = [
            ("find, listing mode", "find", json!({})),
            ("find, search mode (type adr, text)", "find", json!({"type": ["adr"], "text": "feature-1", "limit": 20})),
            ("status rollup", "status", json!({})),
            ("check (no fix)", "check", json!({})),
            ("search", "search", json!({"query": "how are conflicts merged offline"})),
            ("search, warm (same query again)", "search", json!({"query": "how are conflicts merged offline"})),
        ];
        let mut column = vec![ms(median(inits))];
        for (_, tool, args) in &measures {
            let samples: Vec<Duration> = (0..5).map(|_| server.call(tool, args.clone())).collect::<Result<_, _>>()?;
            column.push(ms(median(samples)));
        }
        if rows.is_empty() {
            rows.push(("spawn to initialize reply".into(), Vec::new()));
            for (label, _, _) in &measures {
                rows.push(((*label).into(), Vec::new()));
            }
        }
        for (row, value) in rows.iter_mut().zip(column) {
            row.1.push(value);
        }
    }
    for (label, values) in rows {
        println!("| {label} | {} |", values.join(" | "));
    }
    Ok(())
}

//! Benchmark of the MCP server over streamable HTTP beside stdio: requests
//! per second and p50/p99 latency of `status`, `find` and `discover` on a
//! generated vault of 10,000 documents, with 1, 8 and 32 clients at once
//! over HTTP (each on its own kept-alive connection, 2026-07-28 stateless
//! requests) and one client over stdio.
//!
//! Run with `cargo bench -p vaultspec-host --bench http`
//! (`VAULTSPEC_BENCH_DOCS` sets the vault size).

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Server, ms};

const TOKEN: &str = "bench-token";

/// Requests each client makes per tool.
const PER_CLIENT: usize = 200;

/// `vaultspec mcp --http` on a free loopback port.
struct HttpServer {
    child: Child,
    addr: SocketAddr,
}

impl HttpServer {
    fn spawn(root: &Path, cache: &Path) -> anyhow::Result<Self> {
        let token = cache.join("token");
        std::fs::write(&token, TOKEN)?;
        let mut child = Command::new(env!("CARGO_BIN_EXE_vaultspec"))
            .args(["mcp", "--http", "127.0.0.1:0", "--token-file"])
            .arg(&token)
            .arg("--target")
            .arg(root)
            .env("VAULTSPEC_CACHE_DIR", cache)
            .env("VAULTSPEC_LOG_LEVEL", "error")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        loop {
            let mut line = String::new();
            anyhow::ensure!(stderr.read_line(&mut line)? > 0, "the server stopped");
            if let Some(url) = line.trim().strip_prefix("vaultspec MCP server at http://") {
                let addr = url.trim_end_matches("/mcp").parse()?;
                std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
                return Ok(Self { child, addr });
            }
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One client on a kept-alive connection.
struct Client {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    addr: SocketAddr,
}

impl Client {
    fn connect(addr: SocketAddr) -> anyhow::Result<Self> {
        let writer = TcpStream::connect(addr)?;
        writer.set_nodelay(true)?;
        Ok(Self {
            reader: BufReader::new(writer.try_clone()?),
            writer,
            addr,
        })
    }

    /// One stateless tool call, timed; fails unless the tool answered.
    fn call(&mut self, id: usize, tool: &str, arguments: &Value) -> anyhow::Result<Duration> {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": tool, "arguments": arguments, "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {}}}})
        .to_string();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\n\
             Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
             MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: {tool}\r\n\
             Content-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        let start = Instant::now();
        self.writer.write_all(request.as_bytes())?;
        let (status, reply) = self.response()?;
        let elapsed = start.elapsed();
        anyhow::ensure!(
            status == 200 && reply.contains("\"result\"") && !reply.contains("\"isError\":true"),
            "{tool}: {status} {reply}"
        );
        Ok(elapsed)
    }

    /// The status and body of the next response (by length or chunked).
    fn response(&mut self) -> anyhow::Result<(u16, String)> {
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status = line.split(' ').nth(1).unwrap_or("0").parse()?;
        let (mut length, mut chunked) = (None, false);
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap_or((header, ""));
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = Some(value.trim().parse::<usize>()?),
                "transfer-encoding" => chunked = value.contains("chunked"),
                _ => {}
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                line.clear();
                self.reader.read_line(&mut line)?;
                let size = usize::from_str_radix(line.trim(), 16)?;
                let mut chunk = vec![0; size + 2];
                self.reader.read_exact(&mut chunk)?;
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        } else if let Some(length) = length {
            body.resize(length, 0);
            self.reader.read_exact(&mut body)?;
        }
        Ok((status, String::from_utf8_lossy(&body).into_owned()))
    }
}

/// Requests per second, p50 and p99 of `clients` clients each calling
/// `tool` [`PER_CLIENT`] times at once.
fn over_http(
    addr: SocketAddr,
    clients: usize,
    tool: &str,
    args: &Value,
) -> anyhow::Result<(f64, Duration, Duration)> {
    let start = Instant::now();
    let samples: Vec<Duration> = std::thread::scope(|scope| {
        let runs: Vec<_> = (0..clients)
            .map(|_| {
                scope.spawn(move || -> anyhow::Result<Vec<Duration>> {
                    let mut client = Client::connect(addr)?;
                    (0..PER_CLIENT)
                        .map(|i| client.call(i, tool, args))
                        .collect()
                })
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().expect("a client thread"))
            .collect::<anyhow::Result<Vec<_>>>()
            .map(|all| all.concat())
    })?;
    Ok(figures(samples, start.elapsed()))
}

fn figures(mut samples: Vec<Duration>, wall: Duration) -> (f64, Duration, Duration) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (samples.len() as f64 / wall.as_secs_f64(), at(0.5), at(0.99))
}

fn main() -> anyhow::Result<()> {
    let docs = std::env::var("VAULTSPEC_BENCH_DOCS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let cache = tempfile::tempdir()?;
    let dir = support::vault(docs)?;
    let tools = [
        ("status", json!({})),
        ("find", json!({})),
        (
            "discover",
            json!({"query": "list the documents of a feature"}),
        ),
    ];
    println!("{docs} documents, {PER_CLIENT} calls per client and tool\n");
    println!(
        "| tool | transport | clients | requests/s | p50 | p99 |\n|---|---|---:|---:|---:|---:|"
    );
    let (mut stdio, _) = Server::spawn(dir.path(), cache.path())?;
    let http = HttpServer::spawn(dir.path(), cache.path())?;
    for (tool, args) in &tools {
        // Both servers loaded and warm before the clock starts.
        stdio.call(tool, args.clone())?;
        Client::connect(http.addr)?.call(0, tool, args)?;
        let start = Instant::now();
        let samples = (0..PER_CLIENT)
            .map(|_| stdio.call(tool, args.clone()))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let (rate, p50, p99) = figures(samples, start.elapsed());
        println!(
            "| {tool} | stdio | 1 | {rate:.0} | {} | {} |",
            ms(p50),
            ms(p99)
        );
        for clients in [1, 8, 32] {
            let (rate, p50, p99) = over_http(http.addr, clients, tool, args)?;
            println!(
                "| {tool} | HTTP | {clients} | {rate:.0} | {} | {} |",
                ms(p50),
                ms(p99)
            );
        }
    }
    Ok(())
}

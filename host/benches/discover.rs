//! Benchmarks of `discover`'s ranking: per-query latency over the builtin
//! catalog (the evaluation set's intents) and over a third party's tree of
//! 500 synthetic verbs, and what building each catalog's index costs.
//!
//! Run with `cargo bench -p vaultspec-host --bench discover`. Target: a
//! `discover` reply in under 1 ms at the server, timed here as the server
//! makes it: the tool call through `VaultServer::call` (argument checks,
//! the blocking thread, ranking, schemas) and the reply's JSON. The
//! ranking is the part that grows with the catalog; the round trip over
//! MCP is timed by the `gateway` bench.

mod support;

use std::time::{Duration, Instant};

use bytes::Bytes;
use serde_json::{Map, Value, json};
use support::{median, ms};
use vaultspec_host::builtins;
use vaultspec_host::catalog::{Capabilities, Catalog, Origin, VerbComponent, parse};
use vaultspec_host::gateway::Gateway;
use vaultspec_host::gateway::discover::{Index, schema};
use vaultspec_host::mcp::{ServerContext, VaultServer, vault_cache::VaultCache};
use vaultspec_host::sandbox::{CompileCache, Sandbox};
use vaultspec_host::workspace::Workspace;

const INTENTS: &str = include_str!("../../tests/fixtures/discover/intents.tsv");

/// Words the synthetic verbs are made of.
const WORDS: [&str; 40] = [
    "note", "draft", "review", "ticket", "sprint", "owner", "label", "archive", "merge", "branch",
    "release", "tag", "export", "import", "report", "summary", "link", "index", "schema", "audit",
    "backlog", "epic", "story", "comment", "thread", "digest", "budget", "metric", "alert",
    "queue", "publish", "sync", "rename", "remove", "create", "list", "show", "check", "count",
    "fix",
];

/// A deterministic stream of numbers (xorshift).
struct Numbers(u64);

impl Numbers {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn words(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| WORDS[self.below(WORDS.len())])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A third party's catalog: 50 groups of 10 verbs, each with a summary,
/// three intents and two flags.
fn synthetic_catalog() -> anyhow::Result<Catalog> {
    let mut numbers = Numbers(0x9e37_79b9_7f4a_7c15);
    let mut source = String::from("package acme:many@0.1.0;\n");
    let mut exports = String::new();
    for group in 0..50 {
        source.push_str(&format!(
            "/// Group {group}: {}.\ninterface acme-g{group} {{\n",
            numbers.words(6)
        ));
        for verb in 0..10 {
            source.push_str(&format!(
                "    record v{verb}-options {{\n        /// {}.\n        limit: option<u32>,\n        /// {}.\n        dry-run: bool,\n        /// Print JSON.\n        json: bool,\n    }}\n",
                numbers.words(5),
                numbers.words(5)
            ));
            source.push_str(&format!(
                "    /// {} the {}.\n    ///\n    /// {}.\n    ///\n    /// Use it to:\n    /// - {}\n    /// - {}\n    /// - {}\n    v{verb}: func(options: v{verb}-options) -> u8;\n",
                numbers.words(1),
                numbers.words(4),
                numbers.words(12),
                numbers.words(5),
                numbers.words(4),
                numbers.words(6),
            ));
        }
        source.push_str("}\n");
        exports.push_str(&format!("    export acme-g{group};\n"));
    }
    source.push_str(&format!("world many {{\n{exports}}}\n"));
    let verbs = parse(&source).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut catalog = Catalog::new();
    catalog.add(VerbComponent {
        name: "many".into(),
        origin: Origin::File("many.wasm".into()),
        bytes: Bytes::new(),
        digest: String::new(),
        capabilities: Capabilities::default(),
        verbs,
        precompiled: None,
    })?;
    Ok(catalog)
}

/// p50 and p99 of the samples.
fn percentiles(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let p99 = samples[(samples.len() * 99 / 100).min(samples.len() - 1)];
    (median(samples), p99)
}

/// Time ranking (and the schemas of the top 10, as the tool returns them)
/// for each query, `rounds` times over.
fn queries(label: &str, catalog: &Catalog, queries: &[String], rounds: usize) {
    let start = Instant::now();
    let index = Index::build(catalog);
    let built = start.elapsed();
    let mut samples = Vec::new();
    for _ in 0..rounds {
        for query in queries {
            let start = Instant::now();
            let ranked = index.rank(catalog, query, 10);
            let schemas: Vec<_> = ranked.iter().map(|r| schema(catalog, r)).collect();
            std::hint::black_box(schemas);
            samples.push(start.elapsed());
        }
    }
    let n = samples.len();
    let (p50, p99) = percentiles(samples);
    println!(
        "| {label} | {} | {} | {} | {n} |",
        ms(built),
        ms(p50),
        ms(p99)
    );
}

/// Time whole `discover` replies as the server makes them, over the
/// builtin catalog: the call through [`VaultServer::call`] and the result
/// serialized as it goes on the wire.
fn replies(queries: &[String], rounds: usize) -> anyhow::Result<()> {
    let root = tempfile::tempdir()?;
    std::fs::create_dir_all(root.path().join(".vaultspec"))?;
    let server = VaultServer::new(ServerContext {
        workspace: Workspace::open(root.path())?,
        read_only: false,
        keep_replies: true,
        vault: VaultCache::default(),
        gateway: Gateway::new(builtins::catalog()?, Sandbox::new(CompileCache::new(None))?),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let (mut samples, mut bytes) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        for query in queries {
            let mut args = Map::new();
            args.insert("query".into(), Value::String(query.clone()));
            let start = Instant::now();
            let result = runtime.block_on(server.call("discover", Some(args)));
            let wire = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "result": result}))?;
            samples.push(start.elapsed());
            bytes.push(wire.len());
        }
    }
    bytes.sort_unstable();
    let n = samples.len();
    let (p50, p99) = percentiles(samples);
    println!("\n# discover reply at the server (builtin catalog, limit 10)\n");
    println!("| reply p50 | reply p99 | reply size p50 | calls |\n|---:|---:|---:|---:|");
    println!(
        "| {} | {} | {:.1} KB | {n} |",
        ms(p50),
        ms(p99),
        bytes[bytes.len() / 2] as f64 / 1024.0
    );
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let intents: Vec<String> = INTENTS
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split('\t').nth(2).map(str::to_owned))
        .collect();
    println!("# discover ranking\n");
    println!(
        "| catalog | index built | query p50 | query p99 | queries |\n|---|---:|---:|---:|---:|"
    );
    let builtin = builtins::catalog()?;
    queries(
        &format!("builtin, {} verbs", builtin.entries().count()),
        &builtin,
        &intents,
        20,
    );
    let synthetic = synthetic_catalog()?;
    let mut numbers = Numbers(42);
    let synthetic_queries: Vec<String> = (0..200).map(|i| numbers.words(2 + i % 5)).collect();
    queries(
        &format!("a third party's, {} verbs", synthetic.entries().count()),
        &synthetic,
        &synthetic_queries,
        10,
    );
    replies(&intents, 5)?;
    Ok(())
}

//! Benchmarks of the gateway: `discover`, and `invoke` of `vault list`,
//! `vault stats` and `status` on vaults of 50, 2,000 and 10,000 documents
//! beside the same operation done natively in this process (the sandbox's
//! cost as a ratio); then `vault plan step
//! check` and `vault plan status` on a plan of 1,000 steps and `vault check
//! all`, through `invoke`.
//!
//! Run with `cargo bench -p vaultspec-host --bench gateway`. With
//! `VAULTSPEC_BENCH_BASELINE` naming another `vaultspec` binary (an older
//! build), every `invoke` row is also timed on that binary, samples taken in
//! turn, so one run shows before and after side by side. Targets:
//! discover under 1 ms; invoke under 1.5x native; a step check under 10 ms
//! through invoke; check all on 10,000 documents under 500 ms.
//!
//! Every call goes over stdio to a real `vaultspec mcp`, so invoke times
//! include the JSON-RPC round trip. Native is what the verb computes, done
//! here with the vault model: load the graph, compute, serialise to JSON.
//! Natively the vault is read and parsed on the host's threads; a verb
//! parses on its one thread while the host reads the next batches of files
//! (`read-ahead`). Native is also timed on one thread, reading and parsing
//! in turn: beside it, a verb can come out ahead.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Server, median, ms};
use vaultspec_host::builtins;
use vaultspec_host::gateway::discover;
use vaultspec_vault::graph::{DocSelect, Graph, default_threads, load_graph, read_corpus_with};
use vaultspec_vault::testgen::long_plan;
use vaultspec_vault::{CapStorage, status};

const SAMPLES: usize = 9;

/// Samples per build of an `invoke` row timed against a baseline: a 5 %
/// difference is within the spread of 9 samples, and of 31 on a machine
/// of two cores.
const COMPARED_SAMPLES: usize = 61;

/// Names an older `vaultspec` binary to time `invoke` against.
const BASELINE: &str = "VAULTSPEC_BENCH_BASELINE";

const QUERIES: [&str; 4] = [
    "list the documents",
    "check a plan step done",
    "rename a feature",
    "find dangling links",
];

fn timed(mut f: impl FnMut() -> anyhow::Result<()>) -> anyhow::Result<Duration> {
    let mut samples = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let start = Instant::now();
        f()?;
        samples.push(start.elapsed());
    }
    Ok(median(samples))
}

fn discover_bench(root: &Path, cache: &Path) -> anyhow::Result<()> {
    let catalog = builtins::catalog()?;
    let index = discover::Index::build(&catalog);
    let mut samples = Vec::new();
    for _ in 0..200 {
        for query in QUERIES {
            let start = Instant::now();
            let ranked = index.rank(&catalog, query, 10);
            let schemas: Vec<Value> = ranked
                .iter()
                .map(|r| discover::schema(&catalog, r))
                .collect();
            std::hint::black_box(schemas);
            samples.push(start.elapsed());
        }
    }
    println!(
        "| discover, ranking and schemas in process (p50 of 800) | {} |",
        ms(median(samples))
    );
    let (mut server, _) = Server::spawn(root, cache)?;
    let mut samples = Vec::new();
    for _ in 0..25 {
        for query in QUERIES {
            samples.push(server.call("discover", json!({"query": query}))?);
        }
    }
    println!(
        "| discover over MCP, round trip (p50 of 100) | {} |",
        ms(median(samples))
    );
    Ok(())
}

/// Time `invoke` of `verb` and the native equivalent (`native(threads)`),
/// natively on the host's usual threads and, where the work can be split,
/// on one thread as the verb runs; print them and the ratios.
fn versus(
    servers: &mut Servers,
    label: &str,
    verb: Value,
    split: bool,
    native: impl Fn(usize) -> anyhow::Result<String>,
) -> anyhow::Result<()> {
    // The status rollup of 10,000 documents passes the 128 KiB reply cap;
    // the verb has run in full when that refusal comes, so it still times it.
    let invoke = servers.invoke(label, &verb)?;
    let run = |threads| timed(|| native(threads).map(|s| drop(std::hint::black_box(s))));
    let threaded = run(default_threads())?;
    let ratio = |d: Duration| invoke.as_secs_f64() / d.as_secs_f64();
    let one = if split {
        let one = run(1)?;
        format!("{} | {:.2}x", ms(one), ratio(one))
    } else {
        "— | —".to_owned()
    };
    println!(
        "| {label} | {} | {} | {:.2}x | {one} |",
        ms(invoke),
        ms(threaded),
        ratio(threaded)
    );
    Ok(())
}

/// The vault's graph, its files read and parsed on `threads` threads.
fn graph(root: &Path, threads: usize) -> anyhow::Result<Graph> {
    let (docs, archived) = read_corpus_with(&CapStorage::open(root)?, threads)?;
    Ok(Graph::build(docs, &archived))
}

/// The server under test and, when [`BASELINE`] names one, an older build
/// timed on the same calls.
struct Servers {
    current: Server,
    baseline: Option<Server>,
    /// Each `invoke` timed on both builds.
    compared: Vec<Compared>,
}

/// One operation timed on the baseline and on this build.
struct Compared {
    label: String,
    baseline: Duration,
    current: Duration,
    /// The median of each round's ratio of this build to the baseline: the
    /// two samples of a round are taken back to back, so a slow spell of
    /// the machine moves both and cancels out of their ratio.
    paired: f64,
}

impl Servers {
    /// Servers that keep no replies (`--no-cache`): every call runs its
    /// verb, which is what these rows time.
    fn spawn(root: &Path, cache: &Path) -> anyhow::Result<Self> {
        let binary = Path::new(env!("CARGO_BIN_EXE_vaultspec"));
        let (mut current, _) = Server::spawn_with(binary, &["--no-cache"], root, cache)?;
        current.call("invoke", json!({"verb": "vault stats"}))?; // compile cache warm
        let baseline = match std::env::var_os(BASELINE) {
            Some(binary) => {
                // A cache of its own: the key covers the host version, not its build.
                let (mut server, _) = Server::spawn_with(
                    Path::new(&binary),
                    &["--no-cache"],
                    root,
                    &cache.join("baseline"),
                )?;
                server.call("invoke", json!({"verb": "vault stats"}))?;
                Some(server)
            }
            None => None,
        };
        Ok(Self {
            current,
            baseline,
            compared: Vec::new(),
        })
    }

    /// The median time of `invoke` of `verb` on the server under test; with
    /// a baseline, samples alternate between the two and both are kept.
    fn invoke(&mut self, label: &str, verb: &Value) -> anyhow::Result<Duration> {
        let once = |server: &mut Server| -> anyhow::Result<Duration> {
            let start = Instant::now();
            server.call_accepting("invoke", verb.clone(), "Response exceeds")?;
            Ok(start.elapsed())
        };
        let (mut current, mut baseline) = (Vec::new(), Vec::new());
        let rounds = if self.baseline.is_some() {
            COMPARED_SAMPLES
        } else {
            SAMPLES
        };
        for round in 0..rounds {
            // Each build goes first in every other round, so neither gains
            // from what the other left warm.
            let current_first = round % 2 == 0;
            if current_first {
                current.push(once(&mut self.current)?);
            }
            if let Some(server) = &mut self.baseline {
                baseline.push(once(server)?);
            }
            if !current_first {
                current.push(once(&mut self.current)?);
            }
        }
        if !baseline.is_empty() {
            let mut ratios: Vec<f64> = current
                .iter()
                .zip(&baseline)
                .map(|(after, before)| after.as_secs_f64() / before.as_secs_f64())
                .collect();
            ratios.sort_by(f64::total_cmp);
            self.compared.push(Compared {
                label: label.to_owned(),
                baseline: median(baseline),
                current: median(current.clone()),
                paired: ratios[ratios.len() / 2],
            });
        }
        let current = median(current);
        Ok(current)
    }

    /// Print the before-and-after table, when there is a baseline.
    fn print_comparison(&self) {
        if self.compared.is_empty() {
            return;
        }
        println!(
            "\n| invoke (median of {COMPARED_SAMPLES} each, taken in turn) | baseline | this build | change | paired change |\n|---|---:|---:|---:|---:|"
        );
        for c in &self.compared {
            let change = (c.current.as_secs_f64() / c.baseline.as_secs_f64() - 1.0) * 100.0;
            println!(
                "| {} | {} | {} | {change:+.1} % | {:+.1} % |",
                c.label,
                ms(c.baseline),
                ms(c.current),
                (c.paired - 1.0) * 100.0
            );
        }
    }
}

fn invoke_bench(docs: usize, cache: &Path) -> anyhow::Result<()> {
    let dir = support::vault(docs)?;
    let root = dir.path();
    let mut servers = Servers::spawn(root, cache)?;
    println!("\n## {docs} documents\n");
    println!(
        "| operation | invoke | native | ratio | native, 1 thread | ratio |\n|---|---:|---:|---:|---:|---:|"
    );
    // A page of 200 rows: the whole listing would pass the 128 KiB reply cap.
    versus(
        &mut servers,
        "vault list --limit 200",
        json!({"verb": "vault list", "arguments": {"limit": 200}}),
        true,
        |threads| {
            let rows = graph(root, threads)?.list_documents(DocSelect::All, None, None);
            Ok(serde_json::to_string(
                &json!({"documents": &rows[..200.min(rows.len())], "total": rows.len()}),
            )?)
        },
    )?;
    versus(
        &mut servers,
        "vault stats",
        json!({"verb": "vault stats"}),
        true,
        |threads| {
            Ok(serde_json::to_string(&graph(root, threads)?.stats(
                DocSelect::All,
                None,
                None,
            ))?)
        },
    )?;
    versus(
        &mut servers,
        "status",
        json!({"verb": "status"}),
        false,
        |_| {
            let storage = CapStorage::open(root)?;
            let graph = load_graph(&storage)?;
            let options = status::ReportOptions {
                limit: status::DEFAULT_FEATURE_LIMIT,
                companion: status::companion::probe(&storage, None),
                ..Default::default()
            };
            Ok(serde_json::to_string(&status::rollup_report(
                &graph,
                &status::PlanStatuses::read(&storage),
                &options,
            ))?)
        },
    )?;
    if docs >= 10_000 {
        println!("\n| through invoke | median (n={SAMPLES}) |\n|---|---:|");
        // Its report of every finding passes the 128 KiB reply cap; the
        // refusal comes after the verb has run in full.
        let check_all = servers.invoke("vault check all", &json!({"verb": "vault check all"}))?;
        println!("| vault check all, {docs} documents | {} |", ms(check_all));
    }
    servers.print_comparison();
    kept_bench(root, cache)
}

/// `invoke` of a read verb asked again on a server that keeps replies: the
/// first call runs the verb, the next are answered from the kept reply.
fn kept_bench(root: &Path, cache: &Path) -> anyhow::Result<()> {
    let (mut server, _) = Server::spawn(root, cache)?;
    println!(
        "\n| kept replies (warm server) | first call | asked again (median of {SAMPLES}) |\n|---|---:|---:|"
    );
    for verb in [
        json!({"verb": "vault list", "arguments": {"limit": 200}}),
        json!({"verb": "vault list", "arguments": {"limit": 200, "offset": 200}}),
        json!({"verb": "vault stats"}),
    ] {
        let mut call = || -> anyhow::Result<Duration> {
            let start = Instant::now();
            server.call_accepting("invoke", verb.clone(), "Response exceeds")?;
            Ok(start.elapsed())
        };
        let first = call()?;
        let again = timed(|| call().map(drop))?;
        println!("| {} | {} | {} |", verb, ms(first), ms(again));
    }
    Ok(())
}

fn plan_bench(cache: &Path) -> anyhow::Result<()> {
    let dir = support::vault(0)?;
    let plan = dir.path().join(".vault/plan/2026-03-11-long-work-plan.md");
    std::fs::create_dir_all(plan.parent().unwrap())?;
    std::fs::write(&plan, long_plan(1000))?;
    let (mut server, _) = Server::spawn(dir.path(), cache)?;
    let stem = "2026-03-11-long-work-plan";
    let mut flip = false;
    let step = timed(|| {
        flip = !flip;
        let verb = if flip {
            "vault plan step check"
        } else {
            "vault plan step uncheck"
        };
        server
            .call(
                "invoke",
                json!({"verb": verb, "positionals": [stem, "S500"]}),
            )
            .map(drop)
    })?;
    let status = timed(|| {
        server
            .call(
                "invoke",
                json!({"verb": "vault plan status", "positionals": [stem]}),
            )
            .map(drop)
    })?;
    println!(
        "\n## A plan of 1,000 steps, through invoke\n\n| operation | median (n={SAMPLES}) |\n|---|---:|"
    );
    println!("| vault plan step check / uncheck | {} |", ms(step));
    println!("| vault plan status | {} |", ms(status));
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let cache = tempfile::tempdir()?;
    let small = support::vault(50)?;
    println!("| measure | time |\n|---|---:|");
    discover_bench(small.path(), cache.path())?;
    plan_bench(cache.path())?;
    // 50 documents: the sandbox's fixed cost per call, beside the verb's work.
    for docs in [50, 2_000, 10_000] {
        invoke_bench(docs, cache.path())?;
    }
    Ok(())
}

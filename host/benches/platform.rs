//! Benchmarks of the verb platform: a warm sandbox call, catalog load, and a
//! whole `vaultspec vault list --json` process on a generated vault.
//!
//! Run with `cargo bench -p vaultspec-host --bench platform`. Prints a table;
//! the targets are in the issue that introduced the platform (warm call p50
//! under 1 ms; the whole process under 50 ms on 2,000 documents, warm cache).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use vaultspec_host::builtins;
use vaultspec_host::catalog::{Catalog, Origin, VerbComponent};
use vaultspec_host::invocation::{Invocation, arguments};
use vaultspec_host::sandbox::{CallOptions, CompileCache, Sandbox};
use vaultspec_host::workspace::Workspace;
use vaultspec_test_support::{TestVault, guests};

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1000.0)
}

fn warm_call() -> anyhow::Result<()> {
    let cache = tempfile::tempdir()?;
    let sandbox = Sandbox::new(CompileCache::new(Some(cache.path().to_owned())))?;
    let bytes = std::fs::read(guests::ECHO)?;
    let echo = VerbComponent::load("echo", Origin::File(guests::ECHO.into()), bytes.into())?;
    let noop = echo
        .verbs
        .iter()
        .find(|v| v.path_string() == "noop")
        .unwrap()
        .clone();
    let mut catalog = Catalog::new();
    catalog.add(echo.clone())?;
    let runnable = catalog.runnable(catalog.get("noop").expect("the echo guest's noop"))?;
    let vault = TestVault::new();
    let workspace = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let options = CallOptions::default();
    let args = arguments(&noop, &Invocation::default())?;

    let start = Instant::now();
    sandbox.prepare(&echo)?;
    let compile = start.elapsed();
    let mut samples = Vec::new();
    for _ in 0..2000 {
        let start = Instant::now();
        let outcome = runtime.block_on(sandbox.call(&runnable, &args, &workspace, &options))?;
        samples.push(start.elapsed());
        assert_eq!(outcome.exit_code, Some(0));
    }
    println!(
        "| first prepare of the echo guest (compile + verify) | {} |",
        ms(compile)
    );
    println!(
        "| warm call of `noop`, p50 (n=2000) | {} |",
        ms(percentile(&mut samples, 0.5))
    );
    println!(
        "| warm call of `noop`, p90 | {} |",
        ms(percentile(&mut samples, 0.9))
    );
    println!(
        "| warm call of `noop`, p99 | {} |",
        ms(percentile(&mut samples, 0.99))
    );
    Ok(())
}

fn catalog_load() -> anyhow::Result<()> {
    let mut samples = Vec::new();
    for _ in 0..200 {
        let start = Instant::now();
        let catalog = builtins::catalog()?;
        samples.push(start.elapsed());
        std::hint::black_box(catalog);
    }
    println!(
        "| catalog of every builtin, p50 (n=200) | {} |",
        ms(percentile(&mut samples, 0.5))
    );
    Ok(())
}

fn generate(vault: &TestVault, documents: usize) {
    let types = ["adr", "audit", "plan", "reference", "research"];
    for i in 0..documents {
        let doc_type = types[i % types.len()];
        let feature = format!("feature-{:02}", i % 50);
        let date = format!("2026-{:02}-{:02}", 1 + (i / 28) % 12, 1 + i % 28);
        let topic = format!("topic-{i}");
        let topic = (doc_type != "plan").then_some(topic.as_str());
        vault.doc(doc_type, &date, &format!("{feature}-{i}"), topic);
    }
}

fn process(binary: &Path, vault: &TestVault, cache: &Path) -> anyhow::Result<Duration> {
    let start = Instant::now();
    let out = Command::new(binary)
        .args(["vault", "list", "--json", "--target"])
        .arg(vault.root())
        .env("VAULTSPEC_CACHE_DIR", cache)
        .output()?;
    let elapsed = start.elapsed();
    anyhow::ensure!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(elapsed)
}

fn whole_process() -> anyhow::Result<()> {
    let binary = Path::new(env!("CARGO_BIN_EXE_vaultspec"));
    let vault = TestVault::new();
    generate(&vault, 2000);
    let cache = tempfile::tempdir()?;
    let cold = process(binary, &vault, cache.path())?;
    let mut samples = Vec::new();
    for _ in 0..30 {
        samples.push(process(binary, &vault, cache.path())?);
    }
    println!(
        "| `vaultspec vault list --json`, 2,000 docs, empty cache | {} |",
        ms(cold)
    );
    println!(
        "| `vaultspec vault list --json`, 2,000 docs, warm cache, p50 (n=30) | {} |",
        ms(percentile(&mut samples, 0.5))
    );
    println!("| same, p90 | {} |", ms(percentile(&mut samples, 0.9)));
    Ok(())
}

fn main() -> anyhow::Result<()> {
    println!("| measure | time |\n|---|---|");
    catalog_load()?;
    warm_call()?;
    whole_process()?;
    Ok(())
}

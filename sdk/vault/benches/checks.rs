//! Benchmarks of plans and checks: a plan of 1,000 steps parsed, one step
//! checked and the plan re-serialised; then every check over generated
//! vaults (the snapshot load and each checker timed apart).
//!
//! Run: `cargo bench -p vaultspec-vault --bench checks --features testgen`.
//! Targets: the step check under 2 ms; all checks on 10,000 documents under
//! 300 ms. `VAULTSPEC_BENCH_SIZES=2000,10000` picks the vault sizes.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use vaultspec_vault::checks::{self, Check, DocFindings, Options, Snapshot};
use vaultspec_vault::graph::{Graph, default_threads, read_doc, read_vault};
use vaultspec_vault::plan::{PlanOp, check_plan, parse_plan, serialise_plan};
use vaultspec_vault::testgen::{GenSpec, generate, long_plan};
use vaultspec_vault::{CapStorage, Date, Storage};

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

/// The median of `n` runs of `f`.
fn median(n: usize, mut f: impl FnMut()) -> Duration {
    let mut samples: Vec<Duration> = (0..n)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    samples.sort();
    samples[n / 2]
}

fn plan_bench() {
    let text = long_plan(1000);
    let plan = parse_plan(&text).expect("the big plan parses");
    let step = plan
        .steps_of(plan.phases[10].key)
        .nth(5)
        .expect("phase 11 has steps")
        .id
        .clone();
    println!(
        "## A plan of {} steps ({} KiB)\n",
        plan.steps.len(),
        text.len() / 1024
    );
    println!("| stage | median (ms, n=50) |\n|---|---:|");
    println!(
        "| parse | {} |",
        ms(median(50, || drop(parse_plan(&text).unwrap())))
    );
    println!(
        "| plan check (every rule) | {} |",
        ms(median(50, || drop(check_plan(&text))))
    );
    let check = PlanOp::StepCheck { step };
    println!(
        "| parse + check one step + serialise | {} |",
        ms(median(50, || {
            let mut plan = parse_plan(&text).unwrap();
            plan.apply(&check).unwrap();
            std::hint::black_box(serialise_plan(&plan, false));
        }))
    );
    println!();
}

fn checks_bench(docs: usize) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    std::fs::create_dir_all(dir.path().join(".vaultspec"))?;
    let storage = CapStorage::open(dir.path())?;
    generate(
        &storage,
        &GenSpec {
            docs,
            features: 50,
            seed: 7,
        },
    )?;
    let opts = Options::check(Date::new(2026, 11, 30).expect("a date"));
    println!("## Checks on {docs} documents\n");
    println!("| stage | median (ms, n=5) |\n|---|---:|");
    println!(
        "| all checks (`run_all`, no fix) | {} |",
        ms(median(5, || drop(
            checks::run_all(&storage, &opts).unwrap()
        )))
    );
    println!(
        "| snapshot load | {} |",
        ms(median(5, || drop(Snapshot::load(&storage).unwrap())))
    );
    let snap = Snapshot::load(&storage)?;
    for &check in Check::all() {
        println!(
            "| - {check} | {} |",
            ms(median(5, || drop(
                checks::dispatch(&snap, check, &opts).unwrap()
            )))
        );
    }
    println!();
    edited_bench(&storage, &opts)?;
    Ok(())
}

/// A server's work after one document was edited (its prose, not its
/// links): the document read again and put in the graph, the snapshot made
/// and the kept findings reused (each stage timed apart, median of 5 edits).
fn edited_bench(storage: &CapStorage, opts: &Options) -> anyhow::Result<()> {
    let read = read_vault(storage, default_threads())?;
    let mut graph = Graph::build(read.docs, &read.archived);
    let listing = read.listing;
    let mut memo = DocFindings::default();
    memo.check_all(
        &Snapshot::of(storage, Cow::Borrowed(&graph), Cow::Borrowed(&listing)),
        opts,
    )?;
    let paths: Vec<String> = graph.docs().iter().map(|d| d.path.clone()).collect();
    let mut stages: [Vec<Duration>; 4] = Default::default();
    for round in 0..5 {
        let path = &paths[(round * 997) % paths.len()];
        let mut text = String::from_utf8(storage.read(path)?)?;
        text.push_str(&format!("\nEdit {round}.\n"));
        storage.write(path, text.as_bytes())?;
        let start = Instant::now();
        memo.forget(path);
        // The server puts a document whose links stayed in place; the edit
        // here adds prose only.
        let doc = read_doc(storage, path)?;
        let t_read = start.elapsed();
        anyhow::ensure!(graph.replace(doc), "the edit moved no link");
        let t_graph = start.elapsed();
        let snap = Snapshot::of(storage, Cow::Borrowed(&graph), Cow::Borrowed(&listing));
        let t_snap = start.elapsed();
        std::hint::black_box(memo.check_all(&snap, opts)?);
        let t_check = start.elapsed();
        for (stage, d) in
            stages
                .iter_mut()
                .zip([t_read, t_graph - t_read, t_snap - t_graph, t_check - t_snap])
        {
            stage.push(d);
        }
    }
    println!("| after one edit (kept findings) | median (ms, n=5) |\n|---|---:|");
    for (name, mut samples) in [
        "read the document again",
        "put it in the graph",
        "snapshot",
        "check (kept)",
    ]
    .into_iter()
    .zip(stages)
    {
        samples.sort();
        println!("| {name} | {} |", ms(samples[2]));
    }
    println!();
    Ok(())
}

fn main() -> anyhow::Result<()> {
    plan_bench();
    let sizes = std::env::var("VAULTSPEC_BENCH_SIZES").unwrap_or_else(|_| "2000,10000".into());
    for size in sizes.split(',') {
        checks_bench(size.trim().parse()?)?;
    }
    Ok(())
}

//! Benchmarks of the vault model on generated vaults on disk: load with
//! graph, feature listing, stats, BM25 index build and query, and memory
//! against the vault's size on disk, with what a server keeps once it has
//! run `check` (the findings of each checker; the checkers read the graph's
//! own documents).
//!
//! Run: `cargo bench -p vaultspec-vault --bench model --features testgen`.
//! `VAULTSPEC_BENCH_SIZES=2000,10000` picks the sizes (default 2000, 10000,
//! 100000). Memory is measured by a counting global allocator: the peak of
//! live heap bytes during a stage, and what stays allocated after it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use vaultspec_vault::checks::{DocFindings, Options, Snapshot};
use vaultspec_vault::graph::{
    DocSelect, FeatureFilter, Graph, GraphDoc, load_graph, read_corpus, read_corpus_with,
};
use vaultspec_vault::search::{SearchIndex, SearchQuery};
use vaultspec_vault::testgen::{GenSpec, generate};
use vaultspec_vault::{CapStorage, Date, FileEntry, Storage, StorageError};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let live = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                    - layout.size();
                PEAK.fetch_max(live, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn reset_peak() -> usize {
    let live = LIVE.load(Ordering::Relaxed);
    PEAK.store(live, Ordering::Relaxed);
    live
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// CPU time of the whole process so far (user + system, all threads, dead
/// ones included), from `/proc/self/stat`: wall times on a shared machine
/// measure the neighbours too.
fn cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks: u64 = fields.get(11).and_then(|u| u.parse().ok()).unwrap_or(0)
        + fields.get(12).and_then(|s| s.parse().ok()).unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

/// Median wall time of `runs` runs of `f` (its last result returned).
fn time<T>(runs: usize, f: impl FnMut() -> T) -> (Duration, T) {
    let (wall, _, last) = time_cpu(runs, f);
    (wall, last)
}

/// Median wall time and mean CPU time of `runs` runs of `f`.
fn time_cpu<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, Duration, T) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    let cpu_start = cpu();
    for _ in 0..runs {
        drop(last.take());
        let start = Instant::now();
        last = Some(f());
        times.push(start.elapsed());
    }
    let cpu_mean = (cpu() - cpu_start) / runs as u32;
    times.sort();
    (
        times[times.len() / 2],
        cpu_mean,
        last.expect("at least one run"),
    )
}

fn disk_bytes(dir: &Path) -> (u64, usize) {
    let (mut bytes, mut files) = (0, 0);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read_dir") {
            let entry = entry.expect("entry");
            let meta = entry.metadata().expect("metadata");
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                bytes += meta.len();
                files += 1;
            }
        }
    }
    (bytes, files)
}

/// The native baseline: read every file with `std::fs` on one thread.
fn raw_read(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                total += std::fs::read(&path).expect("read").len() as u64;
            }
        }
    }
    total
}

/// Writes straight to a folder without the atomic rename and `fsync` of
/// [`CapStorage`]: generating 100,000 files durably would take minutes and
/// measure the disk, not the model. Only `write` is needed by the generator.
struct PlainDir<'p>(&'p Path);

impl Storage for PlainDir<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        Err(StorageError::NotFound {
            path: path.to_owned(),
        })
    }
    fn list(&self, _dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        Ok(Vec::new())
    }
    fn exists(&self, _path: &str) -> Result<bool, StorageError> {
        Ok(false)
    }
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        let full = self.0.join(path);
        let io = |e: std::io::Error| StorageError::Io {
            op: "writing",
            path: path.to_owned(),
            message: e.to_string(),
        };
        std::fs::create_dir_all(full.parent().expect("parent")).map_err(io)?;
        std::fs::write(&full, bytes).map_err(io)
    }
    fn rename(&self, from: &str, _to: &str) -> Result<(), StorageError> {
        Err(StorageError::NotFound {
            path: from.to_owned(),
        })
    }
    fn remove(&self, path: &str) -> Result<(), StorageError> {
        Err(StorageError::NotFound {
            path: path.to_owned(),
        })
    }
}

fn bench(n: usize) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let start = Instant::now();
    let report = generate(
        &PlainDir(tmp.path()),
        &GenSpec {
            docs: n,
            features: 50,
            seed: 0x5eed,
        },
    )
    .expect("generate");
    let generated = start.elapsed();
    let storage = CapStorage::open(tmp.path()).expect("open workspace");
    let (disk, files) = disk_bytes(&tmp.path().join(".vault"));
    let runs = if n >= 100_000 { 3 } else { 7 };

    let (raw, raw_cpu, _) = time_cpu(runs, || raw_read(&tmp.path().join(".vault")));
    let (list, list_cpu, entries) = time_cpu(runs, || storage.list(".vault").expect("list"));
    let (cap, cap_cpu, _) = time_cpu(runs, || {
        entries
            .iter()
            .map(|e| storage.read(&e.path).expect("read").len())
            .sum::<usize>()
    });

    // What one path resolution per file would cost: open, then size and
    // read through the handle (CapStorage resolves the path twice today).
    let dir =
        cap_std::fs::Dir::open_ambient_dir(tmp.path(), cap_std::ambient_authority()).expect("dir");
    let (open_once, open_once_cpu, _) = time_cpu(runs, || {
        entries
            .iter()
            .map(|e| {
                use std::io::Read as _;
                let mut file = dir.open(&e.path).expect("open");
                let len = file.metadata().expect("metadata").len() as usize;
                let mut buf = Vec::with_capacity(len);
                file.read_to_end(&mut buf).expect("read");
                buf.len()
            })
            .sum::<usize>()
    });
    let contents: Vec<(String, Vec<u8>)> = entries
        .iter()
        .map(|e| (e.path.clone(), storage.read(&e.path).expect("read")))
        .collect();
    let (parse, parse_cpu, _) = time_cpu(runs, || {
        contents
            .iter()
            .map(|(p, b)| GraphDoc::from_bytes(p, b).meta().tags().len())
            .sum::<usize>()
    });
    drop(contents);

    let base = reset_peak();
    let (load, load_cpu, graph) = time_cpu(runs, || load_graph(&storage).expect("load"));
    let load_peak = PEAK.load(Ordering::Relaxed) - base;
    let graph_live = LIVE.load(Ordering::Relaxed) - base;

    let (read, read_cpu, (docs, archived)) =
        time_cpu(runs, || read_corpus(&storage).expect("read"));
    let (read1, read1_cpu, _) = time_cpu(runs, || read_corpus_with(&storage, 1).expect("read"));
    let (clone, clone_cpu, _) = time_cpu(runs, || docs.clone());
    let (build_graph, build_cpu, _) = time_cpu(runs, || Graph::build(docs.clone(), &archived));
    drop(docs);

    let (features, rows) = time(runs, || graph.feature_list(&FeatureFilter::default()));
    let (find, _) = time(runs, || graph.find_listing(20));
    let (stats, s) = time(runs, || graph.stats(DocSelect::All, None, None));

    let graph_runs = if n >= 100_000 { 1 } else { 3 };
    let (pagerank, _) = time(graph_runs, || graph.pagerank());
    let (metrics, _) = if n <= 10_000 {
        time(graph_runs, || graph.metrics(&graph.scope_all()))
    } else {
        (Duration::ZERO, graph.metrics(&graph.scope_feature("none")))
    };
    let (derived, derived_edges) = if n <= 10_000 {
        time(graph_runs, || graph.derived_edges(None, 8).len())
    } else {
        (Duration::ZERO, 0)
    };

    let before_index = reset_peak();
    let (build, build_index_cpu, index) = time_cpu(if n >= 100_000 { 1 } else { 3 }, || {
        SearchIndex::build(graph.docs())
    });
    let index_live = LIVE.load(Ordering::Relaxed) - before_index;

    // What a server that has run `check` keeps beside its graph: the
    // findings of each checker (they read the graph's documents).
    let before_findings = reset_peak();
    let mut kept = DocFindings::default();
    let snapshot = Snapshot::of(&storage, Cow::Borrowed(&graph), Cow::Borrowed(&entries));
    let today: Date = "2026-12-05".parse().expect("a date");
    let results = kept
        .check_all(&snapshot, &Options::check(today))
        .expect("check");
    drop(results);
    let findings_live = LIVE.load(Ordering::Relaxed) - before_findings;
    let check_peak = PEAK.load(Ordering::Relaxed) - before_findings;

    // Queries made of words that occur in the vault: pieces of titles.
    let queries: Vec<String> = graph
        .docs()
        .iter()
        .step_by(graph.docs().len() / 20 + 1)
        .filter_map(|d| d.title())
        .map(|t| t.replace('`', " "))
        .take(20)
        .collect();
    let mut query_times = Vec::new();
    let mut hits = 0;
    for q in &queries {
        let (t, h) = time(5, || {
            index.search(
                graph.docs(),
                &SearchQuery {
                    text: q,
                    limit: 4,
                    ..Default::default()
                },
            )
        });
        hits += h.len();
        query_times.push(t);
    }
    query_times.sort();
    let q_median = query_times[query_times.len() / 2];
    let q_max = *query_times.last().expect("queries");

    println!(
        "\n## {n} documents ({files} files, {:.1} MiB on disk, generated in {:.1} s)",
        mib(disk as usize),
        generated.as_secs_f64()
    );
    println!(
        "load average at start: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    println!("| stage | wall (ms) | cpu (ms, 10 ms ticks) | note |");
    println!("|---|---:|---:|---|");
    println!(
        "| raw read, std::fs, 1 thread (baseline) | {:.1} | {:.0} | every file, no parsing |",
        ms(raw),
        ms(raw_cpu)
    );
    println!(
        "| CapStorage list | {:.1} | {:.0} | {} entries |",
        ms(list),
        ms(list_cpu),
        entries.len()
    );
    println!(
        "| CapStorage read, 1 thread | {:.1} | {:.0} | storage cost alone |",
        ms(cap),
        ms(cap_cpu)
    );
    println!(
        "| cap-std open once + read, 1 thread | {:.1} | {:.0} | one resolution per file |",
        ms(open_once),
        ms(open_once_cpu)
    );
    println!(
        "| parse only, 1 thread | {:.1} | {:.0} | GraphDoc from bytes in memory |",
        ms(parse),
        ms(parse_cpu)
    );
    println!(
        "| load with graph | {:.1} | {:.0} | {:.2}x baseline wall; {} nodes, {} edges |",
        ms(load),
        ms(load_cpu),
        ms(load) / ms(raw),
        graph.nodes().len(),
        graph.edges().len()
    );
    println!(
        "| - read + parse (threads) | {:.1} | {:.0} | |",
        ms(read),
        ms(read_cpu)
    );
    println!(
        "| - read + parse, 1 thread | {:.1} | {:.0} | |",
        ms(read1),
        ms(read1_cpu)
    );
    println!(
        "| - graph build | {:.1} | {:.0} | input clone ({:.1} ms, {:.0} cpu) subtracted |",
        ms(build_graph.saturating_sub(clone)),
        ms(build_cpu.saturating_sub(clone_cpu)),
        ms(clone),
        ms(clone_cpu)
    );
    println!(
        "| feature list | {:.2} | | {} features |",
        ms(features),
        rows.len()
    );
    println!("| find listing (weights) | {:.2} | | |", ms(find));
    println!(
        "| stats | {:.2} | | {} orphans, {} dangling |",
        ms(stats),
        s.orphaned_count,
        s.dangling_link_count
    );
    println!(
        "| pagerank | {:.1} | | {} nodes |",
        ms(pagerank),
        graph.nodes().len()
    );
    println!(
        "| metrics, whole vault (betweenness incl.) | {:.1} | | skipped above 10,000 |",
        ms(metrics)
    );
    println!(
        "| derived edges, whole vault, fan-out 8 | {:.1} | | {derived_edges} kept; skipped above 10,000 |",
        ms(derived)
    );
    println!(
        "| BM25 index build | {:.1} | {:.0} | {} blocks |",
        ms(build),
        ms(build_index_cpu),
        index.block_count()
    );
    println!(
        "| BM25 query (median of {}) | {:.3} | | max {:.3} ms, {hits} hits |",
        queries.len(),
        ms(q_median),
        ms(q_max)
    );
    println!(
        "| memory: graph retained | {:.1} MiB | | {:.2}x disk |",
        mib(graph_live),
        graph_live as f64 / disk as f64
    );
    println!(
        "| memory: peak during load | {:.1} MiB | | {:.2}x disk |",
        mib(load_peak),
        load_peak as f64 / disk as f64
    );
    println!(
        "| memory: search index | {:.1} MiB | | {:.2}x disk |",
        mib(index_live),
        index_live as f64 / disk as f64
    );
    println!(
        "| memory: kept findings (peak of the run) | {:.1} MiB ({:.1} MiB) | | {:.2}x disk |",
        mib(findings_live),
        mib(check_peak),
        findings_live as f64 / disk as f64
    );
    assert_eq!(graph.docs().len(), report.docs);
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let sizes: Vec<usize> = std::env::var("VAULTSPEC_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![2_000, 10_000, 100_000]);
    println!(
        "# vaultspec-vault model benchmark ({} threads available)",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    for n in sizes {
        bench(n);
    }
}

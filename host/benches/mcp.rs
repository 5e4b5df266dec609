//! Benchmarks of the MCP server over stdio: spawn to `initialize` reply, and
//! the round trip of find (listing and search mode), status, check and search
//! on generated vaults of 2,000 and 10,000 documents. Calls after the first
//! of a server find the vault loaded while no file changed. A round trip
//! ends at the reply's last byte, before the bench reads it into values.
//!
//! Run with `cargo bench -p vaultspec-host --bench mcp`
//! (`VAULTSPEC_BENCH_SIZES=2000,10000,100000` picks the vault sizes). Targets: initialize
//! under 20 ms; status and find on 10,000 documents under 150 ms; a warm
//! search under 30 ms. With `VAULTSPEC_BENCH_BASELINE` naming another
//! `vaultspec` binary (an older build), the calls after an edit are timed on
//! both, each edit answered by one and then the other, in extra rows.

mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::{Server, median, ms};

/// Names another `vaultspec` binary to time beside this build.
const BASELINE: &str = "VAULTSPEC_BENCH_BASELINE";

/// How many edits each tool is timed after (9 unless set): more make a
/// long enough run to profile.
const EDITS: &str = "VAULTSPEC_BENCH_EDITS";

/// The tools timed after one document was edited behind the server's back.
const EDITED_TOOLS: [&str; 3] = ["check", "status", "find"];

/// `n` research documents of the vault at `root`, to edit one at a time.
fn edited_documents(root: &std::path::Path, n: usize) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let mut paths: Vec<_> = std::fs::read_dir(root.join(".vault/research"))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    paths.sort();
    anyhow::ensure!(
        paths.len() >= n,
        "the generated vault has too few research notes"
    );
    Ok(paths.into_iter().take(n).collect())
}

fn main() -> anyhow::Result<()> {
    let cache = tempfile::tempdir()?;
    let sizes: Vec<usize> = std::env::var("VAULTSPEC_BENCH_SIZES")
        .unwrap_or_else(|_| "2000,10000".into())
        .split(',')
        .map(|n| n.trim().parse())
        .collect::<Result<_, _>>()?;
    let heads: Vec<String> = sizes.iter().map(|n| format!("{n} docs")).collect();
    println!(
        "| measure | {} |\n|---|{}",
        heads.join(" | "),
        "---|".repeat(sizes.len())
    );
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    for docs in sizes {
        let dir = support::vault(docs)?;
        let inits: Vec<Duration> = (0..5)
            .map(|_| Server::spawn(dir.path(), cache.path()).map(|s| s.1))
            .collect::<Result<_, _>>()?;
        // A fresh server loads the vault (graph, plans) as it starts: a first
        // call made at once waits for that load, one made a moment later
        // (as an agent's first call is) finds it done.
        // The median of five servers, each asked once.
        let first = |tool: &str, after: Duration| -> anyhow::Result<Duration> {
            let samples = (0..5)
                .map(|_| {
                    let (mut server, _) = Server::spawn(dir.path(), cache.path())?;
                    std::thread::sleep(after);
                    server.call(tool, json!({}))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            Ok(median(samples))
        };
        let now = Duration::ZERO;
        let later = Duration::from_millis(500);
        let firsts = [
            first("find", now)?,
            first("status", now)?,
            first("find", later)?,
            first("status", later)?,
        ];
        let (mut server, _) = Server::spawn(dir.path(), cache.path())?;
        let measures: [(&str, &str, Value); 6] = [
            ("find, listing mode", "find", json!({})),
            (
                "find, search mode (type adr, text)",
                "find",
                json!({"type": ["adr"], "text": "feature-1", "limit": 20}),
            ),
            ("status rollup", "status", json!({})),
            ("check (no fix)", "check", json!({})),
            (
                "search",
                "search",
                json!({"query": "how are conflicts merged offline"}),
            ),
            (
                "search, warm (same query again)",
                "search",
                json!({"query": "how are conflicts merged offline"}),
            ),
        ];
        let mut column = vec![ms(median(inits))];
        column.extend(firsts.iter().map(|d| ms(*d)));
        for (_, tool, args) in &measures {
            let samples: Vec<Duration> = (0..5)
                .map(|_| server.call(tool, args.clone()))
                .collect::<Result<_, _>>()?;
            column.push(ms(median(samples)));
        }
        // A warm server after one document changed behind its back: each
        // sample edits another document's body first. A baseline server on
        // the same vault answers after an edit of its own, right after.
        let mut baseline = match std::env::var_os(BASELINE) {
            Some(binary) => {
                let cache = cache.path().join("baseline");
                let (mut other, _) =
                    Server::spawn_binary(std::path::Path::new(&binary), dir.path(), &cache)?;
                for tool in EDITED_TOOLS {
                    other.call(tool, json!({}))?;
                }
                Some(other)
            }
            None => None,
        };
        // Files written within three seconds of a call are read again on
        // every call (their times cannot vouch for them yet): let the
        // generated vault settle, as a vault an agent works in has.
        std::thread::sleep(Duration::from_millis(3100));
        let edits = match std::env::var(EDITS) {
            Ok(n) => n.parse()?,
            Err(_) => 9,
        };
        let edited = edited_documents(dir.path(), edits)?;
        let mut baseline_column = Vec::new();
        for tool in EDITED_TOOLS {
            let (mut samples, mut baseline_samples) = (Vec::new(), Vec::new());
            for path in &edited {
                let edit = |server: &mut Server| -> anyhow::Result<Duration> {
                    let mut text = std::fs::read_to_string(path)?;
                    text.push_str(&format!("\nEdited before a {tool} call.\n"));
                    std::fs::write(path, text)?;
                    server.call(tool, json!({}))
                };
                samples.push(edit(&mut server)?);
                if let Some(other) = &mut baseline {
                    baseline_samples.push(edit(other)?);
                }
            }
            column.push(ms(median(samples)));
            if baseline.is_some() {
                baseline_column.push(ms(median(baseline_samples)));
            }
        }
        column.extend(baseline_column);
        // What the server holds at its peak, beside the text of the vault.
        let text = support::text_bytes(dir.path())?;
        column.push(match server.peak_memory() {
            Some(peak) => format!(
                "{:.0} MiB, {:.1}x the text",
                peak as f64 / 1048576.0,
                peak as f64 / text as f64
            ),
            None => "not known here".into(),
        });
        if rows.is_empty() {
            rows.push(("spawn to initialize reply".into(), Vec::new()));
            for label in [
                "first find, at once after initialize (waits for the load)",
                "first status, at once after initialize (waits for the load)",
                "first find, 0.5 s after initialize",
                "first status, 0.5 s after initialize",
            ] {
                rows.push((label.into(), Vec::new()));
            }
            for (label, _, _) in &measures {
                rows.push(((*label).into(), Vec::new()));
            }
            for tool in EDITED_TOOLS {
                rows.push((
                    format!("{tool}, warm, one document edited since"),
                    Vec::new(),
                ));
            }
            if std::env::var_os(BASELINE).is_some() {
                for tool in EDITED_TOOLS {
                    rows.push((
                        format!("{tool}, warm, one document edited since (baseline binary)"),
                        Vec::new(),
                    ));
                }
            }
            rows.push((
                "server memory at its peak (VmHWM), after every call above".into(),
                Vec::new(),
            ));
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

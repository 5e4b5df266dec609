//! Benchmarks of the vault as MCP resources on 10,000 documents: the first
//! page of `resources/list` on a warm server, `resources/read` of one
//! document, and how long after a write the subscriber hears of it.
//!
//! Run with `cargo bench -p vaultspec-host --bench resources`. Targets: the
//! first page within 5 ms, the notification within 100 ms of the write.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Server, median, ms};

const DOCS: usize = 10_000;
const SAMPLES: usize = 51;

fn main() -> anyhow::Result<()> {
    let cache = tempfile::tempdir()?;
    let dir = support::vault(DOCS)?;
    let (mut server, _) = Server::spawn(dir.path(), cache.path())?;
    let first: Value = server.request("resources/list", json!({}))?;
    let resources = first["result"]["resources"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    anyhow::ensure!(!resources.is_empty(), "nothing listed: {first}");
    println!("| measure ({DOCS} documents) | median (n={SAMPLES}) |\n|---|---:|");
    let timed = |server: &mut Server, method: &str, params: Value| -> anyhow::Result<Duration> {
        let mut samples = Vec::with_capacity(SAMPLES);
        for _ in 0..SAMPLES {
            let (line, elapsed) = server.exchange(method, params.clone())?;
            anyhow::ensure!(line.contains("\"result\""), "{method}: {line}");
            samples.push(elapsed);
        }
        Ok(median(samples))
    };
    let page = timed(&mut server, "resources/list", json!({}))?;
    println!(
        "| resources/list, first page of {} | {} |",
        resources.len(),
        ms(page)
    );
    let cursor = first["result"]["nextCursor"].clone();
    let later = timed(&mut server, "resources/list", json!({"cursor": cursor}))?;
    println!("| resources/list, second page | {} |", ms(later));
    let uri = resources[0]["uri"].as_str().unwrap_or_default().to_owned();
    let read = timed(&mut server, "resources/read", json!({"uri": uri}))?;
    println!("| resources/read of one document | {} |", ms(read));
    let stem = resources[0]["name"].as_str().unwrap_or_default();
    let complete = timed(
        &mut server,
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "vault://document/{stem}"},
               "argument": {"name": "stem", "value": &stem[..8]}}),
    )?;
    println!("| completion/complete of a stem | {} |", ms(complete));

    // Heard after a write: subscribe, then append to the file directly.
    let path = uri
        .strip_prefix("file://")
        .map(|p| {
            percent_encoding::percent_decode_str(p)
                .decode_utf8_lossy()
                .into_owned()
        })
        .unwrap_or_default();
    server.request("resources/subscribe", json!({"uri": uri}))?;
    std::thread::sleep(Duration::from_millis(300));
    let mut heard = Vec::new();
    for round in 0..20 {
        let start = Instant::now();
        let mut text = std::fs::read_to_string(&path)?;
        text.push_str(&format!("\nround {round}\n"));
        std::fs::write(&path, text)?;
        loop {
            let line = server.next_line()?;
            if line.contains("notifications/resources/updated") {
                break;
            }
        }
        heard.push(start.elapsed());
        // Past the watcher's burst window, so each write is its own event.
        std::thread::sleep(Duration::from_millis(50));
    }
    println!(
        "| write to notifications/resources/updated (n=20) | {} |",
        ms(median(heard))
    );
    Ok(())
}

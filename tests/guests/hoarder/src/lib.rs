//! A hostile test verb that holds what the host lends it: the time of a
//! call asleep in WASI `poll`, `read-ahead` handles it never finishes, and
//! results it asks the host to keep.

use std::time::Duration;

use vaultspec::verb::kept_results::{keep, recall};
use vaultspec::verb::workspace_read::{PendingReads, list_files, read_ahead, read_file};

struct Hoarder;

fn count(text: &str) -> Option<u32> {
    text.parse().ok()
}

impl exports::guests::hoarder::hoarder::Guest for Hoarder {
    fn sleep(seconds: String) -> u8 {
        let Some(seconds) = count(&seconds) else {
            println!("refused: `{seconds}` is not a number of seconds");
            return 2;
        };
        std::thread::sleep(Duration::from_secs(u64::from(seconds)));
        println!("woke after {seconds} s");
        0
    }

    fn hoard(count_text: String) -> u8 {
        let Some(wanted) = count(&count_text) else {
            println!("refused: `{count_text}` is not a count");
            return 2;
        };
        let paths: Vec<String> = match list_files(".vault") {
            Ok(entries) => entries.into_iter().map(|e| e.path).collect(),
            Err(err) => {
                println!("refused: {}", err.message);
                return 1;
            }
        };
        let mut held: Vec<PendingReads> = Vec::new();
        for _ in 0..wanted {
            held.push(read_ahead(&paths));
        }
        println!(
            "holding {} read-aheads of {} files",
            held.len(),
            paths.len()
        );
        std::hint::black_box(&held);
        0
    }

    fn keep(mode: String) -> u8 {
        let paths: Vec<String> = match list_files(".vault") {
            Ok(entries) => entries.into_iter().map(|e| e.path).collect(),
            Err(err) => {
                println!("refused: {}", err.message);
                return 1;
            }
        };
        let Some(first) = paths.first().cloned() else {
            println!("refused: an empty vault");
            return 1;
        };
        match mode.as_str() {
            "unread" => {
                for path in &paths {
                    keep("row", path, b"never read");
                }
                println!("asked to keep {} unread files", paths.len());
            }
            "read-one" => {
                let _ = read_file(&first);
                keep("row", &first, b"read");
                keep("big", &first, &vec![7; 4097]);
                for kind in ["k1", "k2", "k3", "k4"] {
                    keep(kind, &first, kind.as_bytes());
                }
                println!("asked to keep {first} seven ways");
            }
            "flood" => {
                let _ = read_file(&first);
                let value = vec![7; 4096];
                for n in 0..1_000_000u32 {
                    keep(&format!("k{}", n % 4), &first, &value);
                }
                println!("kept a million times");
            }
            "recall-flood" => {
                let many: Vec<String> = paths.iter().cycle().take(100_000).cloned().collect();
                for _ in 0..10_000 {
                    std::hint::black_box(recall("row", &many));
                }
                println!("recalled without end");
            }
            other => {
                println!("refused: unknown mode `{other}`");
                return 2;
            }
        }
        0
    }
}

vaultspec_sdk::verb!(Hoarder);

//! A hostile test verb that holds what the host lends it: the time of a
//! call asleep in WASI `poll`, and `read-ahead` handles it never finishes.

use std::time::Duration;

use vaultspec::verb::workspace_read::{PendingReads, list_files, read_ahead};

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
}

vaultspec_sdk::verb!(Hoarder);

//! A read-only test verb that tries to write anyway, and one that asks for
//! more background reads than the host runs at once.

use vaultspec::verb::workspace_read::{PendingReads, read_ahead};
use vaultspec_sdk::Workspace;
use vaultspec_sdk::vault::Storage;

struct Reader;

impl exports::guests::reader::reader::Guest for Reader {
    fn read(path: String) -> u8 {
        match Workspace::open().read(&path) {
            Ok(bytes) => {
                println!("read {} bytes", bytes.len());
                0
            }
            Err(err) => {
                println!("refused: {err}");
                1
            }
        }
    }

    fn write(path: String, text: String) -> u8 {
        match Workspace::open().write(&path, text.as_bytes()) {
            Ok(()) => 0,
            Err(err) => {
                println!("refused: {err}");
                1
            }
        }
    }
    fn ahead(count: String) -> u8 {
        let Ok(count) = count.parse::<u32>() else {
            println!("refused: `{count}` is not a count");
            return 2;
        };
        let ws = Workspace::open();
        let paths: Vec<String> = match ws.list(".vault") {
            Ok(entries) => entries.into_iter().map(|e| e.path).collect(),
            Err(err) => {
                println!("refused: {err}");
                return 1;
            }
        };
        let pending: Vec<PendingReads> = (0..count).map(|_| read_ahead(&paths)).collect();
        let (mut finished, mut bytes) = (0, 0);
        for (i, reads) in pending.into_iter().enumerate().rev() {
            if i % 2 == 0 {
                let results = PendingReads::finish(reads);
                bytes += results
                    .iter()
                    .map(|r| r.as_ref().map_or(0, Vec::len))
                    .sum::<usize>();
                finished += 1;
            }
        }
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let mut batched = Vec::new();
        let mut in_order = true;
        ws.read_batches(&refs, &mut |offset, reads| {
            in_order &= offset == batched.len();
            batched.extend(reads.into_iter().map(Result::ok));
        });
        let once: Vec<Option<Vec<u8>>> = ws.read_many(&refs).into_iter().map(Result::ok).collect();
        let agree = in_order && batched == once && once.iter().all(Option::is_some);
        println!(
            "finished {finished} of {count}, {bytes} bytes; {} files agree: {agree}",
            paths.len()
        );
        0
    }
}

vaultspec_sdk::verb!(Reader);

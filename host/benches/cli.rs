//! Benchmarks of the plain CLI: `vault list --json`, `status --json` and
//! `vault check all --json` run as a person runs them, one process each,
//! on generated vaults of 2,000 and 10,000 documents (100,000 with
//! `VAULTSPEC_BENCH_HUGE=1`).
//!
//! Run with `cargo bench -p vaultspec-host --bench cli`. Every row is a
//! whole process: start, catalog, then either the answer cache's check of
//! every file's stamp and the kept output written (*from the cache*: the
//! vault has not changed since the last run), or the verb's component
//! (compiled once beforehand), the vault read and the JSON written
//! (*afresh*: `--no-cache`); or, *after an edit* (a line appended to one
//! document before each run), the verb run with what is still kept: the
//! other documents' rows for `vault list`. Targets at 10,000
//! documents: list ≤ 40 ms, status ≤ 60 ms, check all ≤ 250 ms; at
//! 100,000, status ≤ 600 ms. After an edit at 10,000: list ≤ 80 ms, status
//! ≤ 120 ms.

mod support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use support::{median, ms, vault};

const SAMPLES: usize = 7;

/// The commands timed, as a person types them after `vaultspec`.
const COMMANDS: [&[&str]; 3] = [
    &["vault", "list", "--json"],
    &["status", "--json"],
    &["vault", "check", "all", "--json"],
];

/// One run of `args` on `root` ([`support::timed_run`]).
fn run(root: &Path, cache: &Path, args: &[&str]) -> anyhow::Result<Duration> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vaultspec"));
    command.arg("--target").arg(root).args(args);
    support::timed_run(command, cache)
}

/// Append a line to the first research note of the vault at `root`.
fn edit(root: &Path) -> anyhow::Result<()> {
    let dir = root.join(".vault/research");
    let mut notes: Vec<_> = std::fs::read_dir(&dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    notes.sort();
    let note = notes
        .first()
        .ok_or_else(|| anyhow::anyhow!("no research note in `{}`", dir.display()))?;
    let mut file = std::fs::OpenOptions::new().append(true).open(note)?;
    std::io::Write::write_all(&mut file, b"one more line\n")?;
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let cache = tempfile::tempdir()?;
    let mut sizes = vec![2_000, 10_000];
    if std::env::var_os("VAULTSPEC_BENCH_HUGE").is_some() {
        sizes.push(100_000);
    }
    println!("| command | documents | afresh (`--no-cache`) | after an edit | from the cache |");
    println!("|---|---:|---:|---:|---:|");
    for docs in sizes {
        let root = vault(docs)?;
        // A file changed within 3 s is never trusted: let the new vault
        // settle. Then compile every component and keep every answer.
        std::thread::sleep(Duration::from_millis(3_200));
        for args in COMMANDS {
            run(root.path(), cache.path(), args)?;
        }
        for args in COMMANDS {
            let timed = |extra: &[&str]| {
                let args = [args, extra].concat();
                (0..SAMPLES)
                    .map(|_| run(root.path(), cache.path(), &args))
                    .collect::<anyhow::Result<Vec<_>>>()
                    .map(median)
            };
            let afresh = timed(&["--no-cache"])?;
            let edited = (0..SAMPLES)
                .map(|_| {
                    edit(root.path())?;
                    run(root.path(), cache.path(), args)
                })
                .collect::<anyhow::Result<Vec<_>>>()
                .map(median)?;
            // Let the last edit settle, and keep the answer again.
            std::thread::sleep(Duration::from_millis(3_200));
            run(root.path(), cache.path(), args)?;
            let cached = timed(&[])?;
            println!(
                "| `{}` | {docs} | {} | {} | {} |",
                args.join(" "),
                ms(afresh),
                ms(edited),
                ms(cached)
            );
        }
    }
    Ok(())
}

//! Write a generated vault into a directory, for benchmarks and profiling by
//! hand: `cargo run --release -p vaultspec-vault --features testgen --example
//! generate -- DIR [DOCS [STEPS]]` (10,000 documents unless told; with STEPS,
//! also the plan `2026-03-11-long-work-plan` of that many steps).

use vaultspec_vault::testgen::{GenSpec, generate, long_plan};
use vaultspec_vault::{CapStorage, Storage};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: generate DIR [DOCS]")?;
    let mut number = |name: &str, default: usize| -> Result<usize, String> {
        match args.next() {
            Some(n) => n
                .parse()
                .map_err(|_| format!("{name} must be a whole number, not `{n}`")),
            None => Ok(default),
        }
    };
    let docs = number("DOCS", 10_000)?;
    let steps = number("STEPS", 0)?;
    let root = std::path::Path::new(&dir);
    std::fs::create_dir_all(root.join(".vaultspec"))?;
    let storage = CapStorage::open(root)?;
    let report = generate(
        &storage,
        &GenSpec {
            docs,
            features: 50,
            seed: 7,
        },
    )?;
    if steps > 0 {
        storage.write(
            ".vault/plan/2026-03-11-long-work-plan.md",
            long_plan(steps).as_bytes(),
        )?;
    }
    eprintln!(
        "generated {docs} documents in {} features under {dir}",
        report.features.len()
    );
    Ok(())
}

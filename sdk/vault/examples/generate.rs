//! Write a generated vault into a directory, for benchmarks and profiling by
//! hand: `cargo run --release -p vaultspec-vault --features testgen --example
//! generate -- DIR [DOCS]` (10,000 documents unless told).

use vaultspec_vault::CapStorage;
use vaultspec_vault::testgen::{GenSpec, generate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: generate DIR [DOCS]")?;
    let docs = match args.next() {
        Some(n) => n.parse().map_err(|_| format!("DOCS must be a whole number, not `{n}`"))?,
        None => 10_000,
    };
    let root = std::path::Path::new(&dir);
    std::fs::create_dir_all(root.join(".vaultspec"))?;
    let report = generate(&CapStorage::open(root)?, &GenSpec { docs, features: 50, seed: 7 })?;
    eprintln!("generated {docs} documents in {} features under {dir}", report.features.len());
    Ok(())
}

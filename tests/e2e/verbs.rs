//! The builtin vault verbs at the command line: every verb of the `vault`,
//! `vault-write`, `orient` and `admin` components run through the real
//! binary on a vault the test builds, as text and as a `--json` envelope.

use std::process::{Command, Output};

use serde_json::Value;
use vaultspec_test_support::{TestVault, cache_dir};

mod checks; // a vault written only by the verbs passes every check
mod create; // vault add, its dry run and refusals
mod edit; // body and frontmatter edits, renames and links
mod features; // features, ADRs, rules, repair and sanitize
mod orient; // status, doctor, migrations and config
mod read; // listing, counting, the graph and search

/// Runs the binary from the workspace root, as a user would: input files
/// (`--body-file`, `--manifest`) are read relative to the current folder.
fn run(vault: &TestVault, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vaultspec"))
        .current_dir(vault.root())
        .args(args)
        .arg("--target")
        .arg(vault.root())
        .env(
            "VAULTSPEC_CACHE_DIR",
            cache_dir().parent().unwrap().join("test-cli-cache"),
        )
        .env("VAULTSPEC_NO_HINTS", "1")
        .env_remove("VAULTSPEC_TARGET_DIR")
        .output()
        .expect("running vaultspec")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a verb that must succeed and returns its human output.
fn human(vault: &TestVault, args: &[&str]) -> String {
    let out = run(vault, args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}\nstdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs a verb with `--json` and returns its exit code and envelope.
fn envelope(vault: &TestVault, args: &[&str]) -> (i32, Value) {
    let mut args = args.to_vec();
    args.push("--json");
    crate::binary::parsed(&args, &run(vault, &args))
}

/// Runs a verb with `--json` that must succeed; returns its envelope.
fn ok(vault: &TestVault, args: &[&str], schema: &str, status: &str) -> Value {
    let (code, value) = envelope(vault, args);
    assert_eq!(code, 0, "{args:?}: {value}");
    assert_eq!(value["schema"], schema, "{value}");
    assert_eq!(value["status"], status, "{value}");
    value["data"].clone()
}

const ACCEPTED_ADR: &str = "---\ntags:\n  - '#adr'\n  - '#cache-layer'\ndate: '2026-03-09'\nmodified: '2026-03-09'\nrelated: []\n---\n# `cache-layer` adr: `cap by bytes` | (**status:** `accepted`)\n\n## Problem Statement\n\nEntry counts say little about `memory_budget` use.\n\n## Considerations\n\nMemory is tight.\n\n## Constraints\n\nNo new dependency.\n\n## Implementation\n\nCount bytes in `memory_budget`.\n\n## Rationale\n\nBytes are what run out.\n\n## Consequences\n\nA little bookkeeping.\n";

/// A vault made by our own verbs: research, reference, an L2 plan and two ADRs.
fn built() -> TestVault {
    let vault = TestVault::new();
    ok(
        &vault,
        &[
            "vault",
            "add",
            "research",
            "-f",
            "cache-layer",
            "--date",
            "2026-03-01",
            "--topic",
            "eviction",
        ],
        "vaultspec.vault.add.v1",
        "created",
    );
    ok(
        &vault,
        &[
            "vault",
            "add",
            "reference",
            "-f",
            "cache-layer",
            "--date",
            "2026-03-02",
            "--topic",
            "key-format",
            "-r",
            "2026-03-01-cache-layer-eviction-research",
        ],
        "vaultspec.vault.add.v1",
        "created",
    );
    ok(
        &vault,
        &[
            "vault",
            "add",
            "plan",
            "-f",
            "cache-layer",
            "--date",
            "2026-03-05",
            "--tier",
            "L2",
        ],
        "vaultspec.vault.add.v1",
        "created",
    );
    vault.write(
        ".vault/adr/2026-03-09-cache-layer-byte-cap-adr.md",
        ACCEPTED_ADR,
    );
    vault.write(
        ".vault/adr/2026-03-03-cache-layer-size-cap-adr.md",
        &ACCEPTED_ADR
            .replace("2026-03-09", "2026-03-03")
            .replace("cap by bytes", "cap by count"),
    );
    vault
}

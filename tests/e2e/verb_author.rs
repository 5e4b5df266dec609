//! A verb author's first hour, as the README of `vaultspec verbs new` tells
//! it: scaffold `my-notes` in a temporary folder far from this repository,
//! build it offline with plain cargo, install it, trust it at a terminal,
//! run it and read its output.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, ensure};
use serde_json::Value;
use vaultspec_test_support::{TestVault, cache_dir};

use crate::user::{User, json, text};

/// `cargo build --release --target wasm32-wasip2 --offline --locked` in
/// `crate_dir`, as the author would type it (offline and locked: the
/// scaffold's lockfile must name only crates the outer build already
/// fetched). The target folder is the one `third_party` builds its example
/// in (same profile), kept across runs, so the registry crates compile once;
/// the outer build's flags are removed.
pub(crate) fn build(crate_dir: &Path) -> anyhow::Result<PathBuf> {
    let target = cache_dir().parent().unwrap().join("third-party/target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["build", "--release", "--target", "wasm32-wasip2"])
        .args(["--offline", "--locked", "--quiet"])
        .current_dir(crate_dir)
        .env("CARGO_TARGET_DIR", &target);
    for key in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_PROFILE_RELEASE_DEBUG",
    ] {
        command.env_remove(key);
    }
    // The crate is outside the checkout, where `rust-toolchain.toml` does not
    // reach: keep the pinned toolchain (rustup's proxy usually passes it on).
    if std::env::var_os("RUSTUP_TOOLCHAIN").is_none() {
        command.env("RUSTUP_TOOLCHAIN", pinned_toolchain()?);
    }
    let out = command.output().context("running cargo")?;
    ensure!(
        out.status.success(),
        "building `{}` offline failed:\n{}",
        crate_dir.display(),
        text(&out.stderr)
    );
    Ok(target.join("wasm32-wasip2/release/my_notes.wasm"))
}

/// The `channel` of the checkout's `rust-toolchain.toml`.
fn pinned_toolchain() -> anyhow::Result<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rust-toolchain.toml");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading `{}`", path.display()))?;
    text.lines()
        .find_map(|line| {
            let value = line.trim().strip_prefix("channel")?.trim_start();
            Some(value.strip_prefix('=')?.trim().trim_matches('"').to_owned())
        })
        .with_context(|| format!("`{}` names no channel", path.display()))
}

#[test]
fn a_scaffolded_kebab_case_verb_builds_offline_installs_trusts_and_runs() -> anyhow::Result<()> {
    let user = User::new();
    let vault = TestVault::new();
    vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    vault.doc("research", "2026-03-01", "cache-layer", Some("eviction"));
    vault.doc("plan", "2026-03-03", "search", None);

    // Scaffold, with no checkout named: the SDK comes from the binary.
    let scratch = tempfile::tempdir()?;
    let crate_dir = scratch.path().join("my-notes");
    let out = user.run(
        &vault,
        &[
            "verbs",
            "new",
            "my-notes",
            "--dir",
            crate_dir.to_str().unwrap(),
            "--json",
        ],
    );
    ensure!(out.status.success(), "{}", text(&out.stderr));
    let created = json(&out)?;
    let sdk = PathBuf::from(created["data"]["sdk"].as_str().context("the SDK path")?);
    assert!(
        sdk.starts_with(user.home().join(".vaultspec/sdk")),
        "{created}"
    );
    let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml"))?;
    assert!(
        manifest.contains("vaultspec-sdk = \"0.1\"\n") && manifest.contains("[patch.crates-io]"),
        "{manifest}"
    );

    // Build, offline.
    let wasm = build(&crate_dir)?;
    assert_eq!(
        created["data"]["component"],
        "target/wasm32-wasip2/release/my_notes.wasm"
    );

    let out = user.run(
        &vault,
        &["verbs", "inspect", wasm.to_str().unwrap(), "--json"],
    );
    let inspection = json(&out)?;
    assert_eq!(inspection["data"]["admitted"], true, "{inspection}");
    // Each `-` of an interface name nests a group: `my-notes` gives `my notes`.
    assert_eq!(inspection["data"]["verbs"][0]["verb"], "my notes count");
    assert_eq!(created["data"]["verb"], "my notes count");
    // The scaffold's `Use it to:` list is read as the verb's intents, which
    // discover ranks on, and inspect shows them.
    assert_eq!(
        inspection["data"]["verbs"][0]["intents"],
        serde_json::json!([
            "see how many notes the vault holds",
            "count the ADRs written so far"
        ]),
        "{inspection}"
    );
    let shown = text(
        &user
            .run(&vault, &["verbs", "inspect", wasm.to_str().unwrap()])
            .stdout,
    );
    assert!(
        shown.contains("      - count the ADRs written so far\n"),
        "{shown}"
    );

    // Install, exactly as `verbs new` printed it, from the crate's folder
    // (the workspace's `.vaultspec/verbs/` does not exist yet).
    let install = created["data"]["install"]
        .as_str()
        .context("the install step")?;
    // The test builds into a shared target folder; a plain build leaves the
    // component in the crate's own.
    let built = crate_dir.join(created["data"]["component"].as_str().unwrap());
    std::fs::create_dir_all(built.parent().unwrap())?;
    std::fs::copy(&wasm, &built)?;
    let out = std::process::Command::new("sh")
        .args(["-c", install])
        .current_dir(&crate_dir)
        .output()?;
    ensure!(out.status.success(), "`{install}`: {}", text(&out.stderr));
    let installed = vault.root().join(".vaultspec/verbs/my-notes.wasm");
    ensure!(
        installed.is_file(),
        "`{install}` put nothing at `{}`",
        installed.display()
    );
    let out = user.run(&vault, &["my", "notes", "count"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "untrusted: {}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("vaultspec verbs trust my-notes"),
        "{}",
        text(&out.stderr)
    );

    // Trust, at a terminal.
    let out = user.run_at_terminal(&vault, &["verbs", "trust", "my-notes"], "y\n");
    let shown = text(&out.stdout);
    assert!(out.status.success(), "{shown}");
    assert!(
        shown.contains("my notes count") && shown.contains("trusted `my-notes`"),
        "{shown}"
    );

    // Run it, and read what it says.
    let out = user.run(&vault, &["my", "notes", "count", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let envelope: Value = json(&out)?;
    assert_eq!(envelope["schema"], "vaultspec.my.notes.count.v1");
    assert_eq!(envelope["data"]["count"], 3, "{envelope}");
    let out = user.run(&vault, &["my", "notes", "count", "adr"]);
    assert_eq!(text(&out.stdout).trim(), "1 documents in .vault/adr");
    Ok(())
}

#[test]
fn verbs_new_refuses_a_name_that_is_not_kebab_case_and_says_what_is_accepted() {
    let user = User::new();
    let vault = TestVault::new();
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("crate");
    let out = user.run(
        &vault,
        &["verbs", "new", "My_Notes", "--dir", dir.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("lowercase words") && stderr.contains("did you mean `my-notes`"),
        "{stderr}"
    );
    let out = user.run(
        &vault,
        &[
            "verbs",
            "new",
            "vault-extra",
            "--dir",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("group `vault`") && stderr.contains("builtin"),
        "{stderr}"
    );
    assert!(!dir.exists(), "nothing is written for a refused name");
    assert!(!user.home().join(".vaultspec/sdk").exists(), "nor the SDK");
}

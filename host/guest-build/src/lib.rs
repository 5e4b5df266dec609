//! Build a Cargo workspace of guest crates for `wasm32-wasip2` from a build script.
//!
//! The host embeds the builtin verbs and the tests use hostile guests; both
//! build a separate guest workspace with a nested `cargo build --release`.
//! The nested build gets a target folder of its own beside the outer one
//! (sharing the outer folder deadlocks a `--release` build on cargo's lock)
//! and a clean environment (the outer build's flags are for the host).

use std::path::{Path, PathBuf};
use std::process::Command;

pub mod wasm_target;

/// One built guest: its crate name and the component's path.
#[derive(Debug, Clone)]
pub struct Guest {
    /// The crate name (`vaultspec-verbs-vault`).
    pub name: String,
    /// The built `.wasm` component.
    pub path: PathBuf,
}

/// Build every member crate under `members_dir` of the guest workspace at
/// `workspace_dir`, and return the components (the `cdylib` members) in
/// name order. Panics (failing
/// the build script) with the nested cargo's output when the build fails;
/// a toolchain without the target ends the build script with one line that
/// says how to add it.
pub fn build(workspace_dir: &Path, members_dir: &Path) -> Vec<Guest> {
    if let Err(message) = wasm_target::check() {
        // Cargo fails a build script that logged an error, whatever its exit
        // status, and shows the line without a backtrace.
        println!("cargo::error={message}");
        std::process::exit(0);
    }
    let out_dir =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set for build scripts"));
    // OUT_DIR is <target>/<profile>/build/<pkg>-<hash>/out: four levels up is
    // the outer target folder, shared by every profile.
    let target_dir = out_dir
        .ancestors()
        .nth(4)
        .expect("OUT_DIR is deep enough")
        .join("wasm-guests");

    println!(
        "cargo:rerun-if-changed={}",
        workspace_dir.join("Cargo.toml").display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        workspace_dir.join("Cargo.lock").display()
    );
    let mut names = Vec::new();
    for entry in std::fs::read_dir(members_dir).expect("listing the guest crates") {
        let dir = entry.expect("reading the guest crates").path();
        let manifest = dir.join("Cargo.toml");
        if !manifest.is_file() {
            continue;
        }
        for watched in ["Cargo.toml", "src", "wit"] {
            println!("cargo:rerun-if-changed={}", dir.join(watched).display());
        }
        // A member that is a plain library (code components share) is
        // built with them but is no component of its own.
        if is_component(&manifest) {
            names.push(package_name(&manifest));
        }
    }
    names.sort();

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .arg("build")
        .arg("--release")
        .arg("--target=wasm32-wasip2")
        .arg("--manifest-path")
        .arg(workspace_dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        // Wasm SIMD: `memchr` and the compiler's vectorised loops use it,
        // which speeds the scanning of text that verbs spend their time on.
        // wasmtime compiles it to the host's vector instructions.
        .env(
            "CARGO_TARGET_WASM32_WASIP2_RUSTFLAGS",
            "-C target-feature=+simd128",
        );
    if std::env::var_os("CARGO_NET_OFFLINE").is_some() {
        command.arg("--offline");
    }
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        let drop = key.starts_with("CARGO_CFG_")
            || key.starts_with("CARGO_PKG_")
            || key.starts_with("CARGO_MANIFEST_")
            || [
                "CARGO_ENCODED_RUSTFLAGS",
                "RUSTFLAGS",
                "CARGO_TARGET_DIR",
                "CARGO_BUILD_TARGET",
                "RUSTC_WORKSPACE_WRAPPER",
                "RUSTC_WRAPPER",
                "CARGO_PRIMARY_PACKAGE",
                "CARGO_PROFILE_RELEASE_DEBUG",
            ]
            .contains(&key.as_ref());
        if drop {
            command.env_remove(key.as_ref());
        }
    }
    let output = command
        .output()
        .expect("running cargo for the guest crates");
    if !output.status.success() {
        panic!(
            "building the guest crates in `{}` failed:\n{}",
            workspace_dir.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let artifacts = target_dir.join("wasm32-wasip2").join("release");
    names
        .into_iter()
        .map(|name| {
            let path = artifacts.join(format!("{}.wasm", name.replace('-', "_")));
            assert!(
                path.is_file(),
                "the guest `{name}` built no `{}`",
                path.display()
            );
            Guest { name, path }
        })
        .collect()
}

/// Whether a manifest builds a component: its `[lib]` is a `cdylib`.
fn is_component(manifest: &Path) -> bool {
    std::fs::read_to_string(manifest)
        .unwrap_or_else(|e| panic!("reading `{}`: {e}", manifest.display()))
        .lines()
        .any(|line| line.trim_start().starts_with("crate-type") && line.contains("\"cdylib\""))
}

/// The `name` of the `[package]` in a manifest (the first `name = "…"` line).
fn package_name(manifest: &Path) -> String {
    let text = std::fs::read_to_string(manifest).expect("reading a guest manifest");
    text.lines()
        .find_map(|line| {
            let rest = line
                .trim()
                .strip_prefix("name")?
                .trim_start()
                .strip_prefix('=')?;
            Some(rest.trim().trim_matches('"').to_owned())
        })
        .unwrap_or_else(|| panic!("`{}` has no package name", manifest.display()))
}

//! A toolchain without `wasm32-wasip2` stops the build at this crate's build
//! script with one line naming the command to run, not a panic.

use std::process::Command;

#[test]
fn the_build_stops_with_the_rustup_command_when_the_target_is_missing() {
    let sysroot = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(sysroot.path().join("lib/rustlib/x86_64-unknown-linux-gnu")).unwrap();
    let target = tempfile::tempdir().unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .arg("--target-dir")
        .arg(target.path())
        .env("VAULTSPEC_GUEST_SYSROOT", sysroot.path())
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let command = format!(
        "`rustup target add wasm32-wasip2 --toolchain {}`",
        pinned_toolchain()
    );
    assert!(!output.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains(&command)).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("backtrace"), "{stderr}");
}

/// The `channel` of the repository's `rust-toolchain.toml`.
fn pinned_toolchain() -> String {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rust-toolchain.toml");
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .find_map(|l| l.trim().strip_prefix("channel"))
        .and_then(|rest| rest.trim().strip_prefix('='))
        .map(|v| v.trim().trim_matches('"').to_owned())
        .expect("rust-toolchain.toml names a channel")
}

//! Whether the toolchain building us can build guests: the standard library
//! for `wasm32-wasip2` must be in its sysroot.
//!
//! Shared by this crate's build script, which stops the build before the long
//! compile starts, and by [`crate::build`]. It asks `rustc` for its sysroot
//! instead of asking rustup, which may not be installed.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The target the guests are built for.
pub const TARGET: &str = "wasm32-wasip2";

/// Names a sysroot to look in instead of the one `rustc` reports (for tests
/// of this check; builds never need it).
pub const SYSROOT_OVERRIDE: &str = "VAULTSPEC_GUEST_SYSROOT";

/// Check the toolchain of the running build script (`RUSTC`, else `rustc`):
/// `Err` holds the one line to show a person, naming what is missing and the
/// command that installs it.
pub fn check() -> Result<(), String> {
    let sysroot = sysroot()?;
    let version = ask(&rustc(), "--version");
    missing(&sysroot, version.as_deref()).map_or(Ok(()), Err)
}

/// The sysroot of the running build script's `rustc` (or the one
/// [`SYSROOT_OVERRIDE`] names).
pub fn sysroot() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(SYSROOT_OVERRIDE).filter(|s| !s.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    let rustc = rustc();
    ask(&rustc, "--print=sysroot")
        .map(PathBuf::from)
        .ok_or_else(|| {
            format!(
                "could not ask `{}` for its sysroot, so cannot tell whether it can build for `{TARGET}`",
                rustc.to_string_lossy()
            )
        })
}

/// The compiler cargo gave the build script.
fn rustc() -> OsString {
    std::env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"))
}

/// Why `sysroot` cannot build guests, or `None` when it holds the target.
/// `version` is `rustc --version`, for the toolchain to name in the command.
pub fn missing(sysroot: &Path, version: Option<&str>) -> Option<String> {
    if sysroot.join("lib").join("rustlib").join(TARGET).is_dir() {
        return None;
    }
    let toolchain = version
        .and_then(|v| v.split_whitespace().nth(1))
        .map(|v| format!(" --toolchain {v}"))
        .unwrap_or_default();
    Some(format!(
        "the Rust toolchain has no `{TARGET}` target (its sysroot `{}` has no `lib/rustlib/{TARGET}`), which the guest verbs are built for; install it with `rustup target add {TARGET}{toolchain}`",
        sysroot.display()
    ))
}

/// The first line `rustc <arg>` prints, if it runs and succeeds.
fn ask(rustc: &OsString, arg: &str) -> Option<String> {
    let output = Command::new(rustc).arg(arg).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERSION: &str = "rustc 1.95.0 (59807616e 2026-04-14)";

    #[test]
    fn a_sysroot_without_the_target_names_the_command_that_adds_it() {
        let dir = tempfile::tempdir().unwrap();
        let sysroot = dir.path();
        std::fs::create_dir_all(sysroot.join("lib/rustlib/x86_64-unknown-linux-gnu")).unwrap();
        let message = missing(sysroot, Some(VERSION)).expect("the target is missing");
        assert!(
            message.contains("`rustup target add wasm32-wasip2 --toolchain 1.95.0`"),
            "{message}"
        );
        assert!(!message.contains('\n'), "one line: {message}");
    }

    #[test]
    fn a_sysroot_with_the_target_passes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("lib/rustlib/wasm32-wasip2")).unwrap();
        assert_eq!(missing(dir.path(), Some(VERSION)), None);
    }

    #[test]
    fn the_running_toolchain_has_the_target() {
        // The toolchain building these tests also built the guests.
        assert_eq!(check(), Ok(()));
    }
}

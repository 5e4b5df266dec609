//! Hostile guests in the sandbox: each attempt is contained, and the next
//! call on the same host still succeeds.

use std::time::Duration;

use vaultspec_host::sandbox::{CallOptions, FailureKind, OUTPUT_LIMIT};
use vaultspec_test_support::{TestVault, guests};

use crate::support::{assert_host_still_serves, call, load, quick, stdout};

fn vault_with_outside_file() -> (tempfile::TempDir, TestVault) {
    let vault = TestVault::new();
    vault.write(".vault/adr/a.md", "alpha");
    // A secret next to the workspace, as `../outside.txt` would find it.
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "secret").unwrap();
    (outside, vault)
}

#[test]
fn reading_a_parent_path_is_refused() -> anyhow::Result<()> {
    let (_outside, vault) = vault_with_outside_file();
    let probe = load(guests::PROBE)?;
    let outcome = call(&probe, "probe read", &["../outside.txt"], &vault, quick())?;
    assert_eq!(outcome.exit_code, Some(1));
    assert!(
        stdout(&outcome).contains("`..` components are not accepted"),
        "{}",
        stdout(&outcome)
    );
    assert_host_still_serves(&vault)
}

#[test]
fn reading_an_absolute_path_is_refused() -> anyhow::Result<()> {
    let (outside, vault) = vault_with_outside_file();
    let probe = load(guests::PROBE)?;
    let secret = outside.path().join("secret.txt");
    let outcome = call(
        &probe,
        "probe read",
        &[secret.to_str().unwrap()],
        &vault,
        quick(),
    )?;
    assert_eq!(outcome.exit_code, Some(1));
    assert!(
        stdout(&outcome).contains("absolute paths are not accepted"),
        "{}",
        stdout(&outcome)
    );
    assert_host_still_serves(&vault)
}

#[test]
fn a_symlink_leading_out_of_the_workspace_is_not_followed() -> anyhow::Result<()> {
    let (outside, vault) = vault_with_outside_file();
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        vault.root().join(".vault/leak.md"),
    )?;
    let probe = load(guests::PROBE)?;
    let outcome = call(&probe, "probe read", &[".vault/leak.md"], &vault, quick())?;
    assert_eq!(outcome.exit_code, Some(1));
    assert!(
        stdout(&outcome).contains("it is a symbolic link"),
        "{}",
        stdout(&outcome)
    );
    assert_host_still_serves(&vault)
}

#[test]
fn writes_land_only_under_the_vault_folders() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let probe = load(guests::PROBE)?;
    for path in ["src/evil.rs", ".vault/../evil.md", "evil.md"] {
        let outcome = call(&probe, "probe write", &[path, "pwned"], &vault, quick())?;
        assert_eq!(outcome.exit_code, Some(1), "{path} was written");
        assert!(outcome.changed.is_empty());
    }
    assert!(!vault.root().join("src/evil.rs").exists());
    assert!(!vault.root().join("evil.md").exists());

    let outcome = call(
        &probe,
        "probe write",
        &[".vault/notes/new.md", "hello"],
        &vault,
        quick(),
    )?;
    assert_eq!(outcome.exit_code, Some(0), "{}", stdout(&outcome));
    assert_eq!(outcome.changed, [".vault/notes/new.md"]);
    assert_eq!(vault.read(".vault/notes/new.md").as_deref(), Some("hello"));
    Ok(())
}

#[test]
fn a_component_without_the_write_import_cannot_write() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let reader = load(guests::READER)?;
    assert!(reader.capabilities.read && !reader.capabilities.write);
    let outcome = call(
        &reader,
        "reader write",
        &[".vault/new.md", "x"],
        &vault,
        quick(),
    )?;
    assert_eq!(outcome.exit_code, Some(1));
    assert!(vault.read(".vault/new.md").is_none());
    assert_host_still_serves(&vault)
}

#[test]
fn background_reads_past_the_limit_are_read_in_place_and_dropped_ones_cost_nothing()
-> anyhow::Result<()> {
    let vault = TestVault::new();
    // More files than one batch of `read_batches`, so it reads ahead.
    for i in 0..700 {
        vault.write(&format!(".vault/adr/{i:04}.md"), &"x".repeat(i % 7));
    }
    let reader = load(guests::READER)?;
    // 13 read-aheads of 700 files: a few run on threads, the rest are read
    // before `read-ahead` returns; six are dropped without being finished.
    let outcome = call(&reader, "reader ahead", &["13"], &vault, quick())?;
    assert_eq!(outcome.exit_code, Some(0), "{outcome:?}");
    let bytes: usize = (0..700).map(|i| i % 7).sum();
    assert_eq!(
        stdout(&outcome),
        format!(
            "finished 7 of 13, {} bytes; 700 files agree: true\n",
            7 * bytes
        )
    );
    assert_host_still_serves(&vault)
}

#[test]
fn the_guest_sees_none_of_the_host_environment() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let probe = load(guests::PROBE)?;
    assert!(
        std::env::var_os("PATH").is_some(),
        "the host has a PATH to leak"
    );
    let outcome = call(&probe, "probe env", &[], &vault, quick())?;
    assert_eq!(stdout(&outcome), "");

    let gateway = CallOptions {
        gateway: true,
        ..quick()
    };
    let outcome = call(&probe, "probe env", &[], &vault, gateway)?;
    assert_eq!(stdout(&outcome), "VAULTSPEC_MCP_GATEWAY_INVOCATION=1\n");
    Ok(())
}

#[test]
fn stdin_is_empty() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let probe = load(guests::PROBE)?;
    let outcome = call(&probe, "probe stdin", &[], &vault, quick())?;
    assert_eq!(stdout(&outcome), "stdin gave 0 bytes\n");
    Ok(())
}

#[test]
fn a_guest_that_loops_forever_is_stopped_by_the_timeout() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let probe = load(guests::PROBE)?;
    let options = CallOptions {
        timeout: Some(Duration::from_millis(200)),
        ..CallOptions::default()
    };
    let outcome = call(&probe, "probe spin", &[], &vault, options)?;
    assert_eq!(outcome.exit_code, None);
    assert_eq!(outcome.failure.map(|f| f.kind), Some(FailureKind::Timeout));
    assert_host_still_serves(&vault)
}

#[test]
fn a_guest_that_allocates_without_bound_hits_the_memory_ceiling() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let probe = load(guests::PROBE)?;
    let options = CallOptions {
        memory_limit: 64 * 1024 * 1024,
        ..quick()
    };
    let outcome = call(&probe, "probe hog", &[], &vault, options)?;
    assert_eq!(outcome.exit_code, None);
    assert_eq!(
        outcome.failure.map(|f| f.kind),
        Some(FailureKind::MemoryLimit)
    );
    assert_host_still_serves(&vault)
}

#[test]
fn printing_ten_mebibytes_stops_at_the_output_limit() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let probe = load(guests::PROBE)?;
    let outcome = call(&probe, "probe flood", &[], &vault, quick())?;
    assert_eq!(outcome.exit_code, None);
    assert_eq!(
        outcome.failure.map(|f| f.kind),
        Some(FailureKind::OutputLimit)
    );
    assert!(outcome.stdout.len() + outcome.stderr.len() <= OUTPUT_LIMIT);
    assert_host_still_serves(&vault)
}

#[test]
fn a_panic_is_a_failed_call_with_its_message() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let probe = load(guests::PROBE)?;
    let outcome = call(&probe, "probe panic", &[], &vault, quick())?;
    assert_eq!(
        outcome.failure.as_ref().map(|f| f.kind),
        Some(FailureKind::Trap)
    );
    assert!(String::from_utf8_lossy(&outcome.stderr).contains("panicked on purpose"));
    assert_host_still_serves(&vault)
}

#[test]
fn a_trap_is_a_failed_call() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let probe = load(guests::PROBE)?;
    let outcome = call(&probe, "probe trap", &[], &vault, quick())?;
    assert_eq!(outcome.exit_code, None);
    assert_eq!(outcome.failure.map(|f| f.kind), Some(FailureKind::Trap));
    assert_host_still_serves(&vault)
}

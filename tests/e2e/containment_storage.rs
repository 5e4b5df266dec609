//! Hostile workspaces under the sandbox's storage: planted symlinks, hard
//! links, FIFOs and temp-file traps are refused, the files they aim at stay
//! untouched, and the next call on the same host still succeeds.

use std::path::Path;
use std::time::{Duration, Instant};

use vaultspec_test_support::{TestVault, guests};

use crate::binary::vaultspec;
use crate::support::{assert_host_still_serves, call, load, quick, stdout};

/// A folder beside the workspace holding a file the attack aims at.
fn outside_file(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    // Beside the workspace's temporary folder, so hard links can reach it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("secret.txt");
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

#[test]
fn a_symlinked_folder_inside_the_vault_is_not_written_through() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.write("src/lib.rs", "fn main() {}\n");
    std::os::unix::fs::symlink("..", vault.root().join(".vault/up"))?;
    let probe = load(guests::PROBE)?;
    for path in [
        ".vault/up/src/evil.rs",
        ".vault/up/src/lib.rs",
        ".vault/up/.git/config",
    ] {
        let outcome = call(&probe, "probe write", &[path, "pwned"], &vault, quick())?;
        let said = stdout(&outcome);
        assert_eq!(outcome.exit_code, Some(1), "{path} was written: {said}");
        assert!(said.contains("`.vault/up` is a symbolic link"), "{said}");
        assert!(outcome.changed.is_empty());
    }
    assert!(!vault.root().join("src/evil.rs").exists());
    assert!(!vault.root().join(".git").exists());
    assert_eq!(vault.read("src/lib.rs").as_deref(), Some("fn main() {}\n"));
    assert_host_still_serves(&vault)
}

#[test]
fn a_symlinked_vault_folder_is_not_written() -> anyhow::Result<()> {
    let vault = TestVault::new();
    // `.vault` is a link to a folder elsewhere in the workspace.
    std::fs::remove_dir(vault.root().join(".vault"))?;
    vault.write("elsewhere/adr/a.md", "alpha");
    std::os::unix::fs::symlink("elsewhere", vault.root().join(".vault"))?;
    let probe = load(guests::PROBE)?;
    let outcome = call(
        &probe,
        "probe write",
        &[".vault/adr/b.md", "pwned"],
        &vault,
        quick(),
    )?;
    let said = stdout(&outcome);
    assert_eq!(outcome.exit_code, Some(1), "{said}");
    assert!(said.contains("`.vault` is a symbolic link"), "{said}");
    assert!(!vault.root().join("elsewhere/adr/b.md").exists());
    // Nor read through, though it stays inside the workspace: no link is
    // ever followed.
    let outcome = call(&probe, "probe read", &[".vault/adr/a.md"], &vault, quick())?;
    assert!(
        stdout(&outcome).contains("`.vault` is a symbolic link"),
        "{}",
        stdout(&outcome)
    );
    // The same for `.vaultspec`.
    std::fs::rename(
        vault.root().join(".vaultspec"),
        vault.root().join("spec-elsewhere"),
    )?;
    std::os::unix::fs::symlink("spec-elsewhere", vault.root().join(".vaultspec"))?;
    let outcome = call(
        &probe,
        "probe write",
        &[".vaultspec/templates/x.md", "pwned"],
        &vault,
        quick(),
    )?;
    let said = stdout(&outcome);
    assert_eq!(outcome.exit_code, Some(1), "{said}");
    assert!(said.contains("`.vaultspec` is a symbolic link"), "{said}");
    assert!(!vault.root().join("spec-elsewhere/templates").exists());
    // With `.vault` a real folder again, the host serves as before.
    std::fs::remove_file(vault.root().join(".vault"))?;
    std::fs::create_dir(vault.root().join(".vault"))?;
    assert_host_still_serves(&vault)
}

/// Make a FIFO at `path`, and a thread that opens its writing end for up to
/// `rescue` so a reader stuck on it (a host without the defence) is let go
/// and the test fails instead of hanging.
fn plant_fifo(path: &Path, rescue: Duration) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from(0o600),
        0,
    )
    .expect("making a FIFO");
    let path = path.to_owned();
    std::thread::spawn(move || {
        let deadline = Instant::now() + rescue;
        while Instant::now() < deadline {
            let opened = rustix::fs::open(
                &path,
                rustix::fs::OFlags::WRONLY
                    | rustix::fs::OFlags::NONBLOCK
                    | rustix::fs::OFlags::CLOEXEC,
                rustix::fs::Mode::empty(),
            );
            if opened.is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
}

#[test]
fn a_fifo_is_refused_at_once_instead_of_hanging_the_call() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let probe = load(guests::PROBE)?;
    for path in [
        ".vault/x.md",
        ".vaultspec/config.toml",
        ".vaultspec/body-schema-baseline.json",
    ] {
        plant_fifo(&vault.root().join(path), Duration::from_secs(12));
        let started = Instant::now();
        let outcome = call(&probe, "probe read", &[path], &vault, quick())?;
        let said = stdout(&outcome);
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "reading {path} took {:?}",
            started.elapsed()
        );
        assert_eq!(outcome.exit_code, Some(1), "{path}: {said}");
        assert!(
            said.contains(path) && said.contains("is a FIFO, not a regular file"),
            "{said}"
        );
    }
    assert_host_still_serves(&vault)
}

#[test]
fn links_planted_at_the_old_temp_names_do_not_redirect_a_write() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let (_outside, secret) = outside_file("secret");
    vault.write("src/keep.rs", "keep");
    vault.write(".vault/target.md", "before");
    vault.write(".vault/other.md", "before");
    // The old temp names were `.{name}.vs-{pid}-{counter}.tmp`, the pid
    // being this process (the sandbox runs in it) and the counter small.
    let pid = std::process::id();
    for counter in 0..1500 {
        let hard = vault
            .root()
            .join(format!(".vault/.target.md.vs-{pid}-{counter}.tmp"));
        std::fs::hard_link(&secret, hard)?;
        let soft = vault
            .root()
            .join(format!(".vault/.other.md.vs-{pid}-{counter}.tmp"));
        std::os::unix::fs::symlink("../src/keep.rs", soft)?;
    }
    let probe = load(guests::PROBE)?;
    for target in [".vault/target.md", ".vault/other.md"] {
        let outcome = call(&probe, "probe write", &[target, "pwned"], &vault, quick())?;
        assert_eq!(outcome.exit_code, Some(0), "{}", stdout(&outcome));
        assert_eq!(vault.read(target).as_deref(), Some("pwned"));
    }
    assert_eq!(
        std::fs::read_to_string(&secret)?,
        "secret",
        "the write went through a planted hard link"
    );
    assert_eq!(
        vault.read("src/keep.rs").as_deref(),
        Some("keep"),
        "the write went through a planted symlink"
    );
    assert_host_still_serves(&vault)
}

#[test]
fn a_hard_linked_vault_file_is_neither_read_nor_written() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let (_outside, secret) = outside_file("secret");
    std::fs::hard_link(&secret, vault.root().join(".vault/a.md"))?;
    let probe = load(guests::PROBE)?;

    let outcome = call(&probe, "probe read", &[".vault/a.md"], &vault, quick())?;
    let said = stdout(&outcome);
    assert_eq!(
        outcome.exit_code,
        Some(1),
        "the outside file was read: {said}"
    );
    assert!(
        said.contains("`.vault/a.md`") && said.contains("has 2 hard links"),
        "{said}"
    );

    let outcome = call(
        &probe,
        "probe write",
        &[".vault/a.md", "pwned"],
        &vault,
        quick(),
    )?;
    let said = stdout(&outcome);
    assert_eq!(outcome.exit_code, Some(1), "{said}");
    assert!(said.contains("has 2 hard links"), "{said}");
    assert!(outcome.changed.is_empty());
    assert_eq!(std::fs::read_to_string(&secret)?, "secret");
    use std::os::unix::fs::MetadataExt;
    assert_eq!(
        std::fs::metadata(&secret)?.nlink(),
        2,
        "the link was replaced"
    );
    assert_host_still_serves(&vault)
}

#[test]
fn no_verb_writes_where_components_hooks_or_launch_commands_live() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let probe = load(guests::PROBE)?;
    for path in [
        ".vaultspec/verbs/x.wasm",
        ".vaultspec/verbs/nested/probe.wasm",
        ".vaultspec/mcps/server.json",
        ".vaultspec/hooks/pre-commit",
        ".vaultspec/triggers/on-save.toml",
        ".vaultspec/workspace.json",
        ".vaultspec/.env",
    ] {
        let outcome = call(&probe, "probe write", &[path, "pwned"], &vault, quick())?;
        let said = stdout(&outcome);
        assert_eq!(outcome.exit_code, Some(1), "{path} was written: {said}");
        assert!(said.contains(path), "{said}");
        assert!(outcome.changed.is_empty());
        assert!(!vault.root().join(path).exists(), "{path} exists");
    }
    // The version manifest stays writable: migrations bump it.
    let outcome = call(
        &probe,
        "probe write",
        &[".vaultspec/providers.json", "{}"],
        &vault,
        quick(),
    )?;
    assert_eq!(outcome.exit_code, Some(0), "{}", stdout(&outcome));
    assert_host_still_serves(&vault)
}

#[test]
fn temp_files_a_killed_write_left_are_swept_by_the_next_cli_command_that_writes()
-> anyhow::Result<()> {
    let vault = TestVault::new();
    // A writer that was killed between create and rename (a pid no process
    // has: pid_max is at most 2^22), in the vault, an agent's folder and
    // the root; and one in the source tree, which is not ours to sweep.
    let stale = ".a.md.vs-99999999-0123456789abcdef.tmp";
    for folder in [".vault/adr", ".claude/rules", "", "src"] {
        vault.write(format!("{folder}/{stale}").trim_start_matches('/'), "half");
    }
    // Reading sweeps nothing; the first command that writes sweeps first.
    assert!(vaultspec(&vault, &["vault", "list"]).status.success());
    assert!(vault.root().join(".vault/adr").join(stale).exists());
    let out = vaultspec(&vault, &["config", "set", "editor", "vi"]);
    assert!(out.status.success(), "{out:?}");
    for folder in [".vault/adr", ".claude/rules", ""] {
        assert!(
            !vault.root().join(folder).join(stale).exists(),
            "left in `{folder}`"
        );
    }
    assert!(vault.root().join("src").join(stale).exists());
    Ok(())
}

#[test]
fn a_fifo_a_link_to_dev_zero_and_a_sparse_definition_neither_hang_nor_exhaust_spec_commands()
-> anyhow::Result<()> {
    let vault = TestVault::new();
    let root = vault.root();
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        root.join(".vaultspec/providers.json"),
        rustix::fs::Mode::from(0o600),
    )?;
    std::fs::create_dir_all(root.join(".vaultspec/mcps"))?;
    std::os::unix::fs::symlink("/dev/zero", root.join(".vaultspec/mcps/zero.json"))?;
    std::fs::File::create(root.join(".vaultspec/mcps/huge.json"))?.set_len(3 << 30)?;
    for args in [
        &["spec", "doctor", "--json"][..],
        &["spec", "mcps", "status", "--json"],
        &["spec", "mcps", "list", "--json"],
        &["install", "--dry-run"],
    ] {
        let mut child = crate::binary::command(args)
            .arg("--target")
            .arg(root)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()?;
        let deadline = Instant::now() + Duration::from_secs(20);
        while child.try_wait()?.is_none() {
            if Instant::now() > deadline {
                child.kill()?;
                anyhow::bail!("`{}` hung on a hostile .vaultspec/", args.join(" "));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let out = child.wait_with_output()?;
        assert!(
            matches!(out.status.code(), Some(0..=2)),
            "{args:?}: {out:?}"
        );
    }
    Ok(())
}

/// A journal as another machine's vaultspec (or an attacker) leaves it: it
/// claims the ADR's "old" bytes and that the research note did not exist.
fn plant_foreign_journal(vault: &TestVault, version: u32, sealed_by_another_key: bool) {
    let journal = serde_json::json!({
        "version": version,
        "moves": [],
        "restore": [
            {"path": ".vault/adr/2026-01-01-cache-adr.md", "backup": "0.bak"},
            {"path": ".vault/research/2026-01-02-cache-notes-research.md", "backup": null},
        ],
        "written": {},
    });
    let mut bytes = serde_json::to_vec_pretty(&journal).unwrap();
    if sealed_by_another_key {
        bytes.extend_from_slice(format!("\n# vaultspec seal: {}\n", "ab".repeat(32)).as_bytes());
    }
    vault.write(".vault/data/journal/0.bak", "the journal's bytes\n");
    std::fs::write(vault.root().join(".vault/data/journal/journal.json"), bytes).unwrap();
}

#[test]
fn a_journal_that_came_with_a_clone_is_reported_and_left_never_applied() -> anyhow::Result<()> {
    // Version 1 is what an older vaultspec wrote, and rolled back unasked.
    for (version, sealed) in [(1, false), (2, false), (2, true)] {
        let vault = TestVault::new();
        let adr = ".vault/adr/2026-01-01-cache-adr.md";
        let note = ".vault/research/2026-01-02-cache-notes-research.md";
        vault.write(adr, "---\ntags:\n  - '#adr'\n  - '#cache'\ndate: '2026-01-01'\nrelated: []\n---\n# A person's newer text\n");
        vault.write(note, "---\ntags:\n  - '#research'\n  - '#cache'\ndate: '2026-01-02'\nrelated: []\n---\n# New notes\n");
        plant_foreign_journal(&vault, version, sealed);
        let before = (vault.read(adr), vault.read(note));
        let out = vaultspec(&vault, &["vault", "add", "research", "--feature", "other"]);
        let said = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "the write went ahead: {said}");
        assert!(said.contains("journal"), "{said}");
        assert_eq!(
            (vault.read(adr), vault.read(note)),
            before,
            "a person's work was rolled over"
        );
        assert!(
            vault
                .root()
                .join(".vault/data/journal/journal.json")
                .exists()
        );
        assert!(vault.root().join(".vault/data/journal/0.bak").exists());

        let doctor = vaultspec(&vault, &["spec", "doctor", "--json"]);
        let doctor = String::from_utf8_lossy(&doctor.stdout);
        assert!(
            doctor.contains("undo journal") && doctor.contains("left as it is"),
            "{doctor}"
        );

        // `status`, at the terminal and as JSON, says what was found.
        let status = vaultspec(&vault, &["status"]);
        let text = String::from_utf8_lossy(&status.stdout);
        assert!(
            text.contains("Undo journal") && text.contains("left as it is"),
            "{text}"
        );
        let status = vaultspec(&vault, &["status", "--json"]);
        let status: serde_json::Value = serde_json::from_slice(&status.stdout)?;
        assert_eq!(status["data"]["journal"]["state"], "refused", "{status}");

        // A server starts (the journal does not hold `initialize`), its
        // `status` says the same, and its write tools refuse.
        let session = crate::mcp::Session::start(&vault, &[])?;
        let rollup = session.call("status", serde_json::json!({}))?;
        let rollup = rollup.structured_content.clone().unwrap_or_default();
        assert_eq!(rollup["journal"]["state"], "refused", "{rollup}");
        let created = session.call(
            "create",
            serde_json::json!({"documents": [{"feature": "other", "type": "research"}]}),
        )?;
        let reply = created.structured_content.clone().unwrap_or_default();
        assert_eq!(reply["status"], "failed", "{created:?}");
        assert!(reply.to_string().contains("undo journal"), "{created:?}");
        assert_eq!((vault.read(adr), vault.read(note)), before);
    }
    Ok(())
}

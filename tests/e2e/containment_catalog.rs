//! Containment of what a repository ships around the sandbox: the catalog's
//! component files (links, FIFOs, huge files), terminal escapes in names,
//! docs and verb output, the output cap of a verb run at the command line,
//! a compile cache others may write, and a `.vault` that links elsewhere.
//!
//! Each test runs the real binary with `HOME` set to a throwaway folder and
//! ends by checking that the next command on the same workspace still works.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use anyhow::ensure;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use vaultspec_test_support::{TestVault, cache_dir, guests};

use crate::mcp::Session;
use crate::user::{at_terminal, text};

/// The file name of a hostile component: OSC 52 (write the clipboard) and a
/// right-to-left override.
const HOSTILE_STEM: &str = "evil\x1b]52;c;aGk=\x07\u{202e}kcol";

/// A user: a home folder of their own, holding their trust file.
struct User {
    home: tempfile::TempDir,
    cache: PathBuf,
}

impl User {
    fn new() -> Self {
        Self {
            home: tempfile::tempdir().expect("creating a home folder"),
            cache: cache_dir().parent().unwrap().join("test-cli-cache"),
        }
    }

    fn with_cache(cache: &Path) -> Self {
        Self {
            cache: cache.to_owned(),
            ..Self::new()
        }
    }

    fn command(&self, vault: &TestVault, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_vaultspec"));
        command
            .args(args)
            .arg("--target")
            .arg(vault.root())
            .env("HOME", self.home.path())
            .env("VAULTSPEC_CACHE_DIR", &self.cache)
            .env_remove("VAULTSPEC_TARGET_DIR")
            .env_remove("VAULTSPEC_LOG_LEVEL")
            .stdin(Stdio::null());
        command
    }

    /// `vaultspec ARGS --target VAULT`, stopped and failed after 60 s.
    fn run(&self, vault: &TestVault, args: &[&str]) -> Output {
        let child = self
            .command(vault, args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("running vaultspec");
        let pid = child.id();
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || send.send(child.wait_with_output()));
        match receive.recv_timeout(Duration::from_secs(60)) {
            Ok(out) => out.expect("collecting vaultspec's output"),
            Err(_) => {
                // SAFETY: signalling the child this test started.
                unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
                panic!("`vaultspec {}` did not finish within 60 s", args.join(" "));
            }
        }
    }

    /// `vaultspec ARGS --target VAULT` at a pseudo-terminal made by
    /// `script(1)`, typing `answer`; what the terminal showed.
    fn run_at_terminal(&self, vault: &TestVault, args: &[&str], answer: &str) -> String {
        let mut words: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        words.extend(["--target".to_owned(), vault.root().display().to_string()]);
        let out = at_terminal(env!("CARGO_BIN_EXE_vaultspec"), &words, answer, |command| {
            command
                .env("HOME", self.home.path())
                .env("VAULTSPEC_CACHE_DIR", &self.cache)
                .env_remove("VAULTSPEC_TARGET_DIR");
        });
        format!("{}{}", text(&out.stdout), text(&out.stderr))
    }

    /// Approve `file` for `vault` the way `verbs trust` records it.
    fn trust(&self, vault: &TestVault, file: &Path) {
        let bytes = std::fs::read(file).unwrap();
        let grant = json!({
            "workspace": std::fs::canonicalize(vault.root()).unwrap(),
            "path": std::fs::canonicalize(file).unwrap(),
            "sha256": hex::encode(Sha256::digest(&bytes)),
            "granted_at": 0,
        });
        let dir = self.home.path().join(".vaultspec");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("verb-trust.json");
        let mut file: Value = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_else(|| json!({"version": 1, "grants": []}));
        file["grants"].as_array_mut().unwrap().push(grant);
        std::fs::write(path, serde_json::to_vec(&file).unwrap()).unwrap();
    }
}

fn verbs_dir(vault: &TestVault) -> PathBuf {
    let dir = vault.root().join(".vaultspec/verbs");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Put component bytes into `.vaultspec/verbs/` as `STEM.wasm`.
fn install(vault: &TestVault, bytes: &[u8], stem: &str) -> PathBuf {
    let path = verbs_dir(vault).join(format!("{stem}.wasm"));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A sparse file of `len` bytes: costs no disk, but reading it costs `len`.
fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

/// A bidirectional formatting character.
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// No raw terminal control (but line breaks) and no bidirectional
/// character in `shown`.
fn assert_no_raw_controls(shown: &str) {
    let raw: Vec<char> = shown
        .chars()
        .filter(|&c| (c.is_control() && !matches!(c, '\n' | '\r' | '\t')) || is_bidi(c))
        .collect();
    assert!(
        raw.is_empty(),
        "raw control or bidi characters {raw:?} reached the output:\n{shown:?}"
    );
}

/// The next commands on the workspace still work: a builtin verb, and the
/// catalog listing.
fn assert_still_works(user: &User, vault: &TestVault) {
    vault.doc("adr", "2026-03-02", "still", Some("works"));
    let out = user.run(vault, &["vault", "list", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let envelope: Value =
        serde_json::from_slice(&out.stdout).expect("`vault list --json` prints JSON");
    assert!(
        envelope["data"]["documents"]
            .to_string()
            .contains("2026-03-02-still-works-adr.md"),
        "{envelope}"
    );
    let out = user.run(vault, &["verbs", "list"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn catalog_files_are_read_without_links_past_a_cap_and_never_block() -> anyhow::Result<()> {
    let user = User::new();
    let vault = TestVault::new();
    let outside = tempfile::tempdir()?;
    let dir = verbs_dir(&vault);

    // A 3 GiB sparse file: in the folder itself, and behind a link.
    sparse(&dir.join("huge.wasm"), 3 << 30);
    sparse(&outside.path().join("far.wasm"), 3 << 30);
    std::os::unix::fs::symlink(outside.path().join("far.wasm"), dir.join("far.wasm"))?;
    // A valid component behind a link is refused too: links never leave.
    std::fs::copy(guests::ECHO, outside.path().join("echo.wasm"))?;
    std::os::unix::fs::symlink(
        outside.path().join("echo.wasm"),
        dir.join("linked-echo.wasm"),
    )?;
    // A FIFO nobody writes: opening it for reading would block forever.
    let fifo = std::ffi::CString::new(dir.join("fifo.wasm").as_os_str().as_encoded_bytes())?;
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);

    let out = user.run(&vault, &["verbs", "list", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed: Value = serde_json::from_slice(&out.stdout)?;
    let refused = |name: &str| -> String {
        listed["data"]["refused"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["name"] == name)
            .map(|r| r["reason"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
            .join("; ")
    };
    let huge = refused("huge");
    assert!(
        huge.contains("3221225472 bytes") && huge.contains("cap"),
        "the size is checked first: {listed}"
    );
    assert!(refused("far").contains("symbolic link"), "{listed}");
    assert!(refused("linked-echo").contains("symbolic link"), "{listed}");
    assert!(refused("fifo").contains("not a regular file"), "{listed}");
    let components = listed["data"]["components"].to_string();
    assert!(
        !components.contains("linked-echo"),
        "a linked component joined the catalog: {components}"
    );

    // Every refusal is a warning of any other command too, which runs.
    let out = user.run(&vault, &["vault", "list"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("`huge` refused") && stderr.contains("`far` refused"),
        "{stderr}"
    );
    assert_still_works(&user, &vault);
    Ok(())
}

#[test]
fn a_linked_verbs_folder_is_not_read() -> anyhow::Result<()> {
    let user = User::new();
    let vault = TestVault::new();
    let outside = tempfile::tempdir()?;
    std::fs::copy(guests::ECHO, outside.path().join("echo.wasm"))?;
    std::os::unix::fs::symlink(outside.path(), vault.root().join(".vaultspec/verbs"))?;

    let out = user.run(&vault, &["verbs", "list", "--third-party"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !text(&out.stdout).contains("echo"),
        "a component behind a linked folder was loaded: {}",
        text(&out.stdout)
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(".vaultspec/verbs`") && stderr.contains("symbolic link"),
        "{stderr}"
    );
    assert_still_works(&user, &vault);
    Ok(())
}

/// `text` with spaces after it, `len` bytes in all.
fn pad(text: &str, len: usize) -> String {
    assert!(text.len() <= len, "`{text:?}` must fit in {len} bytes");
    format!("{text}{}", " ".repeat(len - text.len()))
}

/// `echo` with every occurrence of `from` replaced by `to` (same length).
fn echo_patched(from: &str, to: &str) -> Vec<u8> {
    assert_eq!(from.len(), to.len(), "the patch must keep the length");
    let mut bytes = std::fs::read(guests::ECHO).unwrap();
    let mut found = false;
    let mut at = 0;
    while let Some(offset) = bytes[at..]
        .windows(from.len())
        .position(|w| w == from.as_bytes())
    {
        bytes[at + offset..at + offset + from.len()].copy_from_slice(to.as_bytes());
        at += offset + from.len();
        found = true;
    }
    assert!(found, "echo holds `{from}`");
    bytes
}

#[test]
fn names_imports_and_docs_reach_the_terminal_escaped() -> anyhow::Result<()> {
    let user = User::new();
    let vault = TestVault::new();
    // An import name carrying OSC 52.
    install(
        &vault,
        &echo_patched("wasi:cli/environment@", "wasi:cli/\x1b]52;c;aGk\x07@"),
        "osc-import",
    );
    // A declaration whose source carries ESC (the WIT parser quotes it).
    install(
        &vault,
        &echo_patched(
            "/// Do nothing, quickly.",
            &pad("/// \x1b]52;c;aGk\x07", 24),
        ),
        "osc-docs",
    );
    // Docs the WIT parser accepts but a terminal acts on: a carriage return
    // that redraws the line, and a right-to-left mark.
    let original = "/// Print the operands and flags back, as text or as JSON.";
    let redraw = pad(
        "/// Print back.\r\u{200f}capabilities  none",
        original.len(),
    );
    install(&vault, &echo_patched(original, &redraw), "redraw");
    // A file name carrying OSC 52 and a right-to-left override, on a
    // component that may write.
    install(&vault, &std::fs::read(guests::PROBE)?, HOSTILE_STEM);

    let out = user.run(&vault, &["verbs", "list"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    for shown in [&stdout, &stderr] {
        assert_no_raw_controls(shown);
        assert!(
            !shown.contains("back.\r"),
            "a carriage return reached the output: {shown:?}"
        );
    }
    assert!(
        stdout.contains("  osc-import: ") && stdout.contains("  osc-docs: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("\\x1b]52;c;aGk\\x07"),
        "the escape is shown written out: {stdout}"
    );
    // Any other command warns of the same refusals on stderr.
    let out = user.run(&vault, &["vault", "list"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert_no_raw_controls(&stderr);
    assert!(
        stderr.contains("`osc-import` refused") && stderr.contains("`osc-docs` refused"),
        "{stderr}"
    );
    assert!(
        stdout.contains("evil\\x1b]52;c;aGk=\\x07\\u{202e}kcol"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Print back.\\x0d\\u{200f}capabilities"),
        "{stdout}"
    );

    let hostile = verbs_dir(&vault).join(format!("{HOSTILE_STEM}.wasm"));
    let out = user.run(&vault, &["verbs", "inspect", hostile.to_str().unwrap()]);
    let shown = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert_no_raw_controls(&shown);
    assert!(shown.contains("evil\\x1b]52"), "{shown}");

    // The trust prompt, at a terminal: what it shows cannot be redrawn.
    let shown = user.run_at_terminal(&vault, &["verbs", "trust"], "n\nn\n");
    assert_no_raw_controls(&shown);
    assert!(
        shown.contains("trust `evil\\x1b]52;c;aGk=\\x07\\u{202e}kcol`"),
        "{shown:?}"
    );
    assert!(
        shown.contains("Print back.\\x0d\\u{200f}capabilities"),
        "{shown:?}"
    );
    assert!(!shown.contains("back.\r"), "{shown:?}");
    assert_still_works(&user, &vault);
    Ok(())
}

#[test]
fn verb_output_to_a_terminal_is_escaped_and_to_a_pipe_is_not() -> anyhow::Result<()> {
    let user = User::new();
    let vault = TestVault::new();
    let echo = install(&vault, &std::fs::read(guests::ECHO)?, "echo");
    user.trust(&vault, &echo);
    let hostile = "\x1b]52;c;aGk=\x07\x1b[2J\u{202e}done";

    let shown = user.run_at_terminal(&vault, &["echo", "say", hostile], "");
    assert_no_raw_controls(&shown);
    assert!(
        shown.contains("\\x1b]52;c;aGk=\\x07\\x1b[2J\\u{202e}done"),
        "{shown:?}"
    );

    let out = user.run(&vault, &["echo", "say", hostile]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("{hostile} \n"),
        "a pipe gets the bytes as they are"
    );
    assert_still_works(&user, &vault);
    Ok(())
}

#[test]
fn a_verb_run_at_the_command_line_has_the_output_cap_of_invoke() -> anyhow::Result<()> {
    let user = User::new();
    let vault = TestVault::new();
    let probe = install(&vault, &std::fs::read(guests::PROBE)?, "probe");
    user.trust(&vault, &probe);

    let out = user.run(&vault, &["probe", "flood"]);
    assert_eq!(
        out.status.code(),
        Some(vaultspec_host::report::exit::INTERNAL.into()),
        "a flood past the cap stops the verb: a failure of the run, not a finding"
    );
    assert!(
        out.stdout.len() <= 1024 * 1024,
        "{} bytes passed the 1 MiB cap",
        out.stdout.len()
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("OutputLimit") && stderr.contains("1 MiB"),
        "{stderr}"
    );
    assert_still_works(&user, &vault);
    Ok(())
}

/// The `.cwasm` files of a cache folder.
fn entries(cache: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(cache.join("components"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "cwasm"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

#[test]
fn a_compile_cache_others_may_write_is_not_loaded() -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let vault = TestVault::new();
    vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    // Builtins ship compiled; third-party components go through the cache.
    let echo = install(&vault, &std::fs::read(guests::ECHO)?, "echo");
    let probe = install(&vault, &std::fs::read(guests::PROBE)?, "probe");
    let (first, second) = (tempfile::tempdir()?, tempfile::tempdir()?);
    let (user, other) = (
        User::with_cache(first.path()),
        User::with_cache(second.path()),
    );
    for (who, file) in [(&user, &echo), (&other, &probe)] {
        who.trust(&vault, file);
    }

    // Compile `echo` into one cache and `probe` into another.
    ensure!(user.run(&vault, &["echo", "say", "hi"]).status.success());
    let out = other.run(&vault, &["probe", "env"]);
    ensure!(out.status.success(), "{}", text(&out.stderr));
    let ours = entries(first.path());
    let theirs: Vec<PathBuf> = entries(second.path())
        .into_iter()
        .filter(|p| !ours.iter().any(|o| o.file_name() == p.file_name()))
        .collect();
    ensure!(
        !ours.is_empty() && !theirs.is_empty(),
        "both runs cached a component: {ours:?} {theirs:?}"
    );

    // Plant the other component's code under our key, in a folder anyone
    // may write: loading it would run the wrong code.
    for entry in &ours {
        std::fs::copy(&theirs[0], entry)?;
    }
    let folder = first.path().join("components");
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o777))?;
    let out = user.run(&vault, &["echo", "say", "hi"]);
    assert!(
        out.status.success(),
        "the planted entry ran: {}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "hi \n", "echo's own code ran");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("not using the compiled-component cache") && stderr.contains("777"),
        "{stderr}"
    );

    // A private folder, but an entry anyone may write: not loaded either.
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700))?;
    for entry in &ours {
        std::fs::set_permissions(entry, std::fs::Permissions::from_mode(0o666))?;
    }
    let out = user.run(&vault, &["echo", "say", "hi"]);
    assert!(
        out.status.success(),
        "the planted entry ran: {}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "hi \n", "echo's own code ran");
    assert!(
        text(&out.stderr).contains("ignoring the cached component"),
        "{}",
        text(&out.stderr)
    );

    // A folder made by the cache is private to the user.
    let fresh = tempfile::tempdir()?;
    ensure!({
        let fresh_user = User::with_cache(fresh.path());
        fresh_user.trust(&vault, &echo);
        fresh_user
            .run(&vault, &["echo", "say", "hi"])
            .status
            .success()
    });
    let mode = std::fs::metadata(fresh.path().join("components"))?
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o700);
    assert_still_works(&user, &vault);
    Ok(())
}

#[test]
fn a_linked_vault_is_served_but_never_walked() -> anyhow::Result<()> {
    let elsewhere = TestVault::new();
    elsewhere.doc("adr", "2026-03-02", "far", Some("away"));
    let vault = TestVault::new();
    std::fs::remove_dir(vault.root().join(".vault"))?;
    std::os::unix::fs::symlink(elsewhere.root().join(".vault"), vault.root().join(".vault"))?;

    let session = Session::start(&vault, &[])?;
    // Whatever the storage makes of a linked vault, the server answers, and
    // answers again.
    let first = session.call("find", json!({}))?;
    let second = session.call("find", json!({}))?;
    assert_eq!(
        serde_json::to_value(&first.content)?,
        serde_json::to_value(&second.content)?,
        "the server answers the same way twice"
    );
    assert!(session.tool_names()?.contains(&"find".to_owned()));
    Ok(())
}

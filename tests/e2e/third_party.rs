//! Third-party verb components: scaffolded, built, installed, refused until a
//! person trusts them at a terminal, run, and refused again once changed.
//!
//! Every test runs the real binary with `HOME` set to a throwaway folder, so
//! the trust file (`~/.vaultspec/verb-trust.json`) and the user's component
//! folder are the test's own. Interactive approval runs under a
//! pseudo-terminal made by `script(1)`; the answer is typed into it.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, ensure};
use serde_json::Value;
use vaultspec_test_support::{TestVault, cache_dir, guests};

use crate::user::{User, json, text};

/// Put a component into the workspace's `.vaultspec/verbs/` as `NAME.wasm`.
fn install(vault: &TestVault, bytes: &[u8], name: &str) -> PathBuf {
    let path = vault
        .root()
        .join(".vaultspec/verbs")
        .join(format!("{name}.wasm"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The folder every build of this file shares (under the target folder, so
/// the checkout's toolchain applies and dependencies compile once).
fn build_root() -> PathBuf {
    cache_dir().parent().unwrap().join("third-party")
}

/// `cargo build --release --target wasm32-wasip2` in `crate_dir`; the
/// component's bytes.
fn build(crate_dir: &Path, name: &str) -> anyhow::Result<Vec<u8>> {
    let target = build_root().join("target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["build", "--release", "--target", "wasm32-wasip2", "--quiet"])
        .current_dir(crate_dir)
        .env("CARGO_TARGET_DIR", &target);
    for key in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        command.env_remove(key);
    }
    if std::env::var_os("CARGO_NET_OFFLINE").is_some() {
        command.arg("--offline");
    }
    let out = command.output().context("running cargo")?;
    ensure!(
        out.status.success(),
        "building `{}` failed:\n{}",
        crate_dir.display(),
        text(&out.stderr)
    );
    let wasm = target
        .join("wasm32-wasip2/release")
        .join(format!("{name}.wasm"));
    std::fs::read(&wasm).with_context(|| format!("reading `{}`", wasm.display()))
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// The same component with a new, valid custom section at its end: other
/// bytes, same declaration (what a rebuild with a small change gives).
fn changed(bytes: &[u8]) -> Vec<u8> {
    let (name, data) = (b"changed", b"rebuilt");
    let mut out = bytes.to_vec();
    out.push(0);
    out.push((1 + name.len() + data.len()) as u8);
    out.push(name.len() as u8);
    out.extend_from_slice(name);
    out.extend_from_slice(data);
    out
}

/// A copy of the `echo` guest whose embedded declaration says `declaration`
/// (padded to the original's length, so the component stays well formed).
/// Its real exports do not change: only what loading reads does.
fn echo_declaring(declaration: &str) -> Vec<u8> {
    let bytes = std::fs::read(guests::ECHO).unwrap();
    let original = std::fs::read(repo().join("tests/guests/echo/wit/world.wit")).unwrap();
    assert!(
        declaration.len() <= original.len(),
        "the new declaration must fit"
    );
    let mut padded = declaration.as_bytes().to_vec();
    padded.resize(original.len(), b' ');
    let mut out = bytes;
    let mut found = false;
    let mut at = 0;
    while let Some(offset) = out[at..]
        .windows(original.len())
        .position(|w| w == original)
    {
        out[at + offset..at + offset + original.len()].copy_from_slice(&padded);
        at += offset + original.len();
        found = true;
    }
    assert!(found, "echo embeds its world");
    out
}

/// Run `notes count` the way a person does, at the command line; returns its
/// exit code and JSON output. (Through the MCP gateway this is one `invoke`
/// call, `{"verb": "notes count", "arguments": {"json": true}}`.)
fn invoke_notes_count(user: &User, vault: &TestVault) -> (Option<i32>, String, String) {
    let out = user.run(vault, &["notes", "count", "--json"]);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_third_party_verb_lives_from_scaffold_to_refusal_after_a_change() -> anyhow::Result<()> {
    let user = User::new();
    let vault = TestVault::new();
    vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    vault.doc("research", "2026-03-01", "cache-layer", Some("eviction"));
    vault.doc("plan", "2026-03-03", "search", None);

    // Scaffold against a checkout (`--sdk`): the patch names it, and no
    // lockfile is written (the checkout's dependencies are its own). The
    // scaffold built against the SDK the binary carries is `verb_author`'s.
    let scratch = tempfile::tempdir()?;
    let hello = scratch.path().join("hello");
    let sdk = repo().join("sdk/verb");
    let out = user.run(
        &vault,
        &[
            "verbs",
            "new",
            "hello",
            "--dir",
            hello.to_str().unwrap(),
            "--sdk",
            sdk.to_str().unwrap(),
        ],
    );
    ensure!(out.status.success(), "{}", text(&out.stderr));
    let manifest = std::fs::read_to_string(hello.join("Cargo.toml"))?;
    let patch = format!(
        "[patch.crates-io]\nvaultspec-sdk = {{ path = {:?} }}",
        std::fs::canonicalize(&sdk)?.display().to_string()
    );
    assert!(
        manifest.contains(r#"crate-type = ["cdylib"]"#) && manifest.contains(&patch),
        "{manifest}"
    );
    let contract = std::fs::read_to_string(hello.join("wit/deps/vaultspec-verb/verb.wit"))?;
    assert_eq!(contract, vaultspec_host::catalog::VERB_WIT);
    for file in ["wit/world.wit", "src/lib.rs", "README.md"] {
        assert!(hello.join(file).is_file(), "`verbs new` wrote no `{file}`");
    }
    assert!(!hello.join("Cargo.lock").exists());

    // Build the out-of-tree example and install it.
    let notes = build(&repo().join("tests/third-party/notes"), "notes")?;
    let installed = install(&vault, &notes, "notes");

    // Listed, untrusted, and refused with the command that would trust it.
    let listed = json(&user.run(&vault, &["verbs", "list", "--third-party", "--json"]))?;
    let component = &listed["data"]["components"][0];
    assert_eq!(component["name"], "notes");
    assert_eq!(component["trust"], "untrusted");
    assert_eq!(
        component["capabilities"],
        serde_json::json!({"read": true, "write": false, "framework": false})
    );
    assert_eq!(component["verbs"][0]["verb"], "notes count");
    assert!(component["digest"].as_str().unwrap().starts_with("sha256:"));
    let (code, stdout, stderr) = invoke_notes_count(&user, &vault);
    assert_eq!(code, Some(1), "{stderr}");
    // Asked for `--json`, the refusal is the JSON error document.
    let refusal: serde_json::Value = serde_json::from_str(&stdout)?;
    assert_eq!(refusal["schema"], "vaultspec.error.v1");
    let message = refusal["data"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("not trusted") && message.contains("vaultspec verbs trust notes"),
        "{stdout}"
    );

    // No terminal, or `--json`: no trust.
    let out = user.run(&vault, &["verbs", "trust", "notes"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("person at a terminal"),
        "{}",
        text(&out.stderr)
    );
    let out = user.run_at_terminal(&vault, &["verbs", "trust", "notes", "--json"], "y\n");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        user.trust_file().is_none(),
        "nothing may be stored without an approval"
    );

    // At a terminal: a no keeps it untrusted, a yes trusts it.
    let out = user.run_at_terminal(&vault, &["verbs", "trust", "notes"], "n\n");
    assert!(
        text(&out.stdout).contains("not trusted: `notes`"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(invoke_notes_count(&user, &vault).0, Some(1));
    let out = user.run_at_terminal(&vault, &["verbs", "trust", "notes"], "y\n");
    let shown = text(&out.stdout);
    assert!(out.status.success(), "{shown}");
    assert!(
        shown.contains("sha256:") && shown.contains("notes count") && shown.contains("read"),
        "{shown}"
    );
    assert!(shown.contains("trusted `notes`"), "{shown}");
    let grants = user.trust_file().context("the trust file was written")?;
    let grant = &grants["grants"][0];
    assert_eq!(
        grant["path"],
        std::fs::canonicalize(&installed)?.display().to_string()
    );
    assert_eq!(
        grant["workspace"],
        std::fs::canonicalize(vault.root())?.display().to_string()
    );

    // Trusted: it runs, through the sandbox, on the workspace.
    let (code, stdout, stderr) = invoke_notes_count(&user, &vault);
    assert_eq!(code, Some(0), "{stderr}");
    let envelope: Value = serde_json::from_str(&stdout)?;
    assert_eq!(envelope["schema"], "vaultspec.notes.count.v1");
    assert_eq!(envelope["data"]["count"], 3);
    let out = user.run(
        &vault,
        &["notes", "count", "adr", "--feature", "cache-layer"],
    );
    assert_eq!(text(&out.stdout).trim(), "1 notes");

    // Changed bytes at the same path: refused again until approved again.
    std::fs::write(&installed, changed(&notes))?;
    let (code, stdout, stderr) = invoke_notes_count(&user, &vault);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stdout.contains("vaultspec verbs trust notes"), "{stdout}");
    let out = user.run_at_terminal(&vault, &["verbs", "trust", "notes"], "y\n");
    assert!(
        text(&out.stdout).contains("changed since it was trusted"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(invoke_notes_count(&user, &vault).0, Some(0));

    // Revoked: refused again.
    let out = user.run(&vault, &["verbs", "trust", "--revoke", "notes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(invoke_notes_count(&user, &vault).0, Some(1));
    Ok(())
}

#[test]
fn trust_holds_only_in_the_workspace_it_was_given_in() -> anyhow::Result<()> {
    let user = User::new();
    let (here, elsewhere) = (TestVault::new(), TestVault::new());
    // One file, in the user's folder: both workspaces load the same path.
    let dir = user.home().join(".vaultspec/verbs");
    std::fs::create_dir_all(&dir)?;
    std::fs::copy(guests::ECHO, dir.join("echo.wasm"))?;

    let out = user.run_at_terminal(&here, &["verbs", "trust", "echo"], "y\n");
    assert!(out.status.success(), "{}", text(&out.stdout));
    let out = user.run(&here, &["echo", "say", "hi"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "hi");

    let out = user.run(&elsewhere, &["echo", "say", "hi"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("vaultspec verbs trust echo"),
        "{}",
        text(&out.stderr)
    );
    let listed = json(&user.run(&elsewhere, &["verbs", "list", "--third-party", "--json"]))?;
    assert_eq!(listed["data"]["components"][0]["trust"], "untrusted");
    assert_eq!(listed["data"]["components"][0]["origin"], "user");
    Ok(())
}

#[test]
fn a_component_may_not_shadow_a_builtin_a_denied_path_or_a_host_command() -> anyhow::Result<()> {
    let user = User::new();
    let vault = TestVault::new();
    install(
        &vault,
        &echo_declaring(
            "package x:a@0.1.0; interface vault { stats: func() -> u8; } world w { export vault; }",
        ),
        "shadow",
    );
    install(
        &vault,
        &echo_declaring("package x:b@0.1.0; world w { export install: func() -> u8; }"),
        "denied",
    );
    install(
        &vault,
        &echo_declaring(
            "package x:c@0.1.0; interface verbs { trust: func() -> u8; } world w { export verbs; }",
        ),
        "host",
    );

    let listed = json(&user.run(&vault, &["verbs", "list", "--third-party", "--json"]))?;
    assert_eq!(listed["data"]["components"], serde_json::json!([]));
    let refused = listed["data"]["refused"].as_array().unwrap();
    let reason = |name: &str| {
        refused
            .iter()
            .find(|r| r["name"] == name)
            .map(|r| r["reason"].as_str().unwrap().to_owned())
            .unwrap_or_default()
    };
    assert!(
        reason("shadow").contains("`vault stats`") && reason("shadow").contains("builtin"),
        "{refused:?}"
    );
    assert!(
        reason("denied").contains("`install`") && reason("denied").contains("denylist"),
        "{refused:?}"
    );
    assert!(
        reason("host").contains("`verbs trust`") && reason("host").contains("`vaultspec verbs`"),
        "{refused:?}"
    );

    // The builtin still answers, the refusals are warnings, nothing crashed.
    let out = user.run(&vault, &["vault", "stats"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("component `shadow` refused"),
        "{}",
        text(&out.stderr)
    );
    // `install` is the host's own setup command, never the refused component.
    let setup = json(&user.run(&vault, &["install", "--dry-run", "--json"]))?;
    assert_eq!(setup["schema"], "vaultspec.install.v1", "{setup}");
    Ok(())
}

#[test]
fn two_components_declaring_one_verb_are_both_refused_until_one_goes() -> anyhow::Result<()> {
    let user = User::new();
    let vault = TestVault::new();
    let echo = std::fs::read(guests::ECHO)?;
    install(&vault, &echo, "first");
    let second = install(&vault, &echo, "second");

    let listed = json(&user.run(&vault, &["verbs", "list", "--third-party", "--json"]))?;
    let refused = listed["data"]["refused"].to_string();
    assert!(
        refused.contains("also declared by `second`")
            && refused.contains("also declared by `first`"),
        "{refused}"
    );
    assert_eq!(
        user.run(&vault, &["echo", "say", "hi"]).status.code(),
        Some(2),
        "no component answers `echo say`"
    );

    std::fs::remove_file(second)?;
    let listed = json(&user.run(&vault, &["verbs", "list", "--third-party", "--json"]))?;
    assert_eq!(listed["data"]["components"][0]["name"], "first");
    assert_eq!(listed["data"]["refused"], serde_json::json!([]));
    Ok(())
}

#[test]
fn inspect_refuses_a_declaration_that_does_not_match_the_component() -> anyhow::Result<()> {
    let user = User::new();
    let vault = TestVault::new();
    let out = user.run(&vault, &["verbs", "inspect", guests::LIAR, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let inspection = json(&out)?;
    assert_eq!(inspection["data"]["admitted"], false);
    let reasons = inspection["data"]["reasons"].to_string();
    assert!(
        reasons.contains("does not match the component"),
        "{reasons}"
    );
    assert!(reasons.contains("vault plan step check"), "{reasons}");

    let out = user.run(&vault, &["verbs", "inspect", guests::LIAR]);
    assert!(
        text(&out.stdout).contains("refused:"),
        "{}",
        text(&out.stdout)
    );
    Ok(())
}

#[test]
fn trust_without_a_terminal_is_refused_and_stores_nothing() {
    let user = User::new();
    let vault = TestVault::new();
    install(&vault, &std::fs::read(guests::ECHO).unwrap(), "echo");
    let out = user.run(&vault, &["verbs", "trust"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("person at a terminal") && stderr.contains("vaultspec verbs trust echo"),
        "{stderr}"
    );
    let out = user.run(&vault, &["verbs", "trust", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out).unwrap()["data"]["granted"], false);
    assert!(user.trust_file().is_none());
}

/// The trust file lets code run: one that another user owns or may write,
/// or a link in its place, grants nothing, and the refusal names it.
#[test]
fn a_trust_file_others_may_write_grants_nothing() -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let user = User::new();
    let vault = TestVault::new();
    let dir = user.home().join(".vaultspec/verbs");
    std::fs::create_dir_all(&dir)?;
    std::fs::copy(guests::ECHO, dir.join("echo.wasm"))?;
    let out = user.run_at_terminal(&vault, &["verbs", "trust", "echo"], "y\n");
    assert!(out.status.success(), "{}", text(&out.stdout));
    let file = user.home().join(".vaultspec/verb-trust.json");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666))?;
    let out = user.run(&vault, &["echo", "say", "hi"]);
    assert_ne!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_ne!(text(&out.stdout).trim(), "hi");
    assert!(
        text(&out.stderr).contains("verb-trust.json"),
        "{}",
        text(&out.stderr)
    );
    // A link in its place, to a copy that says the same, grants nothing either.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600))?;
    let copy = user.home().join("trust-copy.json");
    std::fs::rename(&file, &copy)?;
    std::os::unix::fs::symlink(&copy, &file)?;
    let out = user.run(&vault, &["echo", "say", "hi"]);
    assert_ne!(text(&out.stdout).trim(), "hi");
    // Put back, it holds again.
    std::fs::remove_file(&file)?;
    std::fs::rename(&copy, &file)?;
    let out = user.run(&vault, &["echo", "say", "hi"]);
    assert_eq!(text(&out.stdout).trim(), "hi", "{}", text(&out.stderr));
    Ok(())
}

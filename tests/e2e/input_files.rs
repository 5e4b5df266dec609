//! Input files at the command line (`--body-file`, `--manifest`): the user's
//! own input, read by the host from any readable path or from standard
//! input (`-`), with one clear error when it cannot be read. Through MCP the
//! same flags stay confined to the workspace.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::json;
use vaultspec_test_support::{TestVault, cache_dir};

use crate::mcp::Session;

const STEM: &str = "2026-03-01-cache-layer-eviction-research";
const DOC: &str = ".vault/research/2026-03-01-cache-layer-eviction-research.md";

fn body(words: &str) -> String {
    format!(
        "# `cache-layer` research: `eviction`\n\n## Findings\n\n{words}\n\n## Sources\n\nNone yet.\n"
    )
}

fn sample() -> TestVault {
    let vault = TestVault::new();
    vault.doc("research", "2026-03-01", "cache-layer", Some("eviction"));
    vault
}

/// `vaultspec <args> --target <vault>` from `cwd`, with `stdin` piped in.
fn run(vault: &TestVault, cwd: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vaultspec"))
        .current_dir(cwd)
        .args(args)
        .arg("--target")
        .arg(vault.root())
        .env(
            "VAULTSPEC_CACHE_DIR",
            cache_dir().parent().unwrap().join("test-cli-cache"),
        )
        .env_remove("VAULTSPEC_TARGET_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running vaultspec");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn assert_ok(out: &Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn a_body_file_outside_the_workspace_is_read() {
    let vault = sample();
    let elsewhere = tempfile::tempdir().unwrap();
    let file = elsewhere.path().join("draft.md");
    std::fs::write(&file, body("Read from outside the workspace.")).unwrap();
    let out = run(
        &vault,
        Path::new("/"),
        &[
            "vault",
            "set-body",
            STEM,
            "--body-file",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_ok(&out);
    assert!(
        vault
            .read(DOC)
            .unwrap()
            .contains("Read from outside the workspace.")
    );
}

#[test]
fn a_relative_body_file_is_found_from_the_current_folder() {
    let vault = sample();
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(
        elsewhere.path().join("draft.md"),
        body("Relative to where I am."),
    )
    .unwrap();
    let out = run(
        &vault,
        elsewhere.path(),
        &["vault", "set-body", STEM, "--body-file", "draft.md"],
        b"",
    );
    assert_ok(&out);
    assert!(vault.read(DOC).unwrap().contains("Relative to where I am."));
}

#[test]
fn a_dash_reads_the_body_from_standard_input() {
    let vault = sample();
    let out = run(
        &vault,
        vault.root(),
        &["vault", "set-body", STEM, "--body-file", "-"],
        body("Piped in.").as_bytes(),
    );
    assert_ok(&out);
    assert!(vault.read(DOC).unwrap().contains("Piped in."));
}

#[test]
fn a_manifest_can_come_from_standard_input_too() {
    let vault = sample();
    let out = run(
        &vault,
        vault.root(),
        &["vault", "archive", "documents", "--manifest", "-"],
        format!("{DOC}\n").as_bytes(),
    );
    assert_ok(&out);
    assert!(vault.read(DOC).is_none());
    assert!(
        vault
            .read(&format!(".vault/_archive/research/{STEM}.md"))
            .is_some()
    );
}

#[test]
fn an_unreadable_body_file_is_one_usage_error_naming_it_once() {
    let vault = sample();
    let before = vault.read(DOC).unwrap();
    let missing = "/nonexistent-folder/draft.md";
    let out = run(
        &vault,
        vault.root(),
        &["vault", "set-body", STEM, "--body-file", missing],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "error: cannot read `--body-file` file `{missing}`: "
        )),
        "{stderr}"
    );
    assert_eq!(stderr.matches("draft.md").count(), 1, "{stderr}");
    assert_eq!(vault.read(DOC).unwrap(), before, "nothing was written");
}

#[test]
fn through_mcp_a_manifest_outside_the_workspace_is_still_refused() -> anyhow::Result<()> {
    let vault = sample();
    let elsewhere = tempfile::tempdir()?;
    let manifest = elsewhere.path().join("manifest.txt");
    std::fs::write(&manifest, format!("{DOC}\n"))?;
    let session = Session::start(&vault, &[])?;
    let result = session.call(
        "invoke",
        json!({"verb": "vault archive documents", "arguments": {"manifest": manifest.to_str().unwrap()}}),
    )?;
    let reply = result.structured_content.clone().unwrap_or_default();
    assert_eq!(reply["ok"], false, "{reply}");
    let envelope: serde_json::Value =
        serde_json::from_str(reply["stdout"].as_str().unwrap_or_default())?;
    let message = envelope["data"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("not a valid workspace path"), "{reply}");
    assert_eq!(message.matches("manifest.txt").count(), 1, "{message}");
    assert!(vault.read(DOC).is_some(), "nothing was archived");
    Ok(())
}

//! Bad input loses nothing (issue 14), through the real binary at the CLI
//! and over MCP: for each kind of bad file, `vault list`, `status`, `find`,
//! `search` and `check all` answer with the rest of the vault and name the
//! bad file, and `vault check all --fix` leaves every file that refers to it
//! byte for byte.
//!
//! Not here: a FIFO (the storage lists regular files only, so it cannot be
//! a document yet; the model tests cover it through a storage double) and
//! permission denied (the tests run as root, who reads a mode-000 file; the
//! model tests cover it the same way).

use std::process::Output;

use serde_json::{Value, json};
use vaultspec_test_support::TestVault;

use crate::mcp::{Session, text};

use crate::binary::vaultspec;

const NOTE: &str = ".vault/research/2026-01-01-f-note-research.md";
const ADR: &str = ".vault/adr/2026-01-02-f-choice-adr.md";
const INDEX: &str = ".vault/index/f.index.md";
const OTHER: &str = ".vault/research/2026-01-03-f-other-research.md";

const NOTE_TEXT: &str = "---\ntags:\n  - '#research'\n  - '#f'\ndate: '2026-01-01'\nrelated: []\n---\n\n# `f` research: `note`\n\nThe eviction policy we measured: zanzibar quokka.\n";
const OTHER_TEXT: &str = "---\ntags:\n  - '#research'\n  - '#f'\ndate: '2026-01-03'\nrelated:\n  - '[[2026-01-02-f-choice-adr]]'\n---\n\n# `f` research: `other`\n\nA second note about marmalade.\n";
const ADR_TEXT: &str = "---\ntags:\n  - '#adr'\n  - '#f'\ndate: '2026-01-02'\nrelated:\n  - '[[2026-01-01-f-note-research]]'\n---\n\n# `f` adr: `choice` | (**status:** `accepted`)\n\n## Problem Statement\n\nWe must choose.\n\n## Considerations\n\nSome.\n\n## Constraints\n\nNone.\n\n## Implementation\n\nDo it.\n\n## Rationale\n\nBecause.\n\n## Consequences\n\nFew.\n";
const INDEX_TEXT: &str = "---\ntags:\n  - '#index'\n  - '#f'\ndate: '2026-01-01'\ngenerated: true\nrelated:\n  - '[[2026-01-01-f-note-research]]'\n  - '[[2026-01-02-f-choice-adr]]'\n  - '[[2026-01-03-f-other-research]]'\n---\n\n# `f` feature index\n";

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The vault, already through one `check all --fix`, so a second run has
/// nothing of its own to do.
fn sample() -> TestVault {
    let vault = TestVault::new();
    for (path, body) in [
        (NOTE, NOTE_TEXT),
        (ADR, ADR_TEXT),
        (INDEX, INDEX_TEXT),
        (OTHER, OTHER_TEXT),
    ] {
        vault.write(path, body);
    }
    vaultspec(&vault, &["vault", "check", "all", "--fix"]);
    vault
}

/// A file's bytes; for a FIFO or other special file, its kind (reading it
/// would wait for a writer).
fn bytes(vault: &TestVault, path: &str) -> Vec<u8> {
    let path = vault.root().join(path);
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if !meta.is_file() => format!("<{:?}>", meta.file_type()).into_bytes(),
        _ => std::fs::read(path).unwrap_or_default(),
    }
}

/// Everything the issue asks of one bad file at `bad`, whose problem
/// `problem` names (`None`: a sound document with a bad name).
fn answers_and_keeps(
    vault: &TestVault,
    bad: &str,
    problem: Option<&str>,
    unsearchable: bool,
) -> anyhow::Result<()> {
    for args in [
        &["vault", "list", "--json"][..],
        &["status", "--json"],
        &["vault", "search", "marmalade", "--json"],
        &["vault", "check", "all", "--json"],
    ] {
        let out = vaultspec(vault, args);
        let all = stdout(&out);
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{args:?} answers: {all}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let _: Value = serde_json::from_str(&all)
            .unwrap_or_else(|e| panic!("{args:?}: one JSON envelope ({e}): {all}"));
        let names = match args[1] {
            "list" | "check" => true,
            "search" => unsearchable,
            _ => problem.is_some(),
        };
        if names {
            assert!(all.contains(bad), "{args:?} names {bad}: {all}");
        }
        if args[1] == "list" {
            for sound in [ADR, INDEX, OTHER] {
                assert!(all.contains(sound), "{args:?} lists {sound}");
            }
            if let Some(problem) = problem {
                assert!(
                    all.contains(problem),
                    "{args:?} gives the problem `{problem}`: {all}"
                );
            }
        }
        if args[1] == "search" {
            assert!(all.contains(OTHER), "search answers from the rest: {all}");
        }
    }

    let session = Session::start(vault, &[])?;
    let find = session.call("find", json!({"type": ["research"], "text": "note"}))?;
    assert_eq!(find.is_error, Some(false), "{}", text(&find));
    assert!(
        find.structured_content
            .as_ref()
            .unwrap()
            .to_string()
            .contains(bad),
        "find names {bad}: {}",
        text(&find)
    );
    let status = session.call("status", json!({}))?;
    assert_eq!(status.is_error, Some(false), "{}", text(&status));
    if problem.is_some() {
        assert!(
            status
                .structured_content
                .as_ref()
                .unwrap()
                .to_string()
                .contains(bad),
            "status names {bad}"
        );
    }
    let search = session.call("search", json!({"query": "marmalade"}))?;
    assert_eq!(search.is_error, Some(false), "{}", text(&search));
    let found = search.structured_content.clone().unwrap().to_string();
    assert!(
        found.contains(OTHER),
        "search answers from the rest: {found}"
    );
    if unsearchable {
        assert!(
            found.contains(bad),
            "search names what it could not read: {found}"
        );
    }
    let check = session.call("check", json!({}))?;
    assert!(
        check
            .structured_content
            .as_ref()
            .unwrap()
            .to_string()
            .contains(bad),
        "check names {bad}"
    );
    drop(session);

    let kept: Vec<(&str, Vec<u8>)> = [bad, ADR, INDEX]
        .iter()
        .map(|p| (*p, bytes(vault, p)))
        .collect();
    vaultspec(vault, &["vault", "check", "all", "--fix"]);
    for (path, before) in kept {
        assert_eq!(
            String::from_utf8_lossy(&bytes(vault, path)),
            String::from_utf8_lossy(&before),
            "{path} is left byte for byte"
        );
    }
    Ok(())
}

#[test]
fn invalid_utf8_is_listed_searched_around_and_kept() -> anyhow::Result<()> {
    let vault = sample();
    let mut b = bytes(&vault, NOTE);
    b.extend_from_slice(b"\xff\xfe\n");
    std::fs::write(vault.root().join(NOTE), b)?;
    answers_and_keeps(&vault, NOTE, Some("not valid UTF-8"), true)
}

#[test]
fn a_file_over_the_limit_is_listed_searched_around_and_kept() -> anyhow::Result<()> {
    let vault = sample();
    let mut b = bytes(&vault, NOTE);
    b.extend(std::iter::repeat_n(b'x', 1024 * 1024));
    std::fs::write(vault.root().join(NOTE), b)?;
    answers_and_keeps(&vault, NOTE, Some("limit"), true)
}

#[test]
fn a_fifo_is_listed_searched_around_and_kept() -> anyhow::Result<()> {
    let vault = sample();
    std::fs::remove_file(vault.root().join(NOTE))?;
    let made = std::process::Command::new("mkfifo")
        .arg(vault.root().join(NOTE))
        .status()?;
    assert!(made.success(), "mkfifo failed");
    answers_and_keeps(&vault, NOTE, Some("FIFO"), true)
}

#[test]
fn malformed_frontmatter_in_three_shapes_is_reported_and_kept() -> anyhow::Result<()> {
    for (shape, line) in [
        (
            "---\ntags:\n  - '#research'\n  - '#f'\ndate: '2026-01-01'\nrelated: []\n\n# `f` research: `note`\n",
            1,
        ),
        (
            "---\ntags:\n  - '#research\n  - '#f'\ndate: '2026-01-01'\nrelated: []\n---\n\n# `f` research: `note`\n",
            3,
        ),
        (
            "---\ntags: ['#research', '#f'\ndate: '2026-01-01'\nrelated: []\n---\n\n# `f` research: `note`\n",
            2,
        ),
    ] {
        let vault = sample();
        vault.write(NOTE, shape);
        answers_and_keeps(&vault, NOTE, Some(&format!("line {line}")), false)?;
    }
    Ok(())
}

#[test]
fn a_name_with_spaces_is_reported_and_not_renamed() -> anyhow::Result<()> {
    let vault = sample();
    let spaced = ".vault/research/2026-01-01-f My Note.md";
    std::fs::rename(vault.root().join(NOTE), vault.root().join(spaced))?;
    for path in [ADR, INDEX] {
        let t = vault
            .read(path)
            .unwrap()
            .replace("2026-01-01-f-note-research", "2026-01-01-f My Note");
        vault.write(path, &t);
    }
    vaultspec(&vault, &["vault", "check", "all", "--fix"]);
    assert!(
        vault.root().join(spaced).exists(),
        "the file keeps its name"
    );
    let out = stdout(&vaultspec(&vault, &["vault", "check", "structure"]));
    assert!(
        out.contains("2026-01-01-f-my-note-research.md"),
        "a valid name is suggested: {out}"
    );
    answers_and_keeps(&vault, spaced, None, false)
}

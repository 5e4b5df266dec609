//! The command line's help and conventions: whole-sentence summaries and a
//! description on every group and operand, JSON errors under `--json`
//! whatever failed, a quiet end when the reader stops early, completions and
//! a man page, `status` and `check all` laid out for people, `--no-hints`.

use std::process::{Command, Stdio};

use clap::Command as Clap;
use vaultspec_host::cli::full_command;
use vaultspec_host::report::exit;
use vaultspec_test_support::TestVault;

use crate::binary::{text, vaultspec};

/// Every command of the tree under `command`, with its path.
fn walk<'a>(command: &'a Clap, path: String, out: &mut Vec<(String, &'a Clap)>) {
    for sub in command.get_subcommands() {
        let path = format!("{path} {}", sub.get_name()).trim().to_owned();
        out.push((path.clone(), sub));
        walk(sub, path, out);
    }
}

#[test]
fn every_command_has_a_whole_sentence_summary_and_every_operand_and_flag_a_description() {
    let catalog = vaultspec_host::builtins::catalog().unwrap();
    let root = full_command(&catalog);
    let mut commands = Vec::new();
    walk(&root, String::new(), &mut commands);
    let mut problems = Vec::new();
    for (path, command) in &commands {
        let about = command
            .get_about()
            .map(|a| a.to_string())
            .unwrap_or_default();
        if about.trim().is_empty() {
            problems.push(format!("`{path}` has no description"));
            continue;
        }
        if about.starts_with("The `") && about.ends_with("` verbs.") {
            problems.push(format!("`{path}` has only a placeholder: {about}"));
        }
        // Text from the WIT docs has a long form; its summary is whole
        // sentences, and a verb's is the start of its long help.
        let long = command.get_long_about().map(|a| a.to_string());
        if long.is_some() && !about.trim_end().ends_with(['.', '!', '?', ')']) {
            problems.push(format!("`{path}` stops mid-sentence: {about:?}"));
        }
        let leaf = command.get_subcommands().next().is_none();
        if let Some(long) = long.filter(|_| leaf) {
            let joined = long.split_whitespace().collect::<Vec<_>>().join(" ");
            if let Some(rest) = joined.strip_prefix(about.as_str())
                && !(rest.is_empty() || rest.starts_with(' '))
            {
                problems.push(format!("`{path}` summary cuts a word: {about:?}"));
            }
        }
        for arg in command.get_arguments() {
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            if help.trim().is_empty() && !arg.is_hide_set() {
                problems.push(format!(
                    "`{path}`: {} {} has no description",
                    if arg.is_positional() {
                        "operand"
                    } else {
                        "flag"
                    },
                    arg.get_id()
                ));
            }
        }
    }
    assert!(
        commands.len() > 100,
        "the whole tree is walked: {}",
        commands.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn groups_read_their_interface_docs_and_operands_list_their_values() {
    let vault = TestVault::new();
    let out = vaultspec(&vault, &["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    let vault_line = help
        .lines()
        .find(|l| l.starts_with("  vault "))
        .expect("the vault group is listed");
    assert!(vault_line.contains("Reading the vault"), "{vault_line}");
    assert!(
        help.contains("mcp") && help.contains("AI coding agent"),
        "{help}"
    );
    assert!(
        help.contains("Exit codes:") && help.contains(" 70 "),
        "{help}"
    );

    let out = vaultspec(&vault, &["vault", "plan", "--help"]);
    assert!(
        text(&out.stdout).contains("Reading a plan"),
        "{}",
        text(&out.stdout)
    );

    let out = vaultspec(&vault, &["vault", "add", "--help"]);
    let help = text(&out.stdout);
    assert!(help.contains("<DOC-TYPE>"), "{help}");
    assert!(
        help.contains("kind of document") && help.contains("adr, audit, plan, reference, research"),
        "{help}"
    );
}

#[test]
fn help_opens_with_what_vaultspec_is() {
    let vault = TestVault::new();
    for flag in ["-h", "--help"] {
        let out = vaultspec(&vault, &[flag]);
        assert_eq!(out.status.code(), Some(0));
        let help = text(&out.stdout);
        assert!(
            help.lines()
                .next()
                .is_some_and(|l| l.starts_with("Keep a project's decisions")),
            "{flag}: {help}"
        );
    }
}

#[test]
fn help_cut_short_by_its_reader_ends_quietly_with_0() {
    let vault = TestVault::new();
    for args in [
        &["-h"][..],
        &["vault", "--help"],
        &["man"],
        &["completions", "bash"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_vaultspec"))
            .args(args)
            .arg("--target")
            .arg(vault.root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader is gone before the first line is written, as `head -1`
        // is gone after it: every write meets a closed pipe.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(text(&out.stderr), "", "{args:?}");
    }
}

#[test]
fn a_parse_error_under_json_is_a_json_error_with_the_usage_code() -> anyhow::Result<()> {
    let vault = TestVault::new();
    for args in [
        &["vault", "list", "--json", "--featur", "x"][..],
        &["vault", "lst", "--json"],
        &["vault", "list", "--json", "--limit", "many"],
    ] {
        let out = vaultspec(&vault, args);
        assert_eq!(out.status.code(), Some(exit::USAGE.into()), "{args:?}");
        let error: serde_json::Value = serde_json::from_slice(&out.stdout)?;
        assert_eq!(error["schema"], "vaultspec.error.v1");
        assert_eq!(error["status"], "failed");
        assert_eq!(error["data"]["exit_code"], exit::USAGE);
        assert!(!error["data"]["message"].as_str().unwrap().is_empty());
    }
    // clap's suggestion survives into the message.
    let out = vaultspec(&vault, &["vault", "lst", "--json"]);
    let error: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let message = error["data"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("'lst'") && message.contains("'list'"),
        "{message}"
    );
    // A failure after parsing too: no workspace.
    let dir = tempfile::tempdir()?;
    let out = Command::new(env!("CARGO_BIN_EXE_vaultspec"))
        .args(["vault", "list", "--json", "--target"])
        .arg(dir.path())
        .env_remove("VAULTSPEC_TARGET_DIR")
        .output()?;
    assert_eq!(out.status.code(), Some(exit::FINDINGS.into()));
    let error: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    assert_eq!(error["schema"], "vaultspec.error.v1");
    Ok(())
}

#[test]
fn completions_and_the_man_page_cover_the_catalog() {
    let vault = TestVault::new();
    let out = vaultspec(&vault, &["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let script = text(&out.stdout);
    assert!(
        script.contains("complete -F") && script.contains("vaultspec"),
        "{script}"
    );
    assert!(script.contains("supersede"), "catalog verbs are completed");

    let out = vaultspec(&vault, &["man"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = text(&out.stdout);
    assert!(
        page.starts_with(".ie") || page.contains(".TH vaultspec"),
        "{page}"
    );
    assert!(page.contains("Exit codes"), "{page}");

    let out = vaultspec(&vault, &["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(exit::USAGE.into()));
}

fn crowded_vault() -> TestVault {
    let vault = TestVault::new();
    for i in 0..14 {
        vault.doc("research", "2026-03-01", &format!("feat-{i:02}"), None);
    }
    vault
}

#[test]
fn status_caps_long_sections_aligns_columns_and_omits_empty_ones() {
    let vault = crowded_vault();
    let out = vaultspec(&vault, &["status", "--limit", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let features: Vec<&str> = report
        .lines()
        .skip_while(|l| *l != "Active features")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(features.len(), 6, "5 rows and the rest counted: {report}");
    assert!(
        features[5].contains("and 9 more") && features[5].contains("vaultspec vault feature list"),
        "{report}"
    );
    let column = |line: &str| line.find(" doc").unwrap();
    assert!(
        features[..5]
            .iter()
            .all(|l| column(l) == column(features[0])),
        "aligned: {report}"
    );
    assert!(
        !report.contains("Plans in flight"),
        "no plan, no section: {report}"
    );
    assert!(!report.contains("Execution activity"), "{report}");
    assert!(report.contains("vaultspec doctor"), "a next step: {report}");

    let quiet = text(&vaultspec(&vault, &["status", "--no-hints"]).stdout);
    assert!(
        !quiet.contains("Next:") && !quiet.contains("vaultspec doctor"),
        "{quiet}"
    );
    let out = vaultspec(&vault, &["--no-hints", "vault", "check", "all"]);
    assert!(
        !text(&out.stdout).contains("Next:"),
        "{}",
        text(&out.stdout)
    );

    // The same hints in the JSON envelope, and the same switch.
    let json = |args: &[&str]| -> serde_json::Value {
        serde_json::from_slice(&vaultspec(&vault, args).stdout).unwrap()
    };
    let status = json(&["status", "--json"]);
    assert_eq!(
        status["hints"]["next_steps"][1]["command"], "vaultspec doctor",
        "{status}"
    );
    assert!(
        json(&["status", "--json", "--no-hints"])
            .get("hints")
            .is_none()
    );
    let check = json(&["vault", "check", "all", "--json"]);
    assert!(check["hints"]["command"].is_string(), "{check}");
    assert!(
        json(&["vault", "check", "all", "--json", "--no-hints"])
            .get("hints")
            .is_none()
    );
}

#[test]
fn check_all_gives_one_verdict_per_check_and_the_command_that_fixes() {
    let vault = TestVault::new();
    let path = vault.doc("research", "2026-03-01", "cache-layer", None);
    let body = vault.read(&path).unwrap();
    vault.write(&path, &format!("{body}trailing   \n\n\n\n"));
    let out = vaultspec(&vault, &["vault", "check", "all"]);
    let report = text(&out.stdout);
    let verdicts: Vec<&str> = report
        .lines()
        .filter(|l| !l.starts_with(' ') && l.split_whitespace().count() >= 2)
        .filter(|l| l.starts_with("ok ") || l.starts_with("warn ") || l.starts_with("error "))
        .collect();
    assert_eq!(verdicts.len(), 20, "every check of `check all`: {report}");
    let markdown = report
        .lines()
        .position(|l| l.split_whitespace().nth(1) == Some("markdown"))
        .expect("markdown has a verdict");
    let lines: Vec<&str> = report.lines().collect();
    assert!(!lines[markdown].starts_with("ok"), "{report}");
    assert!(
        lines[markdown + 1..]
            .iter()
            .take_while(|l| l.starts_with(' '))
            .any(|l| l.contains("fix: vaultspec vault check markdown --fix")),
        "{report}"
    );
    assert!(report.contains("Next:"), "{report}");
}

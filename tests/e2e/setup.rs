//! `vaultspec install` and `uninstall` at the command line: a fresh git
//! repository becomes a workspace the verbs work in, a second run changes
//! nothing, what the user wrote is kept, and uninstall removes only what it
//! says.

use std::path::{Path, PathBuf};

use vaultspec_test_support::golden;

use crate::binary::{command, run_in, text};

/// A fresh git repository (a `.git` folder is all discovery needs).
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    dir
}

fn json(out: &std::process::Output) -> serde_json::Value {
    crate::binary::parsed(&[], out).1
}

fn ok(out: std::process::Output) -> std::process::Output {
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    out
}

#[test]
fn install_makes_a_fresh_repository_a_workspace_from_any_subfolder() {
    let repo = repo();
    std::fs::write(repo.path().join(".gitignore"), "target/\n# mine\n").unwrap();
    let sub = repo.path().join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();

    let out = ok(run_in(&sub, &["install"]));
    assert!(text(&out.stdout).contains("Next:"), "{}", text(&out.stdout));
    let root = repo.path();
    for folder in [
        "adr",
        "audit",
        "exec",
        "index",
        "plan",
        "reference",
        "research",
    ] {
        assert!(root.join(".vault").join(folder).is_dir(), "{folder}");
    }
    assert!(
        !sub.join(".vaultspec").exists(),
        "installed at the git root"
    );
    let template = std::fs::read_to_string(root.join(".vaultspec/templates/adr.md")).unwrap();
    assert!(template.contains("{feature}") || template.contains("feature"));
    let definition: serde_json::Value = serde_json::from_slice(
        &std::fs::read(root.join(".vaultspec/mcps/vaultspec-core.builtin.json")).unwrap(),
    )
    .unwrap();
    assert!(definition["command"].is_string());
    let ignore = std::fs::read_to_string(root.join(".gitignore")).unwrap();
    assert!(
        ignore.starts_with("target/\n# mine\n\n# >>> vaultspec-managed"),
        "{ignore}"
    );
    assert!(ignore.contains("\n.vault/data/\n"), "{ignore}");

    // The verbs work in it at once, from the subfolder.
    let added = ok(run_in(
        &sub,
        &[
            "vault",
            "add",
            "research",
            "--feature",
            "first-steps",
            "--json",
        ],
    ));
    assert_eq!(json(&added)["status"], "created", "{}", text(&added.stdout));
    ok(run_in(&sub, &["vault", "list"]));
}

#[test]
fn a_second_install_changes_nothing_and_keeps_the_users_edits() {
    let repo = repo();
    let root = repo.path();
    ok(run_in(root, &["install", "--no-hints"]));
    let template = root.join(".vaultspec/templates/plan.md");
    std::fs::write(&template, "my own plan template\n").unwrap();
    let before = golden::files(root);

    let again = ok(run_in(root, &["install", "--json"]));
    let report = json(&again);
    assert_eq!(report["schema"], "vaultspec.install.v1");
    assert_eq!(report["status"], "unchanged", "{report}");
    assert_eq!(report["data"]["items"], serde_json::json!([]));
    assert_eq!(
        report["data"]["kept"],
        serde_json::json!([".vaultspec/templates/plan.md"])
    );
    assert_eq!(
        golden::files(root),
        before,
        "a second install wrote something"
    );
    let text_run = ok(run_in(root, &["install"]));
    assert!(
        text(&text_run.stdout).contains("nothing to change"),
        "{}",
        text(&text_run.stdout)
    );

    let forced = ok(run_in(root, &["install", "--force", "--json"]));
    assert_eq!(json(&forced)["status"], "updated");
    assert_ne!(
        std::fs::read_to_string(&template).unwrap(),
        "my own plan template\n"
    );
}

#[test]
fn a_dry_run_writes_nothing() {
    let repo = repo();
    let out = ok(run_in(repo.path(), &["install", "--dry-run", "--json"]));
    let report = json(&out);
    assert_eq!(report["data"]["action"], "dry_run");
    assert!(
        report["data"]["items"].as_array().unwrap().len() > 10,
        "{report}"
    );
    let left: Vec<PathBuf> = std::fs::read_dir(repo.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(left, [repo.path().join(".git")]);
}

#[test]
fn a_workspace_the_reference_installed_is_adopted_without_a_rewrite() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/reference-install");
    let dir = tempfile::tempdir().unwrap();
    golden::copy_tree(&source, dir.path());
    let before = golden::files(&dir.path().join(".vaultspec"));

    let out = ok(run_in(dir.path(), &["install", "--json"]));
    let report = json(&out);
    assert_eq!(
        golden::files(&dir.path().join(".vaultspec")),
        before,
        "install rewrote files the reference wrote: {report}"
    );
    // Only what the reference would also have made is new: the empty
    // folders, the git settings and the pre-commit hook.
    for item in report["data"]["items"].as_array().unwrap() {
        let path = item[0].as_str().unwrap();
        assert!(
            path.starts_with(".vault/")
                || path.starts_with(".git")
                || path == ".pre-commit-config.yaml",
            "{path} was written"
        );
    }
}

#[test]
fn install_refuses_a_vaultspec_folder_that_is_a_link() {
    let repo = repo();
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), repo.path().join(".vaultspec")).unwrap();
    let out = run_in(repo.path(), &["install"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains(".vaultspec"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
}

#[test]
fn uninstall_asks_for_force_and_removes_only_what_it_lists() {
    let repo = repo();
    let root = repo.path();
    std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
    ok(run_in(root, &["install"]));
    std::fs::write(root.join(".vault/adr/keep.md"), "a document\n").unwrap();

    let refused = run_in(root, &["uninstall"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("--force"),
        "{}",
        text(&refused.stderr)
    );
    assert!(root.join(".vaultspec").is_dir());

    let preview = ok(run_in(root, &["uninstall", "--dry-run", "--json"]));
    assert_eq!(
        json(&preview)["data"]["removed"],
        serde_json::json!([[".vaultspec/", "core"]])
    );
    assert!(root.join(".vaultspec").is_dir());

    ok(run_in(root, &["uninstall", "--force"]));
    assert!(!root.join(".vaultspec").exists());
    assert!(root.join(".vault/adr/keep.md").is_file(), "the vault stays");

    // With the vault gone too, `.gitignore` is as the user had it.
    std::fs::create_dir(root.join(".vaultspec")).unwrap();
    let all = ok(
        command(&["uninstall", "--remove-vault", "--force", "--json"])
            .arg("--target")
            .arg(root)
            .output()
            .unwrap(),
    );
    assert_eq!(json(&all)["data"]["keep_vault"], false);
    assert!(!root.join(".vault").exists());
    assert_eq!(
        std::fs::read_to_string(root.join(".gitignore")).unwrap(),
        "target/\n"
    );
    assert!(!root.join(".gitattributes").exists());
}

/// A team's git policy, set once, holds: a declined hook file or block is
/// never made again by `install` (`--upgrade` and `--force` included),
/// nothing else of `workspace.json` moves, and `enable` lets `install`
/// bring it back.
#[test]
fn a_declined_hook_file_or_block_never_comes_back() {
    let repo = repo();
    let root = repo.path();
    ok(run_in(root, &["install"]));
    let hook = root.join(".pre-commit-config.yaml");
    assert!(hook.is_file(), "install scaffolds the commit gate");
    let workspace_json =
        || std::fs::read_to_string(root.join(".vaultspec/workspace.json")).unwrap();
    let before = workspace_json();

    let out = ok(run_in(root, &["spec", "precommit", "disable", "--json"]));
    let reply = json(&out);
    assert_eq!(
        reply["schema"], "vaultspec.spec.precommit.disable.v1",
        "{reply}"
    );
    assert_eq!(reply["status"], "updated", "{reply}");
    assert_eq!(reply["data"]["pre_commit"], false, "{reply}");
    let again = json(&ok(run_in(
        root,
        &["spec", "precommit", "disable", "--json"],
    )));
    assert_eq!(again["status"], "unchanged", "{again}");
    assert!(
        hook.is_file(),
        "an existing hook file is the person's to delete"
    );
    std::fs::remove_file(&hook).unwrap();

    // A block deleted by hand is a warning of `spec doctor`, naming both
    // ways out; declined, it is none.
    let gitignore = root.join(".gitignore");
    std::fs::write(&gitignore, "target/\n").unwrap();
    let doctor = |root: &Path| json(&run_in(root, &["spec", "doctor", "--json"]));
    let said = doctor(root);
    assert_eq!(said["data"]["gitignore"], "unmanaged", "{said}");
    assert_eq!(said["data"]["precommit"], "declined", "{said}");
    let signals = said["data"]["signals"].to_string();
    assert!(
        signals.contains("`.gitignore` has no vaultspec block")
            && signals.contains("spec gitignore disable"),
        "{signals}"
    );
    ok(run_in(root, &["spec", "gitignore", "disable"]));
    let said = doctor(root);
    // The reference's word for a declined block: the file has none.
    assert_eq!(said["data"]["gitignore"], "no_entries", "{said}");
    assert!(
        !said["data"]["signals"].to_string().contains(".gitignore"),
        "{said}"
    );
    for args in [
        &["install"][..],
        &["install", "--upgrade"],
        &["install", "--force"],
    ] {
        ok(run_in(root, args));
        assert!(
            !hook.exists(),
            "`{}` made the hook file again",
            args.join(" ")
        );
        assert_eq!(
            std::fs::read_to_string(&gitignore).unwrap(),
            "target/\n",
            "`{}` touched .gitignore",
            args.join(" ")
        );
    }
    let declined: serde_json::Value = serde_json::from_str(&workspace_json()).unwrap();
    assert_eq!(declined["hooks"]["pre_commit"], false, "{declined}");
    assert_eq!(declined["blocks"]["gitignore"], false, "{declined}");
    assert_eq!(declined["blocks"]["gitattributes"], true, "{declined}");

    // Enabled again, the file is the one that never declined, and install
    // puts both back.
    ok(run_in(root, &["spec", "precommit", "enable"]));
    ok(run_in(root, &["spec", "gitignore", "enable"]));
    assert_eq!(workspace_json(), before);
    ok(run_in(root, &["install"]));
    assert!(hook.is_file());
    assert!(
        std::fs::read_to_string(&gitignore)
            .unwrap()
            .contains("# >>> vaultspec-managed"),
    );
}

#[test]
fn precommit_migrate_moves_the_gate_into_prek_keeping_the_teams_hooks() {
    let repo = repo();
    let root = repo.path();
    ok(run_in(root, &["install"]));
    let migrate = |extra: &[&str]| {
        let mut args = vec!["spec", "precommit", "migrate", "--json"];
        args.extend_from_slice(extra);
        let out = run_in(root, &args);
        (out.status.code(), json(&out))
    };
    let (code, reply) = migrate(&[]);
    assert_eq!(
        (code, reply["data"]["status"].as_str()),
        (Some(1), Some("no_prek_config")),
        "{reply}"
    );

    let team = "[[repos]]\r\nrepo = \"https://github.com/psf/black\"\r\nrev = \"24.1.0\"\r\nhooks = [{ id = \"black\" }]\r\n";
    std::fs::write(root.join("prek.toml"), team).unwrap();
    let (code, reply) = migrate(&[]);
    assert_eq!(
        (code, reply["status"].as_str()),
        (Some(0), Some("migrated")),
        "{reply}"
    );
    let text = std::fs::read_to_string(root.join("prek.toml")).unwrap();
    assert!(
        text.starts_with(team),
        "the team's hooks keep their bytes: {text:?}"
    );
    assert!(
        !text.replace("\r\n", "").contains('\n'),
        "the file keeps its line endings"
    );
    let table: toml::Table = text.parse().unwrap();
    let repos = table["repos"].as_array().unwrap();
    assert_eq!(repos.len(), 2);
    assert_eq!(
        repos[1]["hooks"][0]["id"].as_str(),
        Some("vaultspec-commit-gate")
    );
    let (_, again) = migrate(&[]);
    assert_eq!(again["data"]["status"], "unchanged", "{again}");
    assert_eq!(
        std::fs::read_to_string(root.join("prek.toml")).unwrap(),
        text
    );

    let (code, dry) = migrate(&["--remove-yaml", "--dry-run"]);
    assert_eq!(
        (code, dry["data"]["yaml_removed"].as_bool()),
        (Some(0), Some(true)),
        "{dry}"
    );
    assert!(
        root.join(".pre-commit-config.yaml").is_file(),
        "a dry run removes nothing"
    );
    migrate(&["--remove-yaml"]);
    assert!(!root.join(".pre-commit-config.yaml").exists());

    // The team's own entry for the gate outside the block is theirs.
    std::fs::write(
        root.join("prek.toml"),
        "[[repos]]\nrepo = \"local\"\nhooks = [{ id = \"vaultspec-commit-gate\", entry = \"x\", language = \"system\" }]\n",
    )
    .unwrap();
    let (code, conflict) = migrate(&[]);
    assert_eq!(
        (code, conflict["data"]["status"].as_str()),
        (Some(1), Some("conflicting")),
        "{conflict}"
    );

    ok(run_in(root, &["spec", "precommit", "disable"]));
    std::fs::write(root.join("prek.toml"), team).unwrap();
    let (code, declined) = migrate(&[]);
    assert_eq!(
        (code, declined["data"]["status"].as_str()),
        (Some(0), Some("declined")),
        "{declined}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("prek.toml")).unwrap(),
        team
    );
}

#[test]
fn spec_doctor_names_a_seeded_rule_edited_or_deleted_and_an_old_mcp_seed() {
    let repo = repo();
    let root = repo.path();
    ok(run_in(root, &["install", "claude", "--skip", "mcp"]));
    let doctor = |code: i32| {
        let out = run_in(root, &["spec", "doctor", "--json"]);
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stdout));
        json(&out)["data"].clone()
    };
    // An MCP server not yet approved is a note, as the reference's is.
    let fresh = doctor(0);
    assert_eq!(fresh["builtin_version"], "current");
    assert_eq!(fresh["stale_mcp_seeds"], serde_json::json!([]));
    let claude = &fresh["providers"]["claude"];
    assert_eq!(
        (
            claude["dir_state"].as_str(),
            claude["manifest_entry"].as_str(),
            claude["config"].as_str()
        ),
        (Some("complete"), Some("coherent"), Some("ok")),
        "{claude}"
    );
    assert_eq!(
        claude["content"]["vaultspec.builtin.md"], "clean",
        "{claude}"
    );
    assert_eq!(
        fresh["providers"]["gemini"]["manifest_entry"],
        "not_installed"
    );

    // A rule edited in the agent's folder, a root file without the block.
    let copy = root.join(".claude/rules/vaultspec.builtin.md");
    let rendered = std::fs::read_to_string(&copy).unwrap();
    std::fs::write(&copy, format!("{rendered}\nedited\n")).unwrap();
    let claude_md = std::fs::read_to_string(root.join("CLAUDE.md")).unwrap();
    std::fs::write(root.join("CLAUDE.md"), "# ours alone\n").unwrap();
    let drifted = doctor(1);
    assert_eq!(
        drifted["providers"]["claude"]["content"]["vaultspec.builtin.md"],
        "diverged"
    );
    assert_eq!(drifted["providers"]["claude"]["config"], "foreign");
    std::fs::write(&copy, rendered).unwrap();
    std::fs::write(root.join("CLAUDE.md"), claude_md).unwrap();

    let rule = root.join(".vaultspec/rules/vaultspec.builtin.md");
    let seeded = std::fs::read_to_string(&rule).unwrap();
    std::fs::write(&rule, format!("{seeded}\nOur own line.\n")).unwrap();
    assert_eq!(doctor(1)["builtin_version"], "modified");
    std::fs::remove_file(&rule).unwrap();
    assert_eq!(
        doctor(2)["builtin_version"],
        "deleted",
        "a deleted source is an error"
    );
    std::fs::write(&rule, seeded).unwrap();

    std::fs::write(
        root.join(".vaultspec/mcps/vaultspec-core.builtin.json"),
        "{\"command\": \"uv\", \"args\": [\"run\"]}\n",
    )
    .unwrap();
    // Named, never weighed (as the reference).
    let stale = doctor(0);
    assert_eq!(
        stale["stale_mcp_seeds"],
        serde_json::json!(["vaultspec-core"])
    );
}

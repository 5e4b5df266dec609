//! The agent framework at the command line: `install` gives each agent
//! vaultspec's rules, skills, personas and system prompt in the same files
//! as `vaultspec-core`, `sync` keeps them in line with `.vaultspec/`
//! without touching what a person wrote, and hostile files are refused.

use std::collections::BTreeSet;
use std::path::Path;

use sha1::{Digest, Sha1};
use vaultspec_test_support::golden;

use crate::binary::{command, text};

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

/// A fresh git repository and a private home.
struct Repo {
    dir: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Repo {
    fn new() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        Repo {
            dir,
            home: tempfile::tempdir().unwrap(),
        }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        command(args)
            .current_dir(self.root())
            .env("HOME", self.home.path())
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> std::process::Output {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}\nstdout: {}\nstderr: {}",
            text(&out.stdout),
            text(&out.stderr)
        );
        out
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.root().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Every file, workspace-relative, lock files aside.
    fn files(&self) -> BTreeSet<String> {
        golden::files(self.root())
            .into_keys()
            .filter(|p| !p.starts_with(".git/") && !p.ends_with(".lock"))
            .collect()
    }
}

#[test]
fn install_writes_the_files_the_reference_writes_for_every_provider() {
    for provider in ["all", "claude", "gemini", "antigravity", "codex"] {
        let repo = Repo::new();
        repo.ok(&["install", provider]);
        let expected: BTreeSet<String> = std::fs::read_to_string(
            fixtures().join(format!("reference-files/install-{provider}.txt")),
        )
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
        let ours = repo.files();
        let missing: Vec<_> = expected.difference(&ours).collect();
        let extra: Vec<_> = ours.difference(&expected).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "install {provider}: missing {missing:?}, extra {extra:?}"
        );
        // A second install and a sync change nothing.
        let before = golden::files(repo.root());
        repo.ok(&["install", provider]);
        repo.ok(&["sync", "--skip", "mcp"]);
        assert_eq!(
            golden::files(repo.root()),
            before,
            "install {provider} again"
        );
    }
}

/// The reference's check: a sentence of 8 words or more, or a run of 12,
/// that also appears in the reference's builtin texts (by hash).
#[test]
fn no_builtin_text_shares_wording_with_the_reference() {
    let hashes: BTreeSet<String> =
        std::fs::read_to_string(fixtures().join("reference-files/ref-hashes.txt"))
            .unwrap()
            .split_whitespace()
            .map(str::to_owned)
            .collect();
    let builtin = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk/vault/src/framework/builtin");
    let files = golden::files(&builtin);
    assert!(files.len() > 30, "{}", files.len());
    let mut shared = Vec::new();
    for (path, bytes) in files {
        let text = String::from_utf8(bytes).unwrap();
        for piece in pieces(&text) {
            if hashes.contains(&hex::encode(Sha1::digest(piece.as_bytes()))) {
                shared.push(format!("{path}: {piece}"));
            }
        }
    }
    assert!(
        shared.is_empty(),
        "shared with the reference:\n{}",
        shared.join("\n")
    );
}

/// The checker's pieces: frontmatter dropped, markup as spaces, lowercased.
fn pieces(text: &str) -> Vec<String> {
    let body = match text
        .strip_prefix("---\n")
        .and_then(|r| r.split_once("\n---\n"))
    {
        Some((_, body)) => body,
        None => text,
    };
    let cleaned: String = body
        .chars()
        .map(|c| if "`*_>#|[]()".contains(c) { ' ' } else { c })
        .collect();
    let words: Vec<String> = cleaned.split_whitespace().map(str::to_lowercase).collect();
    let normal = words.join(" ");
    let mut out = Vec::new();
    let mut sentence = Vec::new();
    for word in normal.split(' ') {
        sentence.push(word);
        if word.ends_with(['.', '!', '?', ':', ';']) {
            if sentence.len() >= 8 {
                out.push(format!("s:{}", sentence.join(" ")));
            }
            sentence.clear();
        }
    }
    if sentence.len() >= 8 {
        out.push(format!("s:{}", sentence.join(" ")));
    }
    for run in words.windows(12) {
        out.push(format!("r:{}", run.join(" ")));
    }
    out
}

#[test]
fn rules_skills_and_personas_added_renamed_and_removed_reach_every_provider() {
    let repo = Repo::new();
    repo.ok(&["install"]);
    repo.ok(&[
        "spec",
        "rules",
        "add",
        "team-style",
        "--body",
        "Indent with tabs.",
    ]);
    repo.ok(&[
        "spec",
        "skills",
        "add",
        "release",
        "--description",
        "Cut a release",
        "--body",
        "# Release\n",
    ]);
    repo.ok(&[
        "spec",
        "agents",
        "add",
        "triager",
        "--description",
        "Sort new issues",
        "--body",
        "# Triager\n",
    ]);
    repo.ok(&["sync", "--skip", "mcp"]);
    for dir in [
        ".claude/rules",
        ".gemini/rules",
        ".agents/rules",
        ".codex/rules",
    ] {
        assert!(
            repo.read(&format!("{dir}/team-style.md"))
                .contains("Indent with tabs."),
            "{dir}"
        );
    }
    assert!(
        repo.read("CLAUDE.md")
            .contains("@.claude/rules/team-style.md")
    );
    assert!(
        repo.read("AGENTS.md")
            .contains("@.codex/rules/team-style.md")
    );
    assert!(repo.read("GEMINI.md").contains("Indent with tabs."));
    assert!(
        repo.read(".claude/skills/release/SKILL.md")
            .contains("description: Cut a release")
    );
    assert!(
        repo.read(".agents/skills/release/SKILL.md")
            .contains("# Release")
    );
    assert!(repo.read(".gemini/SYSTEM.md").contains("**release**"));
    assert!(
        repo.read(".claude/agents/triager.md")
            .contains("model: sonnet")
    );
    assert!(repo.read(".gemini/agents/triager.md").contains("read_file"));
    let codex: toml::Table = repo.read(".codex/config.toml").parse().unwrap();
    assert_eq!(
        codex["agents"]["triager"]["description"].as_str(),
        Some("Sort new issues")
    );

    repo.ok(&["spec", "rules", "rename", "team-style", "house-style"]);
    repo.ok(&["spec", "skills", "remove", "release", "--yes"]);
    repo.ok(&["spec", "agents", "remove", "triager", "--yes"]);
    repo.ok(&["sync", "--skip", "mcp"]);
    assert!(!repo.root().join(".claude/rules/team-style.md").exists());
    assert!(
        repo.read(".codex/rules/house-style.md")
            .contains("name: house-style")
    );
    assert!(
        repo.read("CLAUDE.md")
            .contains("@.claude/rules/house-style.md")
    );
    assert!(!repo.root().join(".claude/skills/release").exists());
    assert!(!repo.root().join(".gemini/agents/triager.md").exists());
    assert!(!repo.read(".codex/config.toml").contains("triager"));

    let status = repo.run(&["spec", "rules", "status", "--json"]);
    assert_eq!(status.status.code(), Some(0), "{}", text(&status.stdout));
}

#[test]
fn a_hand_edit_survives_sync_until_force_and_restore_brings_back_a_builtin() {
    let repo = Repo::new();
    repo.ok(&["install", "claude"]);
    let rule = ".claude/rules/vaultspec.builtin.md";
    let edited = repo.read(rule) + "\nA line I added.\n";
    repo.write(rule, &edited);
    repo.write(
        ".vaultspec/rules/vaultspec.builtin.md",
        "---\nname: vaultspec\n---\n\nMine now.\n",
    );
    let out = repo.ok(&["sync", "--skip", "mcp"]);
    assert!(
        text(&out.stderr).contains("changed by hand"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(repo.read(rule), edited);
    let status = repo.run(&["spec", "rules", "status"]);
    assert_eq!(status.status.code(), Some(1));

    repo.ok(&["spec", "rules", "restore", "vaultspec.builtin.md"]);
    repo.ok(&["sync", "--force", "--skip", "mcp"]);
    let restored = repo.read(rule);
    assert!(!restored.contains("A line I added.") && !restored.contains("Mine now."));
    assert!(restored.contains("vaultspec-digest:"));
    repo.ok(&["spec", "rules", "status"]);
}

#[test]
fn uninstall_keeps_the_persons_root_file_text_and_own_rules() {
    let repo = Repo::new();
    repo.write("CLAUDE.md", "# House rules\n\nWritten by a person.\n");
    repo.ok(&["install", "claude"]);
    repo.write(".claude/rules/mine.md", "my own rule\n");
    assert!(
        repo.read("CLAUDE.md")
            .contains("<vaultspec type=\"config\">")
    );
    repo.ok(&["uninstall", "--force"]);
    assert_eq!(
        repo.read("CLAUDE.md"),
        "# House rules\n\nWritten by a person.\n"
    );
    assert_eq!(repo.read(".claude/rules/mine.md"), "my own rule\n");
    assert!(!repo.root().join(".claude/agents").exists());
    assert!(!repo.root().join(".claude/skills").exists());
    assert!(
        !repo
            .root()
            .join(".claude/rules/vaultspec.builtin.md")
            .exists()
    );
}

#[test]
fn a_workspace_the_reference_set_up_keeps_every_persons_byte_through_sync() {
    let repo = Repo::new();
    golden::copy_tree(&fixtures().join("reference-framework"), repo.root());
    let before = golden::files(repo.root());
    let out = repo.ok(&["sync", "--skip", "mcp"]);
    let after = golden::files(repo.root());
    for path in [
        ".vaultspec/rules/team-style.md",
        ".claude/rules/team-style.md",
        ".claude/rules/mine.md",
        ".vaultspec/rules/vaultspec.builtin.md",
        ".claude/rules/vaultspec.builtin.md",
        ".claude/agents/vaultspec-writer.md",
    ] {
        assert_eq!(after.get(path), before.get(path), "{path} changed");
    }
    let claude = repo.read("CLAUDE.md");
    assert!(
        claude.starts_with("# Our project\n\nHouse notes a person wrote.\n"),
        "{claude}"
    );
    // The reference's builtins give way to ours only on `install --upgrade`,
    // which says so.
    let upgraded = repo.ok(&["install", "--upgrade", "--skip", "mcp"]);
    assert!(
        text(&upgraded.stdout).contains("vaultspec-core's builtin"),
        "{}",
        text(&upgraded.stdout)
    );
    assert_ne!(
        golden::files(repo.root()).get(".vaultspec/rules/vaultspec.builtin.md"),
        before.get(".vaultspec/rules/vaultspec.builtin.md")
    );
    assert!(
        repo.read(".claude/rules/vaultspec.builtin.md")
            .contains("vaultspec-digest:")
    );
    assert_eq!(
        repo.read(".vaultspec/rules/team-style.md"),
        String::from_utf8(before[".vaultspec/rules/team-style.md"].clone()).unwrap()
    );
    assert_eq!(repo.read(".claude/rules/mine.md"), "my own rule\n");
    drop(out);
}

#[test]
fn linked_agent_folders_and_root_files_are_refused_by_name() {
    let repo = Repo::new();
    repo.ok(&["install", "core"]);
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.root().join(".claude")).unwrap();
    let target = outside.path().join("CLAUDE-target.md");
    std::fs::write(&target, "outside\n").unwrap();
    std::os::unix::fs::symlink(&target, repo.root().join("CLAUDE.md")).unwrap();
    let out = repo.run(&["install", "claude", "--skip", "mcp"]);
    assert_ne!(out.status.code(), Some(0));
    let said = text(&out.stderr) + &text(&out.stdout);
    assert!(
        said.contains(".claude") && said.contains("CLAUDE.md"),
        "{said}"
    );
    assert_eq!(
        std::fs::read_dir(outside.path()).unwrap().count(),
        1,
        "a file was written through the link"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "outside\n");
}

#[test]
fn a_fifo_a_huge_sparse_source_and_an_escape_in_a_name_are_reported_and_skipped() {
    let repo = Repo::new();
    repo.ok(&["install", "claude", "--skip", "mcp"]);
    let rules = repo.root().join(".vaultspec/rules");
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        rules.join("fifo.md"),
        rustix::fs::Mode::from(0o600),
    )
    .unwrap();
    let sparse = std::fs::File::create(rules.join("huge.md")).unwrap();
    sparse.set_len(3 << 30).unwrap();
    std::fs::write(rules.join("bad\u{1b}[2J.md"), "escape\n").unwrap();
    let out = repo.run(&["sync", "--skip", "mcp"]);
    let stderr = text(&out.stderr);
    for name in ["fifo.md", "huge.md", "\\u{1b}"] {
        assert!(stderr.contains(name), "{name} not reported: {stderr}");
    }
    assert!(!stderr.contains('\u{1b}'), "an escape reached the terminal");
    assert!(!repo.root().join(".claude/rules/huge.md").exists());
    assert!(!repo.root().join(".claude/rules/fifo.md").exists());
    assert!(!repo.read("CLAUDE.md").contains("huge"));
    let bad = repo.run(&["spec", "rules", "add", "x\u{7}y", "--body", "b"]);
    assert_eq!(bad.status.code(), Some(2), "a bad name is a usage error");
    assert!(!text(&bad.stderr).contains('\u{7}'));
}

#[test]
fn edit_opens_the_editor_on_a_copy_and_writes_back_only_a_real_change() {
    let repo = Repo::new();
    repo.ok(&["install", "claude", "--skip", "mcp"]);
    repo.ok(&["spec", "rules", "add", "team-style", "--body", "Be brief."]);
    let script = |name: &str, body: &str| {
        let path = repo.home.path().join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        path.display().to_string()
    };
    let source = ".vaultspec/rules/team-style.md";

    // The editor appends a line: the source takes it, written atomically.
    let append = script("append.sh", "echo 'Name the file.' >> \"$1\"");
    let out = repo.ok(&["spec", "rules", "edit", "team-style", "--editor", &append]);
    assert!(text(&out.stdout).contains("Saved"), "{}", text(&out.stdout));
    assert!(repo.read(source).ends_with("Be brief.\nName the file.\n"));

    // An editor that fails, or leaves the text empty, changes nothing.
    let before = repo.read(source);
    let fail = script("fail.sh", "echo junk > \"$1\"; exit 7");
    let out = repo.run(&["spec", "rules", "edit", "team-style", "--editor", &fail]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let empty = script("empty.sh", ": > \"$1\"");
    let out = repo.run(&["spec", "rules", "edit", "team-style", "--editor", &empty]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert_eq!(repo.read(source), before);

    // The editor `config set editor` names is used when no flag is given.
    repo.ok(&["config", "set", "editor", &append]);
    repo.ok(&["spec", "rules", "edit", "team-style"]);
    assert!(
        repo.read(source)
            .ends_with("Name the file.\nName the file.\n")
    );
}

//! The `rename-integrity` checker: for the framework's rules, skills and
//! agents under `.vaultspec/`, the frontmatter `name:` must match the file
//! (or, for a skill folder, the folder). The fixer rewrites `name:` to the
//! file's name, or with `frontmatter_wins` renames the file instead.
//!
//! Bundled resources (a file name holding `.builtin`, such as
//! `rules/vaultspec-cli.builtin.md` with `name: vaultspec-cli`) are the
//! framework's own and are neither checked nor rewritten, as in
//! `vaultspec-core` 0.3.9: every workspace its `install` made has them, and
//! its `sync` restores them byte for byte.

use crate::error::Result;
use crate::frontmatter::edit::set_key;
use crate::frontmatter::scan::strip_quotes;
use crate::frontmatter::split;

use super::context::{Options, Snapshot, read_text, write_if_changed};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "rename-integrity";

/// A named framework file: its path, the name the path gives and the
/// `name:` its frontmatter gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// Workspace-relative path.
    pub path: String,
    /// The name the path implies.
    pub expected: String,
    /// The frontmatter `name:`.
    pub declared: String,
}

fn declared_name(text: &str) -> Option<String> {
    let s = split(text)?;
    s.yaml(text).lines().find_map(|l| {
        let v = l.strip_prefix("name:")?;
        Some(strip_quotes(v.trim()).to_string())
    })
}

/// The resource name a file or skill folder name gives: without `.md`,
/// then without `.builtin`.
fn clean_name(file: &str) -> &str {
    let stem = file.strip_suffix(".md").unwrap_or(file);
    stem.strip_suffix(".builtin").unwrap_or(stem)
}

/// A bundled resource file, which the checker leaves alone.
fn is_builtin(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|f| f.contains(".builtin"))
}

/// The name `path` implies: rules and agents (at any depth) by their file
/// name, skills by their folder; `None` for anything else.
fn expected_name(path: &str) -> Option<String> {
    let rest = path.strip_prefix(".vaultspec/")?;
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.as_slice() {
        ["skills", dir, "SKILL.md"] if !dir.starts_with('.') => Some(clean_name(dir).to_string()),
        ["skills", _] => None,
        ["rules" | "agents", .., file] if file.ends_with(".md") => {
            Some(clean_name(file).to_string())
        }
        _ => None,
    }
}

/// Every rule, skill and agent whose `name:` differs from its file.
pub fn mismatches(snap: &Snapshot<'_>) -> Result<Vec<Named>> {
    let mut out = Vec::new();
    for entry in snap.storage.list(".vaultspec")? {
        let Some(expected) = expected_name(&entry.path) else {
            continue;
        };
        if is_builtin(&entry.path) {
            continue;
        }
        let Ok(bytes) = snap.storage.read(&entry.path) else {
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let Some(declared) = declared_name(&text) else {
            continue;
        };
        if declared != expected {
            out.push(Named {
                path: entry.path,
                expected,
                declared,
            });
        }
    }
    Ok(out)
}

/// Runs the checker; `frontmatter_wins` makes the fixer rename the file
/// instead of rewriting `name:`.
pub fn run_with(
    snap: &Snapshot<'_>,
    opts: &Options,
    frontmatter_wins: bool,
) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::RenameIntegrity);
    for m in mismatches(snap)? {
        let message = format!(
            "`name: {}` does not match the file name `{}`",
            m.declared, m.expected
        );
        if !opts.fix {
            result.findings.push(
                Finding::new(NAME, Severity::Error, Some(&m.path), message).fixable(Some(format!(
                    "set `name: {}` or rename the file to `{}`",
                    m.expected, m.declared
                ))),
            );
            continue;
        }
        if frontmatter_wins {
            let target = if m.path.ends_with("/SKILL.md") {
                m.path.replace(
                    &format!("/{}/SKILL.md", m.expected),
                    &format!("/{}/SKILL.md", m.declared),
                )
            } else {
                m.path.replace(
                    &format!("/{}.md", m.expected),
                    &format!("/{}.md", m.declared),
                )
            };
            if snap.storage.exists(&target)? {
                result.findings.push(Finding::new(
                    NAME,
                    Severity::Error,
                    Some(&m.path),
                    format!("Cannot rename to `{target}`: target already exists"),
                ));
                result
                    .findings
                    .push(Finding::new(NAME, Severity::Error, Some(&m.path), message));
                continue;
            }
            snap.storage.rename(&m.path, &target)?;
            result.findings.push(Finding::fixed(
                NAME,
                &target,
                format!("Fixed: renamed to `{target}`"),
            ));
        } else {
            let raw = read_text(snap.storage, &m.path)?;
            let Some(new) = set_key(&raw, "name", &[format!("name: {}", m.expected)]) else {
                continue;
            };
            write_if_changed(snap.storage, &m.path, &raw, &new)?;
            result.findings.push(Finding::fixed(
                NAME,
                &m.path,
                format!("Fixed: set `name: {}`", m.expected),
            ));
        }
        result.fixed_count += 1;
    }
    Ok(result)
}

/// Runs the checker (the fixer rewrites `name:`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    run_with(snap, opts, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_files_and_skill_folders() {
        assert_eq!(expected_name(".vaultspec/rules/a.md").as_deref(), Some("a"));
        assert_eq!(
            expected_name(".vaultspec/skills/b/SKILL.md").as_deref(),
            Some("b")
        );
        assert_eq!(expected_name(".vaultspec/templates/adr.md"), None);
        assert_eq!(
            expected_name(".vaultspec/rules/team/c.md").as_deref(),
            Some("c")
        );
        assert_eq!(
            expected_name(".vaultspec/skills/d.builtin/SKILL.md").as_deref(),
            Some("d")
        );
        assert_eq!(declared_name("---\nname: 'x'\n---\n").as_deref(), Some("x"));
    }

    #[test]
    fn bundled_resources_are_left_alone() {
        assert!(is_builtin(".vaultspec/rules/vaultspec-cli.builtin.md"));
        assert!(is_builtin(".vaultspec/agents/x.builtin.md"));
        assert!(!is_builtin(".vaultspec/skills/y.builtin/SKILL.md"));
        assert!(!is_builtin(".vaultspec/rules/mine.md"));
    }
}

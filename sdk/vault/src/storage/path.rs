//! The rules for workspace paths and for where writes may land.
//!
//! Confinement is decided on path components, never by string prefix:
//! `.vault/../src/x.rs` starts with `.vault/` but leaves it.

use super::StorageError;

/// Split a workspace-relative path into its components, refusing anything
/// that is not plain: absolute paths, `..`, `.`, empty components,
/// backslashes and NUL bytes. The empty path (the workspace root) yields no
/// components.
pub fn check_path(path: &str) -> Result<Vec<&str>, StorageError> {
    let invalid = |reason: &str| StorageError::InvalidPath {
        path: path.to_owned(),
        reason: reason.to_owned(),
    };
    if path.is_empty() {
        return Ok(Vec::new());
    }
    if path.starts_with('/') {
        return Err(invalid("absolute paths are not accepted"));
    }
    if path.contains('\\') {
        return Err(invalid("use `/` to separate folders"));
    }
    if path.contains('\0') {
        return Err(invalid("paths may not contain NUL"));
    }
    let parts: Vec<&str> = path.split('/').collect();
    for part in &parts {
        match *part {
            "" => return Err(invalid("empty folder name")),
            "." => return Err(invalid("`.` components are not accepted")),
            ".." => return Err(invalid("`..` components are not accepted")),
            _ => {}
        }
    }
    Ok(parts)
}

/// Which workspace paths a storage may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteScope {
    /// No writes at all.
    ReadOnly,
    /// Files under `.vault/` and `.vaultspec/` only: the folders vaultspec owns.
    Vault,
    /// The host's own `install` and `uninstall`, run by a person and never
    /// by a verb: everything under `.vault/` and `.vaultspec/`, the
    /// protected entries included, the two folders themselves, and the root
    /// files that carry vaultspec's managed blocks.
    Setup,
    /// The host's MCP enrollment in a workspace, run by a person and never
    /// by a verb: the coding agents' project files that list MCP servers
    /// ([`WriteScope::ENROLL_FILES`]), and nothing else.
    Enroll,
    /// The host's framework sync, run by a person and never by a verb: the
    /// framework sources under `.vaultspec/` (not its protected entries),
    /// the agents' rule, skill and persona folders
    /// ([`WriteScope::FRAMEWORK_FOLDERS`]) and the files that carry
    /// vaultspec's rules for them ([`WriteScope::FRAMEWORK_FILES`]).
    Framework,
    /// The host's hook sync, run by a person and never by a verb: the
    /// agents' hook files ([`WriteScope::HOOK_FILES`]) and nothing else.
    Hooks,
    /// Any path beneath the root, links still never followed: for a folder
    /// of the user's own configuration (`~/.vaultspec`, `$CODEX_HOME`) that
    /// the host opened itself, never for a workspace.
    Beneath,
}

impl WriteScope {
    /// The top-level folders writes may touch.
    pub const VAULT_ROOTS: [&'static str; 2] = [".vault", ".vaultspec"];

    /// Entries of `.vaultspec/` that decide what runs or is trusted, with
    /// why no verb may change them: a verb able to write there could plant
    /// a component, a hook or a launch command that runs outside the
    /// sandbox, or outlives its call. Compared by exact component name.
    pub const PROTECTED: [(&'static str, &'static str); 6] = [
        (
            "verbs",
            "it holds the verb components vaultspec loads and runs",
        ),
        ("mcps", "it holds the MCP server definitions agents launch"),
        ("hooks", "it holds commands run on events"),
        ("triggers", "it holds commands run on events"),
        ("workspace.json", "it renders the MCP launch commands"),
        (
            ".env",
            "it sets the environment of the commands vaultspec launches",
        ),
    ];

    /// The files at the workspace root that [`WriteScope::Setup`] may change.
    pub const SETUP_ROOT_FILES: [&'static str; 5] = [
        ".gitignore",
        ".gitattributes",
        ".pre-commit-config.yaml",
        ".pre-commit-config.yml",
        "prek.toml",
    ];

    /// The agents' project files that [`WriteScope::Enroll`] may change:
    /// Claude's, Codex's and Antigravity's lists of MCP servers.
    pub const ENROLL_FILES: [&'static str; 3] =
        [".mcp.json", ".codex/config.toml", ".agents/mcp_config.json"];

    /// The agents' files [`WriteScope::Hooks`] may change: each one's
    /// settings or hooks file, and the record beside it of what was
    /// rendered there.
    pub const HOOK_FILES: [&'static str; 7] = [
        ".claude/settings.json",
        ".claude/.vaultspec-hooks.json",
        ".gemini/settings.json",
        ".gemini/.vaultspec-hooks.json",
        ".codex/hooks.json",
        ".codex/.vaultspec-hooks.json",
        ".agents/hooks.json",
    ];

    /// The agents' folders [`WriteScope::Framework`] may change anything
    /// beneath: where each coding agent reads rules, skills and personas.
    pub const FRAMEWORK_FOLDERS: [&'static str; 10] = [
        ".claude/rules",
        ".claude/skills",
        ".claude/agents",
        ".gemini/rules",
        ".gemini/agents",
        ".agents/rules",
        ".agents/skills",
        ".agents/agents",
        ".codex/rules",
        ".vaultspec",
    ];

    /// The single files [`WriteScope::Framework`] may change: the root
    /// files and Gemini's system prompt that carry vaultspec's block or
    /// text, and Codex's configuration, whose personas region it keeps.
    pub const FRAMEWORK_FILES: [&'static str; 5] = [
        "CLAUDE.md",
        "AGENTS.md",
        "GEMINI.md",
        ".gemini/SYSTEM.md",
        ".codex/config.toml",
    ];

    /// Accept `path` for a write, or say why not.
    pub fn check<'p>(&self, path: &'p str) -> Result<Vec<&'p str>, StorageError> {
        let parts = check_path(path)?;
        let denied = |reason: &str| StorageError::Denied {
            path: path.to_owned(),
            reason: reason.to_owned(),
        };
        match self {
            Self::ReadOnly => Err(denied("this workspace is open read-only")),
            Self::Vault => {
                if parts.len() >= 2 && Self::VAULT_ROOTS.contains(&parts[0]) {
                    if parts[0] == ".vaultspec"
                        && let Some((name, why)) =
                            Self::PROTECTED.iter().find(|(name, _)| *name == parts[1])
                    {
                        return Err(denied(&format!(
                            "`.vaultspec/{name}` is outside every verb's write scope: {why}; change it by hand"
                        )));
                    }
                    Ok(parts)
                } else {
                    Err(denied(
                        "only files under `.vault/` and `.vaultspec/` may be written",
                    ))
                }
            }
            Self::Setup => match parts.as_slice() {
                [top, ..] if Self::VAULT_ROOTS.contains(top) => Ok(parts),
                [file] if Self::SETUP_ROOT_FILES.contains(file) => Ok(parts),
                _ => Err(denied(
                    "setup writes only `.vault/`, `.vaultspec/`, `.gitignore`, `.gitattributes`, \
                     the pre-commit configuration and `prek.toml`",
                )),
            },
            Self::Enroll => {
                if Self::ENROLL_FILES.contains(&path) {
                    Ok(parts)
                } else {
                    Err(denied(&format!(
                        "enrollment writes only {}",
                        Self::ENROLL_FILES.map(|f| format!("`{f}`")).join(", ")
                    )))
                }
            }
            Self::Hooks => {
                if Self::HOOK_FILES.contains(&path) {
                    Ok(parts)
                } else {
                    Err(denied("the hook sync writes only the agents' hook files"))
                }
            }
            Self::Framework => {
                if Self::FRAMEWORK_FILES.contains(&path) {
                    return Ok(parts);
                }
                let beneath = |folder: &str| {
                    let top: Vec<&str> = folder.split('/').collect();
                    parts.len() > top.len() && parts[..top.len()] == top[..]
                };
                if !Self::FRAMEWORK_FOLDERS.iter().any(|f| beneath(f)) {
                    return Err(denied(
                        "the framework sync writes only the agents' rule, skill and persona \
                         folders, `.vaultspec/` and the files that carry vaultspec's rules",
                    ));
                }
                if parts[0] == ".vaultspec"
                    && let Some((name, why)) =
                        Self::PROTECTED.iter().find(|(name, _)| *name == parts[1])
                {
                    return Err(denied(&format!(
                        "`.vaultspec/{name}` is outside the framework sync's scope: {why}"
                    )));
                }
                Ok(parts)
            }
            Self::Beneath if parts.is_empty() => Err(denied("the root itself is a folder")),
            Self::Beneath => Ok(parts),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_are_split_into_components() {
        assert_eq!(
            check_path(".vault/adr/x.md").unwrap(),
            [".vault", "adr", "x.md"]
        );
        assert!(check_path("").unwrap().is_empty());
    }

    #[test]
    fn escaping_or_odd_paths_are_refused() {
        for bad in [
            "/etc/passwd",
            "../x",
            ".vault/../x",
            "./x",
            "a//b",
            "a/",
            "a\\b",
            "a\0b",
        ] {
            assert!(check_path(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn writes_are_confined_to_the_vault_folders_by_component() {
        let scope = WriteScope::Vault;
        assert!(scope.check(".vault/adr/x.md").is_ok());
        assert!(scope.check(".vaultspec/templates/adr.md").is_ok());
        for bad in [
            ".vault/../src/x.rs",
            "src/x.rs",
            ".vault",
            ".vaultx/a.md",
            ".vaults/a",
        ] {
            assert!(scope.check(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(scope.check(".vaultspec/providers.json").is_ok());
        assert!(
            scope.check(".vault/verbs/x.wasm").is_ok(),
            "only `.vaultspec/verbs` is protected"
        );
        assert!(
            scope.check(".vaultspec/verbs-old/x.wasm").is_ok(),
            "names compare whole"
        );
        assert!(matches!(
            WriteScope::ReadOnly.check(".vault/a.md"),
            Err(StorageError::Denied { .. })
        ));
    }

    #[test]
    fn enrollment_reaches_the_three_agent_files_only() {
        let scope = WriteScope::Enroll;
        for good in WriteScope::ENROLL_FILES {
            assert!(scope.check(good).is_ok(), "{good:?} was refused");
        }
        for bad in [
            ".mcp.json/x",
            ".codex/other.toml",
            ".vaultspec/x",
            ".gitignore",
            ".agents",
        ] {
            assert!(scope.check(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn the_framework_sync_reaches_the_agents_folders_and_files_only() {
        let scope = WriteScope::Framework;
        for good in [
            ".claude/rules/x.md",
            ".claude/skills/a/references/b.md",
            ".agents/agents/p.md",
            ".vaultspec/rules/x.md",
            "CLAUDE.md",
            ".gemini/SYSTEM.md",
            ".codex/config.toml",
        ] {
            assert!(scope.check(good).is_ok(), "{good:?} was refused");
        }
        for bad in [
            ".claude/settings.json",
            ".claude/rules",
            ".claude/../x.md",
            ".git/config",
            "README.md",
            ".gemini/settings.json",
            ".vaultspec/mcps/x.json",
            ".vaultspec/workspace.json",
            ".codex/rules",
            ".mcp.json",
        ] {
            assert!(scope.check(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn setup_reaches_the_vault_folders_and_the_managed_root_files_only() {
        let scope = WriteScope::Setup;
        for good in [
            ".vault",
            ".vaultspec",
            ".vaultspec/mcps/vaultspec-core.builtin.json",
            ".vaultspec/workspace.json",
            ".gitignore",
            ".gitattributes",
        ] {
            assert!(scope.check(good).is_ok(), "{good:?} was refused");
        }
        for bad in [
            "src/main.rs",
            ".git/config",
            ".gitignore/x",
            "",
            "README.md",
        ] {
            assert!(scope.check(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn what_decides_what_runs_is_outside_every_write_scope() {
        for path in [
            ".vaultspec/verbs/x.wasm",
            ".vaultspec/verbs",
            ".vaultspec/mcps/a/b.json",
            ".vaultspec/hooks/h",
            ".vaultspec/triggers/t.toml",
            ".vaultspec/workspace.json",
            ".vaultspec/.env",
        ] {
            let err = WriteScope::Vault.check(path).unwrap_err();
            let top = path.split('/').take(2).collect::<Vec<_>>().join("/");
            assert!(
                matches!(&err, StorageError::Denied { reason, .. } if reason.contains(&format!("`{top}`"))),
                "{err}"
            );
            assert!(err.to_string().contains(path), "{err}");
        }
    }
}

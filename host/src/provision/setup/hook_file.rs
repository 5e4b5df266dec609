//! The hooks a pre-commit configuration lists, read in one place for every
//! command that asks (the doctor, the migrations, the install-mode check).

use vaultspec_vault::frontmatter::yaml::{Value, parse_strict};

/// The two names pre-commit reads, in the order it looks for them.
pub const FILES: [&str; 2] = [".pre-commit-config.yaml", ".pre-commit-config.yml"];

/// One hook of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hook {
    /// Whether its repo is `local` (a command on this machine, as
    /// vaultspec's are).
    pub local: bool,
    pub id: String,
    pub entry: String,
}

/// The install mode the reference wrote a commit-gate `entry` for: `tool`
/// (`uvx --from vaultspec-core vaultspec-core …`) or `dependency` (`uv run
/// --no-sync vaultspec-core …`); `None` for any other command, vaultspec's
/// own included.
pub fn entry_mode(entry: &str) -> Option<&'static str> {
    if entry.starts_with("uvx --from vaultspec-core vaultspec-core") {
        Some("tool")
    } else if entry.starts_with("uv run --no-sync vaultspec-core") {
        Some("dependency")
    } else {
        None
    }
}

/// Every hook of every repo, in order; `None` when the text is not a
/// mapping with a `repos` list.
pub fn hooks(text: &str) -> Option<Vec<Hook>> {
    let Ok(Value::Map(top)) = parse_strict(text) else {
        return None;
    };
    let Some((_, Value::List(repos))) = top.iter().find(|(k, _)| k == "repos") else {
        return None;
    };
    let mut out = Vec::new();
    for repo in repos {
        let Value::Map(repo) = repo else { continue };
        let local = repo
            .iter()
            .any(|(k, v)| k == "repo" && v.as_str() == Some("local"));
        let Some((_, Value::List(list))) = repo.iter().find(|(k, _)| k == "hooks") else {
            continue;
        };
        for hook in list {
            let Value::Map(hook) = hook else { continue };
            let field = |k: &str| {
                hook.iter()
                    .find(|(n, _)| n == k)
                    .and_then(|(_, v)| v.as_str())
                    .unwrap_or_default()
                    .to_owned()
            };
            out.push(Hook {
                local,
                id: field("id"),
                entry: field("entry"),
            });
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_hook_is_read_with_its_repo() {
        let text = "repos:\n- repo: https://x/y\n  rev: v1\n  hooks:\n  - id: black\n- repo: local\n  hooks:\n  - id: vaultspec-commit-gate\n    entry: vaultspec commit-gate\n";
        let hooks = hooks(text).unwrap();
        assert_eq!(hooks.len(), 2);
        assert!(!hooks[0].local && hooks[0].id == "black");
        assert!(hooks[1].local && hooks[1].entry == "vaultspec commit-gate");
        assert_eq!(super::hooks("- a\n"), None);
    }

    #[test]
    fn a_gate_entry_names_the_install_mode_it_was_written_for() {
        assert_eq!(
            entry_mode("uvx --from vaultspec-core vaultspec-core commit-gate"),
            Some("tool")
        );
        assert_eq!(
            entry_mode("uv run --no-sync vaultspec-core commit-gate"),
            Some("dependency")
        );
        assert_eq!(entry_mode("/usr/bin/vaultspec commit-gate"), None);
    }
}

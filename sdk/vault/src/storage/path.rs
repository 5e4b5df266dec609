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
}

impl WriteScope {
    /// The top-level folders writes may touch.
    pub const VAULT_ROOTS: [&'static str; 2] = [".vault", ".vaultspec"];

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
                    Ok(parts)
                } else {
                    Err(denied("only files under `.vault/` and `.vaultspec/` may be written"))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_are_split_into_components() {
        assert_eq!(check_path(".vault/adr/x.md").unwrap(), [".vault", "adr", "x.md"]);
        assert!(check_path("").unwrap().is_empty());
    }

    #[test]
    fn escaping_or_odd_paths_are_refused() {
        for bad in ["/etc/passwd", "../x", ".vault/../x", "./x", "a//b", "a/", "a\\b", "a\0b"] {
            assert!(check_path(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn writes_are_confined_to_the_vault_folders_by_component() {
        let scope = WriteScope::Vault;
        assert!(scope.check(".vault/adr/x.md").is_ok());
        assert!(scope.check(".vaultspec/templates/adr.md").is_ok());
        for bad in [".vault/../src/x.rs", "src/x.rs", ".vault", ".vaultx/a.md", ".vaults/a"] {
            assert!(scope.check(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(matches!(
            WriteScope::ReadOnly.check(".vault/a.md"),
            Err(StorageError::Denied { .. })
        ));
    }
}

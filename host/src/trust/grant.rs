//! One approval: this component file, with these bytes, in this workspace.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A person's approval of one component file for one workspace.
///
/// Paths are stored canonical ([`identity`]), so `./ws` and `/home/me/ws`
/// are the same workspace and a symlinked folder does not fool the check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    /// The workspace root the approval holds in.
    pub workspace: PathBuf,
    /// The component's file.
    pub path: PathBuf,
    /// Lowercase hex sha256 of the file's bytes when it was approved.
    pub sha256: String,
    /// When it was approved, in seconds since the Unix epoch.
    #[serde(default)]
    pub granted_at: u64,
}

impl Grant {
    /// An approval made now. `digest` may carry the catalog's `sha256:`
    /// prefix.
    pub fn new(workspace: &Path, path: &Path, digest: &str) -> Self {
        let granted_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Self {
            workspace: identity(workspace),
            path: identity(path),
            sha256: hex_of(digest).to_owned(),
            granted_at,
        }
    }

    /// Whether this grant is about this component file in this workspace,
    /// whatever its bytes.
    pub fn is_for(&self, workspace: &Path, path: &Path) -> bool {
        self.workspace == identity(workspace) && self.path == identity(path)
    }

    /// Whether this grant approves exactly these bytes at this path in this
    /// workspace.
    pub fn approves(&self, workspace: &Path, path: &Path, digest: &str) -> bool {
        self.is_for(workspace, path) && self.sha256.eq_ignore_ascii_case(hex_of(digest))
    }
}

/// The canonical form of a path, or the path itself when it cannot be
/// resolved (a file that is gone still matches its own grant for revoking).
pub fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
}

fn hex_of(digest: &str) -> &str {
    digest.strip_prefix("sha256:").unwrap_or(digest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grant_approves_only_its_workspace_path_and_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let (ws, other) = (dir.path().join("ws"), dir.path().join("other"));
        std::fs::create_dir_all(&ws).unwrap();
        std::fs::create_dir_all(&other).unwrap();
        let file = ws.join("notes.wasm");
        std::fs::write(&file, b"x").unwrap();
        let grant = Grant::new(&ws, &file, "sha256:ABC");
        assert!(grant.approves(&ws, &file, "sha256:abc"));
        assert!(grant.approves(&ws.join("../ws"), &file, "abc"));
        assert!(!grant.approves(&other, &file, "sha256:abc"));
        assert!(!grant.approves(&ws, &file, "sha256:abd"));
        assert!(grant.is_for(&ws, &file));
    }
}

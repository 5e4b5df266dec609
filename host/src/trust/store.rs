//! The user's trust file, `~/.vaultspec/verb-trust.json`: read, check, update.
//!
//! Updates hold an exclusive lock on the sibling `verb-trust.json.lock` for
//! the whole read-modify-write, and replace the file atomically, so two
//! `vaultspec verbs trust` runs never lose each other's grants and a reader
//! never sees half a file.

use crate::checked_file::{self, Owner};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use super::grant::Grant;

/// The trust file's name under `~/.vaultspec/`.
pub const TRUST_FILE: &str = "verb-trust.json";

/// The version of the file's layout this host writes and reads.
const VERSION: u32 = 1;

/// What the file holds.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
struct TrustFile {
    version: u32,
    grants: Vec<Grant>,
}

/// The grants of one user, as read from their trust file.
#[derive(Debug, Clone)]
pub struct TrustStore {
    path: PathBuf,
    grants: Vec<Grant>,
}

impl TrustStore {
    /// The trust file of the user whose home folder is `home`.
    pub fn path_in(home: &Path) -> PathBuf {
        home.join(".vaultspec").join(TRUST_FILE)
    }

    /// A store with no grants (no home folder, or an unreadable file the
    /// caller chose to ignore): every third-party component is untrusted.
    pub fn empty(path: PathBuf) -> Self {
        Self {
            path,
            grants: Vec::new(),
        }
    }

    /// Read the user's grants; a missing file holds none.
    pub fn read(home: &Path) -> anyhow::Result<Self> {
        let path = Self::path_in(home);
        let grants = read_file(&path)?.grants;
        Ok(Self { path, grants })
    }

    /// Where the grants are kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every grant, in the order made.
    pub fn grants(&self) -> &[Grant] {
        &self.grants
    }

    /// Whether a person approved exactly these bytes (`digest`, with or
    /// without `sha256:`) at `component` for `workspace`.
    pub fn is_trusted(&self, workspace: &Path, component: &Path, digest: &str) -> bool {
        self.grants
            .iter()
            .any(|g| g.approves(workspace, component, digest))
    }

    /// Change the grants under the file's lock: re-read the file, apply
    /// `change`, write it back atomically. Returns the store as written.
    pub fn update(home: &Path, change: impl FnOnce(&mut Vec<Grant>)) -> anyhow::Result<Self> {
        let path = Self::path_in(home);
        let dir = path.parent().expect("the trust file lives in a folder");
        std::fs::create_dir_all(dir).with_context(|| format!("creating `{}`", dir.display()))?;
        let _lock = crate::file_lock::FileLock::take(&path)?;

        let mut file = read_file(&path)?;
        change(&mut file.grants);
        file.version = VERSION;
        let text = serde_json::to_string_pretty(&file).context("encoding the trust file")?;
        let mut temp = tempfile::NamedTempFile::new_in(dir)
            .with_context(|| format!("creating a temporary file in `{}`", dir.display()))?;
        std::io::Write::write_all(&mut temp, format!("{text}\n").as_bytes())
            .with_context(|| format!("writing `{}`", temp.path().display()))?;
        temp.persist(&path)
            .with_context(|| format!("replacing `{}`", path.display()))?;
        Ok(Self {
            path,
            grants: file.grants,
        })
    }
}

/// The largest trust file read: room for tens of thousands of grants.
const MAX_TRUST_BYTES: u64 = 4 * 1024 * 1024;

/// The trust file at `path`: this user's own, writable by nobody else (a
/// grant it holds lets code run), within [`MAX_TRUST_BYTES`].
fn read_file(path: &Path) -> anyhow::Result<TrustFile> {
    let text = match checked_file::read_text(path, MAX_TRUST_BYTES, Owner::Me) {
        Ok(Some(text)) => text,
        Ok(None) => return Ok(TrustFile::default()),
        Err(refusal) => {
            return Err(refusal).with_context(|| {
                format!(
                    "`{}` cannot be trusted as this user's trust file",
                    path.display()
                )
            });
        }
    };
    let file: TrustFile = serde_json::from_str(&text).with_context(|| {
        format!(
            "`{}` is not a trust file (fix or remove it, then trust the components again)",
            path.display()
        )
    })?;
    if file.version > VERSION {
        bail!(
            "`{}` was written by a newer vaultspec (layout {}, this one reads up to {VERSION})",
            path.display(),
            file.version
        );
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grants_survive_a_round_trip_and_a_revoke() -> anyhow::Result<()> {
        let home = tempfile::tempdir()?;
        let ws = home.path().join("ws");
        std::fs::create_dir_all(&ws)?;
        let file = ws.join("a.wasm");
        assert!(TrustStore::read(home.path())?.grants().is_empty());
        TrustStore::update(home.path(), |g| g.push(Grant::new(&ws, &file, "sha256:aa")))?;
        let store = TrustStore::read(home.path())?;
        assert!(store.is_trusted(&ws, &file, "sha256:aa"));
        assert!(!store.is_trusted(&ws, &file, "sha256:bb"));
        TrustStore::update(home.path(), |g| g.retain(|g| !g.is_for(&ws, &file)))?;
        assert!(!TrustStore::read(home.path())?.is_trusted(&ws, &file, "sha256:aa"));
        Ok(())
    }

    #[test]
    fn a_damaged_file_is_an_error_naming_it() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".vaultspec")).unwrap();
        std::fs::write(TrustStore::path_in(home.path()), "{not json").unwrap();
        let err = TrustStore::read(home.path()).unwrap_err();
        assert!(format!("{err:#}").contains(TRUST_FILE), "{err:#}");
    }
}

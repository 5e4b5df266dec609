//! The workspace a command works on: finding its root, opening it, and the
//! lock that serializes writers.
//!
//! The root is found by [`resolve_root`] (`--target`, the environment, or
//! discovery from the current folder) and must hold a `.vaultspec/` folder.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use cap_std::ambient_authority;
use cap_std::fs::Dir;

mod root;
pub mod survey;

pub use root::{resolve_root, setup_root};

/// Where the semantic-search companion `vaultspec-rag` is provisioned in
/// the workspace behind `storage`, its command on `PATH` included (which a
/// sandboxed verb cannot see).
pub fn companion(storage: &dyn vaultspec_vault::Storage) -> serde_json::Value {
    use vaultspec_vault::status::companion;
    let command = crate::env::on_path(companion::PACKAGE);
    companion::probe(storage, command.as_deref().and_then(Path::to_str))
}

/// How often a held write lock is tried again.
const LOCK_POLL: Duration = Duration::from_millis(5);

/// An opened workspace root.
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
    dir: Arc<Dir>,
}

/// Holds the workspace's write lock until dropped.
#[derive(Debug)]
pub struct WriteLock {
    _file: std::fs::File,
}

impl Workspace {
    /// Open `root` (which must hold `.vaultspec/`).
    pub fn open(root: &Path) -> anyhow::Result<Self> {
        if !root.is_dir() {
            bail!(
                "the workspace root `{}` does not exist or is not a folder",
                root.display()
            );
        }
        if !root.join(".vaultspec").is_dir() {
            bail!(
                "`{}` is not a workspace: it has no `.vaultspec/` folder (create one there, \
                 or pass `--target` with a folder that has one)",
                root.display()
            );
        }
        let dir = Dir::open_ambient_dir(root, ambient_authority())
            .with_context(|| format!("opening the workspace `{}`", root.display()))?;
        Ok(Self {
            root: root.to_owned(),
            dir: Arc::new(dir),
        })
    }

    /// Resolve the root from `--target`, the environment or the current
    /// folder, and open it.
    pub fn resolve(target: Option<&Path>) -> anyhow::Result<Self> {
        let cwd = std::env::current_dir().context("reading the current folder")?;
        Self::open(&resolve_root(target, &cwd)?)
    }

    /// The root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The root as a capability: nothing outside it is reachable through it.
    pub fn dir(&self) -> &Dir {
        &self.dir
    }

    /// Remove the temp files a killed write left, wherever vaultspec
    /// writes (see [`vaultspec_vault::CapStorage::sweep_stale_temps`]):
    /// every command that may write calls it before it writes. Returns how
    /// many were removed.
    pub fn sweep_stale_temps(&self) -> usize {
        match self.dir.try_clone() {
            Ok(dir) => vaultspec_vault::CapStorage::from_dir(dir).sweep_stale_temps(),
            Err(_) => 0,
        }
    }

    /// Take the workspace's exclusive write lock, waiting for other writers
    /// in this process or any other. The lock is an advisory lock on the root
    /// folder itself, so taking it creates no file.
    ///
    /// The wait is a poll on the async runtime, never a thread parked in
    /// `flock`: dropping the future (a call's deadline passing) ends it.
    pub async fn lock_writes(&self) -> anyhow::Result<WriteLock> {
        let file = self.open_root()?;
        while !self.try_lock(&file)? {
            tokio::time::sleep(LOCK_POLL).await;
        }
        Ok(WriteLock { _file: file })
    }

    /// [`Workspace::lock_writes`] for callers on a blocking thread (the
    /// native tools): the wait gives up after `budget` with an error naming
    /// the workspace, so an abandoned tool call does not park its thread
    /// forever.
    pub fn lock_writes_blocking(&self, budget: Duration) -> anyhow::Result<WriteLock> {
        let file = self.open_root()?;
        let start = Instant::now();
        while !self.try_lock(&file)? {
            if start.elapsed() >= budget {
                bail!(
                    "another writer held the workspace `{}` for {} s; try again once it has finished",
                    self.root.display(),
                    budget.as_secs()
                );
            }
            std::thread::sleep(LOCK_POLL);
        }
        Ok(WriteLock { _file: file })
    }

    /// The root folder opened anew through the capability, never by its
    /// path: a path re-resolved at each lock (a `--target` that is a
    /// symlink, swapped since) could lock another folder than the one this
    /// workspace reads and writes. A fresh open, not a duplicate handle:
    /// `flock` belongs to the open file, which duplicates would share.
    fn open_root(&self) -> anyhow::Result<std::fs::File> {
        // `open`, not `open_dir`: cap-std opens folders `O_PATH`, which
        // `flock` refuses.
        self.dir
            .open(".")
            .map(cap_std::fs::File::into_std)
            .with_context(|| format!("opening `{}` to lock it", self.root.display()))
    }

    /// Try once to lock the opened root: `false` while another writer has it.
    fn try_lock(&self, file: &std::fs::File) -> anyhow::Result<bool> {
        match file.try_lock() {
            Ok(()) => Ok(true),
            Err(std::fs::TryLockError::WouldBlock) => Ok(false),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(e).with_context(|| format!("locking `{}`", self.root.display()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_write_lock_is_on_the_folder_opened_even_when_its_path_now_leads_elsewhere() {
        let tmp = tempfile::tempdir().unwrap();
        for folder in ["a", "b"] {
            std::fs::create_dir_all(tmp.path().join(folder).join(".vaultspec")).unwrap();
        }
        let link = tmp.path().join("ws");
        std::os::unix::fs::symlink("a", &link).unwrap();
        let workspace = Workspace::open(&link).unwrap();
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink("b", &link).unwrap();
        let _held = workspace
            .lock_writes_blocking(Duration::from_secs(1))
            .unwrap();
        let locked = |folder: &str| {
            let file = std::fs::File::open(tmp.path().join(folder)).unwrap();
            matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock))
        };
        assert!(locked("a"), "the folder served is locked");
        assert!(!locked("b"), "the folder the path names now is not");
    }

    #[test]
    fn a_root_without_vaultspec_is_refused_with_a_hint() {
        let tmp = tempfile::tempdir().unwrap();
        let err = Workspace::open(tmp.path()).unwrap_err().to_string();
        assert!(err.contains("no `.vaultspec/` folder"), "{err}");
    }
}

//! An exclusive advisory lock beside a file of the user's (`<file>.lock`),
//! for the records several processes update: MCP approvals and ownership,
//! verb trust.

use std::path::{Path, PathBuf};

use anyhow::Context;

/// An exclusive advisory lock on `<file>.lock`, held until dropped.
pub struct FileLock {
    _file: std::fs::File,
}

impl FileLock {
    /// Wait for and take the lock of `file`.
    pub fn take(file: &Path) -> anyhow::Result<FileLock> {
        let dir = file.parent().context("a locked file lives in a folder")?;
        std::fs::create_dir_all(dir).with_context(|| format!("creating `{}`", dir.display()))?;
        let mut name = file.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening `{}`", path.display()))?;
        lock.lock()
            .with_context(|| format!("locking `{}`", path.display()))?;
        Ok(FileLock { _file: lock })
    }
}

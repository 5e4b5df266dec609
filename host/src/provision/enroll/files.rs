//! Reading and replacing the files enrollment touches.
//!
//! Every write goes through [`CapStorage`]: in the workspace with
//! [`WriteScope::Enroll`] (the agents' three files, nothing else), in the
//! user's configuration folders with [`WriteScope::Beneath`]. Either way no
//! link on the path is followed, a file is replaced atomically through an
//! exclusively created temporary file, and a read-only or hard-linked file
//! is refused rather than changed.

use std::path::PathBuf;

use anyhow::Context;
use vaultspec_vault::{CapStorage, Storage, StorageError, WriteScope};

/// One file: the folder it is reached from and its path beneath it.
#[derive(Debug, Clone)]
pub struct Place {
    pub base: PathBuf,
    pub relative: String,
    pub scope: WriteScope,
}

impl Place {
    /// The file's absolute path, for messages.
    pub fn path(&self) -> PathBuf {
        self.base.join(&self.relative)
    }

    fn storage(&self, create: bool) -> anyhow::Result<Option<CapStorage>> {
        if !self.base.is_dir() {
            if !create {
                return Ok(None);
            }
            std::fs::create_dir_all(&self.base)
                .with_context(|| format!("creating `{}`", self.base.display()))?;
        }
        let storage = CapStorage::open(&self.base)
            .with_context(|| format!("opening `{}`", self.base.display()))?;
        Ok(Some(storage.with_scope(self.scope)))
    }

    /// The file's text; `None` when it does not exist.
    pub fn read(&self) -> anyhow::Result<Option<String>> {
        let Some(storage) = self.storage(false)? else {
            return Ok(None);
        };
        match storage.read(&self.relative) {
            Ok(bytes) => String::from_utf8(bytes)
                .map(Some)
                .with_context(|| format!("`{}` is not UTF-8 text", self.path().display())),
            Err(StorageError::NotFound { .. }) => Ok(None),
            Err(err) => Err(err).with_context(|| format!("reading `{}`", self.path().display())),
        }
    }

    /// Replace the file with `text`, or delete it for `None`.
    pub fn write(&self, text: Option<&str>) -> anyhow::Result<()> {
        let what = || format!("writing `{}`", self.path().display());
        match text {
            Some(text) => {
                let storage = self.storage(true)?.expect("made above");
                storage
                    .write(&self.relative, text.as_bytes())
                    .with_context(what)
            }
            None => {
                let Some(storage) = self.storage(false)? else {
                    return Ok(());
                };
                match storage.remove(&self.relative) {
                    Ok(()) | Err(StorageError::NotFound { .. }) => Ok(()),
                    Err(err) => Err(err).with_context(what),
                }
            }
        }
    }
}

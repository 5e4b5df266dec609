//! The user's key for the undo journal's seal: 32 random bytes kept in the
//! user's private state folder (`journal.key` under [`env::state_base`]),
//! never in a workspace, made on first use.
//!
//! Every storage the host runs vault operations through seals the journal
//! it writes with this key and rolls back only a journal sealed with it
//! (`vaultspec_vault::storage::JournalKey`), so a journal that came with a
//! clone or a synced folder is reported and left, never applied. The file
//! must be the user's own regular file, readable by nobody else; when it
//! cannot be read or made, the process's own key stands in (a crash then
//! leaves its journal for a person to look at, which is safe).

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::Path;
use std::sync::OnceLock;

use anyhow::{Context, bail};
use vaultspec_vault::storage::JournalKey;

use crate::checked_file::{self, Owner, Refusal};
use crate::env;

/// The key's file name in the state folder.
const FILE: &str = "journal.key";

/// The user's key (read or made once per process).
pub fn key() -> JournalKey {
    static KEY: OnceLock<JournalKey> = OnceLock::new();
    KEY.get_or_init(|| {
        let loaded = env::state_base()
            .context("no home folder")
            .and_then(|dir| load_or_make(&dir));
        match loaded {
            Ok(bytes) => JournalKey::new(bytes),
            Err(err) => {
                tracing::warn!(
                    "no journal key of the user's ({err:#}): an interrupted change can be rolled \
                     back by this process only"
                );
                JournalKey::process()
            }
        }
    })
    .clone()
}

/// The key in `dir`, made there first if there is none.
fn load_or_make(dir: &Path) -> anyhow::Result<[u8; 32]> {
    let path = dir.join(FILE);
    if let Some(bytes) = read(&path)? {
        return Ok(bytes);
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("making `{}`", dir.display()))?;
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
    let made = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&path);
    match made {
        Ok(mut file) => {
            file.write_all(hex::encode(bytes).as_bytes())
                .and_then(|()| file.sync_all())
                .with_context(|| format!("writing `{}`", path.display()))?;
            Ok(bytes)
        }
        // Another process made it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            read(&path)?.with_context(|| format!("`{}` vanished", path.display()))
        }
        Err(e) => Err(e).with_context(|| format!("making `{}`", path.display())),
    }
}

/// Read the key, `None` when there is none: the user's own regular file,
/// no link, readable by nobody else, 64 hex digits.
fn read(path: &Path) -> anyhow::Result<Option<[u8; 32]>> {
    let text = match checked_file::read_text(path, 128, Owner::MeAlone) {
        Ok(None) => return Ok(None),
        Ok(Some(text)) => text,
        Err(refusal @ (Refusal::NotMine { .. } | Refusal::Shared { .. })) => bail!(
            "`{}` must be yours and readable by nobody else (chmod 600): {refusal}",
            path.display()
        ),
        Err(refusal) => bail!("`{}` cannot be read: {refusal}", path.display()),
    };
    let bytes = hex::decode(text.trim())
        .ok()
        .and_then(|b| <[u8; 32]>::try_from(b).ok())
        .with_context(|| format!("`{}` does not hold a key", path.display()))?;
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn the_key_is_made_once_private_and_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        let made = load_or_make(&state).unwrap();
        assert_eq!(load_or_make(&state).unwrap(), made);
        let meta = std::fs::metadata(state.join(FILE)).unwrap();
        assert_eq!(meta.mode() & 0o777, 0o600);
        assert_eq!(std::fs::metadata(&state).unwrap().mode() & 0o777, 0o700);
    }

    #[test]
    fn a_shared_or_linked_key_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        load_or_make(&state).unwrap();
        let key = state.join(FILE);
        std::fs::set_permissions(&key, std::os::unix::fs::PermissionsExt::from_mode(0o644))
            .unwrap();
        assert!(load_or_make(&state).is_err());
        std::fs::remove_file(&key).unwrap();
        let elsewhere = dir.path().join("planted");
        std::fs::write(&elsewhere, "00".repeat(32)).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &key).unwrap();
        assert!(load_or_make(&state).is_err());
    }
}

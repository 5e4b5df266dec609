//! The on-disk cache of compiled components.
//!
//! Compiling a verb takes tens of milliseconds; loading its compiled form
//! takes a fraction of one. Entries are keyed by the component's digest, the
//! engine's compatibility hash and the host's version, so a changed component
//! or engine never loads a stale artifact. Writes are atomic; an unreadable or
//! missing cache folder only costs a compile.
//!
//! Loading an entry runs the native code in it, so the cache is used only
//! when nobody but the user could have written it: the folder must be a real
//! folder (not a symlink) owned by the user and not writable by group or
//! others (it is created `0700`), and an entry is opened without following a
//! link and must be a regular file owned by the user without group or other
//! write bits. A folder that fails is refused with one warning per process
//! and every component is compiled instead; an entry that fails is compiled
//! anew (and not replaced).

use std::hash::{Hash, Hasher};

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

use crate::env;

/// Where compiled components are kept.
#[derive(Debug, Clone)]
pub struct CompileCache {
    dir: Option<PathBuf>,
}

/// Feeds `Hash` output into SHA-256, for a key stable across processes.
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn finish(&self) -> u64 {
        unreachable!("only the digest of the written bytes is used")
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

impl CompileCache {
    /// The cache in `dir`, or none at all.
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self { dir }
    }

    /// The cache folder named by `VAULTSPEC_CACHE_DIR`, else the user's cache
    /// folder (`$XDG_CACHE_HOME/vaultspec` or `~/.cache/vaultspec`), plus
    /// `components/`. Never inside a workspace.
    pub fn from_env() -> Self {
        Self::new(env::cache_base().map(|b| b.join("components")))
    }

    fn entry(&self, engine: &Engine, digest: &str) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        let mut hasher = ShaHasher(Sha256::new());
        digest.hash(&mut hasher);
        env!("CARGO_PKG_VERSION").hash(&mut hasher);
        engine.precompile_compatibility_hash().hash(&mut hasher);
        Some(dir.join(format!("{}.cwasm", hex::encode(hasher.0.finalize()))))
    }

    /// The compiled component: from the cache when it holds it, else
    /// compiled now (after calling `on_compile`) and stored for next time.
    pub fn load_or_compile(
        &self,
        engine: &Engine,
        digest: &str,
        bytes: &[u8],
        on_compile: impl FnOnce(),
    ) -> wasmtime::Result<Component> {
        let entry = self.entry(engine, digest).filter(|path| {
            let dir = path.parent().expect("cache entries live in a folder");
            match own_folder(dir) {
                Ok(()) => true,
                Err(reason) => {
                    if !FOLDER_REFUSED.swap(true, Ordering::Relaxed) {
                        tracing::warn!(
                            "not using the compiled-component cache `{}`: {reason}; components are compiled on every run",
                            dir.display()
                        );
                    }
                    false
                }
            }
        });
        let mut replace = true;
        if let Some(path) = &entry {
            match read_own_file(path) {
                Ok(Some(serialized)) => {
                    // SAFETY: the bytes were written by `store` below from
                    // `Component::serialize` of this engine configuration
                    // (the key covers it), into a folder only this user can
                    // write, and read from a regular file of this user that
                    // no one else may write (`own_folder`, `read_own_file`).
                    match unsafe { Component::deserialize(engine, &serialized) } {
                        Ok(component) => return Ok(component),
                        Err(e) => tracing::warn!(
                            "ignoring the cached component `{}`: {e}",
                            path.display()
                        ),
                    }
                }
                Ok(None) => {}
                Err(reason) => {
                    tracing::warn!(
                        "ignoring the cached component `{}`: {reason}",
                        path.display()
                    );
                    replace = false;
                }
            }
        }
        on_compile();
        let component = Component::new(engine, bytes)?;
        if let Some(path) = entry.as_ref().filter(|_| replace)
            && let Err(e) = store(path, &component)
        {
            tracing::warn!(
                "could not cache the compiled component in `{}`: {e}",
                path.display()
            );
        }
        Ok(component)
    }
}

/// Set once a refused cache folder was reported in this process.
static FOLDER_REFUSED: AtomicBool = AtomicBool::new(false);

/// Create the cache folder (`0700`) if it is missing, then check that it is
/// a real folder of this user that group and others cannot write.
pub(crate) fn own_folder(dir: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, MetadataExt};
        if let Err(err) = std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
        {
            return Err(format!("it cannot be created: {err}"));
        }
        let meta = std::fs::symlink_metadata(dir).map_err(|err| err.to_string())?;
        if meta.file_type().is_symlink() || !meta.is_dir() {
            return Err("it is a symbolic link or not a folder".into());
        }
        // SAFETY: `geteuid` has no preconditions.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me {
            return Err(format!(
                "it belongs to user {}, not to this user ({me})",
                meta.uid()
            ));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(format!(
                "group or others may write it (mode {:o}); make it `chmod 700`",
                meta.mode() & 0o7777
            ));
        }
        Ok(())
    }
    #[cfg(not(unix))]
    {
        std::fs::create_dir_all(dir).map_err(|err| err.to_string())
    }
}

/// The largest cache entry read: compiled code of the largest component
/// file the catalog reads, with room to spare.
const MAX_ENTRY_BYTES: u64 = 4 * crate::catalog::MAX_COMPONENT_BYTES;

/// The bytes of a cache entry, `None` when there is none, or why it may not
/// be loaded: a link, not a regular file, over the size cap, not this
/// user's, or writable by group or others.
pub(crate) fn read_own_file(path: &Path) -> Result<Option<Vec<u8>>, String> {
    crate::checked_file::read(path, MAX_ENTRY_BYTES, crate::checked_file::Owner::Me)
        .map_err(|refusal| refusal.to_string())
}

fn store(path: &Path, component: &Component) -> anyhow::Result<()> {
    Ok(write_own_file(path, &component.serialize()?)?)
}

/// Write a cache entry whole: a fresh temporary file beside it (`O_EXCL`,
/// mode 0600), renamed over it, so a reader sees the old bytes or the new.
pub(crate) fn write_own_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().expect("cache entries live in a folder");
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut temp, bytes)?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn a_folder_others_may_write_is_refused_and_a_new_one_is_private() {
        let base = tempfile::tempdir().unwrap();
        let fresh = base.path().join("a/components");
        own_folder(&fresh).unwrap();
        let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);

        let open = base.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        let err = own_folder(&open).unwrap_err();
        assert!(err.contains("777"), "{err}");

        let link = base.path().join("link");
        std::os::unix::fs::symlink(&fresh, &link).unwrap();
        assert!(own_folder(&link).unwrap_err().contains("symbolic link"));
    }

    #[test]
    fn an_entry_that_is_a_link_or_writable_by_others_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let entry = dir.path().join("e.cwasm");
        assert_eq!(read_own_file(&entry), Ok(None));
        std::fs::write(&entry, b"code").unwrap();
        std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(read_own_file(&entry), Ok(Some(b"code".to_vec())));
        std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o666)).unwrap();
        assert!(read_own_file(&entry).unwrap_err().contains("666"));
        let link = dir.path().join("l.cwasm");
        std::os::unix::fs::symlink(&entry, &link).unwrap();
        assert!(read_own_file(&link).unwrap_err().contains("symbolic link"));
    }
}

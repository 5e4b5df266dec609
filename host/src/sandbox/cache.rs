//! The on-disk cache of compiled components.
//!
//! Compiling a verb takes tens of milliseconds; loading its compiled form
//! takes a fraction of one. Entries are keyed by the component's digest, the
//! engine's compatibility hash and the host's version, so a changed component
//! or engine never loads a stale artifact. Writes are atomic; an unreadable or
//! missing cache folder only costs a compile.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

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
        let base = std::env::var_os(env::CACHE_DIR)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("XDG_CACHE_HOME")
                    .filter(|v| !v.is_empty())
                    .map(|d| PathBuf::from(d).join("vaultspec"))
            })
            .or_else(|| std::env::home_dir().map(|h| h.join(".cache").join("vaultspec")));
        Self::new(base.map(|b| b.join("components")))
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
    /// compiled now and stored for next time.
    pub fn load_or_compile(
        &self,
        engine: &Engine,
        digest: &str,
        bytes: &[u8],
    ) -> wasmtime::Result<Component> {
        let entry = self.entry(engine, digest);
        if let Some(path) = &entry
            && path.exists()
        {
            // SAFETY: the file was written by `store` below from
            // `Component::serialize` of this engine configuration (the key
            // covers it), in a folder only this user writes.
            match unsafe { Component::deserialize_file(engine, path) } {
                Ok(component) => return Ok(component),
                Err(e) => tracing::warn!("ignoring the cached component `{}`: {e}", path.display()),
            }
        }
        let component = Component::new(engine, bytes)?;
        if let Some(path) = &entry {
            if let Err(e) = store(path, &component) {
                tracing::warn!("could not cache the compiled component in `{}`: {e}", path.display());
            }
        }
        Ok(component)
    }
}

fn store(path: &Path, component: &Component) -> anyhow::Result<()> {
    let dir = path.parent().expect("cache entries live in a folder");
    std::fs::create_dir_all(dir)?;
    let serialized = component.serialize()?;
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut temp, &serialized)?;
    temp.persist(path)?;
    Ok(())
}

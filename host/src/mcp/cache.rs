//! An in-memory cache of the loaded vault (graph and search index) for one
//! server, so repeated reads do not re-parse an unchanged vault.
//!
//! The cache lives in memory only (nothing is written to the workspace) and
//! is validated on every use by a fingerprint of every file under `.vault/`:
//! its path, size, modification and change times (nanoseconds) and inode.
//! Our own writes replace files by rename (a new inode); an edit in place
//! changes the change time, which no tool can set back. A fingerprint that
//! differs reloads everything.

use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use sha2::{Digest, Sha256};
use vaultspec_vault::graph::Graph;
use vaultspec_vault::search::SearchIndex;

/// A loaded vault: the graph, and the search index built on first use.
pub struct Loaded {
    /// The document graph.
    pub graph: Graph,
    index: OnceLock<SearchIndex>,
}

impl Loaded {
    /// The BM25 index over the graph's documents, built once.
    pub fn index(&self) -> &SearchIndex {
        self.index.get_or_init(|| SearchIndex::build(self.graph.docs()))
    }
}

/// The last loaded vault and the fingerprint it was loaded at.
#[derive(Default)]
pub struct VaultCache {
    last: Mutex<Option<([u8; 32], Arc<Loaded>)>>,
}

fn walk(dir: &Path, root: &Path, hasher: &mut Sha256) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
        if meta.is_dir() {
            walk(&path, root, hasher);
            continue;
        }
        let relative = path.strip_prefix(root).unwrap_or(&path);
        hasher.update(relative.as_os_str().as_encoded_bytes());
        for n in [meta.len() as i64, meta.mtime(), meta.mtime_nsec(), meta.ctime(), meta.ctime_nsec(), meta.ino() as i64] {
            hasher.update(n.to_le_bytes());
        }
    }
}

/// The fingerprint of every file under `<root>/.vault`.
pub fn fingerprint(root: &Path) -> [u8; 32] {
    let mut hasher = Sha256::new();
    walk(&root.join(".vault"), root, &mut hasher);
    hasher.finalize().into()
}

impl VaultCache {
    /// The loaded vault at `root`: the cached one while its fingerprint
    /// holds, else a fresh `load()`.
    pub fn get<E>(&self, root: &Path, load: impl FnOnce() -> Result<Graph, E>) -> Result<Arc<Loaded>, E> {
        let print = fingerprint(root);
        if let Some((cached, loaded)) = self.last.lock().expect("cache lock poisoned").as_ref()
            && *cached == print
        {
            return Ok(loaded.clone());
        }
        let loaded = Arc::new(Loaded { graph: load()?, index: OnceLock::new() });
        *self.last.lock().expect("cache lock poisoned") = Some((print, loaded.clone()));
        Ok(loaded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_change_to_a_file_changes_the_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".vault/adr")).unwrap();
        std::fs::write(dir.path().join(".vault/adr/a.md"), "one").unwrap();
        let first = fingerprint(dir.path());
        assert_eq!(first, fingerprint(dir.path()));
        std::fs::write(dir.path().join(".vault/adr/a.md"), "two").unwrap();
        assert_ne!(first, fingerprint(dir.path()));
        let second = fingerprint(dir.path());
        std::fs::write(dir.path().join(".vault/adr/b.md"), "").unwrap();
        assert_ne!(second, fingerprint(dir.path()));
    }
}

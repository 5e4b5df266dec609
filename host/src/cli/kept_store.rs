//! Where the command line keeps the results a builtin verb kept for single
//! files of `.vault/` ([`KeptResults`]) from one run to the next.
//!
//! One file per workspace and component, in `<cache>/kept/`, named by the
//! hash of the workspace's canonical path and the component's digest: a new
//! build of a verb starts with nothing, so a change to what it keeps needs
//! no version of its own. The folder is this user's and outside the
//! workspace, as for the answer cache; a file is written whole under a
//! temporary name and renamed, read without following a link, and carries
//! its key and a SHA-256 of its contents, so a truncated, corrupt or foreign
//! file is ignored (and replaced by the next call that keeps something),
//! never trusted. Files past [`MAX_STORES`], or past [`MAX_TOTAL_BYTES`]
//! together, go, oldest first.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};
use vaultspec_vault::FileEntry;

use crate::catalog::{Origin, VerbComponent};
use crate::sandbox::{KeptEntry, KeptResults, read_own_file, write_own_file};
use crate::workspace::survey::{Stamp, stamp};

use super::cache_files::{cache_folder, prune, seal, unseal};

/// Stores kept in the folder; past it the oldest go.
pub const MAX_STORES: usize = 64;

/// The largest store written: a vault whose results would pass it keeps
/// the ones it had.
pub const MAX_STORE_BYTES: usize = 64 << 20;

/// What the stores may hold together; past it the oldest go.
pub const MAX_TOTAL_BYTES: u64 = 256 << 20;

/// The first bytes of every store (its format's version included).
const MAGIC: &[u8] = b"vaultspec-kept-1\n";

/// The kept results of one component in one workspace.
pub struct KeptStore {
    root: PathBuf,
    key: String,
    file: PathBuf,
}

impl KeptStore {
    /// The store of a call to `component` in the workspace at `root`; none
    /// for a third-party verb, or where the answer cache could not live.
    pub fn for_call(component: &VerbComponent, root: &Path) -> Option<Self> {
        if component.origin != Origin::Builtin {
            return None;
        }
        let root = root.canonicalize().ok()?;
        let dir = cache_folder("kept", &root)?;
        let key = format!(
            "workspace {}\ncomponent {}\n",
            root.display(),
            component.digest
        );
        let file = dir.join(hex::encode(Sha256::digest(key.as_bytes())));
        Some(Self { root, key, file })
    }

    /// The call's kept results over the listing walked before it (`files`,
    /// shared with the call's first listing, and the stamp of each settled
    /// one), ready for [`crate::sandbox::CallOptions::kept`]. The store is
    /// read only if the verb recalls or keeps something.
    pub fn open(
        &self,
        files: Arc<Vec<FileEntry>>,
        settled: Vec<Option<Stamp>>,
    ) -> Arc<Mutex<KeptResults>> {
        let (file, key) = (self.file.clone(), self.key.clone());
        let earlier = move || match read_own_file(&file) {
            Ok(Some(bytes)) => decode(&bytes, &key).unwrap_or_else(|| {
                tracing::debug!("ignoring the kept results `{}`", file.display());
                Vec::new()
            }),
            Ok(None) => Vec::new(),
            Err(reason) => {
                tracing::debug!("ignoring the kept results `{}`: {reason}", file.display());
                Vec::new()
            }
        };
        Arc::new(Mutex::new(KeptResults::new(files, settled, earlier)))
    }

    /// Store what a finished call kept, if it kept anything new; each new
    /// result's file stamped again now, without following a link.
    pub fn save(&self, kept: &Mutex<KeptResults>) {
        let mut kept = kept.lock().expect("kept results lock poisoned");
        let (asked, given) = kept.recalls();
        tracing::debug!("kept results: {given} of {asked} recalled");
        let now = |path: &str| -> Option<Stamp> {
            let meta = std::fs::symlink_metadata(self.root.join(path)).ok()?;
            meta.is_file().then(|| stamp(&meta))
        };
        let Some(entries) = kept.settle(now) else {
            return;
        };
        let bytes = encode(&self.key, &entries);
        if bytes.len() > MAX_STORE_BYTES {
            tracing::debug!(
                "kept results not stored: {} bytes is past the limit",
                bytes.len()
            );
            return;
        }
        match write_own_file(&self.file, &bytes) {
            Ok(()) => {
                tracing::debug!("kept results: {} stored", entries.len());
                let dir = self.file.parent().expect("stores live in a folder");
                prune(dir, MAX_STORES, MAX_TOTAL_BYTES);
            }
            Err(err) => tracing::debug!(
                "could not store the kept results in `{}`: {err}",
                self.file.display()
            ),
        }
    }
}

/// A store, [`seal`]ed under [`MAGIC`]: the key and every entry (path, kind, stamp, value), strings and values each behind
/// their length (u32, little-endian), the stamp as six i64.
fn encode(key: &str, entries: &[KeptEntry]) -> Vec<u8> {
    let mut rest = Vec::new();
    let mut put = |bytes: &[u8]| {
        let len = u32::try_from(bytes.len()).expect("kept lengths are bounded");
        rest.extend_from_slice(&len.to_le_bytes());
        rest.extend_from_slice(bytes);
    };
    put(key.as_bytes());
    for entry in entries {
        put(entry.path.as_bytes());
        put(entry.kind.as_bytes());
        put(&entry
            .stamp
            .iter()
            .flat_map(|n| n.to_le_bytes())
            .collect::<Vec<u8>>());
        put(&entry.value);
    }
    seal(MAGIC, &rest)
}

/// [`encode`] undone for the store of `key`, or `None` for anything else.
fn decode(bytes: &[u8], key: &str) -> Option<Vec<KeptEntry>> {
    let mut rest = unseal(MAGIC, bytes)?;
    let mut take = || -> Option<&[u8]> {
        let (len, after) = rest.split_at_checked(4)?;
        let len = u32::from_le_bytes(len.try_into().ok()?) as usize;
        let (field, after) = after.split_at_checked(len)?;
        rest = after;
        Some(field)
    };
    if take()? != key.as_bytes() {
        return None;
    }
    let mut entries = Vec::new();
    while let Some(path) = take() {
        let kind = take()?;
        let stamp = take()?;
        let value = take()?;
        if stamp.len() != 48 {
            return None;
        }
        let mut at = stamp
            .chunks_exact(8)
            .map(|n| i64::from_le_bytes(n.try_into().expect("8 bytes")));
        entries.push(KeptEntry {
            path: std::str::from_utf8(path).ok()?.to_owned(),
            kind: std::str::from_utf8(kind).ok()?.to_owned(),
            stamp: std::array::from_fn(|_| at.next().expect("six numbers")),
            value: value.to_vec(),
        });
    }
    Some(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries() -> Vec<KeptEntry> {
        vec![
            KeptEntry {
                path: ".vault/adr/a.md".into(),
                kind: "row".into(),
                stamp: [1, 2, 3, 4, 5, -6],
                value: b"one".to_vec(),
            },
            KeptEntry {
                path: ".vault/adr/b.md".into(),
                kind: "row".into(),
                stamp: [7; 6],
                value: Vec::new(),
            },
        ]
    }

    #[test]
    fn a_store_reads_back_whole_for_its_own_key_and_nothing_else_does() {
        let bytes = encode("key", &entries());
        assert_eq!(decode(&bytes, "key"), Some(entries()));
        assert_eq!(decode(&bytes, "another key"), None, "a foreign store");
        for cut in [0, MAGIC.len(), MAGIC.len() + 31, bytes.len() - 1] {
            assert_eq!(decode(&bytes[..cut], "key"), None, "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(decode(&flipped, "key"), None);
        // A whole store whose sum was made over a torn entry.
        let mut torn = encode("key", &entries());
        torn.truncate(torn.len() - 2);
        let rest = torn[MAGIC.len() + 32..].to_vec();
        torn[MAGIC.len()..MAGIC.len() + 32].copy_from_slice(&Sha256::digest(&rest));
        assert_eq!(decode(&torn, "key"), None);
        assert_eq!(decode(&encode("key", &[]), "key"), Some(Vec::new()));
    }
}

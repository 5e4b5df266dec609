//! The fingerprint of every file under `.vault/`: its path, size,
//! modification and change times (nanoseconds) and inode, hashed.
//!
//! Our own writes replace files by rename (a new inode); an edit in place
//! changes the change time, which no tool can set back.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use sha2::{Digest, Sha256};

fn walk(dir: &Path, relative: &mut Vec<u8>, hasher: &mut Sha256) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        // `DirEntry::metadata` stats relative to the open directory and does
        // not follow symlinks: no walk of the whole path per file.
        let Ok(meta) = entry.metadata() else { continue };
        let mark = relative.len();
        relative.push(b'/');
        relative.extend_from_slice(entry.file_name().as_encoded_bytes());
        if meta.is_dir() {
            walk(&entry.path(), relative, hasher);
        } else {
            hasher.update(&relative[..]);
            for n in [meta.len() as i64, meta.mtime(), meta.mtime_nsec(), meta.ctime(), meta.ctime_nsec(), meta.ino() as i64] {
                hasher.update(n.to_le_bytes());
            }
        }
        relative.truncate(mark);
    }
}

/// The fingerprint of every file under `vault` (the `.vault` folder).
pub fn fingerprint(vault: &Path) -> [u8; 32] {
    let mut hasher = Sha256::new();
    walk(vault, &mut Vec::new(), &mut hasher);
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_change_to_a_file_changes_the_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("adr")).unwrap();
        std::fs::write(dir.path().join("adr/a.md"), "one").unwrap();
        let first = fingerprint(dir.path());
        assert_eq!(first, fingerprint(dir.path()));
        std::fs::write(dir.path().join("adr/a.md"), "two").unwrap();
        assert_ne!(first, fingerprint(dir.path()));
        let second = fingerprint(dir.path());
        std::fs::write(dir.path().join("adr/b.md"), "").unwrap();
        assert_ne!(second, fingerprint(dir.path()));
    }
}

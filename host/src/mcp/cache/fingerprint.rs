//! The fingerprint of every file under `.vault/`: its path, size,
//! modification and change times (nanoseconds) and inode, hashed.
//!
//! Our own writes replace files by rename (a new inode); an edit in place
//! changes the change time, which no tool can set back.
//!
//! The walk never follows a symlink: not `.vault` itself (a linked `.vault`
//! has the fingerprint of an empty one; [`super::VaultCache`] refuses to
//! cache it) and not a link inside it, which counts as one entry (its own
//! times and inode), so a link to a large tree elsewhere costs one `lstat`.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use sha2::{Digest, Sha256};

/// Visit every entry under `dir`, sorted by name, depth first, without
/// following a symlink: `visit(relative path, metadata, is_folder)`.
fn walk(dir: &Path, relative: &mut Vec<u8>, visit: &mut dyn FnMut(&[u8], &std::fs::Metadata)) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        // `DirEntry::metadata` stats relative to the open directory and does
        // not follow symlinks: no walk of the whole path per file, and a
        // link to a folder is not a folder here.
        let Ok(meta) = entry.metadata() else { continue };
        let mark = relative.len();
        relative.push(b'/');
        relative.extend_from_slice(entry.file_name().as_encoded_bytes());
        visit(&relative[..], &meta);
        if meta.is_dir() {
            walk(&entry.path(), relative, visit);
        }
        relative.truncate(mark);
    }
}

/// Whether `vault` is a real folder: not a symlink, not missing.
pub fn is_real_folder(vault: &Path) -> bool {
    std::fs::symlink_metadata(vault).is_ok_and(|m| m.is_dir())
}

/// Walk the tree of `vault`, unless it is a symlink (or not a folder).
fn walk_vault(vault: &Path, visit: &mut dyn FnMut(&[u8], &std::fs::Metadata)) {
    if is_real_folder(vault) {
        walk(vault, &mut Vec::new(), visit);
    }
}

/// The fingerprint of every file under `vault` (the `.vault` folder).
pub fn fingerprint(vault: &Path) -> [u8; 32] {
    let mut hasher = Sha256::new();
    walk_vault(vault, &mut |relative, meta| {
        if meta.is_dir() {
            return;
        }
        hasher.update(relative);
        for n in [
            meta.len() as i64,
            meta.mtime(),
            meta.mtime_nsec(),
            meta.ctime(),
            meta.ctime_nsec(),
            meta.ino() as i64,
        ] {
            hasher.update(n.to_le_bytes());
        }
    });
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

    fn visited(vault: &Path) -> Vec<String> {
        let mut seen = Vec::new();
        walk_vault(vault, &mut |relative, _| {
            seen.push(String::from_utf8_lossy(relative).into_owned())
        });
        seen
    }

    #[test]
    fn the_walk_never_follows_a_link_out_of_the_vault() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(outside.path().join("deep/er")).unwrap();
        std::fs::write(outside.path().join("deep/er/secret.md"), "outside").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let vault = dir.path().join(".vault");
        std::fs::create_dir_all(vault.join("adr")).unwrap();
        std::fs::write(vault.join("adr/a.md"), "one").unwrap();
        std::os::unix::fs::symlink(outside.path(), vault.join("link")).unwrap();
        assert_eq!(visited(&vault), ["/adr", "/adr/a.md", "/link"]);

        // A `.vault` that is itself a link out is not walked at all: its
        // fingerprint does not move when the tree it points at changes.
        let linked = tempfile::tempdir().unwrap();
        let linked_vault = linked.path().join(".vault");
        std::os::unix::fs::symlink(outside.path(), &linked_vault).unwrap();
        assert!(visited(&linked_vault).is_empty());
        let before = fingerprint(&linked_vault);
        std::fs::write(outside.path().join("deep/er/secret.md"), "changed outside").unwrap();
        std::fs::write(outside.path().join("new.md"), "new").unwrap();
        assert_eq!(before, fingerprint(&linked_vault));
    }
}

//! The files the command line keeps in the user's cache (answers, kept
//! results): the folder they may live in, how each is sealed so a torn or
//! altered file is never trusted, and how old ones go.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::sandbox::own_folder;

/// The folder `name` of the user's cache, made if need be, when it is this
/// user's alone and outside the workspace at `root` (canonical): nothing
/// kept is ever written inside a workspace.
pub fn cache_folder(name: &str, root: &Path) -> Option<PathBuf> {
    let dir = std::path::absolute(crate::env::cache_base()?.join(name)).ok()?;
    if inside(&dir, root) {
        tracing::debug!(
            "no {name} cache: `{}` is inside the workspace",
            dir.display()
        );
        return None;
    }
    if let Err(reason) = own_folder(&dir) {
        tracing::debug!("no {name} cache in `{}`: {reason}", dir.display());
        return None;
    }
    Some(dir)
}

/// Whether `dir` (absolute) is or would be created inside `root`
/// (canonical): its nearest existing folder, with links resolved, is.
fn inside(dir: &Path, root: &Path) -> bool {
    dir.ancestors()
        .find_map(|at| at.canonicalize().ok())
        .is_some_and(|at| at.starts_with(root))
}

/// `rest` sealed: `magic` (the format and its version), the SHA-256 of
/// `rest`, then `rest`.
pub fn seal(magic: &[u8], rest: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(magic.len() + 32 + rest.len());
    bytes.extend_from_slice(magic);
    bytes.extend_from_slice(&Sha256::digest(rest));
    bytes.extend_from_slice(rest);
    bytes
}

/// What [`seal`] sealed under `magic`, or `None` for any other bytes.
pub fn unseal<'b>(magic: &[u8], bytes: &'b [u8]) -> Option<&'b [u8]> {
    let (sum, rest) = bytes.strip_prefix(magic)?.split_at_checked(32)?;
    (Sha256::digest(rest).as_slice() == sum).then_some(rest)
}

/// Remove the oldest entries of `dir` past the newest `keep`, and past the
/// newest that together hold at most `max_bytes`.
pub fn prune(dir: &Path, keep: usize, max_bytes: u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<(SystemTime, u64, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            Some((meta.modified().ok()?, meta.len(), e.path()))
        })
        .collect();
    // Newest first.
    entries.sort_by(|a, b| b.cmp(a));
    let mut held = 0u64;
    for (at, (_, len, path)) in entries.iter().enumerate() {
        held = held.saturating_add(*len);
        if at >= keep || held > max_bytes {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_file_opens_whole_under_its_own_magic_and_nothing_else_does() {
        let sealed = seal(b"m-1\n", b"contents");
        assert_eq!(unseal(b"m-1\n", &sealed), Some(&b"contents"[..]));
        assert_eq!(unseal(b"m-2\n", &sealed), None);
        for cut in [0, 4, 4 + 31, sealed.len() - 1] {
            assert_eq!(unseal(b"m-1\n", &sealed[..cut]), None, "cut at {cut}");
        }
        let mut flipped = sealed.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(unseal(b"m-1\n", &flipped), None);
    }

    #[test]
    fn pruning_keeps_the_newest_entries_by_count_and_by_size() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        for (i, len) in [4usize, 3, 2, 1].iter().enumerate() {
            let path = dir.path().join(format!("e{i}"));
            std::fs::write(&path, vec![0; *len]).unwrap();
            let file = std::fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(now - std::time::Duration::from_secs(10 * (4 - i as u64)))
                .unwrap();
        }
        let left = |dir: &Path| {
            let mut names: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .flatten()
                .map(|e| e.file_name().into_string().unwrap())
                .collect();
            names.sort();
            names
        };
        prune(dir.path(), 3, u64::MAX);
        assert_eq!(
            left(dir.path()),
            ["e1", "e2", "e3"],
            "the oldest past three"
        );
        prune(dir.path(), 3, 3);
        assert_eq!(
            left(dir.path()),
            ["e2", "e3"],
            "the newest within three bytes"
        );
    }

    #[test]
    fn a_cache_folder_inside_the_workspace_is_recognised_before_it_exists() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path().canonicalize().unwrap();
        assert!(inside(&root.join("cache/answers"), &root));
        assert!(inside(&root, &root));
        let elsewhere = tempfile::tempdir().unwrap();
        assert!(!inside(&elsewhere.path().join("cache/answers"), &root));
        let link = elsewhere.path().join("link");
        std::os::unix::fs::symlink(&root, &link).unwrap();
        assert!(inside(&link.join("answers"), &root));
    }
}

//! The paths a workspace's git index tracks, read from `.git/index`
//! directly: no `git` is run, so nothing a repository's configuration names
//! (an fsmonitor, a hook) can run through it.
//!
//! Only an index in the workspace's own `.git` folder is read, through the
//! host's checked reader (no link, no FIFO) and only up to
//! [`MAX_INDEX_BYTES`]; formats 2 to 4 with SHA-1 object names (the others
//! are refused).

use std::path::Path;

/// The largest index read (a repository of some 300,000 files).
pub const MAX_INDEX_BYTES: u64 = 64 * 1024 * 1024;

/// Why the index could not be read.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("`{0}` is a link or not a regular file")]
    NotPlain(String),
    #[error("the git index was not read: {0}")]
    Refused(String),
    #[error("the git index is not in a format read here ({0})")]
    Format(String),
}

/// Every path the index of the repository at `root` tracks; `Ok(None)`
/// when `root` has no `.git` folder of its own.
pub fn tracked(root: &Path) -> Result<Option<Vec<String>>, IndexError> {
    let git = root.join(".git");
    let Ok(meta) = git.symlink_metadata() else {
        return Ok(None);
    };
    if !meta.is_dir() {
        // A link, or a worktree's `gitdir:` file pointing elsewhere.
        return Err(IndexError::NotPlain(".git".into()));
    }
    let read = crate::checked_file::read(
        &git.join("index"),
        MAX_INDEX_BYTES,
        crate::checked_file::Owner::Anyone,
    );
    let bytes = match read {
        Ok(Some(bytes)) => bytes,
        // A repository with nothing staged yet.
        Ok(None) => return Ok(Some(Vec::new())),
        Err(refusal) => return Err(IndexError::Refused(refusal.to_string())),
    };
    parse(&bytes).map(Some)
}

fn format(why: &str) -> IndexError {
    IndexError::Format(why.to_owned())
}

/// The paths of an index file's entries, in index order.
pub fn parse(bytes: &[u8]) -> Result<Vec<String>, IndexError> {
    let u32_at = |at: usize| -> Result<u32, IndexError> {
        let b = bytes.get(at..at + 4).ok_or_else(|| format("cut short"))?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    if bytes.get(..4) != Some(b"DIRC") {
        return Err(format("no DIRC signature"));
    }
    let version = u32_at(4)?;
    if !(2..=4).contains(&version) {
        return Err(format(&format!("version {version}")));
    }
    let count = u32_at(8)? as usize;
    // Fixed part: times, dev, ino, mode, uid, gid, size (40), SHA-1 (20),
    // flags (2).
    const FIXED: usize = 62;
    let mut at = 12;
    let mut paths: Vec<String> = Vec::with_capacity(count.min(1 << 20));
    let mut previous: Vec<u8> = Vec::new();
    for _ in 0..count {
        let start = at;
        let flags = bytes
            .get(at + 60..at + 62)
            .ok_or_else(|| format("cut short"))?;
        let extended = version >= 3 && flags[0] & 0x40 != 0;
        at += FIXED + if extended { 2 } else { 0 };
        let path = if version == 4 {
            // How many bytes of the previous path to drop, as a varint.
            let mut strip: usize = 0;
            let mut first = true;
            loop {
                let b = *bytes.get(at).ok_or_else(|| format("cut short"))?;
                at += 1;
                if !first {
                    strip = strip.checked_add(1).ok_or_else(|| format("bad varint"))?;
                }
                first = false;
                strip = strip
                    .checked_mul(128)
                    .and_then(|s| s.checked_add(usize::from(b & 0x7f)))
                    .ok_or_else(|| format("bad varint"))?;
                if b & 0x80 == 0 {
                    break;
                }
            }
            let keep = previous
                .len()
                .checked_sub(strip)
                .ok_or_else(|| format("bad path prefix"))?;
            let end = bytes[at..]
                .iter()
                .position(|b| *b == 0)
                .ok_or_else(|| format("unterminated path"))?;
            let mut path = previous[..keep].to_vec();
            path.extend_from_slice(&bytes[at..at + end]);
            at += end + 1;
            path
        } else {
            let end = bytes[at..]
                .iter()
                .position(|b| *b == 0)
                .ok_or_else(|| format("unterminated path"))?;
            let path = bytes[at..at + end].to_vec();
            // Entries are NUL-padded to a multiple of eight bytes.
            let len = at + end - start;
            at = start + (len + 8) / 8 * 8;
            path
        };
        paths.push(String::from_utf8_lossy(&path).into_owned());
        previous = path;
    }
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paths_git_staged_are_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(args)
                .current_dir(dir.path())
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false)
        };
        if !git(&["init", "-q"]) {
            return; // no git on this machine: nothing to compare with
        }
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        for path in ["a/b/.env", "a/x.md", ".env.example", "zz"] {
            std::fs::write(dir.path().join(path), "x").unwrap();
        }
        assert!(git(&["add", "-A"]));
        let mut paths = tracked(dir.path()).unwrap().unwrap();
        paths.sort();
        assert_eq!(paths, [".env.example", "a/b/.env", "a/x.md", "zz"]);
        assert!(git(&["update-index", "--index-version", "4"]));
        let mut paths = tracked(dir.path()).unwrap().unwrap();
        paths.sort();
        assert_eq!(paths, [".env.example", "a/b/.env", "a/x.md", "zz"]);
    }

    #[test]
    fn a_hostile_index_is_refused_without_a_panic() {
        assert!(parse(b"DIRC\0\0\0\x02\xff\xff\xff\xff").is_err());
        assert!(parse(b"nope").is_err());
        let mut v4 = b"DIRC\0\0\0\x04\0\0\0\x01".to_vec();
        v4.extend([0u8; 62]);
        v4.extend([0xff; 12]);
        assert!(parse(&v4).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_git_folder_that_is_a_link_is_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join(".git")).unwrap();
        assert!(matches!(tracked(dir.path()), Err(IndexError::NotPlain(_))));
    }
}

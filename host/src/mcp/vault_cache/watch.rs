//! A change watch over the `.vault/` tree (Linux inotify): tells, without
//! touching a file, whether anything under it may have changed since the
//! last look.
//!
//! The kernel queues an event while the changing system call runs, so once
//! another process's write has returned, the next [`Watch::quiet`] sees it.
//! Any event at all (a queue overflow, a removed watch) counts as a change;
//! the cache then falls back to its full fingerprint, which re-arms the
//! watch on every directory, new ones included. Writes through a shared
//! memory mapping are not reported by Linux; no editor writes text that way.

use std::os::fd::OwnedFd;
use std::path::Path;

use rustix::fs::inotify::{self, CreateFlags, WatchFlags};
use rustix::io::Errno;

/// An inotify instance watching every directory of one tree.
pub struct Watch {
    fd: OwnedFd,
}

/// Everything that changes a file's bytes, name or metadata.
fn changes() -> WatchFlags {
    WatchFlags::MODIFY
        | WatchFlags::ATTRIB
        | WatchFlags::CLOSE_WRITE
        | WatchFlags::CREATE
        | WatchFlags::DELETE
        | WatchFlags::DELETE_SELF
        | WatchFlags::MOVED_FROM
        | WatchFlags::MOVED_TO
        | WatchFlags::MOVE_SELF
        | WatchFlags::DONT_FOLLOW
        | WatchFlags::ONLYDIR
}

impl Watch {
    /// A new watch over nothing yet, or `None` where inotify is refused.
    pub fn new() -> Option<Self> {
        inotify::init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC)
            .ok()
            .map(|fd| Self { fd })
    }

    /// Watch `dir` and every directory below it (again: watching a watched
    /// directory changes nothing). Symlinks are not followed: `dir` itself
    /// must be a real folder (`DONT_FOLLOW | ONLYDIR` refuses a link), and a
    /// link inside is not descended (`file_type` of an entry is the link's).
    pub fn arm(&self, dir: &Path) -> std::io::Result<()> {
        inotify::add_watch(&self.fd, dir, changes())?;
        for entry in std::fs::read_dir(dir)?.flatten() {
            if entry
                .file_type()
                .is_ok_and(|t| t.is_dir() && !t.is_symlink())
            {
                self.arm(&entry.path())?;
            }
        }
        Ok(())
    }

    /// Whether nothing happened since the last call: drains the queue and
    /// answers `false` if it held anything or could not be read.
    pub fn quiet(&self) -> bool {
        let mut quiet = true;
        let mut buf = [0u8; 4096];
        loop {
            match rustix::io::read(&self.fd, &mut buf) {
                Ok(0) => return quiet,
                Ok(_) => quiet = false,
                Err(Errno::AGAIN) => return quiet,
                Err(Errno::INTR) => continue,
                Err(_) => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_change_is_seen_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("adr")).unwrap();
        std::fs::write(dir.path().join("adr/a.md"), "one").unwrap();
        let watch = Watch::new().unwrap();
        watch.arm(dir.path()).unwrap();
        assert!(watch.quiet(), "nothing happened yet");
        let _ = std::fs::read(dir.path().join("adr/a.md")).unwrap();
        assert!(watch.quiet(), "a read is not a change");

        std::fs::write(dir.path().join("adr/a.md"), "two").unwrap();
        assert!(!watch.quiet(), "a write in place");
        assert!(watch.quiet(), "the change was reported once");

        std::fs::write(dir.path().join("tmp"), "x").unwrap();
        std::fs::rename(dir.path().join("tmp"), dir.path().join("adr/b.md")).unwrap();
        assert!(!watch.quiet(), "a file renamed into a subfolder");

        std::fs::create_dir(dir.path().join("plan")).unwrap();
        assert!(!watch.quiet(), "a new folder");
        watch.arm(dir.path()).unwrap();
        std::fs::write(dir.path().join("plan/p.md"), "x").unwrap();
        assert!(!watch.quiet(), "a file in the new folder, once it is armed");

        std::fs::remove_file(dir.path().join("adr/a.md")).unwrap();
        assert!(!watch.quiet(), "a removal");
    }

    #[test]
    fn a_link_is_neither_watched_nor_descended() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(outside.path().join("sub")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        let watch = Watch::new().unwrap();
        watch.arm(dir.path()).unwrap();
        std::fs::write(outside.path().join("sub/x.md"), "x").unwrap();
        std::fs::write(outside.path().join("y.md"), "y").unwrap();
        assert!(watch.quiet(), "nothing under the link's target is watched");

        let linked = dir.path().join("linked-vault");
        std::os::unix::fs::symlink(outside.path(), &linked).unwrap();
        assert!(
            Watch::new().unwrap().arm(&linked).is_err(),
            "a linked root is refused"
        );
    }
}

//! A change watch over the `.vault/` tree (Linux inotify): tells, without
//! touching a file, whether anything under it may have changed since the
//! last look, and which files.
//!
//! The kernel queues an event while the changing system call runs, so once
//! another process's write has returned, the next [`Watch::seen`] sees it.
//! Events about files name them ([`Seen::Files`]); anything the watch cannot
//! name (a folder created, moved or removed, a queue overflow, a removed
//! watch, a name that is not UTF-8) is [`Seen::Unknown`], and the cache then
//! falls back to its full survey, which re-arms the watch on every
//! directory, new ones included. Writes through a shared memory mapping are
//! not reported by Linux; no editor writes text that way.

use std::collections::{BTreeSet, HashMap};
use std::mem::MaybeUninit;
use std::os::fd::OwnedFd;
use std::path::Path;

use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
use rustix::io::Errno;

/// An inotify instance watching every directory of one tree.
pub struct Watch {
    fd: OwnedFd,
    /// Each watched directory, by watch descriptor, as the path of the
    /// tree's root folder joined with the path below it (`.vault/adr`).
    dirs: HashMap<i32, String>,
}

/// What the watch saw since the last look.
#[derive(Debug, PartialEq, Eq)]
pub enum Seen {
    /// Nothing happened.
    Nothing,
    /// Only these files (their paths under the root, `.vault/adr/x.md`) were
    /// written, created, renamed or removed, or had their metadata changed.
    Files(BTreeSet<String>),
    /// Something the watch cannot name: survey the whole tree.
    Unknown,
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

/// Events the watch cannot turn into the name of a changed file.
fn unnameable() -> ReadFlags {
    ReadFlags::ISDIR
        | ReadFlags::DELETE_SELF
        | ReadFlags::MOVE_SELF
        | ReadFlags::IGNORED
        | ReadFlags::QUEUE_OVERFLOW
        | ReadFlags::UNMOUNT
}

impl Watch {
    /// A new watch over nothing yet, or `None` where inotify is refused.
    pub fn new() -> Option<Self> {
        inotify::init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC)
            .ok()
            .map(|fd| Self {
                fd,
                dirs: HashMap::new(),
            })
    }

    /// Watch `dir` and every directory below it (again: watching a watched
    /// directory changes nothing); `name` is the path events under `dir`
    /// are named from (`.vault`). Symlinks are not followed: `dir` itself
    /// must be a real folder (`DONT_FOLLOW | ONLYDIR` refuses a link), and a
    /// link inside is not descended (`file_type` of an entry is the link's).
    pub fn arm(&mut self, dir: &Path, name: &str) -> std::io::Result<()> {
        self.arm_named(dir, Some(name))
    }

    /// Wait at most `timeout` for an event; whether one is there to read.
    pub fn wait(&self, timeout: std::time::Duration) -> bool {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        let timeout = Timespec::try_from(timeout).unwrap_or(Timespec {
            tv_sec: 1,
            tv_nsec: 0,
        });
        let mut fds = [PollFd::new(&self.fd, PollFlags::IN)];
        poll(&mut fds, Some(&timeout)).is_ok_and(|ready| ready > 0)
    }

    /// [`Watch::arm`]; a folder without a name (it, or one above it, is not
    /// UTF-8) is watched all the same, and its events count as unnamed.
    fn arm_named(&mut self, dir: &Path, name: Option<&str>) -> std::io::Result<()> {
        self.watch_dir(dir, name)?;
        for entry in std::fs::read_dir(dir)?.flatten() {
            if entry
                .file_type()
                .is_ok_and(|t| t.is_dir() && !t.is_symlink())
            {
                let child = name
                    .zip(entry.file_name().to_str())
                    .map(|(name, n)| format!("{name}/{n}"));
                self.arm_named(&entry.path(), child.as_deref())?;
            }
        }
        Ok(())
    }

    /// Watch `dir` alone (not the folders below it), whose path from the
    /// tree's root folder is `name` (`.vault/adr`; `None` when it is not
    /// UTF-8, and its events count as unnamed).
    pub fn watch_dir(&mut self, dir: &Path, name: Option<&str>) -> std::io::Result<()> {
        let wd = inotify::add_watch(&self.fd, dir, changes())?;
        match name {
            Some(name) => self.dirs.insert(wd, name.to_owned()),
            None => self.dirs.remove(&wd),
        };
        Ok(())
    }

    /// What happened since the last call; drains the queue.
    pub fn seen(&mut self) -> Seen {
        let mut files = BTreeSet::new();
        let mut unknown = false;
        let mut buf = [MaybeUninit::<u8>::uninit(); 4096];
        let mut reader = inotify::Reader::new(&self.fd, &mut buf);
        loop {
            match reader.next() {
                Ok(event) => {
                    if unknown || event.events().intersects(unnameable()) {
                        unknown = true;
                        continue;
                    }
                    let dir = self.dirs.get(&event.wd());
                    let name = event.file_name().and_then(|n| n.to_str().ok());
                    match (dir, name) {
                        (Some(dir), Some(name)) => {
                            files.insert(format!("{dir}/{name}"));
                        }
                        _ => unknown = true,
                    }
                }
                Err(Errno::AGAIN) => break,
                Err(Errno::INTR) => continue,
                Err(_) => return Seen::Unknown,
            }
        }
        match (unknown, files.is_empty()) {
            (true, _) => Seen::Unknown,
            (false, true) => Seen::Nothing,
            (false, false) => Seen::Files(files),
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
        let mut watch = Watch::new().unwrap();
        watch.arm(dir.path(), ".vault").unwrap();
        assert_eq!(watch.seen(), Seen::Nothing, "nothing happened yet");
        let _ = std::fs::read(dir.path().join("adr/a.md")).unwrap();
        assert_eq!(watch.seen(), Seen::Nothing, "a read is not a change");

        std::fs::write(dir.path().join("adr/a.md"), "two").unwrap();
        assert_eq!(
            watch.seen(),
            files(&[".vault/adr/a.md"]),
            "a write in place"
        );
        assert_eq!(watch.seen(), Seen::Nothing, "the change was reported once");

        std::fs::write(dir.path().join("tmp"), "x").unwrap();
        std::fs::rename(dir.path().join("tmp"), dir.path().join("adr/b.md")).unwrap();
        assert_eq!(
            watch.seen(),
            files(&[".vault/adr/b.md", ".vault/tmp"]),
            "a file written, then renamed into a subfolder"
        );

        std::fs::create_dir(dir.path().join("plan")).unwrap();
        assert_eq!(watch.seen(), Seen::Unknown, "a new folder");
        watch.arm(dir.path(), ".vault").unwrap();
        std::fs::write(dir.path().join("plan/p.md"), "x").unwrap();
        assert_eq!(
            watch.seen(),
            files(&[".vault/plan/p.md"]),
            "a file in the new folder, once it is armed"
        );

        std::fs::remove_file(dir.path().join("adr/a.md")).unwrap();
        assert_eq!(watch.seen(), files(&[".vault/adr/a.md"]), "a removal");

        std::fs::rename(dir.path().join("plan"), dir.path().join("old")).unwrap();
        assert_eq!(watch.seen(), Seen::Unknown, "a folder renamed");
    }

    #[test]
    fn a_folder_without_a_utf8_name_is_watched_all_the_way_down() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join(std::ffi::OsStr::from_bytes(b"odd-\xff"));
        std::fs::create_dir_all(odd.join("sub")).unwrap();
        let mut watch = Watch::new().unwrap();
        watch.arm(dir.path(), ".vault").unwrap();
        std::fs::write(odd.join("sub/x.md"), "x").unwrap();
        assert_eq!(watch.seen(), Seen::Unknown, "a change it cannot name");
    }

    fn files(paths: &[&str]) -> Seen {
        Seen::Files(paths.iter().map(|p| (*p).to_owned()).collect())
    }

    #[test]
    fn a_link_is_neither_watched_nor_descended() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(outside.path().join("sub")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        let mut watch = Watch::new().unwrap();
        watch.arm(dir.path(), ".vault").unwrap();
        std::fs::write(outside.path().join("sub/x.md"), "x").unwrap();
        std::fs::write(outside.path().join("y.md"), "y").unwrap();
        assert_eq!(
            watch.seen(),
            Seen::Nothing,
            "nothing under the link's target is watched"
        );

        let linked = dir.path().join("linked-vault");
        std::os::unix::fs::symlink(outside.path(), &linked).unwrap();
        assert!(
            Watch::new().unwrap().arm(&linked, ".vault").is_err(),
            "a linked root is refused"
        );
    }
}

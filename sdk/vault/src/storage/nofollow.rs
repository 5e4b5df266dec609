//! Reaching a file or folder of the workspace without following a symbolic
//! link, anywhere on the way or at the end: vaultspec's one rule for links
//! inside a workspace is that none is ever followed.
//!
//! cap-std keeps a path beneath the workspace root but follows symlinks that
//! stay inside it: `.vault/up -> ..` would turn a write under `.vault/` into
//! one under `src/`, and a read through a link would give an answer that
//! changes with no stamp under `.vault/` moving, which no cache could vouch
//! for. For a change, each folder is opened with `O_NOFOLLOW` relative to
//! the one before, and the final create, rename or unlink is done relative
//! to the last handle. For a read, Linux resolves the whole path in one
//! `openat2` call that refuses every link (`RESOLVE_NO_SYMLINKS`); where it
//! cannot, the folders are walked the same way as for a change.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;

use super::StorageError;

/// The folders of a path, opened from the root down without following links.
pub(super) struct Folders<'r> {
    root: BorrowedFd<'r>,
    /// One handle per folder below the root, outermost first.
    opened: Vec<OwnedFd>,
}

impl<'r> Folders<'r> {
    /// Open the folders `parts[..parts.len() - 1]` of `path` under `root`.
    ///
    /// With `create`, missing folders are made one at a time; without, a
    /// missing folder is [`StorageError::NotFound`]. A symlink on the way is
    /// [`StorageError::Denied`], naming it.
    pub(super) fn open(
        root: BorrowedFd<'r>,
        parts: &[&str],
        path: &str,
        create: bool,
    ) -> Result<Self, StorageError> {
        let mut folders = Self {
            root,
            opened: Vec::with_capacity(parts.len().saturating_sub(1)),
        };
        for (depth, name) in parts[..parts.len().saturating_sub(1)].iter().enumerate() {
            let fd = open_folder(folders.last(), name, create).map_err(|err| {
                folder_error(folders.last(), name, &parts[..=depth].join("/"), path, err)
            })?;
            folders.opened.push(fd);
        }
        Ok(folders)
    }

    /// The innermost folder: the parent of the file the path names.
    pub(super) fn last(&self) -> BorrowedFd<'_> {
        self.opened.last().map_or(self.root, |fd| fd.as_fd())
    }

    /// Remove the folders left empty, innermost first, stopping at the
    /// first that is not empty and never removing the top one (`.vault`).
    pub(super) fn prune_empty(&self, parts: &[&str]) {
        for depth in (1..self.opened.len()).rev() {
            if rustix::fs::unlinkat(&self.opened[depth - 1], parts[depth], AtFlags::REMOVEDIR)
                .is_err()
            {
                break;
            }
        }
    }
}

/// Open the folder `name` in `parent` without following a link, making it
/// first when `create` says so and it is missing.
fn open_folder(parent: BorrowedFd<'_>, name: &str, create: bool) -> rustix::io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::openat(parent, name, flags, Mode::empty()) {
        Err(Errno::NOENT) if create => {
            match rustix::fs::mkdirat(parent, name, Mode::from(0o777)) {
                Ok(()) | Err(Errno::EXIST) => {}
                Err(err) => return Err(err),
            }
            rustix::fs::openat(parent, name, flags, Mode::empty())
        }
        opened => opened,
    }
}

/// Say why the folder `shown` (of `path`) could not be opened.
fn folder_error(
    parent: BorrowedFd<'_>,
    name: &str,
    shown: &str,
    path: &str,
    err: Errno,
) -> StorageError {
    match err {
        Errno::NOENT => StorageError::NotFound {
            path: path.to_owned(),
        },
        Errno::LOOP | Errno::NOTDIR => {
            match lstat(parent, name).map(|st| FileType::from_raw_mode(st.st_mode)) {
                Ok(FileType::Symlink) => StorageError::Denied {
                    path: path.to_owned(),
                    reason: format!(
                        "`{shown}` is a symbolic link; vaultspec never writes through a linked folder"
                    ),
                },
                _ => StorageError::Io {
                    op: "writing",
                    path: path.to_owned(),
                    message: format!("`{shown}` is not a folder"),
                },
            }
        }
        err => StorageError::Io {
            op: "writing",
            path: path.to_owned(),
            message: format!(
                "opening the folder `{shown}`: {}",
                std::io::Error::from(err)
            ),
        },
    }
}

/// The status of `name` in `dir`, not following a link.
pub(super) fn lstat(dir: BorrowedFd<'_>, name: &str) -> rustix::io::Result<Stat> {
    rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
}

/// What an entry is, in words, for refusals ("a FIFO", "a socket" …).
pub(super) fn describe(file_type: FileType) -> &'static str {
    match file_type {
        FileType::RegularFile => "a regular file",
        FileType::Directory => "a folder",
        FileType::Symlink => "a symbolic link",
        FileType::Fifo => "a FIFO",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Unknown => "of an unknown kind",
    }
}

/// Open `name` in `dir` for reading, as a folder, without following a link.
pub(super) fn open_dir_for_listing(dir: BorrowedFd<'_>, name: &str) -> rustix::io::Result<OwnedFd> {
    open_folder(dir, name, false)
}

/// Whether the kernel has `openat2` (it answered `ENOSYS` once if not).
#[cfg(target_os = "linux")]
static OPENAT2: AtomicBool = AtomicBool::new(true);

/// Open `path` (checked, its components `parts`, at least one) beneath
/// `root` with `flags`, following no symbolic link on the way or at its end:
/// a link anywhere is `ELOOP` (or `ENOTDIR` where a folder was expected).
pub(super) fn open_beneath(
    root: BorrowedFd<'_>,
    parts: &[&str],
    path: &str,
    flags: OFlags,
) -> rustix::io::Result<OwnedFd> {
    // `openat2` refuses any flag beside these three with `O_PATH`.
    let flags = match flags.contains(OFlags::PATH) {
        true => flags | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        false => flags | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NOCTTY,
    };
    #[cfg(target_os = "linux")]
    if OPENAT2.load(Ordering::Relaxed) {
        use rustix::fs::ResolveFlags;
        let resolve = ResolveFlags::NO_SYMLINKS | ResolveFlags::BENEATH;
        match rustix::fs::openat2(root, path, flags, Mode::empty(), resolve) {
            Err(Errno::NOSYS) => OPENAT2.store(false, Ordering::Relaxed),
            opened => return opened,
        }
    }
    let _ = path;
    let (name, folders) = parts.split_last().expect("a path of one component or more");
    let mut opened: Option<OwnedFd> = None;
    for folder in folders {
        let parent = opened.as_ref().map_or(root, |fd| fd.as_fd());
        opened = Some(open_folder(parent, folder, false)?);
    }
    let parent = opened.as_ref().map_or(root, |fd| fd.as_fd());
    rustix::fs::openat(parent, *name, flags, Mode::empty())
}

/// The first component of `parts` (as a path) that is a symbolic link, for
/// saying why an open through them failed.
pub(super) fn first_link(root: BorrowedFd<'_>, parts: &[&str]) -> Option<String> {
    (1..=parts.len())
        .map(|n| parts[..n].join("/"))
        .find(|prefix| {
            lstat(root, prefix)
                .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Symlink)
        })
}

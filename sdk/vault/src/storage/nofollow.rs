//! Reaching a file's folder for a write one component at a time, never
//! following a symbolic link, so every change lands where its path says.
//!
//! cap-std keeps a path beneath the workspace root but follows symlinks that
//! stay inside it: `.vault/up -> ..` would turn a write under `.vault/` into
//! one under `src/`. Here each folder is opened with `O_NOFOLLOW` relative to
//! the one before, and the final create, rename or unlink is done relative
//! to the last handle, so no link anywhere on the way is ever followed.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

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

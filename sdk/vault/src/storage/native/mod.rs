//! The native [`Storage`]: a workspace folder opened with cap-std.
//!
//! cap-std resolves every read inside the opened folder, so `..`, absolute
//! paths and symlinks that lead out fail at the operating-system level; on
//! top of that, [`check_path`] refuses odd paths up front and [`WriteScope`]
//! confines writes by path component. Writes go further: they reach their
//! folder without following any symlink ([`nofollow`](super::nofollow)),
//! through exclusively created temp files ([`temp`](super::temp)), and never
//! replace, move or remove a file with more than one hard link.

use std::io::{self, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::path::Path;

use cap_std::ambient_authority;
use cap_std::fs::{Dir, FileTypeExt, MetadataExt};
use rustix::fs::{AtFlags, FileType, OFlags, RenameFlags};
use rustix::io::Errno;

use super::budget::{ReadBudget, WriteBudget};
use super::nofollow::{self, Folders, describe, lstat};
use super::{
    FileEntry, JournalKey, MAX_FILE_BYTES, Storage, StorageError, WriteScope, check_path, temp,
};
use crate::ops::journal::JOURNAL_FILE;

mod listing;

/// Where a storage's journal key comes from.
#[derive(Debug, Clone)]
enum KeySource {
    /// This key.
    Key(JournalKey),
    /// The key this gives, when one is first needed.
    From(fn() -> JournalKey),
}

impl KeySource {
    fn key(&self) -> JournalKey {
        match self {
            KeySource::Key(key) => key.clone(),
            KeySource::From(make) => make(),
        }
    }
}

/// How many folders deep a listing goes: a tree nested deeper (planted to
/// exhaust the stack or the file descriptors of a walk) is listed down to
/// here, its deeper folders as entries a reader refuses.
pub const MAX_LIST_DEPTH: usize = 64;

/// A workspace root opened as a capability: nothing outside it is reachable.
#[derive(Debug)]
pub struct CapStorage {
    root: Dir,
    scope: WriteScope,
    budget: ReadBudget,
    writes: WriteBudget,
    /// Seals the undo journal this storage writes and checks the one it
    /// reads ([`JournalKey`]): the process's own unless the host gives the
    /// user's. Asked for only when a journal is read or written.
    journal_key: KeySource,
}

impl CapStorage {
    /// Open the workspace at `root`, writable under `.vault/` and `.vaultspec/`.
    pub fn open(root: &Path) -> io::Result<Self> {
        Ok(Self::from_dir(Dir::open_ambient_dir(
            root,
            ambient_authority(),
        )?))
    }

    /// Wrap an already opened folder.
    pub fn from_dir(root: Dir) -> Self {
        Self {
            root,
            scope: WriteScope::Vault,
            budget: ReadBudget::default(),
            writes: WriteBudget::default(),
            journal_key: KeySource::From(JournalKey::process),
        }
    }

    /// The same storage, sealing the undo journal it writes with `key` and
    /// handing back only a journal sealed with it.
    pub fn with_journal_key(mut self, key: JournalKey) -> Self {
        self.journal_key = KeySource::Key(key);
        self
    }

    /// [`CapStorage::with_journal_key`] with the key `key` gives, asked for
    /// only when a journal is read or written: a storage that never meets
    /// one never loads (or makes) the key.
    pub fn with_journal_key_from(mut self, key: fn() -> JournalKey) -> Self {
        self.journal_key = KeySource::From(key);
        self
    }

    /// Refuse a journal this storage cannot vouch for.
    fn journal_refused(&self, why: &str) -> StorageError {
        StorageError::Io {
            op: "not rolling back",
            path: JOURNAL_FILE.to_owned(),
            message: format!(
                "this undo journal {why}. Nothing was applied and nothing removed: the journal \
                 is left as it is. Look at `.vault/data/journal/`, then remove that folder to \
                 go on"
            ),
        }
    }

    /// The same storage with another write scope.
    pub fn with_scope(mut self, scope: WriteScope) -> Self {
        self.scope = scope;
        self
    }

    /// The same storage, counting every read against `budget` bytes.
    pub fn with_read_budget(mut self, budget: u64) -> Self {
        self.budget = ReadBudget::new(Some(budget));
        self
    }

    /// The same storage, counting every write against `bytes` bytes and
    /// every write, rename and remove against `files` files.
    pub fn with_write_budget(mut self, bytes: u64, files: u64) -> Self {
        self.writes = WriteBudget::new(bytes, files);
        self
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.budget.used()
    }

    /// Remove the temp files of atomic writes whose writing process is gone
    /// (a crash or a kill between create and rename leaves one), never
    /// following a link: everywhere vaultspec writes (`.vault/`,
    /// `.vaultspec/`, the agents' folders) and among the root's own files
    /// (`CLAUDE.md`, `.gitignore`, `.mcp.json` are written there). Returns
    /// how many were removed.
    pub fn sweep_stale_temps(&self) -> usize {
        let mut tops = WriteScope::VAULT_ROOTS.to_vec();
        tops.extend([".claude", ".gemini", ".agents", ".codex"]);
        temp::sweep(self.root.as_fd(), &tops)
    }

    /// Why `path` (its components `parts`) could not be opened for `op`:
    /// the link on its way when there is one, else the error itself.
    fn open_error(&self, err: Errno, op: &'static str, parts: &[&str], path: &str) -> StorageError {
        if matches!(err, Errno::LOOP | Errno::NOTDIR | Errno::XDEV)
            && let Some(link) = nofollow::first_link(self.root.as_fd(), parts)
        {
            let message = if link == path {
                "it is a symbolic link; vaultspec never follows a link inside the workspace"
                    .to_owned()
            } else {
                format!(
                    "`{link}` is a symbolic link; vaultspec never follows a link inside the workspace"
                )
            };
            return StorageError::Io {
                op,
                path: path.to_owned(),
                message,
            };
        }
        map_io(err.into(), op, path)
    }

    /// The folders of `path` for a change, reached without following links.
    /// Make the folder `path` and any missing folder above it, never
    /// following a link on the way (an existing folder is left as it is).
    pub fn create_dir(&self, path: &str) -> Result<(), StorageError> {
        let mut parts = self.scope.check(path)?;
        // `Folders` opens every component but the last, which names a file;
        // a stand-in last component makes it open (and make) them all.
        parts.push("");
        self.folders(&parts, path, true).map(drop)
    }

    /// Remove the empty folder `path`, never following a link on the way.
    pub fn remove_dir(&self, path: &str) -> Result<(), StorageError> {
        let parts = self.scope.check(path)?;
        let folders = self.folders(&parts, path, false)?;
        let name = parts[parts.len() - 1];
        self.writes.charge(path, 0)?;
        rustix::fs::unlinkat(folders.last(), name, AtFlags::REMOVEDIR)
            .map_err(|e| map_io(e.into(), "removing", path))
    }

    fn folders(
        &self,
        parts: &[&str],
        path: &str,
        create: bool,
    ) -> Result<Folders<'_>, StorageError> {
        Folders::open(self.root.as_fd(), parts, path, create)
    }
}

/// Refuse to change `name` in `dir` (the last component of `path`) when it
/// is a symlink or has more than one hard link; else its type and
/// permission bits. `Ok(None)`: nothing there.
fn changeable(
    dir: BorrowedFd<'_>,
    name: &str,
    path: &str,
    what: &str,
) -> Result<Option<(FileType, u32)>, StorageError> {
    let st = match lstat(dir, name) {
        Ok(st) => st,
        Err(Errno::NOENT) => return Ok(None),
        Err(err) => return Err(map_io(err.into(), "checking", path)),
    };
    let denied = |reason: String| StorageError::Denied {
        path: path.to_owned(),
        reason,
    };
    let file_type = FileType::from_raw_mode(st.st_mode);
    if file_type == FileType::Symlink {
        return Err(denied(
            "it is a symbolic link; vaultspec only changes regular files".to_owned(),
        ));
    }
    if file_type == FileType::RegularFile && st.st_nlink > 1 {
        return Err(denied(format!(
            "it has {} hard links; vaultspec will not {what} a file linked elsewhere",
            st.st_nlink
        )));
    }
    Ok(Some((file_type, st.st_mode & 0o7777)))
}

/// Refuse a file read when it is not a regular file, or has more than one
/// hard link: its other name may be outside the workspace, and a symlink
/// inside the workspace can reach it from any folder, so where the path
/// starts decides nothing.
fn readable(meta: &cap_std::fs::Metadata, path: &str) -> Result<(), StorageError> {
    let refuse = |message: String| StorageError::Io {
        op: "reading",
        path: path.to_owned(),
        message,
    };
    if !meta.is_file() {
        let file_type = meta.file_type();
        let kind = if file_type.is_fifo() {
            FileType::Fifo
        } else if file_type.is_socket() {
            FileType::Socket
        } else if file_type.is_char_device() {
            FileType::CharacterDevice
        } else if file_type.is_block_device() {
            FileType::BlockDevice
        } else if file_type.is_dir() {
            FileType::Directory
        } else {
            FileType::Unknown
        };
        return Err(refuse(format!(
            "it is {}, not a regular file",
            describe(kind)
        )));
    }
    if meta.nlink() > 1 {
        return Err(refuse(format!(
            "it has {} hard links; vaultspec will not read through a hard link",
            meta.nlink()
        )));
    }
    Ok(())
}

impl CapStorage {
    /// When the regular file at `path` was last modified, in seconds since
    /// the epoch; reached through no link, like every read.
    pub fn modified_time(&self, path: &str) -> Result<i64, StorageError> {
        let parts = check_path(path)?;
        if parts.is_empty() {
            return Err(StorageError::InvalidPath {
                path: path.to_owned(),
                reason: "the workspace root is a folder".to_owned(),
            });
        }
        let fd = nofollow::open_beneath(self.root.as_fd(), &parts, path, OFlags::PATH)
            .map_err(|e| self.open_error(e, "checking", &parts, path))?;
        let st = rustix::fs::fstat(&fd).map_err(|e| map_io(e.into(), "checking", path))?;
        if FileType::from_raw_mode(st.st_mode) != FileType::RegularFile {
            return Err(StorageError::NotFound {
                path: path.to_owned(),
            });
        }
        Ok(st.st_mtime)
    }

    /// [`Storage::read`] without the journal's seal check.
    fn read_raw(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        let parts = check_path(path)?;
        if parts.is_empty() {
            return Err(StorageError::InvalidPath {
                path: path.to_owned(),
                reason: "the workspace root is a folder".to_owned(),
            });
        }
        // One open, then kind, links, size and content from the same handle:
        // the file checked is the file read. Opened non-blocking, so a FIFO
        // or a device is refused at once instead of waiting for a writer;
        // regular files ignore the flag. No link is followed on the way.
        let fd = nofollow::open_beneath(
            self.root.as_fd(),
            &parts,
            path,
            OFlags::RDONLY | OFlags::NONBLOCK,
        )
        .map_err(|e| {
            // A socket cannot be opened at all: say what it is.
            if e == Errno::NXIO
                && let Ok(st) = lstat(self.root.as_fd(), path)
                && FileType::from_raw_mode(st.st_mode) == FileType::Socket
            {
                return StorageError::Io {
                    op: "reading",
                    path: path.to_owned(),
                    message: "it is a socket, not a regular file".to_owned(),
                };
            }
            self.open_error(e, "reading", &parts, path)
        })?;
        let mut file = cap_std::fs::File::from_std(std::fs::File::from(fd));
        let meta = file.metadata().map_err(|e| map_io(e, "reading", path))?;
        readable(&meta, path)?;
        self.budget.charge(path, meta.len())?;
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        // Through `take`: `File::read_to_end` would ask the size and the
        // position again, two more system calls per file for what `meta`
        // has already said. The limit stops a file growing meanwhile one
        // byte past the ceiling, which the check below refuses.
        std::io::Read::read_to_end(
            &mut std::io::Read::take(&mut file, MAX_FILE_BYTES + 1),
            &mut bytes,
        )
        .map_err(|e| map_io(e, "reading", path))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(StorageError::TooLarge {
                path: path.to_owned(),
                size: bytes.len() as u64,
                limit: MAX_FILE_BYTES,
            });
        }
        Ok(bytes)
    }
}

impl Storage for CapStorage {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        let bytes = self.read_raw(path)?;
        if path != JOURNAL_FILE {
            return Ok(bytes);
        }
        self.journal_key
            .key()
            .open(&bytes)
            .map_err(|why| self.journal_refused(why))
    }

    fn read_many(&self, paths: &[&str]) -> Vec<Result<Vec<u8>, StorageError>> {
        crate::parallel::map(paths, crate::parallel::default_threads(), |path| {
            self.read(path)
        })
    }

    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        let parts = check_path(dir)?;
        let mut out = Vec::new();
        self.walk(&parts, dir, &mut out)?;
        out.sort();
        Ok(out)
    }

    /// Whether a regular file, or a link (never followed, never replaced),
    /// is at `path`. A link on the way to it is an error naming it.
    fn exists(&self, path: &str) -> Result<bool, StorageError> {
        let parts = check_path(path)?;
        if parts.is_empty() {
            return Ok(false);
        }
        match nofollow::open_beneath(self.root.as_fd(), &parts, path, OFlags::PATH) {
            Ok(fd) => {
                let st = rustix::fs::fstat(&fd).map_err(|e| map_io(e.into(), "checking", path))?;
                Ok(matches!(
                    FileType::from_raw_mode(st.st_mode),
                    FileType::RegularFile | FileType::Symlink
                ))
            }
            Err(Errno::NOENT) => Ok(false),
            Err(e) => Err(self.open_error(e, "checking", &parts, path)),
        }
    }

    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        if path == JOURNAL_FILE {
            return self.write_raw(path, &self.journal_key.key().seal(bytes));
        }
        self.write_raw(path, bytes)
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        self.rename_raw(from, to)
    }

    fn remove(&self, path: &str) -> Result<(), StorageError> {
        self.remove_raw(path)
    }
}

impl CapStorage {
    fn write_raw(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        let parts = self.scope.check(path)?;
        self.writes.charge(path, bytes.len() as u64)?;
        let folders = self.folders(&parts, path, true)?;
        let dir = folders.last();
        let name = parts[parts.len() - 1];
        // A read-only file is the user's word that it should not change:
        // refused, never swapped for a writable copy. Any other file keeps
        // its permissions through the replacement.
        let mode = match changeable(dir, name, path, "replace")? {
            Some((FileType::RegularFile, mode)) if mode & 0o200 == 0 => {
                return Err(StorageError::Denied {
                    path: path.to_owned(),
                    reason: format!(
                        "it is read-only (mode {mode:04o}); vaultspec leaves read-only files as they are \
                         (make it writable, `chmod u+w`, to let it change)"
                    ),
                });
            }
            Some((_, mode)) => Some(mode),
            None => None,
        };
        let (temp, fd) = temp::create(dir, name).map_err(|e| map_io(e, "writing", path))?;
        let written = (|| {
            if let Some(mode) = mode {
                rustix::fs::fchmod(&fd, rustix::fs::Mode::from_raw_mode(mode))?;
            }
            let mut file = std::fs::File::from(fd);
            file.write_all(bytes)?;
            file.sync_data()?;
            // The rename replaces the name: a link planted there meanwhile
            // is replaced, never written through.
            rustix::fs::renameat(dir, &temp, dir, name).map_err(io::Error::from)
        })();
        written.map_err(|e| {
            let _ = rustix::fs::unlinkat(dir, &temp, AtFlags::empty());
            map_io(e, "writing", path)
        })
    }

    fn rename_raw(&self, from: &str, to: &str) -> Result<(), StorageError> {
        let from_parts = self.scope.check(from)?;
        let to_parts = self.scope.check(to)?;
        let to_name = to_parts[to_parts.len() - 1];
        match self.folders(&to_parts, to, false) {
            Ok(folders) if lstat(folders.last(), to_name).is_ok() => {
                return Err(StorageError::AlreadyExists {
                    path: to.to_owned(),
                });
            }
            Ok(_) | Err(StorageError::NotFound { .. }) => {}
            Err(err) => return Err(err),
        }
        let from_folders = self.folders(&from_parts, from, false)?;
        let from_name = from_parts[from_parts.len() - 1];
        match changeable(from_folders.last(), from_name, from, "move")? {
            Some((FileType::RegularFile, _)) => {}
            Some((other, _)) => {
                return Err(StorageError::Denied {
                    path: from.to_owned(),
                    reason: format!(
                        "it is {}; vaultspec only moves regular files",
                        describe(other)
                    ),
                });
            }
            None => {
                return Err(StorageError::NotFound {
                    path: from.to_owned(),
                });
            }
        }
        self.writes.charge(from, 0)?;
        let to_folders = self.folders(&to_parts, to, true)?;
        let (from_dir, to_dir) = (from_folders.last(), to_folders.last());
        // No replace: a destination that appeared meanwhile is kept.
        match rustix::fs::renameat_with(
            from_dir,
            from_name,
            to_dir,
            to_name,
            RenameFlags::NOREPLACE,
        ) {
            Ok(()) => {}
            Err(Errno::EXIST) => {
                return Err(StorageError::AlreadyExists {
                    path: to.to_owned(),
                });
            }
            Err(Errno::INVAL | Errno::NOSYS) => {
                rustix::fs::renameat(from_dir, from_name, to_dir, to_name)
                    .map_err(|e| map_io(e.into(), "renaming", from))?
            }
            Err(err) => return Err(map_io(err.into(), "renaming", from)),
        }
        from_folders.prune_empty(&from_parts);
        Ok(())
    }

    fn remove_raw(&self, path: &str) -> Result<(), StorageError> {
        let parts = self.scope.check(path)?;
        let folders = self.folders(&parts, path, false)?;
        let name = parts[parts.len() - 1];
        if changeable(folders.last(), name, path, "remove")?.is_none() {
            return Err(StorageError::NotFound {
                path: path.to_owned(),
            });
        }
        self.writes.charge(path, 0)?;
        rustix::fs::unlinkat(folders.last(), name, AtFlags::empty())
            .map_err(|e| map_io(e.into(), "removing", path))?;
        folders.prune_empty(&parts);
        Ok(())
    }
}

/// Map an I/O error to a [`StorageError`], recognising cap-std's refusal of a
/// path that leads out of the workspace.
fn map_io(err: io::Error, op: &'static str, path: &str) -> StorageError {
    let path = path.to_owned();
    let message = err.to_string();
    if message.contains("outside of the filesystem") {
        return StorageError::Outside { path };
    }
    match err.kind() {
        io::ErrorKind::NotFound => StorageError::NotFound { path },
        _ => StorageError::Io { op, path, message },
    }
}

#[cfg(test)]
mod tests;

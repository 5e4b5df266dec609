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

    /// Add the files under `dir` (its components `parts`) to `out`.
    fn walk(
        &self,
        parts: &[&str],
        dir: &str,
        out: &mut Vec<FileEntry>,
    ) -> Result<(), StorageError> {
        let opened = if parts.is_empty() {
            self.root.try_clone().map_err(|e| map_io(e, "listing", dir))
        } else {
            nofollow::open_beneath(
                self.root.as_fd(),
                parts,
                dir,
                OFlags::RDONLY | OFlags::DIRECTORY,
            )
            .map(|fd| Dir::from_std_file(std::fs::File::from(fd)))
            .map_err(|e| self.open_error(e, "listing", parts, dir))
        };
        match opened {
            Ok(folder) => self.walk_folder(&folder, dir, parts.len(), out),
            Err(StorageError::NotFound { .. }) => Ok(()),
            Err(err) => Err(err),
        }
    }

    /// Add the files under the open folder `folder` (at `dir`, `depth`
    /// folders below the root) to `out`. A link, FIFO, socket or device is
    /// listed as it is, never followed, so a reader names it: its read is
    /// refused at once. So is a folder past [`MAX_LIST_DEPTH`], which is
    /// not entered.
    fn walk_folder(
        &self,
        folder: &Dir,
        dir: &str,
        depth: usize,
        out: &mut Vec<FileEntry>,
    ) -> Result<(), StorageError> {
        let entries = folder.entries().map_err(|e| map_io(e, "listing", dir))?;
        for entry in entries {
            let entry = entry.map_err(|e| map_io(e, "listing", dir))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let path = if dir.is_empty() {
                name.to_owned()
            } else {
                format!("{dir}/{name}")
            };
            let file_type = entry.file_type().map_err(|e| map_io(e, "listing", &path))?;
            if file_type.is_dir() && depth >= MAX_LIST_DEPTH {
                out.push(FileEntry { path, size: 0 });
            } else if file_type.is_dir() {
                match nofollow::open_dir_for_listing(folder.as_fd(), name) {
                    Ok(fd) => {
                        let sub = Dir::from_std_file(std::fs::File::from(fd));
                        self.walk_folder(&sub, &path, depth + 1, out)?;
                    }
                    Err(Errno::NOENT) => {}
                    // Swapped for something else since it was listed.
                    Err(Errno::LOOP | Errno::NOTDIR) => out.push(FileEntry { path, size: 0 }),
                    Err(e) => return Err(map_io(e.into(), "listing", &path)),
                }
            } else {
                let size = match file_type.is_file() {
                    true => entry.metadata().map(|m| m.len()).unwrap_or(0),
                    false => 0,
                };
                out.push(FileEntry { path, size });
            }
        }
        Ok(())
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
mod tests {
    use super::*;

    #[test]
    fn stale_temps_are_swept_where_vaultspec_writes_and_nowhere_else() {
        let dir = tempfile::tempdir().unwrap();
        // A pid no process has (pid_max is at most 2^22).
        let dead = ".CLAUDE.md.vs-99999999-0123456789abcdef.tmp";
        let live = format!(".x.md.vs-{}-0123456789abcdef.tmp", std::process::id());
        for folder in ["", ".claude/rules", ".vault/adr", "src/deep"] {
            std::fs::create_dir_all(dir.path().join(folder)).unwrap();
            std::fs::write(dir.path().join(folder).join(dead), "half").unwrap();
        }
        std::fs::write(dir.path().join(&live), "mine").unwrap();
        let storage = CapStorage::open(dir.path()).unwrap();
        assert_eq!(storage.sweep_stale_temps(), 3);
        for folder in ["", ".claude/rules", ".vault/adr"] {
            assert!(!dir.path().join(folder).join(dead).exists(), "{folder}");
        }
        assert!(
            dir.path().join("src/deep").join(dead).exists(),
            "below the root's own files"
        );
        assert!(dir.path().join(&live).exists(), "a live writer's temp file");
    }

    fn workspace() -> (tempfile::TempDir, CapStorage) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".vault/adr")).unwrap();
        std::fs::write(dir.path().join(".vault/adr/a.md"), "alpha").unwrap();
        std::fs::write(dir.path().join("outside.txt"), "root file").unwrap();
        let storage = CapStorage::open(dir.path()).unwrap();
        (dir, storage)
    }

    #[test]
    fn setup_makes_and_removes_folders_without_following_links() {
        let (dir, storage) = workspace();
        let storage = storage.with_scope(WriteScope::Setup);
        storage.create_dir(".vaultspec/templates").unwrap();
        storage.create_dir(".vaultspec/templates").unwrap();
        assert!(dir.path().join(".vaultspec/templates").is_dir());
        storage.remove_dir(".vaultspec/templates").unwrap();
        assert!(!dir.path().join(".vaultspec/templates").exists());
        assert!(storage.remove_dir(".vault/adr").is_err(), "not empty");

        std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
        std::os::unix::fs::symlink("../elsewhere", dir.path().join(".vault/link")).unwrap();
        let err = storage.create_dir(".vault/link/inner").unwrap_err();
        assert!(matches!(err, StorageError::Denied { .. }), "{err}");
        assert!(!dir.path().join("elsewhere/inner").exists());
        assert!(storage.remove_dir(".vault/link").is_err());
        assert!(dir.path().join("elsewhere").is_dir());
        assert!(
            CapStorage::open(dir.path())
                .unwrap()
                .create_dir(".vaultspec/mcps")
                .is_err(),
            "a verb's scope may not make protected folders"
        );
    }

    #[test]
    fn reads_and_lists_files_inside_the_workspace() {
        let (_dir, storage) = workspace();
        assert_eq!(storage.read(".vault/adr/a.md").unwrap(), b"alpha");
        let listed: Vec<_> = storage
            .list(".vault")
            .unwrap()
            .into_iter()
            .map(|e| e.path)
            .collect();
        assert_eq!(listed, [".vault/adr/a.md"]);
        assert!(storage.list(".vault/missing").unwrap().is_empty());
    }

    #[test]
    fn reads_whole_files_of_any_size_and_refuses_those_over_the_limit() {
        let (dir, storage) = workspace();
        for (name, len) in [
            ("empty.md", 0),
            ("page.md", 4096),
            ("limit.md", MAX_FILE_BYTES as usize),
        ] {
            std::fs::write(dir.path().join(".vault").join(name), vec![b'x'; len]).unwrap();
            assert_eq!(
                storage.read(&format!(".vault/{name}")).unwrap().len(),
                len,
                "{name}"
            );
        }
        std::fs::write(
            dir.path().join(".vault/big.md"),
            vec![b'x'; MAX_FILE_BYTES as usize + 1],
        )
        .unwrap();
        assert!(matches!(
            storage.read(".vault/big.md"),
            Err(StorageError::TooLarge { .. })
        ));
    }

    #[test]
    fn read_batches_hands_over_every_batch_in_order() {
        let (dir, storage) = workspace();
        std::fs::create_dir_all(dir.path().join(".vault/n")).unwrap();
        let paths: Vec<String> = (0..super::super::READ_BATCH * 2 + 3)
            .map(|i| format!(".vault/n/{i:04}.md"))
            .collect();
        for (i, path) in paths.iter().enumerate() {
            std::fs::write(dir.path().join(path), i.to_string()).unwrap();
        }
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let mut seen = Vec::new();
        storage.read_batches(&refs, &mut |offset, reads| {
            assert_eq!(
                offset,
                seen.len(),
                "batches come in order, each at its offset"
            );
            seen.extend(reads.into_iter().map(Result::unwrap));
        });
        let expected: Vec<Vec<u8>> = (0..paths.len())
            .map(|i| i.to_string().into_bytes())
            .collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_symlink_leading_out_is_refused() {
        let (dir, storage) = workspace();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join(".vault/evil.md")).unwrap();
        let err = storage.read(".vault/evil.md").unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert!(storage.write(".vault/evil.md", b"x").is_err());
        // Listed as what it is (nothing read through it), so a reader
        // names it.
        let listed: Vec<_> = storage
            .list(".vault")
            .unwrap()
            .into_iter()
            .map(|e| (e.path, e.size))
            .collect();
        assert_eq!(
            listed,
            [
                (".vault/adr/a.md".to_owned(), 5),
                (".vault/evil.md".to_owned(), 0)
            ]
        );
    }

    #[test]
    fn writes_are_atomic_create_folders_and_stay_in_scope() {
        let (dir, storage) = workspace();
        storage.write(".vault/plan/new.md", b"new").unwrap();
        assert_eq!(
            std::fs::read(dir.path().join(".vault/plan/new.md")).unwrap(),
            b"new"
        );
        assert!(storage.write("outside.txt", b"x").is_err());
        assert!(storage.write(".vault/../outside.txt", b"x").is_err());
        assert_eq!(
            std::fs::read(dir.path().join("outside.txt")).unwrap(),
            b"root file"
        );
        let leftovers = std::fs::read_dir(dir.path().join(".vault/plan"))
            .unwrap()
            .count();
        assert_eq!(leftovers, 1, "a temporary file was left behind");
    }

    #[test]
    fn rename_refuses_an_existing_destination_and_prunes_empty_folders() {
        let (dir, storage) = workspace();
        storage.write(".vault/research/b.md", b"beta").unwrap();
        assert!(matches!(
            storage.rename(".vault/adr/a.md", ".vault/research/b.md"),
            Err(StorageError::AlreadyExists { .. })
        ));
        storage
            .rename(".vault/adr/a.md", ".vault/_archive/adr/a.md")
            .unwrap();
        assert!(!dir.path().join(".vault/adr").exists());
        assert_eq!(storage.read(".vault/_archive/adr/a.md").unwrap(), b"alpha");
    }

    #[test]
    fn a_budget_refuses_reads_past_it() {
        let (_dir, storage) = workspace();
        let storage = storage.with_read_budget(7);
        storage.read(".vault/adr/a.md").unwrap();
        assert!(matches!(
            storage.read(".vault/adr/a.md"),
            Err(StorageError::BudgetExceeded { .. })
        ));
    }

    fn denied_reason(err: StorageError) -> String {
        match err {
            StorageError::Denied { reason, .. } => reason,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn no_change_goes_through_a_symlinked_folder() {
        let (dir, storage) = workspace();
        std::os::unix::fs::symlink("..", dir.path().join(".vault/up")).unwrap();
        let reason = denied_reason(storage.write(".vault/up/src/x.rs", b"x").unwrap_err());
        assert!(
            reason.contains("`.vault/up` is a symbolic link"),
            "{reason}"
        );
        assert!(
            !dir.path().join("src").exists(),
            "a folder was made through the link"
        );
        let reason = denied_reason(storage.write(".vault/up/outside.txt", b"x").unwrap_err());
        assert!(reason.contains("`.vault/up`"), "{reason}");
        let reason = denied_reason(storage.remove(".vault/up/outside.txt").unwrap_err());
        assert!(reason.contains("`.vault/up`"), "{reason}");
        let reason = denied_reason(
            storage
                .rename(".vault/adr/a.md", ".vault/up/moved.md")
                .unwrap_err(),
        );
        assert!(reason.contains("`.vault/up`"), "{reason}");
        let reason = denied_reason(
            storage
                .rename(".vault/up/outside.txt", ".vault/in.md")
                .unwrap_err(),
        );
        assert!(reason.contains("`.vault/up`"), "{reason}");
        assert_eq!(
            std::fs::read(dir.path().join("outside.txt")).unwrap(),
            b"root file"
        );
        assert!(dir.path().join(".vault/adr/a.md").exists());
        // Nor does a read, though the link stays inside the workspace.
        let err = storage.read(".vault/up/outside.txt").unwrap_err();
        assert!(
            err.to_string().contains("`.vault/up` is a symbolic link"),
            "{err}"
        );
    }

    #[test]
    fn a_tree_nested_past_the_depth_limit_is_listed_down_to_it() {
        let (dir, storage) = workspace();
        let mut deep = dir.path().join(".vault");
        for _ in 0..MAX_LIST_DEPTH + 20 {
            deep.push("d");
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("x.md"), "deep").unwrap();
        let listed = storage.list(".vault").unwrap();
        let deepest = listed
            .iter()
            .map(|e| e.path.matches('/').count())
            .max()
            .unwrap();
        assert_eq!(deepest, MAX_LIST_DEPTH, "{listed:?}");
        assert!(listed.iter().any(|e| e.path == ".vault/adr/a.md"));
    }

    /// The one rule for links inside a workspace: none is followed. What a
    /// read, a listing or a check sees does not depend on a link's target,
    /// so no cache keyed by the stamps of what it read can be misled by one.
    #[test]
    fn no_read_listing_or_check_follows_a_link_inside_the_workspace() {
        let (dir, storage) = workspace();
        let root = dir.path();
        std::fs::create_dir_all(root.join("docs/inner")).unwrap();
        std::fs::write(root.join("docs/inner/real.md"), "target").unwrap();
        std::os::unix::fs::symlink(
            "../../docs/inner/real.md",
            root.join(".vault/adr/linked.md"),
        )
        .unwrap();
        std::os::unix::fs::symlink("../docs/inner", root.join(".vault/folder")).unwrap();
        // A linked document is listed, as what it is, and its read refused.
        let listed = storage.list(".vault").unwrap();
        let linked = listed
            .iter()
            .find(|e| e.path == ".vault/adr/linked.md")
            .unwrap();
        assert_eq!(linked.size, 0);
        let err = storage.read(".vault/adr/linked.md").unwrap_err();
        assert!(err.to_string().contains("it is a symbolic link"), "{err}");
        assert!(storage.exists(".vault/adr/linked.md").unwrap());
        // A linked folder is listed as an entry, never entered.
        assert!(listed.iter().any(|e| e.path == ".vault/folder"));
        assert!(!listed.iter().any(|e| e.path.starts_with(".vault/folder/")));
        assert!(storage.read(".vault/folder/real.md").is_err());
        assert!(storage.exists(".vault/folder/real.md").is_err());
        // A linked top folder is not listed through either.
        std::os::unix::fs::symlink("docs", root.join(".vaultspec")).unwrap();
        let err = storage.list(".vaultspec").unwrap_err();
        assert!(err.to_string().contains("it is a symbolic link"), "{err}");
        let err = storage.read(".vaultspec/inner/real.md").unwrap_err();
        assert!(
            err.to_string().contains("`.vaultspec` is a symbolic link"),
            "{err}"
        );
        // The whole workspace, listed from its root, enters no link.
        let all = storage.list("").unwrap();
        assert!(all.iter().any(|e| e.path == "docs/inner/real.md"));
        assert!(!all.iter().any(|e| e.path.starts_with(".vaultspec/")));
    }

    #[test]
    fn a_symlinked_vault_folder_takes_no_writes() {
        let (dir, storage) = workspace();
        std::fs::create_dir(dir.path().join("docs")).unwrap();
        std::os::unix::fs::symlink("docs", dir.path().join(".vaultspec")).unwrap();
        let reason = denied_reason(
            storage
                .write(".vaultspec/templates/a.md", b"x")
                .unwrap_err(),
        );
        assert!(
            reason.contains("`.vaultspec` is a symbolic link"),
            "{reason}"
        );
        assert!(!dir.path().join("docs/templates").exists());
    }

    #[test]
    fn a_file_with_another_hard_link_is_not_read_replaced_moved_or_removed() {
        let (dir, storage) = workspace();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret");
        std::fs::write(&secret, "secret").unwrap();
        std::fs::hard_link(&secret, dir.path().join(".vault/linked.md")).unwrap();
        let err = storage.read(".vault/linked.md").unwrap_err();
        assert!(
            err.to_string()
                .contains("`.vault/linked.md`: it has 2 hard links"),
            "{err}"
        );
        for err in [
            storage.write(".vault/linked.md", b"x").unwrap_err(),
            storage
                .rename(".vault/linked.md", ".vault/moved.md")
                .unwrap_err(),
            storage.remove(".vault/linked.md").unwrap_err(),
        ] {
            assert!(denied_reason(err).contains("has 2 hard links"));
        }
        assert_eq!(std::fs::read(&secret).unwrap(), b"secret");
        assert!(dir.path().join(".vault/linked.md").exists());
        // Anywhere in the workspace: a symlink from any folder could lead
        // to the same file, so a hard link outside the vault is refused too.
        std::fs::hard_link(dir.path().join("outside.txt"), dir.path().join("twin.txt")).unwrap();
        assert!(
            storage
                .read("twin.txt")
                .unwrap_err()
                .to_string()
                .contains("has 2 hard links")
        );
    }

    #[test]
    fn a_read_only_file_is_not_replaced_and_others_keep_their_mode() {
        use std::os::unix::fs::PermissionsExt;
        let (dir, storage) = workspace();
        let locked = dir.path().join(".vault/adr/a.md");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
        let err = storage.write(".vault/adr/a.md", b"changed").unwrap_err();
        assert!(err.to_string().contains("read-only (mode 0444)"), "{err}");
        assert_eq!(std::fs::read(&locked).unwrap(), b"alpha");
        assert_eq!(
            std::fs::metadata(&locked).unwrap().permissions().mode() & 0o7777,
            0o444
        );

        let private = dir.path().join(".vault/adr/private.md");
        std::fs::write(&private, "mine").unwrap();
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
        storage
            .write(".vault/adr/private.md", b"still mine")
            .unwrap();
        assert_eq!(std::fs::read(&private).unwrap(), b"still mine");
        assert_eq!(
            std::fs::metadata(&private).unwrap().permissions().mode() & 0o7777,
            0o600
        );
    }

    #[test]
    fn a_fifo_is_listed_so_its_reader_can_report_it() {
        let (dir, storage) = workspace();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            dir.path().join(".vault/adr/pipe.md"),
            FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
        let listed: Vec<_> = storage
            .list(".vault")
            .unwrap()
            .into_iter()
            .map(|e| e.path)
            .collect();
        assert_eq!(listed, [".vault/adr/a.md", ".vault/adr/pipe.md"]);
        let err = storage.read(".vault/adr/pipe.md").unwrap_err();
        assert!(err.to_string().contains("a FIFO"), "{err}");
    }

    #[test]
    fn special_files_are_refused_at_once_naming_what_they_are() {
        let (dir, storage) = workspace();
        let fifo = dir.path().join(".vaultspec/config.toml");
        std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            FileType::Fifo,
            rustix::fs::Mode::from(0o600),
            0,
        )
        .unwrap();
        // Without the defence this read would wait for a writer forever.
        let err = storage.read(".vaultspec/config.toml").unwrap_err();
        assert_eq!(
            err.to_string(),
            "reading `.vaultspec/config.toml`: it is a FIFO, not a regular file"
        );
        let socket =
            std::os::unix::net::UnixListener::bind(dir.path().join(".vault/sock.md")).unwrap();
        let err = storage.read(".vault/sock.md").unwrap_err();
        assert!(
            err.to_string()
                .contains("it is a socket, not a regular file"),
            "{err}"
        );
        drop(socket);
        let err = storage.read(".vault/adr").unwrap_err();
        assert!(
            err.to_string()
                .contains("it is a folder, not a regular file"),
            "{err}"
        );
    }

    #[test]
    fn a_write_never_follows_a_link_at_its_own_name() {
        let (dir, storage) = workspace();
        std::os::unix::fs::symlink("../outside.txt", dir.path().join(".vault/inside-link.md"))
            .unwrap();
        let reason = denied_reason(storage.write(".vault/inside-link.md", b"x").unwrap_err());
        assert!(reason.contains("symbolic link"), "{reason}");
        assert_eq!(
            std::fs::read(dir.path().join("outside.txt")).unwrap(),
            b"root file"
        );
    }

    #[test]
    fn renames_and_removes_respect_the_protected_folders() {
        let (dir, storage) = workspace();
        std::fs::create_dir_all(dir.path().join(".vaultspec/verbs")).unwrap();
        std::fs::write(dir.path().join(".vaultspec/verbs/v.wasm"), "component").unwrap();
        assert!(
            storage
                .rename(".vault/adr/a.md", ".vaultspec/verbs/x.wasm")
                .is_err()
        );
        assert!(
            storage
                .rename(".vaultspec/verbs/v.wasm", ".vault/v.wasm")
                .is_err()
        );
        assert!(storage.remove(".vaultspec/verbs/v.wasm").is_err());
        assert!(storage.write(".vaultspec/workspace.json", b"{}").is_err());
        assert!(dir.path().join(".vaultspec/verbs/v.wasm").exists());
        assert!(!dir.path().join(".vaultspec/workspace.json").exists());
        storage.write(".vaultspec/providers.json", b"{}").unwrap();
    }

    #[test]
    fn the_write_budget_refuses_changes_past_it() {
        let (dir, storage) = workspace();
        let storage = storage.with_write_budget(10, 3);
        storage.write(".vault/a.md", b"123456").unwrap();
        let err = storage.write(".vault/b.md", b"12345").unwrap_err();
        assert_eq!(
            err.to_string(),
            "changing `.vault/b.md` would exceed this call's write budget of 10 bytes"
        );
        assert!(!dir.path().join(".vault/b.md").exists());
        storage.rename(".vault/a.md", ".vault/c.md").unwrap();
        storage.remove(".vault/c.md").unwrap();
        let err = storage.remove(".vault/adr/a.md").unwrap_err();
        assert!(
            matches!(
                err,
                StorageError::WriteBudgetExceeded {
                    limit: 3,
                    unit: "files",
                    ..
                }
            ),
            "{err}"
        );
        assert!(dir.path().join(".vault/adr/a.md").exists());
    }

    #[test]
    fn removing_prunes_empty_folders_below_the_top_only() {
        let (dir, storage) = workspace();
        storage.write(".vault/x/y/z.md", b"z").unwrap();
        storage.remove(".vault/x/y/z.md").unwrap();
        assert!(!dir.path().join(".vault/x").exists());
        storage.remove(".vault/adr/a.md").unwrap();
        assert!(!dir.path().join(".vault/adr").exists());
        assert!(dir.path().join(".vault").is_dir(), "the top folder stays");
        assert!(matches!(
            storage.remove(".vault/adr/a.md"),
            Err(StorageError::NotFound { .. })
        ));
        assert!(matches!(
            storage.rename(".vault/none.md", ".vault/b.md"),
            Err(StorageError::NotFound { .. })
        ));
    }
}

//! The native [`Storage`]: a workspace folder opened with cap-std.
//!
//! cap-std resolves every path inside the opened folder, so `..`, absolute
//! paths and symlinks that lead out fail at the operating-system level; on
//! top of that, [`check_path`] refuses odd paths up front and [`WriteScope`]
//! confines writes by path component.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use cap_std::ambient_authority;
use cap_std::fs::Dir;

use super::budget::ReadBudget;
use super::{FileEntry, MAX_FILE_BYTES, Storage, StorageError, WriteScope, check_path};

/// A workspace root opened as a capability: nothing outside it is reachable.
#[derive(Debug)]
pub struct CapStorage {
    root: Dir,
    scope: WriteScope,
    budget: ReadBudget,
}

/// Distinguishes the temporary files of concurrent writes in one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl CapStorage {
    /// Open the workspace at `root`, writable under `.vault/` and `.vaultspec/`.
    pub fn open(root: &Path) -> io::Result<Self> {
        Ok(Self::from_dir(Dir::open_ambient_dir(root, ambient_authority())?))
    }

    /// Wrap an already opened folder.
    pub fn from_dir(root: Dir) -> Self {
        Self {
            root,
            scope: WriteScope::Vault,
            budget: ReadBudget::default(),
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

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.budget.used()
    }

    fn walk(&self, dir: &Path, out: &mut Vec<FileEntry>) -> Result<(), StorageError> {
        let entries = match self.root.read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(map_io(e, "listing", &display(dir))),
        };
        for entry in entries {
            let entry = entry.map_err(|e| map_io(e, "listing", &display(dir)))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let path = dir.join(name);
            let file_type = entry
                .file_type()
                .map_err(|e| map_io(e, "listing", &display(&path)))?;
            if file_type.is_dir() {
                self.walk(&path, out)?;
            } else if file_type.is_file() {
                let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
                out.push(FileEntry { path: display(&path), size });
            } else if file_type.is_symlink() {
                // A symlink to a file inside the workspace is listed; one that
                // leads out, dangles, or names a folder is skipped.
                if let Ok(meta) = self.root.metadata(&path)
                    && meta.is_file()
                {
                    out.push(FileEntry { path: display(&path), size: meta.len() });
                }
            }
        }
        Ok(())
    }

    fn prune_empty_parents(&self, parts: &[&str]) {
        for depth in (2..parts.len()).rev() {
            if self.root.remove_dir(parts[..depth].join("/")).is_err() {
                break;
            }
        }
    }

    fn ensure_parent(&self, parts: &[&str], path: &str) -> Result<(), StorageError> {
        if parts.len() > 1 {
            let parent = parts[..parts.len() - 1].join("/");
            self.root
                .create_dir_all(&parent)
                .map_err(|e| map_io(e, "creating the folder of", path))?;
        }
        Ok(())
    }

    fn refuse_symlink(&self, path: &str) -> Result<(), StorageError> {
        match self.root.symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => Err(StorageError::Denied {
                path: path.to_owned(),
                reason: "it is a symbolic link; vaultspec only replaces regular files".to_owned(),
            }),
            _ => Ok(()),
        }
    }
}

impl Storage for CapStorage {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        check_path(path)?;
        // One open, then size and content from the same handle: the file
        // checked against the limits is the file read.
        let mut file = self.root.open(path).map_err(|e| map_io(e, "reading", path))?;
        let meta = file.metadata().map_err(|e| map_io(e, "reading", path))?;
        if !meta.is_file() {
            return Err(StorageError::Io {
                op: "reading",
                path: path.to_owned(),
                message: "not a regular file".to_owned(),
            });
        }
        self.budget.charge(path, meta.len())?;
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        // Through `take`: `File::read_to_end` would ask the size and the
        // position again, two more system calls per file for what `meta`
        // has already said. The limit stops a file growing meanwhile one
        // byte past the ceiling, which the check below refuses.
        std::io::Read::read_to_end(&mut std::io::Read::take(&mut file, MAX_FILE_BYTES + 1), &mut bytes)
            .map_err(|e| map_io(e, "reading", path))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(StorageError::TooLarge { path: path.to_owned(), size: bytes.len() as u64, limit: MAX_FILE_BYTES });
        }
        Ok(bytes)
    }

    fn read_many(&self, paths: &[&str]) -> Vec<Result<Vec<u8>, StorageError>> {
        crate::parallel::map(paths, crate::parallel::default_threads(), |path| self.read(path))
    }

    fn list(&self, dir: &str) -> Result<Vec<FileEntry>, StorageError> {
        check_path(dir)?;
        let mut out = Vec::new();
        let start = if dir.is_empty() { PathBuf::from(".") } else { PathBuf::from(dir) };
        self.walk(&start, &mut out)?;
        for entry in &mut out {
            if let Some(rest) = entry.path.strip_prefix("./") {
                entry.path = rest.to_owned();
            }
        }
        out.sort();
        Ok(out)
    }

    fn exists(&self, path: &str) -> Result<bool, StorageError> {
        check_path(path)?;
        match self.root.metadata(path) {
            Ok(meta) => Ok(meta.is_file()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(map_io(e, "checking", path)),
        }
    }

    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
        let parts = self.scope.check(path)?;
        self.ensure_parent(&parts, path)?;
        self.refuse_symlink(path)?;
        let parent = parts[..parts.len() - 1].join("/");
        let temp = format!(
            "{parent}/.{}.vs-{}-{}.tmp",
            parts[parts.len() - 1],
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let written = (|| {
            let mut file = self.root.create(&temp)?;
            file.write_all(bytes)?;
            file.sync_data()?;
            self.root.rename(&temp, &self.root, path)
        })();
        written.map_err(|e| {
            let _ = self.root.remove_file(&temp);
            map_io(e, "writing", path)
        })
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        let from_parts = self.scope.check(from)?;
        let to_parts = self.scope.check(to)?;
        if self.root.symlink_metadata(to).is_ok() {
            return Err(StorageError::AlreadyExists { path: to.to_owned() });
        }
        if !self.exists(from)? {
            return Err(StorageError::NotFound { path: from.to_owned() });
        }
        self.ensure_parent(&to_parts, to)?;
        self.root
            .rename(from, &self.root, to)
            .map_err(|e| map_io(e, "renaming", from))?;
        self.prune_empty_parents(&from_parts);
        Ok(())
    }

    fn remove(&self, path: &str) -> Result<(), StorageError> {
        let parts = self.scope.check(path)?;
        self.root.remove_file(path).map_err(|e| map_io(e, "removing", path))?;
        self.prune_empty_parents(&parts);
        Ok(())
    }
}

fn display(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
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

    fn workspace() -> (tempfile::TempDir, CapStorage) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".vault/adr")).unwrap();
        std::fs::write(dir.path().join(".vault/adr/a.md"), "alpha").unwrap();
        std::fs::write(dir.path().join("outside.txt"), "root file").unwrap();
        let storage = CapStorage::open(dir.path()).unwrap();
        (dir, storage)
    }

    #[test]
    fn reads_and_lists_files_inside_the_workspace() {
        let (_dir, storage) = workspace();
        assert_eq!(storage.read(".vault/adr/a.md").unwrap(), b"alpha");
        let listed: Vec<_> = storage.list(".vault").unwrap().into_iter().map(|e| e.path).collect();
        assert_eq!(listed, [".vault/adr/a.md"]);
        assert!(storage.list(".vault/missing").unwrap().is_empty());
    }

    #[test]
    fn reads_whole_files_of_any_size_and_refuses_those_over_the_limit() {
        let (dir, storage) = workspace();
        for (name, len) in [("empty.md", 0), ("page.md", 4096), ("limit.md", MAX_FILE_BYTES as usize)] {
            std::fs::write(dir.path().join(".vault").join(name), vec![b'x'; len]).unwrap();
            assert_eq!(storage.read(&format!(".vault/{name}")).unwrap().len(), len, "{name}");
        }
        std::fs::write(dir.path().join(".vault/big.md"), vec![b'x'; MAX_FILE_BYTES as usize + 1]).unwrap();
        assert!(matches!(storage.read(".vault/big.md"), Err(StorageError::TooLarge { .. })));
    }

    #[test]
    fn read_batches_hands_over_every_batch_in_order() {
        let (dir, storage) = workspace();
        std::fs::create_dir_all(dir.path().join(".vault/n")).unwrap();
        let paths: Vec<String> = (0..super::super::READ_BATCH * 2 + 3).map(|i| format!(".vault/n/{i:04}.md")).collect();
        for (i, path) in paths.iter().enumerate() {
            std::fs::write(dir.path().join(path), i.to_string()).unwrap();
        }
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let mut seen = Vec::new();
        storage.read_batches(&refs, &mut |offset, reads| {
            assert_eq!(offset, seen.len(), "batches come in order, each at its offset");
            seen.extend(reads.into_iter().map(Result::unwrap));
        });
        let expected: Vec<Vec<u8>> = (0..paths.len()).map(|i| i.to_string().into_bytes()).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_symlink_leading_out_is_refused() {
        let (dir, storage) = workspace();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join(".vault/evil.md")).unwrap();
        assert!(matches!(storage.read(".vault/evil.md"), Err(StorageError::Outside { .. })));
        assert!(storage.write(".vault/evil.md", b"x").is_err());
        let listed: Vec<_> = storage.list(".vault").unwrap().into_iter().map(|e| e.path).collect();
        assert_eq!(listed, [".vault/adr/a.md"]);
    }

    #[test]
    fn writes_are_atomic_create_folders_and_stay_in_scope() {
        let (dir, storage) = workspace();
        storage.write(".vault/plan/new.md", b"new").unwrap();
        assert_eq!(std::fs::read(dir.path().join(".vault/plan/new.md")).unwrap(), b"new");
        assert!(storage.write("outside.txt", b"x").is_err());
        assert!(storage.write(".vault/../outside.txt", b"x").is_err());
        assert_eq!(std::fs::read(dir.path().join("outside.txt")).unwrap(), b"root file");
        let leftovers = std::fs::read_dir(dir.path().join(".vault/plan")).unwrap().count();
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
        storage.rename(".vault/adr/a.md", ".vault/_archive/adr/a.md").unwrap();
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
}

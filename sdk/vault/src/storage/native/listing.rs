//! Listing a folder of the workspace without following a link: the walk
//! behind [`Storage::list`](crate::storage::Storage::list).

use std::os::fd::AsFd;

use cap_std::fs::Dir;
use rustix::fs::OFlags;
use rustix::io::Errno;

use super::{CapStorage, MAX_LIST_DEPTH, map_io};
use crate::storage::nofollow;
use crate::storage::{FileEntry, StorageError};

impl CapStorage {
    /// Add the files under `dir` (its components `parts`) to `out`.
    pub(super) fn walk(
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
}

//! Opening a file the host keeps for itself inside the workspace (the
//! reference's lock sentinels under `.vault/data/`) by the same no-follow
//! walk as every write, so a planted symlink cannot move it elsewhere.

use std::os::fd::BorrowedFd;

use rustix::fs::{FileType, Mode, OFlags};
use rustix::io::Errno;

use super::nofollow::{Folders, describe, lstat};
use super::{StorageError, WriteScope};

/// Open the file at the workspace-relative `path` beneath `root` for
/// reading and writing, without following a symbolic link at any component,
/// the file's own name included, and without changing a byte of it.
///
/// The path must lie in the vault's write scope (`.vault/` or
/// `.vaultspec/`, outside its protected entries). With `create`, missing
/// folders and the file are made (an existing file is never truncated);
/// without, a missing folder or file is [`StorageError::NotFound`]. A link
/// on the way or at the file is [`StorageError::Denied`] naming it; a FIFO,
/// a device or a file with more than one hard link is refused with what it
/// is.
pub fn open_no_follow(
    root: BorrowedFd<'_>,
    path: &str,
    create: bool,
) -> Result<std::fs::File, StorageError> {
    let parts = WriteScope::Vault.check(path)?;
    let folders = Folders::open(root, &parts, path, create)?;
    let dir = folders.last();
    let name = parts[parts.len() - 1];
    // Non-blocking: a FIFO planted at the name is refused below instead of
    // holding the open.
    let mut flags = OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    if create {
        flags |= OFlags::CREATE;
    }
    let fd = rustix::fs::openat(dir, name, flags, Mode::from(0o666)).map_err(|err| match err {
        Errno::NOENT => StorageError::NotFound {
            path: path.to_owned(),
        },
        Errno::LOOP
            if lstat(dir, name)
                .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Symlink) =>
        {
            StorageError::Denied {
                path: path.to_owned(),
                reason: "it is a symbolic link; vaultspec never opens its own files through a link"
                    .to_owned(),
            }
        }
        err => StorageError::Io {
            op: "opening",
            path: path.to_owned(),
            message: std::io::Error::from(err).to_string(),
        },
    })?;
    let st = rustix::fs::fstat(&fd).map_err(|err| StorageError::Io {
        op: "opening",
        path: path.to_owned(),
        message: std::io::Error::from(err).to_string(),
    })?;
    let refuse = |message: String| StorageError::Io {
        op: "opening",
        path: path.to_owned(),
        message,
    };
    let file_type = FileType::from_raw_mode(st.st_mode);
    if file_type != FileType::RegularFile {
        return Err(refuse(format!(
            "it is {}, not a regular file",
            describe(file_type)
        )));
    }
    if st.st_nlink > 1 {
        return Err(refuse(format!(
            "it has {} hard links; vaultspec will not use a file linked elsewhere",
            st.st_nlink
        )));
    }
    // Back to blocking for whoever uses the file (locks do not care).
    rustix::fs::fcntl_setfl(&fd, OFlags::empty()).map_err(|err| StorageError::Io {
        op: "opening",
        path: path.to_owned(),
        message: std::io::Error::from(err).to_string(),
    })?;
    Ok(std::fs::File::from(fd))
}

#[cfg(test)]
mod tests {
    use std::os::fd::AsFd;
    use std::os::unix::fs::symlink;

    use super::*;

    fn workspace() -> (tempfile::TempDir, std::fs::File) {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join(".vault")).unwrap();
        std::fs::create_dir_all(tmp.path().join("src")).unwrap();
        let root = std::fs::File::open(tmp.path()).unwrap();
        (tmp, root)
    }

    #[test]
    fn creates_folders_and_file_and_never_truncates() {
        let (tmp, root) = workspace();
        let lock = ".vault/data/locks/x.lock";
        assert!(matches!(
            open_no_follow(root.as_fd(), lock, false),
            Err(StorageError::NotFound { .. })
        ));
        open_no_follow(root.as_fd(), lock, true).unwrap();
        std::fs::write(tmp.path().join(lock), "held").unwrap();
        open_no_follow(root.as_fd(), lock, true).unwrap();
        open_no_follow(root.as_fd(), lock, false).unwrap();
        assert_eq!(std::fs::read(tmp.path().join(lock)).unwrap(), b"held");
    }

    #[test]
    fn a_linked_folder_or_file_is_refused_and_nothing_is_made_through_it() {
        let (tmp, root) = workspace();
        symlink("../src", tmp.path().join(".vault/data")).unwrap();
        for create in [true, false] {
            let err = open_no_follow(root.as_fd(), ".vault/data/.vault.lock", create).unwrap_err();
            assert!(
                matches!(&err, StorageError::Denied { reason, .. } if reason.contains("`.vault/data`")),
                "{err}"
            );
        }
        assert_eq!(
            std::fs::read_dir(tmp.path().join("src")).unwrap().count(),
            0
        );

        std::fs::remove_file(tmp.path().join(".vault/data")).unwrap();
        std::fs::create_dir(tmp.path().join(".vault/data")).unwrap();
        symlink(
            "../../src/owned",
            tmp.path().join(".vault/data/.vault.lock"),
        )
        .unwrap();
        let err = open_no_follow(root.as_fd(), ".vault/data/.vault.lock", true).unwrap_err();
        assert!(matches!(err, StorageError::Denied { .. }), "{err}");
        assert!(!tmp.path().join("src/owned").exists());
    }

    #[test]
    fn special_and_hard_linked_files_and_paths_out_of_scope_are_refused() {
        let (tmp, root) = workspace();
        std::fs::create_dir_all(tmp.path().join(".vault/data")).unwrap();
        let fifo = ".vault/data/.vault.lock";
        rustix::fs::mknodat(&root, fifo, FileType::Fifo, Mode::from(0o600), 0).unwrap();
        let err = open_no_follow(root.as_fd(), fifo, true).unwrap_err();
        assert!(err.to_string().contains("a FIFO"), "{err}");
        std::fs::write(tmp.path().join("src/a"), "").unwrap();
        std::fs::hard_link(
            tmp.path().join("src/a"),
            tmp.path().join(".vault/data/h.lock"),
        )
        .unwrap();
        let err = open_no_follow(root.as_fd(), ".vault/data/h.lock", true).unwrap_err();
        assert!(err.to_string().contains("hard links"), "{err}");
        for out in ["src/x.lock", "../x.lock", ".vaultspec/verbs/x.lock"] {
            assert!(open_no_follow(root.as_fd(), out, true).is_err(), "{out}");
        }
        assert!(!tmp.path().join("src/x.lock").exists());
    }
}

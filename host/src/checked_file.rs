//! The one reader for files the host opens by path, outside the sandbox's
//! storage: tokens, keys, trust and cache entries, component files, a
//! `.git` pointer, an edited copy.
//!
//! Every such file may have been planted: it is opened without following a
//! link (`O_NOFOLLOW`) and without blocking (`O_NONBLOCK`, so a FIFO cannot
//! stall the open), then the open handle is checked with `fstat` before a
//! byte is read: a regular file, within its size cap, and, where the file
//! grants something, owned by this user and shielded from others. What
//! the workspace holds is read through `CapStorage` instead, which applies
//! the same checks beneath the workspace root.

use std::io::Read;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

/// Who must own a file, and who else may touch it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// Anyone may own it (a file the person named, a component file).
    Anyone,
    /// This user, and nobody else may write it (a cache entry that becomes
    /// code or an answer).
    Me,
    /// This user, and nobody else may read or write it (a secret).
    MeAlone,
}

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// The path names a symbolic link.
    #[error("it is a symbolic link")]
    Link,
    /// Not a regular file.
    #[error("it is not a regular file (a FIFO, socket, device or folder)")]
    NotRegular,
    /// Larger than the cap.
    #[error("it is {size} bytes, over the cap of {cap} bytes")]
    TooLarge {
        /// Its size.
        size: u64,
        /// The cap.
        cap: u64,
    },
    /// It grew past the cap while it was read.
    #[error("it grew past the cap of {cap} bytes while it was read")]
    Grew {
        /// The cap.
        cap: u64,
    },
    /// Another user's file.
    #[error("it belongs to user {owner}, not to this user ({me})")]
    NotMine {
        /// Its owner.
        owner: u32,
        /// This user.
        me: u32,
    },
    /// Others may write it (or read it, for a secret).
    #[error("others may {access} it (mode {mode:04o})")]
    Shared {
        /// "write" or "read or write".
        access: &'static str,
        /// Its permission bits.
        mode: u32,
    },
    /// The system refused the open or the read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Read `path` whole, within `cap` bytes, as `owner` requires; `Ok(None)`
/// when nothing is there.
pub fn read(path: &Path, cap: u64, owner: Owner) -> Result<Option<Vec<u8>>, Refusal> {
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY)
        .open(path);
    let file = match opened {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) if err.raw_os_error() == Some(libc::ELOOP) => return Err(Refusal::Link),
        // A socket cannot be opened at all.
        Err(err) if err.raw_os_error() == Some(libc::ENXIO) => return Err(Refusal::NotRegular),
        Err(err) => return Err(err.into()),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(Refusal::NotRegular);
    }
    check_owner(&meta, owner)?;
    if meta.len() > cap {
        return Err(Refusal::TooLarge {
            size: meta.len(),
            cap,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(Refusal::Grew { cap });
    }
    Ok(Some(bytes))
}

/// As [`read`], as UTF-8 text.
pub fn read_text(path: &Path, cap: u64, owner: Owner) -> Result<Option<String>, Refusal> {
    match read(path, cap, owner)? {
        None => Ok(None),
        Some(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| {
            Refusal::Io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "it is not UTF-8 text",
            ))
        }),
    }
}

fn check_owner(meta: &std::fs::Metadata, owner: Owner) -> Result<(), Refusal> {
    let (others, access) = match owner {
        Owner::Anyone => return Ok(()),
        Owner::Me => (0o022, "write"),
        Owner::MeAlone => (0o077, "read or write"),
    };
    // SAFETY: `geteuid` has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(Refusal::NotMine {
            owner: meta.uid(),
            me,
        });
    }
    let mode = meta.mode() & 0o7777;
    if mode & others != 0 {
        return Err(Refusal::Shared { access, mode });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_regular_file_within_its_cap_is_read_and_a_missing_one_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "hello").unwrap();
        assert_eq!(read(&file, 5, Owner::Anyone).unwrap().unwrap(), b"hello");
        assert!(matches!(
            read(&file, 4, Owner::Anyone),
            Err(Refusal::TooLarge { size: 5, cap: 4 })
        ));
        assert!(
            read(&dir.path().join("none"), 5, Owner::Anyone)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn links_fifos_folders_and_sparse_giants_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("/etc/hostname", &link).unwrap();
        assert!(matches!(
            read(&link, 1 << 20, Owner::Anyone),
            Err(Refusal::Link)
        ));
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(matches!(
            read(&fifo, 1 << 20, Owner::Anyone),
            Err(Refusal::NotRegular)
        ));
        assert!(matches!(
            read(dir.path(), 1 << 20, Owner::Anyone),
            Err(Refusal::NotRegular)
        ));
        let sparse = dir.path().join("sparse");
        std::fs::File::create(&sparse)
            .unwrap()
            .set_len(3 << 30)
            .unwrap();
        assert!(matches!(
            read(&sparse, 1 << 20, Owner::Anyone),
            Err(Refusal::TooLarge { .. })
        ));
    }

    #[test]
    fn a_secret_others_may_read_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("secret");
        std::fs::write(&file, "k").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(read(&file, 8, Owner::Me).is_ok());
        assert!(matches!(
            read(&file, 8, Owner::MeAlone),
            Err(Refusal::Shared { .. })
        ));
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(read(&file, 8, Owner::MeAlone).unwrap().is_some());
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o664)).unwrap();
        assert!(matches!(
            read(&file, 8, Owner::Me),
            Err(Refusal::Shared { .. })
        ));
    }

    proptest::proptest! {
        /// A file is read whole exactly when it fits its cap, and what is
        /// read is what is there.
        #[test]
        fn a_file_is_read_whole_exactly_when_it_fits(
            bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..4096),
            cap in 0u64..5000,
        ) {
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join("f");
            std::fs::write(&file, &bytes).unwrap();
            match read(&file, cap, Owner::Anyone) {
                Ok(Some(read)) => {
                    proptest::prop_assert!(bytes.len() as u64 <= cap);
                    proptest::prop_assert_eq!(read, bytes);
                }
                Err(Refusal::TooLarge { size, .. }) => {
                    proptest::prop_assert!(size > cap);
                    proptest::prop_assert_eq!(size, bytes.len() as u64);
                }
                other => proptest::prop_assert!(false, "{other:?}"),
            }
        }
    }
}

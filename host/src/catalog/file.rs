//! Reading a component file for the catalog without trusting the file system:
//! no symlink, nothing but a regular file, nothing larger than a cap.
//!
//! The catalog is built on every `vaultspec` run, before anyone has trusted
//! anything, from folders a cloned repository may ship (`.vaultspec/verbs/`).
//! So a component file is opened without following a symlink (`O_NOFOLLOW`)
//! and without blocking (`O_NONBLOCK`: a FIFO cannot stall the open), and the
//! open handle is checked with `fstat` before a byte is read: it must be a
//! regular file of at most [`MAX_COMPONENT_BYTES`]. A link, a FIFO, a device
//! or a huge (even sparse) file is refused at once, by name and reason, and
//! costs nothing.
//!
//! The folders themselves (`.vaultspec` and `.vaultspec/verbs` under the
//! workspace root and under the home folder) must be real folders, not
//! symlinks: a link would let a repository point the catalog at any folder
//! on the machine. A linked folder is skipped with a warning naming it.

use std::path::Path;

use super::error::Reason;
use crate::checked_file::{self, Owner, Refusal};
use crate::display::Escaped;

/// The largest component file the catalog reads: 64 MiB. The largest
/// builtin component is a few MiB and a third-party verb built with the SDK
/// is smaller; anything past this is refused before it is read.
pub const MAX_COMPONENT_BYTES: u64 = 64 * 1024 * 1024;

/// Whether `dir` (a folder the catalog lists) is reached without a symlink
/// in its last `depth` components; `Err` names the link. A missing folder
/// is `Ok(false)`.
pub fn real_folder(dir: &Path, depth: usize) -> Result<bool, String> {
    let mut path = dir;
    let mut checked = Vec::new();
    for _ in 0..depth {
        checked.push(path);
        match path.parent() {
            Some(parent) => path = parent,
            None => break,
        }
    }
    for path in checked.into_iter().rev() {
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(format!(
                    "`{}` is a symbolic link; verb components are read only from a real folder, so none are loaded from it",
                    Escaped::new(&path.display().to_string())
                ));
            }
            Ok(meta) if !meta.is_dir() => return Ok(false),
            Ok(_) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(err) => {
                return Err(format!(
                    "cannot list the verb components in `{}`: {err}",
                    Escaped::new(&path.display().to_string())
                ));
            }
        }
    }
    Ok(true)
}

/// Read a component file: refused, with the reason, when it is a symlink,
/// not a regular file, or larger than [`MAX_COMPONENT_BYTES`].
pub fn read_capped(path: &Path) -> Result<Vec<u8>, Reason> {
    let shown = Escaped::new(&path.display().to_string()).to_string();
    let why = match checked_file::read(path, MAX_COMPONENT_BYTES, Owner::Anyone) {
        Ok(Some(bytes)) => return Ok(bytes),
        Ok(None) => format!("`{shown}`: no such file"),
        Err(Refusal::Link) => {
            format!("`{shown}` is a symbolic link; put the component file itself in the folder")
        }
        Err(Refusal::NotRegular) => format!(
            "`{shown}` is not a regular file (a FIFO, socket, device or folder); only a `.wasm` file is read"
        ),
        Err(Refusal::TooLarge { size, cap }) => {
            format!("`{shown}` is {size} bytes, over the cap of {cap} bytes for a component file")
        }
        Err(Refusal::Grew { cap }) => format!(
            "`{shown}` grew past the cap of {cap} bytes for a component file while it was read"
        ),
        Err(other) => format!("`{shown}`: {other}"),
    };
    Err(Reason::Unreadable(why))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    #[test]
    fn links_fifos_and_huge_files_are_refused_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small.wasm");
        std::fs::write(&small, b"\0asm").unwrap();
        assert_eq!(read_capped(&small).unwrap(), b"\0asm");

        let link = dir.path().join("link.wasm");
        std::os::unix::fs::symlink(&small, &link).unwrap();
        let err = read_capped(&link).unwrap_err().to_string();
        assert!(
            err.contains("symbolic link") && err.contains("link.wasm"),
            "{err}"
        );

        let huge = dir.path().join("huge.wasm");
        let file = File::create(&huge).unwrap();
        file.set_len(3 << 30).unwrap();
        let err = read_capped(&huge).unwrap_err().to_string();
        assert!(
            err.contains("3221225472 bytes") && err.contains("huge.wasm"),
            "{err}"
        );

        let fifo = dir.path().join("fifo.wasm");
        let c_path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        let err = read_capped(&fifo).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
    }

    #[test]
    fn a_linked_folder_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".vaultspec")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join(".vaultspec/verbs")).unwrap();
        let err = real_folder(&dir.path().join(".vaultspec/verbs"), 2).unwrap_err();
        assert!(
            err.contains(".vaultspec/verbs") && err.contains("symbolic link"),
            "{err}"
        );
        assert_eq!(real_folder(&dir.path().join("missing/verbs"), 2), Ok(false));
        std::fs::create_dir_all(outside.path().join(".vaultspec/verbs")).unwrap();
        assert_eq!(
            real_folder(&outside.path().join(".vaultspec/verbs"), 2),
            Ok(true)
        );
    }
}

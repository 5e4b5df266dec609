//! The temporary files of atomic writes: made exclusively under a name no
//! one can guess, and swept once the process that made them is gone.
//!
//! A temp file is `.{name}.vs-{pid}-{random}.tmp` beside its target: the pid
//! says whose it is, 64 random bits that no other process can plant a link
//! or a file at the name beforehand (and creation is `O_EXCL`, so if one is
//! there anyway it is never opened).

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::nofollow::{lstat, open_dir_for_listing};
use super::temp_name::owner;

/// How many fresh names a write tries before giving up.
const ATTEMPTS: usize = 16;

/// Create a new temp file for `name` in `dir`, exclusively and without
/// following a link, returning its name and handle.
pub(super) fn create(dir: BorrowedFd<'_>, name: &str) -> std::io::Result<(String, OwnedFd)> {
    let pid = std::process::id();
    let mut last = Errno::EXIST;
    for _ in 0..ATTEMPTS {
        let random = getrandom::u64().map_err(std::io::Error::other)?;
        let temp = format!(".{name}.vs-{pid}-{random:016x}.tmp");
        match create_exclusive(dir, &temp) {
            Ok(fd) => return Ok((temp, fd)),
            Err(Errno::EXIST) => last = Errno::EXIST,
            Err(err) => return Err(err.into()),
        }
    }
    Err(last.into())
}

/// Create `temp` in `dir` only if nothing (not even a dangling link) is
/// there yet.
fn create_exclusive(dir: BorrowedFd<'_>, temp: &str) -> rustix::io::Result<OwnedFd> {
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    rustix::fs::openat(dir, temp, flags, Mode::from(0o666))
}

/// Whether process `pid` is gone: signalling it says there is no such
/// process. A process we may not signal is alive.
fn gone(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    matches!(rustix::process::test_kill_process(pid), Err(Errno::SRCH))
}

/// Remove every temp file whose process is gone, never following a link:
/// under the folders `tops` of `root` (all the way down), and among the
/// files of `root` itself (not below). Returns how many were removed.
pub(super) fn sweep(root: BorrowedFd<'_>, tops: &[&str]) -> usize {
    let me = std::process::id();
    let mut removed = 0;
    // `(folder, whether to go into its subfolders)`.
    let mut stack: Vec<(OwnedFd, bool)> = tops
        .iter()
        .filter_map(|top| open_dir_for_listing(root, top).ok())
        .map(|dir| (dir, true))
        .collect();
    if let Ok(own) = open_dir_for_listing(root, ".") {
        stack.push((own, false));
    }
    while let Some((dir, deep)) = stack.pop() {
        let Ok(listing) = rustix::fs::Dir::read_from(&dir) else {
            continue;
        };
        for entry in listing.flatten() {
            let Ok(name) = entry.file_name().to_str() else {
                continue;
            };
            if name == "." || name == ".." {
                continue;
            }
            let file_type = match entry.file_type() {
                FileType::Unknown => match lstat(dir.as_fd(), name) {
                    Ok(st) => FileType::from_raw_mode(st.st_mode),
                    Err(_) => continue,
                },
                known => known,
            };
            match file_type {
                FileType::Directory if deep => {
                    if let Ok(sub) = open_dir_for_listing(dir.as_fd(), name) {
                        stack.push((sub, true));
                    }
                }
                FileType::RegularFile => {
                    if let Some(pid) = owner(name)
                        && pid != me
                        && gone(pid)
                        && rustix::fs::unlinkat(&dir, name, AtFlags::empty()).is_ok()
                    {
                        removed += 1;
                    }
                }
                _ => {}
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_temp_name_already_taken_is_never_opened() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret");
        std::fs::write(&secret, "secret").unwrap();
        std::fs::write(dir.path().join(".a.md.vs-1-00.tmp"), "planted").unwrap();
        std::fs::hard_link(&secret, dir.path().join(".a.md.vs-1-01.tmp")).unwrap();
        std::os::unix::fs::symlink(&secret, dir.path().join(".a.md.vs-1-02.tmp")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("new"),
            dir.path().join(".a.md.vs-1-03.tmp"),
        )
        .unwrap();
        let handle = std::fs::File::open(dir.path()).unwrap();
        for name in [
            ".a.md.vs-1-00.tmp",
            ".a.md.vs-1-01.tmp",
            ".a.md.vs-1-02.tmp",
            ".a.md.vs-1-03.tmp",
        ] {
            assert_eq!(
                create_exclusive(handle.as_fd(), name).err(),
                Some(Errno::EXIST),
                "{name}"
            );
        }
        assert_eq!(
            std::fs::read_to_string(dir.path().join(".a.md.vs-1-00.tmp")).unwrap(),
            "planted"
        );
        assert_eq!(std::fs::read_to_string(&secret).unwrap(), "secret");
        assert!(
            !outside.path().join("new").exists(),
            "a dangling link was followed"
        );
        let (name, _fd) = create(handle.as_fd(), "a.md").unwrap();
        assert_eq!(owner(&name), Some(std::process::id()), "{name}");
        assert_eq!(
            name.len(),
            ".a.md.vs-".len() + std::process::id().to_string().len() + 1 + 16 + ".tmp".len()
        );
    }

    #[test]
    fn the_sweep_removes_only_the_temps_of_gone_processes_and_follows_no_link() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let mut sleeper = std::process::Command::new("sleep")
            .arg("60")
            .spawn()
            .unwrap();
        let live = sleeper.id();
        let me = std::process::id();
        let files = [
            format!(".vault/adr/.a.md.vs-{dead}-0123456789abcdef.tmp"),
            format!(".vaultspec/.config.toml.vs-{dead}-7.tmp"),
            format!(".vault/adr/.b.md.vs-{live}-0123456789abcdef.tmp"),
            format!(".vault/.c.md.vs-{me}-0123456789abcdef.tmp"),
            format!("src/.d.rs.vs-{dead}-00.tmp"),
            ".vault/adr/a.md".to_owned(),
        ];
        for file in &files {
            let path = root.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        // Behind a linked folder, and a link named like a temp: both kept.
        std::fs::write(outside.path().join(format!(".e.md.vs-{dead}-00.tmp")), "x").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.path().join(".vault/linked")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("x"),
            root.path().join(format!(".vault/.f.md.vs-{dead}-00.tmp")),
        )
        .unwrap();

        let handle = std::fs::File::open(root.path()).unwrap();
        let removed = sweep(handle.as_fd(), &[".vault", ".vaultspec"]);
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();

        assert_eq!(removed, 2);
        let left: Vec<bool> = files.iter().map(|f| root.path().join(f).exists()).collect();
        assert_eq!(left, [false, false, true, true, true, true]);
        assert!(
            outside
                .path()
                .join(format!(".e.md.vs-{dead}-00.tmp"))
                .exists()
        );
        assert!(
            root.path()
                .join(format!(".vault/.f.md.vs-{dead}-00.tmp"))
                .symlink_metadata()
                .is_ok()
        );
    }

    #[test]
    fn our_own_process_is_alive_and_a_reaped_child_is_gone() {
        assert!(!gone(std::process::id()));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(gone(pid));
    }
}

//! The survey of a workspace's `.vault/`: the fingerprint of every file
//! under it (its path, size, modification and change times in nanoseconds,
//! and inode, hashed), and the same facts kept per file (a [`Survey`]), so
//! the server's vault cache reads again only the files whose facts moved and
//! the command line's answer cache knows when nothing did.
//!
//! Our own writes replace files by rename (a new inode); an edit in place
//! changes the change time, which no tool can set back. Two edits of the
//! same size within one tick of the file system's clock leave the same
//! times, so a file changed shortly before the survey is *racy*: what was
//! read of it may already be stale, and it is read again next time.
//!
//! The walk never follows a symlink: not `.vault` itself (a linked `.vault`
//! has the fingerprint of an empty one; the server's vault cache refuses to
//! cache it) and not a link inside it, which counts as one entry (its own
//! times and inode), so a link to a large tree elsewhere costs one `lstat`.

use std::collections::{HashMap, HashSet};
use std::ffi::{CString, OsStr};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rustix::fs::{AtFlags, CWD, Dir, FileType, Mode, OFlags};
use sha2::{Digest, Sha256};
use vaultspec_vault::storage::{FileEntry, MAX_LIST_DEPTH};

/// What the walk saw of an entry that is not a folder: its stamp, and
/// whether it is a regular file.
#[derive(Debug, Clone, Copy)]
struct Seen {
    stamp: Stamp,
    file: bool,
}

impl Seen {
    /// A plain file that had not changed since `racy_after`.
    fn settled(&self, racy_after: Duration) -> bool {
        self.file && stamp_changed_at(&self.stamp) < racy_after
    }

    // The fields' types differ by architecture (signed here, unsigned
    // there); the casts are the identity only on some.
    #[allow(clippy::unnecessary_cast)]
    fn of(stat: &rustix::fs::Stat) -> Seen {
        Seen {
            stamp: [
                stat.st_size as i64,
                stat.st_mtime as i64,
                stat.st_mtime_nsec as i64,
                stat.st_ctime as i64,
                stat.st_ctime_nsec as i64,
                stat.st_ino as i64,
            ],
            file: FileType::from_raw_mode(stat.st_mode as _) == FileType::RegularFile,
        }
    }
}

/// Open the folder `name` of `parent` without following a symlink.
fn open_folder<P: rustix::path::Arg>(parent: impl AsFd, name: P) -> Option<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    rustix::fs::openat(parent, name, flags, Mode::empty()).ok()
}

/// Visit every entry under the open folder `dir` (at `path`), sorted by
/// name, depth first, without following a symlink: `visit(relative path,
/// what was seen)`, with nothing seen for a folder (its type comes with the
/// listing, and no caller reads a folder's times). Each folder is first
/// `enter`ed (with its own relative path, empty for `dir`), before its
/// entries are listed.
///
/// Everything is asked relative to the open parent: a folder is opened by
/// name with `O_NOFOLLOW`, so one swapped for a link between its listing
/// and its opening is not entered, and no file's whole path is resolved
/// again.
fn walk(
    dir: OwnedFd,
    path: &Path,
    relative: &mut Vec<u8>,
    visit: &mut dyn FnMut(&[u8], Option<&Seen>),
    enter: &mut dyn FnMut(&Path, &[u8]),
) {
    enter(path, relative);
    let Ok(mut listing) = Dir::new(dir) else {
        return;
    };
    let mut entries: Vec<(CString, FileType)> = Vec::new();
    while let Some(Ok(entry)) = listing.read() {
        let name = entry.file_name();
        if name != c"." && name != c".." {
            entries.push((name.to_owned(), entry.file_type()));
        }
    }
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let Ok(dir) = listing.fd() else { return };
    for (name, listed) in entries {
        let seen = match listed {
            FileType::Directory => None,
            _ => match rustix::fs::statat(dir, &*name, AtFlags::SYMLINK_NOFOLLOW) {
                // A type the listing left unknown, asked here.
                Ok(stat) if FileType::from_raw_mode(stat.st_mode as _) == FileType::Directory => {
                    None
                }
                Ok(stat) => Some(Seen::of(&stat)),
                Err(_) => continue,
            },
        };
        let mark = relative.len();
        relative.push(b'/');
        relative.extend_from_slice(name.as_bytes());
        visit(&relative[..], seen.as_ref());
        if seen.is_none()
            && let Some(folder) = open_folder(dir, &*name)
        {
            let below = path.join(OsStr::from_bytes(name.as_bytes()));
            walk(folder, &below, relative, visit, enter);
        }
        relative.truncate(mark);
    }
}

/// Whether `vault` is a real folder: not a symlink, not missing.
pub fn is_real_folder(vault: &Path) -> bool {
    std::fs::symlink_metadata(vault).is_ok_and(|m| m.is_dir())
}

/// Walk the tree of `vault` (see [`walk`]), unless it is a symlink (or not
/// a folder).
fn walk_vault(
    vault: &Path,
    visit: &mut dyn FnMut(&[u8], Option<&Seen>),
    enter: &mut dyn FnMut(&Path, &[u8]),
) {
    if let Some(dir) = open_folder(CWD, vault) {
        walk(dir, vault, &mut Vec::new(), visit, enter);
    }
}

/// How long after a file changed its times still cannot tell a second
/// change of the same size from the first: far past a clock tick of any
/// file system we run on (a few milliseconds; two seconds on FAT).
pub const RACY: Duration = Duration::from_secs(3);

/// What identifies one version of a file: size, modification and change
/// times (seconds, nanoseconds) and inode.
pub type Stamp = [i64; 6];

/// The [`Stamp`] of an entry, from its metadata.
pub fn stamp(meta: &std::fs::Metadata) -> Stamp {
    [
        meta.len() as i64,
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec(),
        meta.ino() as i64,
    ]
}

/// Add one entry (its path relative to the walked folder, and its stamp)
/// to a fingerprint: the one form every fingerprint here hashes.
fn hash_entry(hasher: &mut Sha256, relative: &[u8], stamp: Stamp) {
    hasher.update(relative);
    for n in stamp {
        hasher.update(n.to_le_bytes());
    }
}

/// Every file under `.vault/` as one walk saw it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Survey {
    /// The hash of every file's path and stamp; `None` for a survey
    /// [updated](Survey::update) from another, which walked nothing.
    pub print: Option<[u8; 32]>,
    /// Each regular file's stamp, by workspace-relative path
    /// (`.vault/adr/x.md`).
    pub stamps: HashMap<String, Stamp>,
    /// The files that changed within [`RACY`] of the walk (or in its
    /// future: a clock set back): what is read of them now may be stale.
    pub racy: HashSet<String>,
    /// How many entries are neither folders nor regular files (symlinks,
    /// pipes, devices): a listing through them may change while no stamp
    /// here moves.
    pub irregular: usize,
    /// How many entries have a name that is not UTF-8 (kept above under a
    /// lossy name, which reads nothing).
    pub unnamed: usize,
    /// Whether the walk entered every folder it met, none of them deeper
    /// than a storage's listing enters: only then can it stand for one.
    pub walked_whole: bool,
}

impl Survey {
    /// Whether the file at `path` is the same in `self` as in `earlier`, and
    /// was not racy then, so what was read of it after `earlier` still holds.
    pub fn unchanged_since(&self, earlier: &Survey, path: &str) -> bool {
        !earlier.racy.contains(path)
            && self.stamps.contains_key(path)
            && self.stamps.get(path) == earlier.stamps.get(path)
    }

    /// Bring this survey up to date for the files at `paths` (under
    /// `vault`'s parent, `.vault/adr/x.md`), which a watch saw change while
    /// nothing else under `vault` did: each is looked at again (a file gone
    /// is dropped), and every other file keeps its stamp. False, and the
    /// survey left as it was, when one of them is no longer a regular file,
    /// nor gone: only a walk can tell what a listing through it sees.
    pub fn update(&mut self, vault: &Path, paths: &std::collections::BTreeSet<String>) -> bool {
        let racy_after = racy_after(SystemTime::now());
        let Some(root) = vault.parent() else {
            return false;
        };
        let mut seen = Vec::with_capacity(paths.len());
        for path in paths {
            match std::fs::symlink_metadata(root.join(path)) {
                Ok(meta) if meta.is_file() => seen.push(Some(stamp(&meta))),
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => seen.push(None),
                _ => return false,
            }
        }
        self.print = None;
        for (path, stamp) in paths.iter().zip(seen) {
            match stamp {
                Some(stamp) => self.stamps.insert(path.clone(), stamp),
                None => self.stamps.remove(path),
            };
        }
        // Racy are the files that changed within the window, among those
        // racy before and those just looked at: no other file changed.
        let racy = std::mem::take(&mut self.racy);
        self.racy = racy
            .into_iter()
            .chain(paths.iter().cloned())
            .filter(|path| {
                self.stamps
                    .get(path)
                    .is_some_and(|stamp| stamp_changed_at(stamp) >= racy_after)
            })
            .collect();
        true
    }

    /// The listing of `.vault/` a workspace's storage would give, made from
    /// this survey instead of a second walk: every regular file, by path,
    /// with its size. `None` when the walk met what a listing treats apart
    /// (a symlink or special file, a name that is not UTF-8) or could not
    /// stand for one (a folder it could not open, or deeper than a listing
    /// enters), as for [`settled_vault`].
    pub fn listing(&self) -> Option<Vec<vaultspec_vault::storage::FileEntry>> {
        if self.irregular > 0 || self.unnamed > 0 || !self.walked_whole {
            return None;
        }
        let mut listing: Vec<_> = self
            .stamps
            .iter()
            .map(|(path, stamp)| vaultspec_vault::storage::FileEntry {
                path: path.clone(),
                size: u64::try_from(stamp[0]).unwrap_or(0),
            })
            .collect();
        listing.sort();
        Some(listing)
    }

    /// Whether `self` and `earlier` saw the same files (by path) and only
    /// regular ones, so a listing taken after `earlier` still names every
    /// file; only the sizes of those that changed may have moved.
    pub fn same_files_as(&self, earlier: &Survey) -> bool {
        self.irregular == 0
            && earlier.irregular == 0
            && self.stamps.len() == earlier.stamps.len()
            && self
                .stamps
                .keys()
                .all(|path| earlier.stamps.contains_key(path))
    }
}

/// The time since the epoch after which a change seen at `now` is racy.
pub fn racy_after(now: SystemTime) -> Duration {
    now.checked_sub(RACY)
        .unwrap_or(UNIX_EPOCH)
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
}

/// When the entry last changed, its contents or its inode (the later of
/// its modification and change times), since the epoch.
pub fn changed_at(meta: &std::fs::Metadata) -> Duration {
    stamp_changed_at(&stamp(meta))
}

/// When the file of `stamp` last changed, as [`changed_at`] tells it.
fn stamp_changed_at(stamp: &Stamp) -> Duration {
    let at = |secs: i64, nanos: i64| {
        Duration::new(
            u64::try_from(secs).unwrap_or(0),
            u32::try_from(nanos).unwrap_or(0),
        )
    };
    at(stamp[3], stamp[4]).max(at(stamp[1], stamp[2]))
}

/// Survey `vault` (the `.vault` folder of a workspace): the fingerprint,
/// and the stamp of every regular file under it.
pub fn survey(vault: &Path) -> Survey {
    survey_entering(vault, &mut |_, _| {})
}

/// [`survey`], calling `enter` with each folder (and its path below
/// `vault`, empty for `vault` itself) before its entries are looked at: a
/// watch armed there sees every change the survey may have missed.
pub fn survey_entering(vault: &Path, enter: &mut dyn FnMut(&Path, &[u8])) -> Survey {
    let racy_after = racy_after(SystemTime::now());
    let mut hasher = Sha256::new();
    let mut survey = Survey::default();
    // Both closures count into it, one after the other.
    let folders = std::cell::RefCell::new(Folders::default());
    walk_vault(
        vault,
        &mut |relative, seen| {
            let name = String::from_utf8_lossy(relative);
            if matches!(name, std::borrow::Cow::Owned(_)) {
                survey.unnamed += 1;
            }
            let Some(seen) = seen else {
                folders.borrow_mut().met(&name);
                return;
            };
            let stamp = seen.stamp;
            hash_entry(&mut hasher, relative, stamp);
            if !seen.file {
                survey.irregular += 1;
                return;
            }
            let path = format!(".vault{name}");
            if stamp_changed_at(&stamp) >= racy_after {
                survey.racy.insert(path.clone());
            }
            survey.stamps.insert(path, stamp);
        },
        &mut |path, relative| {
            folders.borrow_mut().entered += 1;
            enter(path, relative);
        },
    );
    survey.print = Some(hasher.finalize().into());
    survey.walked_whole = folders.into_inner().walked_whole();
    survey
}

/// The folders a walk met and entered: whether it can stand for a
/// storage's listing, which fails on a folder it cannot open and lists a
/// folder past its depth instead of entering it.
#[derive(Default)]
struct Folders {
    /// Folders met below the walked one, and folders entered (the walked
    /// one included).
    met: usize,
    entered: usize,
    too_deep: bool,
}

impl Folders {
    /// A folder met at `relative` (`/adr/sub`, beneath `.vault/`).
    fn met(&mut self, relative: &str) {
        self.met += 1;
        if relative.matches('/').count() >= MAX_LIST_DEPTH {
            self.too_deep = true;
        }
    }

    fn walked_whole(&self) -> bool {
        !self.too_deep && self.entered == self.met + 1
    }
}

/// The fingerprint of every file under `dir` when each is a regular file
/// that last changed before `racy_after` (since the epoch); `None` when
/// one is racy, or is a symlink (what is read through it may change with
/// no stamp under `dir` moving) or another special file. A missing `dir`,
/// or one that is a symlink, has the fingerprint of an empty folder.
pub fn settled_print(dir: &Path, racy_after: Duration) -> Option<[u8; 32]> {
    settled_walk(dir, racy_after, None)
}

/// [`settled_print`] of `.vault/` (at `vault`), and the listing of it a
/// workspace's storage would give, made from the same walk: every file by
/// workspace path (`.vault/adr/x.md`), sorted, with its size (a link or
/// other special file listed too, with none). The listing holds whether or
/// not the files are settled (a file edited a moment ago is listed as it
/// is); it is `None` where the walk cannot stand for the storage's: a name
/// that is not UTF-8 (the storage leaves it out), a folder it could not
/// open (the storage's listing fails), or one deeper than a listing
/// enters.
pub fn settled_vault(vault: &Path, racy_after: Duration) -> (Option<[u8; 32]>, Option<Listed>) {
    let mut listing = Listing {
        racy_after,
        utf8: true,
        ..Listing::default()
    };
    let print = settled_walk(vault, racy_after, Some(&mut listing));
    let Listing {
        mut files,
        folders,
        utf8,
        ..
    } = listing;
    let listing = (utf8 && folders.walked_whole()).then(|| {
        files.sort_unstable_by(|a, b| a.0.path.cmp(&b.0.path));
        let (files, settled) = files.into_iter().unzip();
        Listed { files, settled }
    });
    (print, listing)
}

/// The listing a settled walk gives of `.vault/` ([`settled_vault`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// Every file, as the workspace's storage lists it.
    pub files: Vec<FileEntry>,
    /// For each of `files`, its stamp when it is a plain file that had not
    /// changed within [`RACY`] of the walk.
    pub settled: Vec<Option<Stamp>>,
}

/// What a settled walk lists of `.vault/`, as [`settled_vault`] gives it.
#[derive(Default)]
struct Listing {
    files: Vec<(FileEntry, Option<Stamp>)>,
    folders: Folders,
    /// No name that is not UTF-8.
    utf8: bool,
    /// Files changed after this are not settled.
    racy_after: Duration,
}

/// The walk behind [`settled_print`] and [`settled_vault`].
fn settled_walk(
    dir: &Path,
    racy_after: Duration,
    listing: Option<&mut Listing>,
) -> Option<[u8; 32]> {
    let mut hasher = Sha256::new();
    let mut settled = true;
    // Both closures note into it, one after the other.
    let listing = std::cell::RefCell::new(listing);
    let mut visit = |relative: &[u8], seen: Option<&Seen>| {
        if let Some(listing) = listing.borrow_mut().as_deref_mut() {
            note(listing, relative, seen);
        }
        let Some(seen) = seen.filter(|_| settled) else {
            return;
        };
        settled = seen.settled(racy_after);
        hash_entry(&mut hasher, relative, seen.stamp);
    };
    let mut enter = |_: &Path, _: &[u8]| {
        if let Some(listing) = listing.borrow_mut().as_deref_mut() {
            listing.folders.entered += 1;
        }
    };
    walk_vault(dir, &mut visit, &mut enter);
    settled.then(|| hasher.finalize().into())
}

/// Add what the walk saw at `relative` (`/adr/x.md`, beneath `.vault/`) to
/// `listing`.
fn note(listing: &mut Listing, relative: &[u8], seen: Option<&Seen>) {
    let Ok(relative) = std::str::from_utf8(relative) else {
        listing.utf8 = false;
        return;
    };
    match seen {
        None => listing.folders.met(relative),
        Some(seen) => listing.files.push((
            FileEntry {
                path: format!(".vault{relative}"),
                size: match seen.file {
                    true => u64::try_from(seen.stamp[0]).unwrap_or(0),
                    false => 0,
                },
            },
            seen.settled(listing.racy_after).then_some(seen.stamp),
        )),
    }
}

/// The fingerprint of every file under `dir` (`.vault/`, `.vaultspec/`).
pub fn fingerprint(dir: &Path) -> [u8; 32] {
    let mut hasher = Sha256::new();
    let mut visit = |relative: &[u8], seen: Option<&Seen>| {
        if let Some(seen) = seen {
            hash_entry(&mut hasher, relative, seen.stamp);
        }
    };
    walk_vault(dir, &mut visit, &mut |_, _| {});
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    /// A workspace whose `.vault/` (the path given back) holds `files`
    /// and an empty folder.
    fn vault_of(files: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let vault = dir.path().join(".vault");
        for (name, text) in files {
            std::fs::create_dir_all(vault.join(name).parent().unwrap()).unwrap();
            std::fs::write(vault.join(name), text).unwrap();
        }
        std::fs::create_dir_all(vault.join("empty")).unwrap();
        (dir, vault)
    }

    /// A file in `vault` nested in more folders than a listing enters.
    fn nest_past_the_depth(vault: &Path) {
        let mut deep = vault.join("research");
        for _ in 0..MAX_LIST_DEPTH {
            deep.push("d");
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("n.md"), "deep").unwrap();
    }

    #[test]
    fn a_settled_vaults_listing_is_the_storages_and_only_where_it_can_be() {
        use vaultspec_vault::{CapStorage, Storage};
        let (dir, vault) = vault_of(&[
            ("adr/a.md", "one"),
            ("adr/a/inner.md", "folder named like a file"),
            ("adr/a.md.bak", "beside it"),
            ("plan/x.md", "a plan of some size"),
            ("_archive/plan/y.md", ""),
            ("top.md", "t"),
        ]);
        let later = racy_after(SystemTime::now() + RACY + Duration::from_secs(1));
        let listed = || {
            CapStorage::open(dir.path())
                .unwrap()
                .list(".vault")
                .unwrap()
        };
        let (print, listing) = settled_vault(&vault, later);
        assert_eq!(print, settled_print(&vault, later));
        assert!(print.is_some());
        let listing = listing.unwrap();
        assert_eq!(listing.files, listed(), "same files, sizes and order");
        // Each settled file with the stamp a survey takes of it.
        let surveyed = survey(&vault);
        for (file, settled) in listing.files.iter().zip(&listing.settled) {
            assert_eq!(
                settled.as_ref(),
                surveyed.stamps.get(&file.path),
                "{}",
                file.path
            );
        }

        // Files still changing have no fingerprint, are listed as they are,
        // and none is settled.
        let (print, listing) = settled_vault(&vault, Duration::ZERO);
        let listing = listing.unwrap();
        assert_eq!((print, &listing.files), (None, &listed()));
        assert!(listing.settled.iter().all(Option::is_none));

        // A link and a pipe: listed as the storage lists them, with no size.
        std::os::unix::fs::symlink("../plan/x.md", vault.join("adr/link.md")).unwrap();
        rustix::fs::mknodat(
            CWD,
            vault.join("adr/pipe.md"),
            FileType::Fifo,
            Mode::from(0o600),
            0,
        )
        .unwrap();
        let (print, listing) = settled_vault(&vault, later);
        let listing = listing.unwrap();
        assert_eq!((print, &listing.files), (None, &listed()));
        // Neither is a plain file: neither is settled.
        for (file, settled) in listing.files.iter().zip(&listing.settled) {
            let special = file.path.ends_with("link.md") || file.path.ends_with("pipe.md");
            assert_eq!(settled.is_none(), special, "{}", file.path);
        }

        // A name the storage leaves out: the walk cannot stand for it.
        let odd = vault.join(std::ffi::OsStr::from_bytes(b"adr/\xff.md"));
        std::fs::write(&odd, "x").unwrap();
        assert_eq!(settled_vault(&vault, later).1, None);
        std::fs::remove_file(&odd).unwrap();

        // Nor for a tree deeper than a listing enters.
        nest_past_the_depth(&vault);
        assert_eq!(settled_vault(&vault, later).1, None);
    }

    #[test]
    fn any_change_to_a_file_changes_the_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("adr")).unwrap();
        std::fs::write(dir.path().join("adr/a.md"), "one").unwrap();
        let first = fingerprint(dir.path());
        assert_eq!(first, fingerprint(dir.path()));
        std::fs::write(dir.path().join("adr/a.md"), "two").unwrap();
        assert_ne!(first, fingerprint(dir.path()));
        let second = fingerprint(dir.path());
        std::fs::write(dir.path().join("adr/b.md"), "").unwrap();
        assert_ne!(second, fingerprint(dir.path()));
    }

    #[test]
    fn a_file_is_unchanged_only_when_its_stamp_held_and_it_was_not_racy() {
        let dir = tempfile::tempdir().unwrap();
        let vault = dir.path().join(".vault");
        std::fs::create_dir_all(vault.join("adr")).unwrap();
        std::fs::write(vault.join("adr/old.md"), "old").unwrap();
        std::fs::write(vault.join("adr/new.md"), "new").unwrap();
        let past = SystemTime::now() - Duration::from_secs(60);
        for name in ["adr/old.md", "adr/new.md"] {
            let file = std::fs::File::options()
                .write(true)
                .open(vault.join(name))
                .unwrap();
            file.set_modified(past).unwrap();
        }
        // Setting the time changes the change time to now: both are racy.
        let first = survey(&vault);
        assert_eq!(first.stamps.len(), 2);
        assert_eq!(first.racy.len(), 2, "{:?}", first.racy);
        let second = survey(&vault);
        assert!(
            !second.unchanged_since(&first, ".vault/adr/old.md"),
            "racy then"
        );
        assert_eq!(first.print, second.print);

        // A survey whose files all settled vouches for them.
        let mut settled = survey(&vault);
        settled.racy.clear();
        let third = survey(&vault);
        assert!(third.unchanged_since(&settled, ".vault/adr/old.md"));
        std::fs::write(vault.join("adr/new.md"), "NEW").unwrap();
        let fourth = survey(&vault);
        assert!(
            !fourth.unchanged_since(&settled, ".vault/adr/new.md"),
            "rewritten"
        );
        std::fs::remove_file(vault.join("adr/old.md")).unwrap();
        assert!(
            !survey(&vault).unchanged_since(&settled, ".vault/adr/old.md"),
            "gone"
        );
    }

    #[test]
    fn an_update_for_the_files_named_equals_a_new_survey() {
        let dir = tempfile::tempdir().unwrap();
        let vault = dir.path().join(".vault");
        std::fs::create_dir_all(vault.join("adr")).unwrap();
        for name in ["a", "b", "c"] {
            std::fs::write(vault.join(format!("adr/{name}.md")), name).unwrap();
        }
        let then = survey(&vault);
        std::fs::write(vault.join("adr/a.md"), "a longer text").unwrap();
        std::fs::remove_file(vault.join("adr/b.md")).unwrap();
        std::fs::write(vault.join("adr/d.md"), "d").unwrap();
        let named: std::collections::BTreeSet<String> = ["a", "b", "d"]
            .iter()
            .map(|n| format!(".vault/adr/{n}.md"))
            .collect();
        let mut updated = then;
        assert!(updated.update(&vault, &named), "only files changed");
        let walked = survey(&vault);
        assert_eq!(updated.stamps, walked.stamps);
        assert_eq!(updated.racy, walked.racy);
        assert_eq!(updated.print, None, "an update walked nothing");

        std::os::unix::fs::symlink(dir.path(), vault.join("adr/e.md")).unwrap();
        let named = [".vault/adr/e.md".to_owned()].into_iter().collect();
        let mut left = walked.clone();
        assert!(
            !left.update(&vault, &named),
            "a link is for a walk to judge"
        );
        assert_eq!(left, walked, "and the survey is left as it was");
    }

    #[test]
    fn the_listing_made_from_a_survey_is_the_storage_s_own() {
        use vaultspec_vault::Storage;
        let (dir, vault) = vault_of(&[
            ("adr/a.md", "a"),
            ("adr/notes.txt", "notes"),
            ("_archive/plan/old-plan.md", "old"),
            ("research/deep/er/x.md", "deeper"),
            ("README.md", "top"),
        ]);
        let storage = vaultspec_vault::CapStorage::open(dir.path()).unwrap();
        assert_eq!(
            survey(&vault).listing(),
            Some(storage.list(".vault").unwrap())
        );

        // What a listing treats apart is left to the storage.
        std::os::unix::fs::symlink(vault.join("adr/a.md"), vault.join("adr/b.md")).unwrap();
        assert_eq!(survey(&vault).listing(), None, "a link");
        std::fs::remove_file(vault.join("adr/b.md")).unwrap();
        let odd = std::ffi::OsStr::from_bytes(b"odd-\xff.md");
        std::fs::write(vault.join("adr").join(odd), "x").unwrap();
        assert_eq!(survey(&vault).listing(), None, "a name that is not UTF-8");
        std::fs::remove_file(vault.join("adr").join(odd)).unwrap();
        assert!(survey(&vault).listing().is_some());

        // Nor where the storage would not enter, as for the command line's
        // listing: past a listing's depth, the two would differ.
        nest_past_the_depth(&vault);
        let listed = storage.list(".vault").unwrap();
        assert!(
            !listed.iter().any(|f| f.path.ends_with("/n.md")),
            "{listed:?}"
        );
        assert_eq!(survey(&vault).listing(), None, "a tree past the depth");
        assert_eq!(
            settled_vault(&vault, Duration::ZERO).1,
            None,
            "one rule for both"
        );
    }

    fn visited(vault: &Path) -> Vec<String> {
        let mut seen = Vec::new();
        let mut visit = |relative: &[u8], _: Option<&Seen>| {
            seen.push(String::from_utf8_lossy(relative).into_owned())
        };
        walk_vault(vault, &mut visit, &mut |_, _| {});
        seen
    }

    #[test]
    fn the_walk_never_follows_a_link_out_of_the_vault() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(outside.path().join("deep/er")).unwrap();
        std::fs::write(outside.path().join("deep/er/secret.md"), "outside").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let vault = dir.path().join(".vault");
        std::fs::create_dir_all(vault.join("adr")).unwrap();
        std::fs::write(vault.join("adr/a.md"), "one").unwrap();
        std::os::unix::fs::symlink(outside.path(), vault.join("link")).unwrap();
        assert_eq!(visited(&vault), ["/adr", "/adr/a.md", "/link"]);

        // A `.vault` that is itself a link out is not walked at all: its
        // fingerprint does not move when the tree it points at changes.
        let linked = tempfile::tempdir().unwrap();
        let linked_vault = linked.path().join(".vault");
        std::os::unix::fs::symlink(outside.path(), &linked_vault).unwrap();
        assert!(visited(&linked_vault).is_empty());
        let before = fingerprint(&linked_vault);
        std::fs::write(outside.path().join("deep/er/secret.md"), "changed outside").unwrap();
        std::fs::write(outside.path().join("new.md"), "new").unwrap();
        assert_eq!(before, fingerprint(&linked_vault));
    }

    #[test]
    fn a_folder_swapped_for_a_link_after_it_was_listed_is_not_entered() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "outside").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let vault = dir.path().join(".vault");
        std::fs::create_dir_all(vault.join("adr")).unwrap();
        std::fs::write(vault.join("adr/a.md"), "one").unwrap();
        // The folder is swapped at the last moment the walk hands over:
        // after the listing named it a folder, before it is opened.
        let mut seen = Vec::new();
        let mut visit = |relative: &[u8], _: Option<&Seen>| {
            if relative == b"/adr" {
                std::fs::rename(vault.join("adr"), dir.path().join("adr-moved")).unwrap();
                std::os::unix::fs::symlink(outside.path(), vault.join("adr")).unwrap();
            }
            seen.push(String::from_utf8_lossy(relative).into_owned());
        };
        walk_vault(&vault, &mut visit, &mut |_, _| {});
        assert_eq!(seen, ["/adr"]);
    }
}

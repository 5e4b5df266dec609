//! The reference's advisory lock sentinels (`spec/gateway.md` §9), so that a
//! `vaultspec-core` process writing the same vault waits for ours, and ours
//! for it.
//!
//! A sentinel is a file left on disk under `.vault/data/`, locked with
//! `flock` for as long as the write lasts, polled every 50 ms within a budget
//! (`VAULTSPEC_LOCK_TIMEOUT_SECONDS`, 120 s by default). Our writers first
//! hold the workspace lock ([`crate::workspace::WriteLock`]), which orders
//! our own processes, then the sentinel: always in that order. Verb calls
//! wait with [`docs_domain_async`], on the async runtime, so their deadline
//! can cancel the wait; the native tools wait on their blocking thread.

use std::io;
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use cap_std::fs::Dir;
use sha1::{Digest, Sha1};
use vaultspec_vault::StorageError;
use vaultspec_vault::storage;

use crate::env;

/// The folder of per-document sentinels.
pub const LOCKS_DIR: &str = ".vault/data/locks";

/// The sentinel of renames, execution ledgers and structure fixes.
pub const DOCS_DOMAIN: &str = ".vault/data/.vault.lock";

/// The folder of feature-index sentinels.
pub const INDEX_DIR: &str = ".vault/data/index";

/// How often a held sentinel is tried again.
const POLL: Duration = Duration::from_millis(50);

/// A held sentinel; dropping it releases the lock.
#[derive(Debug)]
pub struct Sentinel {
    _file: std::fs::File,
}

/// The sentinel path of the vault document at `path` (workspace-relative,
/// under `.vault/`): the SHA-1 of its path relative to `.vault/`.
pub fn document_path(path: &str) -> String {
    let relative = path.strip_prefix(".vault/").unwrap_or(path);
    format!(
        "{LOCKS_DIR}/{}.lock",
        hex::encode(Sha1::digest(relative.as_bytes()))
    )
}

/// Hold the sentinel of one vault document (`None` without a `.vault/`).
pub fn document(dir: &Dir, path: &str) -> anyhow::Result<Option<Sentinel>> {
    acquire(dir, &document_path(path), budget())
}

/// The sentinel path of the index of `feature` (`#` dropped), or `None`
/// for a name the reference would not lock by: not kebab-case, or a name
/// Windows reserves.
pub fn feature_index_path(feature: &str) -> Option<String> {
    let name = vaultspec_vault::doc::feature_arg(feature);
    let kebab = !name.is_empty()
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    let reserved = matches!(name, "con" | "prn" | "aux" | "nul")
        || ["com", "lpt"].iter().any(|p| {
            name.strip_prefix(p)
                .is_some_and(|n| n.len() == 1 && n != "0" && n.bytes().all(|b| b.is_ascii_digit()))
        });
    (kebab && !reserved).then(|| format!("{INDEX_DIR}/{name}.lock"))
}

/// Hold the sentinel of one feature's index while it is regenerated
/// (`None` without a `.vault/`, or for a name [`feature_index_path`] refuses).
pub fn feature_index(dir: &Dir, feature: &str) -> anyhow::Result<Option<Sentinel>> {
    match feature_index_path(feature) {
        Some(path) => acquire(dir, &path, budget()),
        None => Ok(None),
    }
}

/// Hold the docs-domain sentinel (`None` without a `.vault/`).
pub fn docs_domain(dir: &Dir) -> anyhow::Result<Option<Sentinel>> {
    acquire(dir, DOCS_DOMAIN, budget())
}

/// [`docs_domain`] for a verb call: waits on the async runtime, so the
/// call's deadline can cancel the wait. With [`Open::Existing`] a missing
/// sentinel is left missing (`None`): a call takes it then only at its
/// first write, so a call that writes nothing creates nothing.
pub async fn docs_domain_async(dir: &Dir, open: Open) -> anyhow::Result<Option<Sentinel>> {
    let Some(file) = open_sentinel(dir, DOCS_DOMAIN, open)? else {
        return Ok(None);
    };
    let budget = budget();
    let start = Instant::now();
    loop {
        if try_take(&file, DOCS_DOMAIN)? {
            return Ok(Some(Sentinel { _file: file }));
        }
        if start.elapsed() >= budget {
            return Err(timed_out(DOCS_DOMAIN, budget).into());
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Whether a sentinel may be created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Open {
    /// Create the sentinel and its folders when missing.
    Create,
    /// Only open a sentinel already on disk: opening and locking a file
    /// changes neither its bytes nor any mtime.
    Existing,
}

/// The wait budget: `VAULTSPEC_LOCK_TIMEOUT_SECONDS` when it is a positive
/// number of seconds, else 120 s.
fn budget() -> Duration {
    std::env::var(env::LOCK_TIMEOUT_SECONDS)
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(Duration::from_secs(120), Duration::from_secs_f64)
}

/// Open `sentinel` as `open` says (`None` without a `.vault/`, or when an
/// [`Open::Existing`] sentinel is missing). A workspace without `.vault/` has
/// nothing to protect yet, and a lock must not create it.
///
/// The folders and the file are reached by the storage's no-follow walk,
/// as every write is: a symlink planted on the way (`.vault/data -> ../src`)
/// or at the sentinel's name is refused, never followed, so the sentinel
/// cannot be made or locked outside `.vault/`. An [`Open::Existing`]
/// sentinel behind a link counts as missing: opening it would change
/// nothing, and the first write then asks for [`Open::Create`], which
/// refuses it by name. A `.vault` that is itself a link counts as no
/// `.vault/`: nothing can be written through it, so there is nothing for
/// the sentinel to protect.
fn open_sentinel(dir: &Dir, sentinel: &str, open: Open) -> anyhow::Result<Option<std::fs::File>> {
    match dir.symlink_metadata(".vault") {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Ok(None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).context("checking `.vault`"),
    }
    let create = open == Open::Create;
    match storage::open_no_follow(dir.as_fd(), sentinel, create) {
        Ok(file) => Ok(Some(file)),
        Err(StorageError::NotFound { .. }) if !create => Ok(None),
        Err(StorageError::Denied { .. }) if !create => Ok(None),
        Err(e) => Err(e).with_context(|| format!("opening the lock `{sentinel}`")),
    }
}

/// Try once to lock an open sentinel.
fn try_take(file: &std::fs::File, sentinel: &str) -> anyhow::Result<bool> {
    match file.try_lock() {
        Ok(()) => Ok(true),
        Err(std::fs::TryLockError::WouldBlock) => Ok(false),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("locking `{sentinel}`"))
        }
    }
}

/// Lock `sentinel`, creating it and its folders under `.vault/`, waiting on
/// this thread (the native tools run on blocking threads).
fn acquire(dir: &Dir, sentinel: &str, budget: Duration) -> anyhow::Result<Option<Sentinel>> {
    let Some(file) = open_sentinel(dir, sentinel, Open::Create)? else {
        return Ok(None);
    };
    let start = Instant::now();
    loop {
        if try_take(&file, sentinel)? {
            return Ok(Some(Sentinel { _file: file }));
        }
        if start.elapsed() >= budget {
            return Err(timed_out(sentinel, budget).into());
        }
        std::thread::sleep(POLL);
    }
}

fn timed_out(sentinel: &str, budget: Duration) -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        format!(
            "Timed out after {}s waiting for the advisory lock on {sentinel} (os layer). Another process \
             holds it; raise {} if the wait was legitimate.",
            budget.as_secs_f64(),
            env::LOCK_TIMEOUT_SECONDS
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> (tempfile::TempDir, Dir) {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join(".vault")).unwrap();
        let dir = Dir::open_ambient_dir(tmp.path(), cap_std::ambient_authority()).unwrap();
        (tmp, dir)
    }

    #[test]
    fn a_document_sentinel_is_named_by_the_sha1_of_its_vault_path() {
        // hashlib.sha1(b"plan/2026-03-10-tiny-fix-plan.md").hexdigest()
        assert_eq!(
            document_path(".vault/plan/2026-03-10-tiny-fix-plan.md"),
            ".vault/data/locks/ce4768a708406e4346461bd1552af4f88cc84fd6.lock"
        );
    }

    #[test]
    fn a_feature_index_sentinel_needs_a_kebab_case_name_windows_allows() {
        assert_eq!(
            feature_index_path("#cache-layer").as_deref(),
            Some(".vault/data/index/cache-layer.lock")
        );
        assert_eq!(
            feature_index_path("v2").as_deref(),
            Some(".vault/data/index/v2.lock")
        );
        for refused in [
            "",
            "Cache",
            "cache--layer",
            "-cache",
            "cache_layer",
            "../x",
            "con",
            "com1",
            "lpt9",
        ] {
            assert_eq!(feature_index_path(refused), None, "{refused}");
        }
        assert!(feature_index_path("com10").is_some() && feature_index_path("console").is_some());
    }

    #[test]
    fn without_a_vault_nothing_is_locked_or_created() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = Dir::open_ambient_dir(tmp.path(), cap_std::ambient_authority()).unwrap();
        assert!(
            acquire(&dir, DOCS_DOMAIN, Duration::from_secs(1))
                .unwrap()
                .is_none()
        );
        assert!(!tmp.path().join(".vault").exists());
    }

    #[test]
    fn a_sentinel_is_never_made_through_a_linked_folder() {
        let (tmp, dir) = workspace();
        std::fs::create_dir(tmp.path().join("src")).unwrap();
        std::os::unix::fs::symlink("../src", tmp.path().join(".vault/data")).unwrap();
        let err = acquire(&dir, DOCS_DOMAIN, Duration::from_secs(1)).unwrap_err();
        assert!(
            format!("{err:#}").contains("`.vault/data` is a symbolic link"),
            "{err:#}"
        );
        assert!(document(&dir, ".vault/adr/a.md").is_err());
        assert_eq!(
            std::fs::read_dir(tmp.path().join("src")).unwrap().count(),
            0,
            "nothing is made through the link"
        );
    }

    #[test]
    fn a_held_sentinel_makes_the_next_writer_wait_then_time_out() {
        let (tmp, dir) = workspace();
        let held = acquire(&dir, DOCS_DOMAIN, Duration::from_secs(1)).unwrap();
        assert!(
            tmp.path().join(DOCS_DOMAIN).is_file(),
            "the sentinel is left on disk"
        );
        let start = Instant::now();
        let err = acquire(&dir, DOCS_DOMAIN, Duration::from_millis(120)).unwrap_err();
        assert!(start.elapsed() >= Duration::from_millis(120));
        assert!(format!("{err:#}").contains("Timed out after 0.12s waiting for the advisory lock on .vault/data/.vault.lock (os layer)"), "{err:#}");
        drop(held);
        acquire(&dir, DOCS_DOMAIN, Duration::from_millis(120)).expect("free once released");
    }
}

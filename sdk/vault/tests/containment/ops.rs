//! The calls of the sandbox's workspace interface, each made on a
//! [`CapStorage`] exactly as `host/src/sandbox/workspace_calls.rs` makes it, under
//! the watchdog, with what it returned checked against the read promise.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use vaultspec_vault::{CapStorage, Storage, StorageError};

use super::OUTSIDE_MARKER;
use super::layout::Built;
use super::watchdog::watched;

/// One workspace call. Path strings may hold `@ROOT` and `@OUT`, replaced by
/// the absolute paths of the workspace and of the outside tree, and start
/// with `@P<k>`, replaced by the `k`th planted path of the layout (modulo
/// their number; `.vault/fifo` when nothing was planted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// `read-file`.
    Read(String),
    /// `read-files` (and `read-ahead`, which reads the same way).
    ReadMany(Vec<String>),
    /// `list-files`.
    List(String),
    /// `exists`.
    Exists(String),
    /// `write-file` with the `n`th content.
    Write(String, u8),
    /// `rename`.
    Rename(String, String),
    /// `remove`.
    Remove(String),
}

/// Which promise a breach breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Promise {
    /// Every call returns.
    Returns,
    /// Nothing outside the workspace root is read.
    Reads,
    /// Nothing outside `.vault/` and `.vaultspec/` is written.
    Writes,
    /// No protected path is created, changed or removed.
    Protected,
}

impl Promise {
    /// The name `CONTAINMENT_PROPERTY` selects it by.
    pub fn name(self) -> &'static str {
        match self {
            Promise::Returns => "returns",
            Promise::Reads => "reads",
            Promise::Writes => "writes",
            Promise::Protected => "protected",
        }
    }
}

/// A broken promise and what showed it.
#[derive(Debug, Clone)]
pub struct Breach {
    pub promise: Promise,
    pub what: String,
}

/// Writes that succeeded in this process so far: a lower bound of the
/// temp-name counter of a storage that numbers its temp files, where the
/// trap window starts.
pub static WRITES_DONE: AtomicU64 = AtomicU64::new(0);

fn expand(path: &str, built: &Built) -> String {
    let path = path
        .replace("@ROOT", &built.root.to_string_lossy())
        .replace("@OUT", &built.outside.to_string_lossy());
    let Some(rest) = path.strip_prefix("@P") else {
        return path;
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let Ok(k) = rest[..digits].parse::<usize>() else {
        return path;
    };
    let planted = match built.planted.len() {
        0 => ".vault/fifo",
        n => built.planted[k % n].as_str(),
    };
    format!("{planted}{}", &rest[digits..])
}

impl Call {
    /// The call with every path expanded for `built`.
    fn expand(&self, built: &Built) -> Call {
        let e = |p: &String| expand(p, built);
        match self {
            Call::Read(p) => Call::Read(e(p)),
            Call::ReadMany(ps) => Call::ReadMany(ps.iter().map(e).collect()),
            Call::List(p) => Call::List(e(p)),
            Call::Exists(p) => Call::Exists(e(p)),
            Call::Write(p, n) => Call::Write(e(p), *n),
            Call::Rename(a, b) => Call::Rename(e(a), e(b)),
            Call::Remove(p) => Call::Remove(e(p)),
        }
    }
}

/// Whether `path` is reached from the root without passing a link: no
/// folder on its way is one, nor (unless `last_may_be_link`) the path
/// itself. The one rule for links inside a workspace is that none is
/// followed, so anything a read or listing gives must be reached so.
fn reached_without_links(root: &Path, path: &str, last_may_be_link: bool) -> bool {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let mut at = root.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        at.push(part);
        let is_link = std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink());
        let last = i + 1 == parts.len();
        if is_link && !(last && last_may_be_link) {
            return false;
        }
    }
    true
}

fn check_read(
    built: &Built,
    path: &str,
    result: &Result<Vec<u8>, StorageError>,
    out: &mut Vec<Breach>,
) {
    let Ok(bytes) = result else { return };
    if contains_marker(bytes) {
        out.push(Breach {
            promise: Promise::Reads,
            what: format!(
                "reading {path:?} returned bytes of a file outside the workspace: {:?}",
                String::from_utf8_lossy(bytes)
            ),
        });
    } else if !reached_without_links(&built.root, path, false) {
        out.push(Breach {
            promise: Promise::Reads,
            what: format!("reading {path:?} succeeded, but only through a link"),
        });
    }
}

fn contains_marker(bytes: &[u8]) -> bool {
    bytes
        .windows(OUTSIDE_MARKER.len())
        .any(|w| w == OUTSIDE_MARKER.as_bytes())
}

/// The bytes the `n`th write puts: never a marker.
pub fn contents(n: u8) -> Vec<u8> {
    format!("written by call {n}\n").into_bytes()
}

/// Make `call` on `storage` and return the promises it broke on its own
/// (the snapshots catch the rest).
pub fn run(storage: &CapStorage, built: &Built, call: &Call) -> Vec<Breach> {
    let mut out = Vec::new();
    let call = call.expand(built);
    let label = format!("{call:?}");
    let ((), hung) = watched(&label, &built.fifos, || match &call {
        Call::Read(path) => {
            let result = storage.read(path);
            check_read(built, path, &result, &mut out);
        }
        Call::ReadMany(paths) => {
            let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
            for (path, result) in refs.iter().zip(storage.read_many(&refs)) {
                check_read(built, path, &result, &mut out);
            }
        }
        Call::List(dir) => {
            // A link is listed as an entry of its own (never entered).
            for entry in storage.list(dir).unwrap_or_default() {
                if !reached_without_links(&built.root, &entry.path, true) {
                    out.push(Breach {
                        promise: Promise::Reads,
                        what: format!(
                            "listing {dir:?} gave {:?}, reached through a linked folder",
                            entry.path
                        ),
                    });
                }
            }
        }
        Call::Exists(path) => {
            if storage.exists(path) == Ok(true) && !reached_without_links(&built.root, path, true) {
                out.push(Breach {
                    promise: Promise::Reads,
                    what: format!("exists({path:?}) said true for a path through a linked folder"),
                });
            }
        }
        Call::Write(path, n) => {
            if storage.write(path, &contents(*n)).is_ok() {
                WRITES_DONE.fetch_add(1, Ordering::Relaxed);
            }
        }
        Call::Rename(from, to) => {
            let _ = storage.rename(from, to);
        }
        Call::Remove(path) => {
            let _ = storage.remove(path);
        }
    });
    if hung {
        out.push(Breach {
            promise: Promise::Returns,
            what: format!(
                "{label} did not return within {:?}",
                super::watchdog::RESCUE
            ),
        });
    }
    out
}

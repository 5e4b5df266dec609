//! Snapshots of what no verb may change: the outside tree, the workspace
//! outside `.vault/` and `.vaultspec/`, and the protected paths, taken
//! without following a single symlink, and the difference of two of them.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use super::layout::PROTECTED;

/// What stands at one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    File { bytes: Vec<u8>, mode: u32 },
    Dir,
    Symlink(PathBuf),
    Fifo,
    Socket,
    Other,
}

/// Every guarded path and what stands there.
pub type Snapshot = BTreeMap<String, Node>;

fn node(path: &Path) -> Option<Node> {
    let meta = fs::symlink_metadata(path).ok()?;
    let kind = meta.file_type();
    Some(if kind.is_symlink() {
        Node::Symlink(fs::read_link(path).unwrap_or_default())
    } else if kind.is_dir() {
        Node::Dir
    } else if kind.is_file() {
        Node::File {
            bytes: fs::read(path).unwrap_or_default(),
            mode: meta.mode(),
        }
    } else if kind.is_fifo() {
        Node::Fifo
    } else if kind.is_socket() {
        Node::Socket
    } else {
        Node::Other
    })
}

/// Record `path` as `label` and, if it is a real folder not in `skip`, all
/// below it.
fn walk(path: &Path, label: &str, skip: &dyn Fn(&str) -> bool, out: &mut Snapshot) {
    let Some(found) = node(path) else { return };
    let is_dir = found == Node::Dir;
    out.insert(label.to_owned(), found);
    if !is_dir || skip(label) {
        return;
    }
    let Ok(entries) = fs::read_dir(path) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        walk(&entry.path(), &format!("{label}/{name}"), skip, out);
    }
}

/// The outside tree (as `@OUT/…`) and the workspace without the inside of
/// `.vault/` and `.vaultspec/` (as `ws/…`; the two entries themselves are
/// recorded, so a root swapped for a symlink or file shows).
pub fn guarded(root: &Path, outside: &Path) -> Snapshot {
    let mut out = Snapshot::new();
    walk(outside, "@OUT", &|_| false, &mut out);
    walk(
        root,
        "ws",
        &|label| label == "ws/.vault" || label == "ws/.vaultspec",
        &mut out,
    );
    out
}

/// The protected paths and all below them, reached through the workspace
/// the way the host reads them.
pub fn protected(root: &Path) -> Snapshot {
    let mut out = Snapshot::new();
    for path in PROTECTED {
        walk(&root.join(path), path, &|_| false, &mut out);
    }
    out
}

fn describe(node: Option<&Node>) -> String {
    match node {
        None => "absent".to_owned(),
        Some(Node::File { bytes, mode }) => {
            let text = String::from_utf8_lossy(&bytes[..bytes.len().min(48)]);
            format!("file {mode:o} {:?}", text)
        }
        Some(other) => format!("{other:?}"),
    }
}

/// One line per path whose entry differs between `before` and `after`.
pub fn diff(before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let keys: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    keys.into_iter()
        .filter(|k| before.get(*k) != after.get(*k))
        .map(|k| {
            format!(
                "{k}: {} -> {}",
                describe(before.get(k)),
                describe(after.get(k))
            )
        })
        .collect()
}

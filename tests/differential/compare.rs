//! Comparing the two runs of one operation: exit codes, every file of the
//! two workspaces byte for byte, and JSON output field by field (wording
//! keys aside, each workspace's absolute path taken out).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use vaultspec_test_support::contract::Contract;

/// Keys whose values are prose, not contract.
const WORDING: [&str; 7] = [
    "message",
    "hint",
    "hints",
    "fix_description",
    "text",
    "summary",
    "detail",
];

/// Every file under `root` by relative path, leaving out what either tool
/// keeps for itself (`.vault/data`, `.vault/logs`, `*.lock`) and the
/// timestamped `.vault/.trash`.
pub fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            // `.vault/.trash/` holds timestamped copies (`exec fold`): never
            // the same bytes twice, so it is left out.
            if matches!(
                relative.as_str(),
                ".vault/data" | ".vault/logs" | ".vault/.trash" | ".git"
            ) || relative.ends_with(".lock")
            {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(relative, std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The first line where two texts differ, for a report.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let a = String::from_utf8_lossy(a);
    let b = String::from_utf8_lossy(b);
    let mut left = a.split_inclusive('\n');
    let mut right = b.split_inclusive('\n');
    for n in 1.. {
        match (left.next(), right.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (x, y) => return format!("line {n}: ref {x:?} / ours {y:?}"),
        }
    }
    unreachable!()
}

/// How the trees differ, one line per file.
pub fn trees(reference: &Path, ours: &Path) -> Vec<String> {
    let a = tree(reference);
    let b = tree(ours);
    let mut out = Vec::new();
    for (path, bytes) in &a {
        match b.get(path) {
            None => out.push(format!("{path}: only the reference has it")),
            Some(other) if other != bytes => {
                out.push(format!("{path}: {}", first_difference(bytes, other)))
            }
            Some(_) => {}
        }
    }
    for path in b.keys().filter(|p| !a.contains_key(*p)) {
        out.push(format!("{path}: only ours has it"));
    }
    out
}

/// Where `ours` departs from the reference's JSON: a missing key, a
/// different value or array length. Keys only ours has are allowed.
pub fn json(reference: &Value, ours: &Value, roots: (&str, &str)) -> Vec<String> {
    Contract {
        wording: &WORDING,
        roots,
        string_sets: false,
    }
    .diff(reference, ours, "$")
}

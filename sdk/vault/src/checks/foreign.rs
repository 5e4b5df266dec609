//! The `foreign` checker (read-only): entries under `.vaultspec/` the
//! framework does not know, and non-markdown files inside the document
//! folders of `.vault/` (runtime folders and excluded subtrees not walked).

use std::collections::BTreeSet;

use crate::doc::{DocType, is_excluded};
use crate::error::Result;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "foreign";

/// Folders allowed at the top of `.vaultspec/` (ours adds `verbs`, where
/// third-party verb components live).
pub const FRAMEWORK_DIRS: [&str; 11] = [
    "agents",
    "mcps",
    "reference",
    "rules",
    "skills",
    "system",
    "templates",
    "_snapshots",
    "hooks",
    "triggers",
    "verbs",
];
/// Files allowed at the top of `.vaultspec/` (besides the `*.lock` files
/// `vaultspec-core` 0.3.9 leaves beside the ones it writes, such as
/// `workspace.json.lock`).
pub const FRAMEWORK_FILES: [&str; 5] = [
    "workspace.json",
    "providers.json",
    "mcp-ownership.json",
    "config.toml",
    "body-schema-baseline.json",
];

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, _opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Foreign);
    let mut seen = BTreeSet::new();
    for entry in snap.storage.list(".vaultspec")? {
        let rest = &entry.path[".vaultspec/".len()..];
        let (top, is_dir) = match rest.split_once('/') {
            Some((d, _)) => (d, true),
            None => (rest, false),
        };
        let known = top.starts_with('.')
            || if is_dir {
                FRAMEWORK_DIRS.contains(&top)
            } else {
                FRAMEWORK_FILES.contains(&top) || top.ends_with(".lock")
            };
        if !known && seen.insert(top.to_string()) {
            let what = if is_dir { "folder" } else { "file" };
            result.findings.push(Finding::new(
                NAME,
                Severity::Warning,
                Some(&format!(".vaultspec/{top}")),
                format!("Unknown {what} `{top}` in `.vaultspec/`: the framework did not place it"),
            ));
        }
    }
    for entry in snap.listing.iter() {
        let name = entry.path.rsplit('/').next().unwrap_or_default();
        // A write's temp file: in flight, or left by a crash for the
        // server's sweep.
        if entry.path.ends_with(".md")
            || crate::storage::temp_name::owner(name).is_some()
            || is_excluded(&entry.path)
            || DocType::of_path(&entry.path).is_none()
        {
            continue;
        }
        result.findings.push(Finding::new(
            NAME,
            Severity::Warning,
            Some(&entry.path),
            "Non-markdown file inside a document folder: move it out of `.vault/`",
        ));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use crate::checks::{Check, Options, run_check};
    use crate::{Date, MemStorage};

    #[test]
    fn a_writes_temp_file_is_not_a_foreign_file() {
        let s = MemStorage::new();
        s.insert(
            ".vault/adr/.2026-01-05-x-adr.md.vs-4242-00ff00ff00ff00ff.tmp",
            "half",
        );
        s.insert(".vault/adr/notes.tmp", "mine");
        let today = Date::new(2026, 11, 30).unwrap();
        let result = run_check(&s, Check::Foreign, &Options::check(today)).unwrap();
        let paths: Vec<_> = result
            .findings
            .iter()
            .filter_map(|f| f.path.as_deref())
            .collect();
        assert_eq!(paths, [".vault/adr/notes.tmp"]);
    }
}

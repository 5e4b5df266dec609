//! The `code-boundary` checker (opt-in, read-only, not part of `check all`):
//! source files outside the vault that name a vault document by its stem
//! (plainly or as `[[stem]]`). Records should cite code, not the other way
//! round; the findings are warnings and never fail a run.

use crate::error::Result;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};

/// Top-level folders never scanned: the vault, the framework, provider
/// folders and build or dependency caches.
const SKIPPED_ROOTS: [&str; 8] = [
    "target",
    "node_modules",
    "dist",
    "build",
    "vendor",
    "venv",
    "__pycache__",
    "site-packages",
];

/// File extensions scanned as source.
const SOURCE_EXTENSIONS: [&str; 24] = [
    "rs", "py", "ts", "tsx", "js", "jsx", "mjs", "go", "java", "kt", "c", "h", "cc", "cpp", "hpp",
    "cs", "rb", "php", "swift", "sh", "toml", "yaml", "yml", "wit",
];

fn scanned(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    let dirs = &parts[..parts.len() - 1];
    if dirs
        .iter()
        .any(|d| d.starts_with('.') || SKIPPED_ROOTS.contains(d))
    {
        return false;
    }
    let name = parts[parts.len() - 1];
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| SOURCE_EXTENSIONS.contains(&ext))
}

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::CodeBoundary);
    let stems: Vec<&str> = snap
        .scoped(opts)
        .filter(|d| !d.generated())
        .map(|d| d.stem())
        .filter(|s| s.len() >= 8)
        .collect();
    if stems.is_empty() {
        return Ok(result);
    }
    for entry in snap.storage.list("")? {
        if !scanned(&entry.path) {
            continue;
        }
        let Ok(bytes) = snap.storage.read(&entry.path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let named: Vec<&str> = stems.iter().copied().filter(|s| text.contains(s)).collect();
        if named.is_empty() {
            continue;
        }
        let list = named
            .iter()
            .take(5)
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ");
        result.findings.push(Finding::new(
            "code-boundary",
            Severity::Warning,
            Some(&entry.path),
            format!(
                "Source file names {} vault document(s): {list}",
                named.len()
            ),
        ));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_source_outside_hidden_and_cache_folders_is_scanned() {
        assert!(scanned("src/lib.rs"));
        assert!(!scanned(".vault/adr/x.md"));
        assert!(!scanned("target/debug/x.rs"));
        assert!(!scanned("README.md"));
    }
}

//! The `feature-rename-integrity` checker (read-only): an exec folder
//! `.vault/exec/<date>-<feature>/` must hold records tagged `#<feature>`. A
//! mismatch is what an interrupted or hand-made feature rename leaves
//! behind, and needs a person to decide which name is right. A record with
//! no feature tag, or tagged with the `#uncategorized` placeholder, has no
//! feature to set against its folder and is skipped, as in `vaultspec-core`
//! 0.3.9.

use crate::error::Result;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};

/// The placeholder tag of a document not yet given a feature.
const UNCATEGORIZED: &str = "uncategorized";

/// The feature segment of an exec folder name (after `yyyy-mm-dd-`).
pub fn folder_feature(folder: &str) -> Option<&str> {
    crate::date::after_date_prefix(folder).filter(|rest| !rest.is_empty())
}

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::FeatureRenameIntegrity);
    for doc in snap.scoped(opts) {
        let Some(rest) = doc.path.strip_prefix(".vault/exec/") else {
            continue;
        };
        let parts: Vec<&str> = rest.split('/').collect();
        let [folder, _file] = parts.as_slice() else {
            continue;
        };
        let Some(expected) = folder_feature(folder) else {
            continue;
        };
        let Some(actual) = doc.feature() else {
            continue;
        };
        if actual != expected && actual != UNCATEGORIZED {
            result.findings.push(
                Finding::new(
                    "feature-rename-integrity",
                    Severity::Error,
                    Some(&doc.path),
                    format!(
                        "exec folder `{folder}` names feature `{expected}` but the record is tagged `#{actual}`: expected folder `{}-{actual}` or tag `#{expected}`",
                        &folder[..10]
                    ),
                )
                .hint("Reconcile the folder name and the feature tag by hand"),
            );
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_feature_needs_a_date_prefix() {
        assert_eq!(
            folder_feature("2026-03-01-cache-layer"),
            Some("cache-layer")
        );
        assert_eq!(folder_feature("cache-layer"), None);
    }
}

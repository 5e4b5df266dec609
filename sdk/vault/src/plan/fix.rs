//! `vault plan check --fix`: the reference's idempotent repair pipeline
//! (spec/plan-format.md §8). It never renumbers: it repairs checkboxes and
//! dashes, trims trailing whitespace, re-serialises and stamps.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use crate::date::Date;
use crate::hash;
use crate::storage::Storage;

use super::check::{Finding, check_plan};
use super::error::PlanError;
use super::parse;
use super::serialise::serialise_plan;
use super::store::WriteOptions;

static DASH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new("[ \t]*[\u{2014}\u{2013}][ \t]*").expect("valid regex"));

/// Runs the fix pipeline on a text; returns the new text (stamped when it
/// changed) and whether it changed.
pub fn fix_plan_text(raw: &str, today: Date) -> (String, bool) {
    let text = parse::normalise(raw);
    let lines: Vec<String> = text
        .split('\n')
        .map(|l| {
            let l = if let Some(rest) = l.strip_prefix("- []") {
                format!("- [ ]{rest}")
            } else if let Some(rest) = l.strip_prefix("- [X]") {
                format!("- [x]{rest}")
            } else {
                l.to_string()
            };
            let l = DASH.replace_all(&l, " - ").into_owned();
            l.trim_end_matches([' ', '\t']).to_string()
        })
        .collect();
    let mut fixed = lines.join("\n");
    if let Ok(plan) = parse::parse_plan(&fixed) {
        fixed = serialise_plan(&plan, false);
    }
    // The serialiser dumps `body_hash` unquoted; the stamp re-quotes it. A
    // plan the pipeline leaves as it was (stamps aside) is unchanged.
    let own_stamp = text
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("modified:"))
        .and_then(|v| Date::parse_strict(v.trim().trim_matches(['\'', '"'])).ok());
    if fixed == raw || own_stamp.is_some_and(|d| hash::refresh_modified_stamp(&fixed, d) == raw) {
        return (raw.to_string(), false);
    }
    (hash::refresh_modified_stamp(&fixed, today), true)
}

/// What `plan check --fix` did to one plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FixReport {
    /// Workspace-relative path.
    pub path: String,
    /// Whether the file changed (and, unless a dry run, was written).
    pub changed: bool,
    /// Blob OID of the file now.
    pub blob_hash: String,
    /// Findings before the fix.
    pub before: Vec<Finding>,
    /// Findings after the fix.
    pub after: Vec<Finding>,
}

/// Fixes the plan at `path` and writes it atomically when it changed
/// (`opts.today` stamps it; a stale `opts.expected_blob_hash` refuses).
pub fn fix_plan(
    storage: &dyn Storage,
    path: &str,
    opts: &WriteOptions,
) -> Result<FixReport, PlanError> {
    let bytes = storage.read(path)?;
    let current = hash::blob_oid(&bytes);
    if let Some(expected) = &opts.expected_blob_hash
        && !expected.eq_ignore_ascii_case(&current)
    {
        return Err(PlanError::Stale {
            path: path.to_string(),
            expected: expected.clone(),
            actual: current,
        });
    }
    let text = String::from_utf8(bytes.clone()).map_err(|_| PlanError::NotUtf8 {
        path: path.to_string(),
    })?;
    let before = check_plan(&text);
    let (fixed, changed) = fix_plan_text(&text, opts.today);
    let after = if changed {
        check_plan(&fixed)
    } else {
        before.clone()
    };
    let out_bytes = if changed { fixed.into_bytes() } else { bytes };
    if changed && !opts.dry_run {
        storage.write(path, &out_bytes)?;
    }
    Ok(FixReport {
        path: path.to_string(),
        changed,
        blob_hash: hash::blob_oid(&out_bytes),
        before,
        after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{check_plan, has_errors};

    #[test]
    fn the_fix_pipeline_repairs_a_hand_written_plan() {
        let raw = "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-01'\nrelated: []\nmodified: '2026-03-01'\n---\n\n# p  \n\n## Steps\n\n### Phase `P01` \u{2013} core\n\nBuild it.\n\n- [X] `P01.S01` - first; `a.rs`.\n- [] `S02` - second; `b.rs`\n";
        let before = check_plan(raw);
        let codes: Vec<&str> = before.iter().map(|f| f.code).collect();
        assert!(
            codes.contains(&"PLAN001") && codes.contains(&"PLAN040") && codes.contains(&"PLAN060"),
            "{codes:?}"
        );
        let (fixed, changed) = fix_plan_text(raw, Date::new(2026, 3, 2).unwrap());
        assert!(changed);
        assert!(
            fixed.contains("date: '2026-03-01'\ntier: L2\nmodified: '2026-03-02'\n"),
            "{fixed}"
        );
        assert!(!fixed.contains("related"), "{fixed}");
        assert!(fixed.contains("### Phase `P01` - core\n"), "{fixed}");
        assert!(
            fixed.contains("- [x] `P01.S01` - first; `a.rs`.\n- [ ] `P01.S02` - second; `b.rs`.\n"),
            "{fixed}"
        );
        assert!(!has_errors(&check_plan(&fixed)), "{:?}", check_plan(&fixed));
        assert_eq!(
            fix_plan_text(&fixed, Date::new(2026, 3, 2).unwrap()),
            (fixed.clone(), false)
        );
    }
}

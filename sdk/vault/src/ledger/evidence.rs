//! Reading evidence out of ledgers (spec/exec-ledger.md §3 "Per-Step
//! evidence", spec/plan-format.md §7 `ExecRecordIndex`): which Steps a
//! ledger covers, and for each the row count and last verify/by.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::frontmatter;
use crate::plan::yaml::{self, Value};
use crate::storage::Storage;

use super::error::LedgerError;
use super::log::is_ledger_stem;
use super::row::{LedgerRow, RowKind};
use super::section::section_rows;

/// What a ledger says about one Step.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StepEvidence {
    /// Number of change rows.
    pub rows: usize,
    /// The result of the last `verify:` row.
    pub verify: Option<String>,
    /// The persona of the last `by:` row.
    pub by: Option<String>,
}

/// Per-Step evidence of a ledger text.
pub fn step_evidence(text: &str) -> BTreeMap<String, StepEvidence> {
    let mut out: BTreeMap<String, StepEvidence> = BTreeMap::new();
    for row in section_rows(text) {
        let Some(step) = row.step.clone() else {
            continue;
        };
        let e = out.entry(step).or_default();
        match &row.kind {
            RowKind::Op(_) => e.rows += 1,
            RowKind::Label(l) if l == "verify" => {
                if let Some(last) = row.cells.last() {
                    e.verify = Some(last.clone());
                }
            }
            RowKind::Label(l) if l == "by" => {
                if let Some(first) = row.cells.first() {
                    e.by = Some(first.clone());
                }
            }
            _ => {}
        }
    }
    out
}

/// Every distinct Step id named by a row in `## Changes`, first-seen order.
pub fn covered_steps(text: &str) -> Vec<String> {
    steps_of(&section_rows(text))
}

/// Every distinct Step id named by `rows`, first-seen order.
pub fn steps_of(rows: &[LedgerRow]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in rows.iter().filter_map(|r| r.step.as_ref()) {
        if !out.contains(s) {
            out.push(s.clone());
        }
    }
    out
}

/// Whether the `## Changes` section holds any row with a Step id.
pub fn section_has_rows(text: &str) -> bool {
    section_rows(text).iter().any(|r| r.step.is_some())
}

/// The frontmatter facts of an exec document the index needs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecMeta {
    /// Feature (first non-directory tag, without `#`).
    pub feature: Option<String>,
    /// Legacy `step_id:`.
    pub step_id: Option<String>,
    /// `related:` items.
    pub related: Vec<String>,
}

/// Reads the feature, `step_id` and `related` of a document text.
pub fn exec_meta(text: &str) -> ExecMeta {
    let Some(split) = frontmatter::split(text) else {
        return ExecMeta::default();
    };
    let mut meta = ExecMeta::default();
    for (key, value) in yaml::parse_mapping(split.yaml(text)) {
        match (key.as_str(), value) {
            ("tags", Value::List(items)) => {
                meta.feature = items.iter().find_map(|v| match v {
                    Value::Str(s) if !is_directory_tag(s) => {
                        Some(crate::doc::tag_name(s).to_string())
                    }
                    _ => None,
                });
            }
            ("step_id", Value::Str(s) | Value::Plain(s)) => meta.step_id = Some(s),
            ("related", Value::List(items)) => {
                // An unquoted `- [[plan]]` is a flow sequence to YAML (and
                // to the reference), not a string: no link.
                let flow: Vec<&str> = split
                    .yaml(text)
                    .lines()
                    .filter_map(|l| l.trim().strip_prefix('-'))
                    .map(str::trim)
                    .filter(|item| item.starts_with('[') || item.starts_with('{'))
                    .collect();
                meta.related = items
                    .into_iter()
                    .filter_map(|v| if let Value::Str(s) = v { Some(s) } else { None })
                    .filter(|s| !flow.contains(&s.as_str()))
                    .collect();
            }
            _ => {}
        }
    }
    meta
}

fn is_directory_tag(t: &str) -> bool {
    crate::doc::DocType::from_exact_tag(t).is_some()
}

/// Which exec documents give evidence for which (feature, Step).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecIndex {
    /// `(feature, S##)` -> the stem of the ledger or legacy record.
    pub by_step: BTreeMap<(String, String), String>,
    /// Exec documents with a feature but no Step evidence, by feature.
    pub unlinked_by_feature: BTreeMap<String, Vec<String>>,
}

impl ExecIndex {
    /// The Step ids with evidence for `feature`.
    pub fn covered(&self, feature: &str) -> BTreeSet<String> {
        // The keys of one feature lie together, from `(feature, "")` on.
        self.by_step
            .range((feature.to_owned(), String::new())..)
            .take_while(|((f, _), _)| f == feature)
            .map(|((_, step), _)| step.clone())
            .collect()
    }
}

/// Builds the evidence index over every document under `.vault/exec/`.
/// The documents are read in batches; the first that cannot be read (in
/// path order) fails the index.
pub fn exec_index(storage: &dyn Storage) -> Result<ExecIndex, LedgerError> {
    let paths: Vec<String> = storage
        .list(".vault/exec")?
        .into_iter()
        .map(|entry| entry.path)
        .filter(|path| {
            path.rsplit('/')
                .next()
                .is_some_and(|name| name.ends_with(".md"))
        })
        .collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut index = ExecIndex::default();
    let mut failed = None;
    storage.read_batches(&refs, &mut |offset, reads| {
        for (path, read) in paths[offset..].iter().zip(reads) {
            match read {
                Ok(bytes) if failed.is_none() => index_one(&mut index, path, bytes),
                Ok(_) => {}
                Err(e) => {
                    failed.get_or_insert(e);
                }
            }
        }
    });
    match failed {
        Some(e) => Err(e.into()),
        None => Ok(index),
    }
}

/// Add the Step evidence of one exec document (`path`, `bytes`) to `index`.
fn index_one(index: &mut ExecIndex, path: &str, bytes: Vec<u8>) {
    let stem = crate::doc::stem_of(path);
    let Ok(text) = String::from_utf8(bytes) else {
        return;
    };
    let meta = exec_meta(&text);
    let Some(feature) = meta.feature else {
        return;
    };
    if is_ledger_stem(stem) {
        for step in covered_steps(&text) {
            index
                .by_step
                .insert((feature.clone(), step), stem.to_string());
        }
    } else if let Some(step) = meta.step_id {
        index.by_step.insert((feature, step), stem.to_string());
    } else {
        index
            .unlinked_by_feature
            .entry(feature)
            .or_default()
            .push(stem.to_string());
    }
}

/// The status of the plan at `path` with `exec_missing_ids` filled from the
/// ledgers of its feature.
pub fn plan_status_with_evidence(
    storage: &dyn Storage,
    path: &str,
) -> Result<crate::plan::PlanStatus, LedgerError> {
    let doc = crate::plan::load_plan(storage, path)?;
    let covered = match doc.plan.frontmatter.feature() {
        Some(f) => exec_index(storage)?.covered(f),
        None => BTreeSet::new(),
    };
    Ok(crate::plan::plan_status(&doc.plan, Some(&covered)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feature_covers_its_own_steps_only() {
        let mut index = ExecIndex::default();
        for (feature, step) in [
            ("a", "S01"),
            ("a", "S03"),
            ("a-b", "S02"),
            ("ab", "S04"),
            ("", "S05"),
        ] {
            index
                .by_step
                .insert((feature.into(), step.into()), format!("{feature}-{step}"));
        }
        let steps = |f: &str| index.covered(f).into_iter().collect::<Vec<_>>();
        assert_eq!(steps("a"), ["S01", "S03"]);
        assert_eq!(steps("a-b"), ["S02"]);
        assert_eq!(steps(""), ["S05"]);
        assert!(steps("b").is_empty());
    }

    #[test]
    fn the_last_verify_and_by_win() {
        let t = "## Changes\n\n<!-- - `S09` `A` `x` -->\n- `S01` `A` `a`\n- `S01` `verify:` `t` -> `pass`\n- `S01` `verify:` `t` -> `fail`\n- `S01` `by:` `me`\n- `S02` `T`\n";
        let e = step_evidence(t);
        assert_eq!(
            e["S01"],
            StepEvidence {
                rows: 1,
                verify: Some("fail".into()),
                by: Some("me".into())
            }
        );
        assert_eq!(covered_steps(t), vec!["S01", "S02"]);
    }
}

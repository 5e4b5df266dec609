//! `vault exec fold` (spec/exec-ledger.md §5): legacy per-Step exec records
//! of one plan folded into its ledger. The ledger is written and verified
//! first; only then is each folded record copied into a snapshot under
//! `.vault/.trash/` ([`crate::trash`]) and removed. Nothing recovered means
//! nothing removed.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::date::Date;
use crate::doc::DocType;
use crate::hash;
use crate::pattern::Pattern;
use crate::plan::{self, PLAN_DIR, Plan, PlanError, load_plan, resolve_plan};
use crate::storage::Storage;
use crate::template::{self, Fill};
use crate::trash::Snapshot;

use super::error::LedgerError;
use super::evidence::{exec_meta, section_has_rows};
use super::log::{is_ledger_stem, ledger_path};
use super::row::{LedgerRow, Op, RowKind, render_note};
use super::section::{append_notes, append_rows, find_section, section_rows, strip_comments};

static SCOPE_CELL: Pattern = Pattern::new(r"`([^`]*)`");
static PHASE_SUMMARY: Pattern = Pattern::new(r"-(P\d{2,}[a-z]?)-summary$");

/// One record the fold looked at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FoldedRecord {
    /// Workspace-relative path.
    pub path: String,
    /// `folded`, `skipped`, `removed_summary` or `kept_summary`.
    pub status: &'static str,
    /// Why a record was skipped or kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What a fold did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FoldReport {
    /// The ledger path.
    pub ledger: String,
    /// Whether the ledger changed.
    pub changed: bool,
    /// Rows recovered.
    pub rows: usize,
    /// Notes recovered.
    pub notes: usize,
    /// Every record looked at.
    pub records: Vec<FoldedRecord>,
    /// Whether this was a dry run.
    pub dry_run: bool,
}

/// What one legacy record contributes to its ledger.
pub(crate) struct Recovered {
    pub(crate) path: String,
    pub(crate) step: String,
    pub(crate) rows: Vec<LedgerRow>,
    pub(crate) notes: Vec<String>,
    /// The distinct paths its change rows name.
    pub(crate) paths: BTreeSet<String>,
}

/// The rows and notes of one legacy record of Step `step`, as the
/// reference recovers them. A record with `## Changes` (the body-v2 shape)
/// keeps its change and label rows and its `## Notes` lines, each under its
/// own Step cell or else `step`; one without (body-v1) gives a `T` row per
/// backticked cell of `## Scope`. A record that names no path still gives a
/// bare `T` row, so its Step stays covered.
pub(crate) fn recover(path: &str, text: &str, step: &str) -> Recovered {
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut paths = BTreeSet::new();
    if find_section(text, "Changes").is_some() {
        for r in section_rows(text) {
            match &r.kind {
                RowKind::Op(_) => {
                    paths.extend(r.cells.iter().cloned());
                    rows.push(LedgerRow {
                        step: Some(step.to_string()),
                        ..r
                    });
                }
                RowKind::Label(_) => rows.push(LedgerRow {
                    step: Some(step.to_string()),
                    ..r
                }),
                RowKind::Bare => {}
            }
        }
        if let Some(sec) = find_section(text, "Notes") {
            for line in strip_comments(&text[sec.head_end..sec.end]).lines() {
                if line.trim().is_empty() {
                    continue;
                }
                let (keyed, body) = match super::row::parse_note(line) {
                    Some((s, body)) => (s, body),
                    None => (
                        step.to_string(),
                        line.trim()
                            .trim_start_matches(['-', '*', ' '])
                            .trim()
                            .to_string(),
                    ),
                };
                notes.push(render_note(&keyed, &body));
            }
        }
    } else if let Some(sec) = find_section(text, "Scope") {
        let mut seen = BTreeSet::new();
        for c in SCOPE_CELL.captures_iter(&text[sec.head_end..sec.end]) {
            let cell = c[1].trim();
            if !cell.is_empty() && seen.insert(cell.to_string()) {
                paths.insert(cell.to_string());
                rows.push(LedgerRow::change(step, Op::T, vec![cell.to_string()]));
            }
        }
    }
    if !rows.iter().any(|r| matches!(r.kind, RowKind::Op(_))) {
        rows.insert(0, LedgerRow::change(step, Op::T, Vec::new()));
    }
    Recovered {
        path: path.to_string(),
        step: step.to_string(),
        rows,
        notes,
        paths,
    }
}

fn step_number(id: &str) -> u64 {
    plan::parse_id(id).map_or(u64::MAX, |p| p.number)
}

/// Folds the legacy records of `feature`'s plan into its ledger. Without
/// `force` a ledger that already holds logged rows is not merged into.
///
/// The ledger write, the trash copies and the removals are one batch,
/// applied all or nothing ([`crate::ops::transaction`]).
pub fn fold(
    storage: &dyn Storage,
    feature: &str,
    today: Date,
    force: bool,
    dry_run: bool,
) -> Result<FoldReport, LedgerError> {
    if dry_run {
        return fold_in(storage, feature, today, force, true);
    }
    crate::ops::recover(storage)?;
    let staged = crate::ops::staged::Staged::new(storage);
    let report = fold_in(&staged, feature, today, force, false)?;
    staged.commit()?;
    Ok(report)
}

/// Where exec folders and flat records live.
const EXEC_DIR: &str = ".vault/exec";

/// The files of `feature`'s exec folders (`.vault/exec/*-<feature>/`) and
/// its flat records (`.vault/exec/*-<feature>-exec.md`), by path.
fn exec_sources(storage: &dyn Storage, feature: &str) -> Result<Vec<String>, LedgerError> {
    let folder_suffix = format!("-{feature}");
    let flat_suffix = format!("-{feature}-exec.md");
    let mut out = Vec::new();
    for entry in storage.list(EXEC_DIR)? {
        let Some(rest) = entry
            .path
            .strip_prefix(EXEC_DIR)
            .map(|r| r.trim_start_matches('/'))
        else {
            continue;
        };
        let ours = match rest.split_once('/') {
            Some((folder, _)) => folder.ends_with(&folder_suffix),
            None => rest.ends_with(&flat_suffix),
        };
        if ours && entry.path.ends_with(".md") {
            out.push(entry.path);
        }
    }
    Ok(out)
}

/// The plan the first record linking one names (`related:` item ending in
/// `-plan`), when that plan exists.
fn linked_plan(storage: &dyn Storage, sources: &[String]) -> Option<String> {
    for path in sources {
        let Some(text) = storage
            .read(path)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
        else {
            continue;
        };
        let meta = exec_meta(&text);
        let stem = meta
            .related
            .iter()
            .filter_map(|item| crate::doc::wiki_target(item))
            .find(|stem| stem.ends_with("-plan"));
        if let Some(stem) = stem {
            let plan = format!("{PLAN_DIR}/{stem}.md");
            return storage.exists(&plan).unwrap_or(false).then_some(plan);
        }
    }
    None
}

/// [`fold`], writing straight to `storage` (which the caller stages).
fn fold_in(
    storage: &dyn Storage,
    feature: &str,
    today: Date,
    force: bool,
    dry_run: bool,
) -> Result<FoldReport, LedgerError> {
    let feature = crate::doc::feature_arg(feature).to_string();
    // As the reference: the feature's exec folders (or flat records from
    // before folders) come first, and the plan is the one their records
    // link to, so a feature with two plans still folds into the right one.
    let sources = exec_sources(storage, &feature)?;
    if sources.is_empty() {
        return Err(LedgerError::NoExecFolder { feature });
    }
    let plan_path = match linked_plan(storage, &sources) {
        Some(path) => Ok(path),
        None => resolve_plan(storage, &feature, false),
    }
    .map_err(|e| match e {
        PlanError::PlanNotFound { near, .. } => LedgerError::PlanNotFound {
            feature: feature.clone(),
            stem: String::new(),
            near,
        },
        other => other.into(),
    })?;
    let stem = crate::doc::stem_of(&plan_path).to_owned();
    let plan: Plan = load_plan(storage, &plan_path)?.plan;
    let date = Date::parse_lenient(&plan.frontmatter.date)
        .ok()
        .or_else(|| stem.get(..10).and_then(|d| Date::parse_lenient(d).ok()))
        .ok_or_else(|| LedgerError::NoPlanDate { stem: stem.clone() })?;
    let ledger = ledger_path(date, &feature);
    let folder = ledger.rsplit_once('/').map_or("", |(d, _)| d).to_string();

    let mut report = FoldReport {
        ledger: ledger.clone(),
        changed: false,
        rows: 0,
        notes: 0,
        records: Vec::new(),
        dry_run,
    };
    let mut recovered = Vec::new();
    let mut summaries = Vec::new();
    for entry in storage.list(&folder)? {
        let Some(name) = entry
            .path
            .rsplit('/')
            .next()
            .and_then(|n| n.strip_suffix(".md"))
        else {
            continue;
        };
        if entry.path == ledger || is_ledger_stem(name) {
            continue;
        }
        if let Some(c) = PHASE_SUMMARY.captures(name) {
            summaries.push((entry.path.clone(), c[1].to_string()));
            continue;
        }
        let Ok(text) = String::from_utf8(storage.read(&entry.path)?) else {
            report.records.push(FoldedRecord {
                path: entry.path,
                status: "skipped",
                reason: Some("not utf-8".into()),
            });
            continue;
        };
        match exec_meta(&text).step_id {
            Some(step) => recovered.push(recover(&entry.path, &text, &step)),
            None => report.records.push(FoldedRecord {
                path: entry.path,
                status: "skipped",
                reason: Some("no `step_id:`".into()),
            }),
        }
    }
    recovered.sort_by_key(|r| (step_number(&r.step), r.path.clone()));
    let rows: Vec<LedgerRow> = recovered
        .iter()
        .flat_map(|r| r.rows.iter().cloned())
        .collect();
    let notes: Vec<String> = recovered
        .iter()
        .flat_map(|r| r.notes.iter().cloned())
        .collect();

    let (text, existed) = if storage.exists(&ledger)? {
        let t = String::from_utf8(storage.read(&ledger)?).map_err(|_| LedgerError::NotUtf8 {
            path: ledger.clone(),
        })?;
        (t, true)
    } else {
        let tpl = template::load(storage, DocType::Exec)?;
        let related = vec![format!("[[{stem}]]")];
        let fill = Fill {
            feature: &feature,
            date,
            title: None,
            tier: None,
            plan_stem: Some(&stem),
            related: &related,
        };
        (template::hydrate(&tpl, &fill), false)
    };
    if existed && !force && section_has_rows(&text) && !recovered.is_empty() {
        return Err(LedgerError::Recovery {
            path: ledger,
            reason: "the ledger already holds logged rows; pass `--force` to merge the legacy records into it".into(),
        });
    }
    let (with_rows, _) = append_rows(&text, &rows)?;
    let (with_notes, _) = append_notes(&with_rows, &notes);
    report.rows = rows.len();
    report.notes = notes.len();
    report.changed = with_notes != text;
    let final_text = if report.changed {
        hash::refresh_modified_stamp(&with_notes, today)
    } else {
        text.clone()
    };

    // The ledger must hold every recovered row and note before anything goes.
    let lines: BTreeSet<&str> = final_text.lines().map(str::trim).collect();
    let complete = rows.iter().all(|r| lines.contains(r.render().as_str()))
        && notes.iter().all(|n| lines.contains(n.trim()));
    let covered: BTreeSet<String> = section_rows(&final_text)
        .into_iter()
        .filter_map(|r| r.step)
        .collect();
    if dry_run || recovered.is_empty() {
        report
            .records
            .extend(recovered.iter().map(|r| FoldedRecord {
                path: r.path.clone(),
                status: "folded",
                reason: None,
            }));
        return Ok(report);
    }
    if !complete {
        return Err(LedgerError::Recovery {
            path: ledger,
            reason: "the ledger would not hold every recovered row; nothing was removed".into(),
        });
    }
    if report.changed {
        storage.write(&ledger, final_text.as_bytes())?;
        if storage.read(&ledger)? != final_text.as_bytes() {
            return Err(LedgerError::Recovery {
                path: ledger,
                reason: "the ledger did not read back as written; nothing was removed".into(),
            });
        }
    }
    let mut removals = Vec::new();
    for r in &recovered {
        removals.push(r.path.clone());
        report.records.push(FoldedRecord {
            path: r.path.clone(),
            status: "folded",
            reason: None,
        });
    }
    for (path, phase) in summaries {
        let steps: Vec<&plan::Step> = plan
            .steps
            .iter()
            .filter(|s| {
                s.phase
                    .and_then(|k| plan.phase_by_key(k))
                    .is_some_and(|p| p.id == phase)
            })
            .collect();
        if !steps.is_empty() && steps.iter().all(|s| covered.contains(&s.id)) {
            removals.push(path.clone());
            report.records.push(FoldedRecord {
                path,
                status: "removed_summary",
                reason: None,
            });
        } else {
            report.records.push(FoldedRecord {
                path,
                status: "kept_summary",
                reason: Some(format!("not every step of `{phase}` has rows")),
            });
        }
    }
    // A copy of each first, in a snapshot of its own (so an earlier fold's
    // copies are never overwritten), then the removals.
    let (day, seconds) = Date::now_utc();
    let mut snapshot = Snapshot::new("exec_fold", day, seconds);
    snapshot.capture(storage, &removals)?;
    for path in &removals {
        storage.remove(path)?;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;

    const PLAN: &str = "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-01'\ntier: L2\n---\n\n# p\n\n## Steps\n\n### Phase `P01` - a\n\nI.\n\n- [x] `P01.S01` - a; `x`.\n- [x] `P01.S02` - b; `y`.\n";

    #[test]
    fn legacy_records_fold_into_the_ledger_and_go_to_the_trash() {
        let s = MemStorage::new();
        s.insert(".vault/plan/2026-03-01-f-plan.md", PLAN);
        let dir = ".vault/exec/2026-03-01-f";
        s.insert(
            &format!("{dir}/2026-03-01-f-S02.md"),
            "---\ntags:\n  - '#exec'\n  - '#f'\ndate: '2026-03-01'\nstep_id: S02\n---\n\n# r\n\n## Changes\n\n- `M` `src/y.rs`\n\n## Notes\n\n- skipped a test\n",
        );
        s.insert(
            &format!("{dir}/2026-03-01-f-S01.md"),
            "---\ntags:\n  - '#exec'\n  - '#f'\ndate: '2026-03-01'\nstep_id: S01\n---\n\n# r\n\n## Scope\n\n- `src/x.rs` and `src/x.rs`\n",
        );
        s.insert(
            &format!("{dir}/2026-03-01-f-P01-summary.md"),
            "---\ntags:\n  - '#exec'\n  - '#f'\n---\n\n# s\n",
        );
        let r = fold(&s, "f", Date::new(2026, 3, 5).unwrap(), false, false).unwrap();
        assert!(r.changed);
        let ledger =
            String::from_utf8(s.read(&format!("{dir}/2026-03-01-f-ledger.md")).unwrap()).unwrap();
        let body = ledger.split("## Changes").nth(1).unwrap();
        assert!(
            body.contains("- `S01` `T` `src/x.rs`\n- `S02` `M` `src/y.rs`\n"),
            "{ledger}"
        );
        assert!(
            ledger.contains("## Notes\n\n- `S02` skipped a test\n"),
            "{ledger}"
        );
        assert!(!s.exists(&format!("{dir}/2026-03-01-f-S01.md")).unwrap());
        assert!(
            !s.exists(&format!("{dir}/2026-03-01-f-P01-summary.md"))
                .unwrap()
        );
        let copies = s.list(".vault/.trash").unwrap();
        assert!(
            copies.iter().any(|e| e
                .path
                .ends_with("-exec_fold/exec/2026-03-01-f/2026-03-01-f-S02.md")),
            "{copies:?}"
        );
    }
}

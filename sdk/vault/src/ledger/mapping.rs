//! The `exec-mapping` check (spec/exec-ledger.md §7, read-only): every exec
//! document against its parent plan, then every live plan's closed Steps
//! against the ledger rows that should cover them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::plan::{PLAN_DIR, Plan, Severity, list_plans, load_plan};
use crate::storage::{Storage, StorageError};

use super::error::LedgerError;
use super::evidence::{exec_meta, steps_of};
use super::log::is_ledger_stem;
use super::row::{Op, RowKind};
use super::section::{malformed_rows, section_rows, unclosed_fence};

/// One finding of the exec-mapping check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MappingFinding {
    /// Severity (INFO findings are work in flight).
    pub severity: Severity,
    /// The exec document or plan concerned.
    pub path: String,
    /// What was found and what to do.
    pub message: String,
}

#[derive(Default)]
struct PlanFacts {
    covered: BTreeSet<String>,
    native: bool,
    unattributable: bool,
}

enum Parent<'p> {
    Live(String, Option<&'p Plan>),
    Archived,
    Missing(String),
}

/// Live plans parsed once per run (`None`: the plan does not load), since
/// every ledger of a plan and the closing pass over plans all read it.
#[derive(Default)]
struct Plans(HashMap<String, Option<Plan>>);

impl Plans {
    fn get(&mut self, storage: &dyn Storage, path: &str) -> Option<&Plan> {
        self.0
            .entry(path.to_string())
            .or_insert_with(|| load_plan(storage, path).ok().map(|d| d.plan))
            .as_ref()
    }
}

fn parent<'p>(
    storage: &dyn Storage,
    plans: &'p mut Plans,
    related: &[String],
) -> Result<Parent<'p>, LedgerError> {
    let mut first = None;
    for link in related {
        let stem = link
            .trim()
            .trim_start_matches("[[")
            .trim_end_matches("]]")
            .to_string();
        let live = format!("{PLAN_DIR}/{stem}.md");
        if storage.exists(&live)? {
            return Ok(Parent::Live(stem, plans.get(storage, &live)));
        }
        if storage.exists(&format!(".vault/_archive/plan/{stem}.md"))? {
            return Ok(Parent::Archived);
        }
        first.get_or_insert(stem);
    }
    Ok(Parent::Missing(first.unwrap_or_default()))
}

/// What in a ledger `vault exec log` would refuse to append to, found
/// before the next log does: a code fence never closed, and every item of
/// `## Changes` that is not a row with a Step cell.
fn unparsable(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    if let Some(line) = unclosed_fence(text) {
        out.push((line, "this code fence is never closed, so the rows after it cannot be read; close it with a matching fence line".to_string()));
    }
    for (line, row) in malformed_rows(text) {
        out.push((line, format!("`{row}` is not a ledger row (expected `- `S##` `OP` `path``, `- `S##` verify: ...` or `- `S##` by: ...`); `vault exec log` refuses this ledger until it is fixed by hand")));
    }
    out
}

/// Runs the check over `.vault/exec/` and `.vault/plan/`, optionally for
/// one feature.
pub fn exec_mapping(
    storage: &dyn Storage,
    feature: Option<&str>,
) -> Result<Vec<MappingFinding>, LedgerError> {
    let feature = feature.map(crate::doc::feature_arg);
    let mut out = Vec::new();
    let mut facts: BTreeMap<String, PlanFacts> = BTreeMap::new();
    let mut plans = Plans::default();
    let mut push = |severity, path: &str, message: String| {
        out.push(MappingFinding {
            severity,
            path: path.to_string(),
            message,
        })
    };
    for entry in storage.list(".vault/exec")? {
        if !entry.path.ends_with(".md") {
            continue;
        }
        // A ledger that cannot be read or decoded is reported by `encoding`.
        let bytes = match storage.read(&entry.path) {
            Ok(bytes) => bytes,
            Err(e @ StorageError::BudgetExceeded { .. }) => return Err(e.into()),
            Err(_) => continue,
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let meta = exec_meta(&text);
        if feature.is_some() && meta.feature.as_deref() != feature {
            continue;
        }
        let ledger = is_ledger_stem(crate::doc::stem_of(&entry.path));
        if ledger {
            for (line, message) in unparsable(&text) {
                push(
                    Severity::Error,
                    &entry.path,
                    format!("line {line}: {message}"),
                );
            }
        }
        let rows = if ledger {
            section_rows(&text)
        } else {
            Vec::new()
        };
        let steps: Vec<String> = if ledger {
            steps_of(&rows)
        } else {
            meta.step_id.clone().into_iter().collect()
        };
        let p = parent(storage, &mut plans, &meta.related)?;
        if steps.is_empty() {
            if !ledger && let Parent::Live(stem, _) = &p {
                facts.entry(stem.clone()).or_default().unattributable = true;
            }
            continue;
        }
        match p {
            Parent::Archived => {}
            Parent::Missing(stem) => push(
                Severity::Warning,
                &entry.path,
                format!(
                    "execution record declares step `{}` but its parent plan `{stem}` was not found live or archived",
                    steps[0]
                ),
            ),
            Parent::Live(stem, None) => push(
                Severity::Warning,
                &entry.path,
                format!("parent plan `{stem}` does not parse; fix it with `vault plan check`"),
            ),
            Parent::Live(stem, Some(plan)) => {
                let f = facts.entry(stem.clone()).or_default();
                if ledger {
                    f.native |= rows
                        .iter()
                        .any(|r| r.step.is_some() && !matches!(r.kind, RowKind::Op(Op::T)));
                    for s in &steps {
                        f.covered.insert(s.clone());
                        if plan.retired.steps.contains(s) {
                            continue;
                        }
                        match plan.steps.iter().find(|x| &x.id == s) {
                            Some(x) if x.checked => {}
                            Some(_) => push(
                                Severity::Info,
                                &entry.path,
                                format!(
                                    "ledger has rows for step `{s}`, which is still open (work in flight)"
                                ),
                            ),
                            None => push(
                                Severity::Warning,
                                &entry.path,
                                format!(
                                    "ledger row names step `{s}`, which does not exist in parent plan `{stem}`"
                                ),
                            ),
                        }
                    }
                } else {
                    f.covered.extend(steps.iter().cloned());
                    push(
                        Severity::Error,
                        &entry.path,
                        format!(
                            "per-step execution record for `{}`; fold it into the ledger with `vault exec fold --feature {} --force`",
                            steps[0],
                            meta.feature.clone().unwrap_or_default()
                        ),
                    );
                }
            }
        }
    }
    for entry in list_plans(storage)? {
        if feature.is_some() && entry.feature.as_deref() != feature {
            continue;
        }
        let Some(plan) = plans.get(storage, &entry.path) else {
            continue;
        };
        let f = facts.remove(&entry.stem).unwrap_or_default();
        let missing: Vec<&str> = plan
            .steps
            .iter()
            .filter(|s| s.checked && !f.covered.contains(&s.id))
            .map(|s| s.id.as_str())
            .collect();
        if missing.is_empty() {
            continue;
        }
        let list = missing
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let (severity, tail) = if f.native {
            (Severity::Error, "log them with `vault exec log`")
        } else if f.unattributable {
            (
                Severity::Info,
                "legacy records without a step may cover them",
            )
        } else {
            (Severity::Warning, "the plan has no logged ledger yet")
        };
        out.push(MappingFinding {
            severity,
            path: entry.path,
            message: format!("closed steps without ledger rows: {list}; {tail}"),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;

    #[test]
    fn open_steps_with_rows_are_info_and_closed_steps_without_are_reported() {
        let s = MemStorage::new();
        s.insert(".vault/plan/2026-03-01-f-plan.md", "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-01'\ntier: L1\n---\n\n# p\n\n## Steps\n\n- [ ] `S01` - a; `x`.\n- [x] `S02` - b; `y`.\n");
        s.insert(".vault/plan/2026-03-02-g-plan.md", "---\ntags:\n  - '#plan'\n  - '#g'\ndate: '2026-03-02'\ntier: L1\n---\n\n# p\n\n## Steps\n\n- [x] `S01` - a; `x`.\n");
        s.insert(
            ".vault/exec/2026-03-01-f/2026-03-01-f-ledger.md",
            "---\ntags:\n  - '#exec'\n  - '#f'\nrelated:\n  - \"[[2026-03-01-f-plan]]\"\n---\n\n# l\n\n## Changes\n\n- `S01` `A` `x`\n- `S07` `A` `z`\n",
        );
        let f = exec_mapping(&s, None).unwrap();
        let sev: Vec<Severity> = f.iter().map(|x| x.severity).collect();
        assert_eq!(
            sev,
            vec![
                Severity::Info,
                Severity::Warning,
                Severity::Error,
                Severity::Warning
            ],
            "{f:?}"
        );
        assert!(f[2].message.contains("`S02`"));
        assert!(f[3].message.contains("no logged ledger"));
    }
}

//! The `exec-mapping` check (spec/exec-ledger.md §7, read-only): every exec
//! document against its parent plan, then every live plan's closed Steps
//! against the ledger rows that should cover them.
//!
//! Records are paired with plans exactly as `vaultspec-core` 0.3.9 pairs
//! them, so older vaults get the same findings from both tools:
//!
//! - a document's `related:` and `step_id:` are read as YAML reads them
//!   (an unquoted `- [[plan]]` is a nested list, not a link);
//! - its parent is the first `related:` wiki-link (`[[stem]]`, `#anchor` and
//!   `|alias` dropped; plain text is no link) naming a live plan, even after
//!   one naming an archived plan; with no live one it is archived if any
//!   link names an archived plan, and missing otherwise;
//! - a per-Step record (a non-ledger document with `step_id:`) is an error
//!   whatever its parent, and covers its Step when the parent is live;
//! - a ledger whose live parent does not parse is reported on the plan;
//!
//! Beyond the reference, a ledger whose `## Changes` holds an item that is
//! not a row, or a code fence never closed, is an error here: the next
//! `vault exec log` would refuse that ledger, and this names the line first.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use serde::Serialize;

use crate::plan::{PLAN_DIR, Plan, Severity, live_plan_paths, parse_plan};
use crate::storage::{Storage, StorageError};

use super::error::LedgerError;
use super::evidence::{ExecMeta, exec_meta, steps_of};
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

/// The stem a `related:` item names, as the reference reads it: the text
/// after a leading `[[` up to the first `]`, `#` or `|`, trimmed. An item
/// that is not a wiki-link names nothing.
fn link_stem(item: &str) -> Option<&str> {
    let inner = item.trim().strip_prefix("[[")?;
    let end = inner.find([']', '#', '|']).unwrap_or(inner.len());
    Some(inner[..end].trim()).filter(|s| !s.is_empty())
}

/// What the check reads of a parsed plan, and all a memo keeps of it: a
/// server holds one for every plan of its vault, and the whole [`Plan`]
/// (every Step's text, the waves, the prose) is many times larger.
#[derive(Debug)]
struct PlanSteps {
    /// The plan's feature, as its frontmatter names it.
    feature: Option<String>,
    /// Each Step's id and whether its box is checked, in document order.
    steps: Vec<(String, bool)>,
    /// The ids of the retired Steps.
    retired: BTreeSet<String>,
}

impl PlanSteps {
    fn of(plan: Plan) -> PlanSteps {
        PlanSteps {
            feature: plan.frontmatter.feature().map(str::to_owned),
            steps: plan.steps.into_iter().map(|s| (s.id, s.checked)).collect(),
            retired: plan.retired.steps,
        }
    }
}

enum Parent {
    Live(String, Option<Arc<PlanSteps>>),
    Archived,
    Missing(String),
}

/// What the check reads of each file, kept between runs: a ledger's facts
/// and a plan's parse, each with the SHA-1 of the text it was made from,
/// so a file is parsed again only when its bytes changed. Whoever runs the
/// check again and again (a server) keeps one; a file that cannot be read
/// is never kept, and entries of files gone are dropped at the next run.
#[derive(Debug, Clone)]
pub struct MappingMemo {
    /// Whether anything is kept: a one-shot run neither hashes nor keeps.
    keep: bool,
    /// By path, the git blob id of the bytes read and what they hold.
    ledgers: HashMap<String, (String, Arc<LedgerFacts>)>,
    plans: HashMap<String, (String, Option<Arc<PlanSteps>>)>,
}

impl Default for MappingMemo {
    fn default() -> Self {
        Self {
            keep: true,
            ledgers: HashMap::new(),
            plans: HashMap::new(),
        }
    }
}

/// What the check needs of one exec document.
#[derive(Debug)]
struct LedgerFacts {
    meta: ExecMeta,
    /// Lines of a ledger that `vault exec log` would refuse.
    unparsable: Vec<(usize, String)>,
    /// The Steps it covers: a ledger's row Steps, or a record's `step_id:`.
    steps: Vec<String>,
    /// A ledger with a row for a Step that is not a tier-T row.
    native: bool,
}

impl LedgerFacts {
    fn read(text: &str, ledger: bool) -> LedgerFacts {
        // `related:` and `step_id:` as YAML reads them, as the reference's
        // graph does: an unquoted `- [[plan]]` is a nested list, no link.
        let meta = exec_meta(text);
        if !ledger {
            let steps = meta.step_id.clone().into_iter().collect();
            return LedgerFacts {
                meta,
                unparsable: Vec::new(),
                steps,
                native: false,
            };
        }
        let rows = section_rows(text);
        LedgerFacts {
            meta,
            unparsable: unparsable(text),
            steps: steps_of(&rows),
            native: rows
                .iter()
                .any(|r| r.step.is_some() && !matches!(r.kind, RowKind::Op(Op::T))),
        }
    }
}

impl MappingMemo {
    /// A memo for a single run: nothing is hashed or kept.
    pub fn once() -> Self {
        Self {
            keep: false,
            ..Self::default()
        }
    }

    /// The facts of the exec document at `path` kept under the blob id
    /// `storage` knows for it, if any: its bytes need not be read.
    fn known_ledger(&self, storage: &dyn Storage, path: &str) -> Option<Arc<LedgerFacts>> {
        if !self.keep {
            return None;
        }
        let blob = storage.known_blob(path)?;
        let (kept, facts) = self.ledgers.get(path)?;
        (*kept == blob).then(|| facts.clone())
    }

    /// The facts of the exec document at `path` with `bytes`; `None` when
    /// it is not UTF-8 (the `encoding` check reports it).
    fn ledger(&mut self, path: &str, bytes: &[u8]) -> Option<Arc<LedgerFacts>> {
        let read = || {
            let text = std::str::from_utf8(bytes).ok()?;
            let ledger = is_ledger_stem(crate::doc::stem_of(path));
            Some(Arc::new(LedgerFacts::read(text, ledger)))
        };
        if !self.keep {
            return read();
        }
        let blob = crate::hash::blob_oid(bytes);
        if let Some((kept, facts)) = self.ledgers.get(path)
            && *kept == blob
        {
            return Some(facts.clone());
        }
        let facts = read()?;
        self.ledgers.insert(path.to_owned(), (blob, facts.clone()));
        Some(facts)
    }

    /// The plan at `path` parsed (`None`: it cannot be read or does not
    /// parse).
    fn plan(&mut self, storage: &dyn Storage, path: &str) -> Option<Arc<PlanSteps>> {
        if self.keep
            && let Some(blob) = storage.known_blob(path)
            && let Some((kept, plan)) = self.plans.get(path)
            && *kept == blob
        {
            return plan.clone();
        }
        let bytes = storage.read(path).ok()?;
        let parse = || {
            std::str::from_utf8(&bytes)
                .ok()
                .and_then(|text| parse_plan(text).ok())
                .map(|plan| Arc::new(PlanSteps::of(plan)))
        };
        if !self.keep {
            return parse();
        }
        let blob = crate::hash::blob_oid(&bytes);
        if let Some((kept, plan)) = self.plans.get(path)
            && *kept == blob
        {
            return plan.clone();
        }
        let plan = parse();
        self.plans.insert(path.to_owned(), (blob, plan.clone()));
        plan
    }

    /// Drop the entries of files not seen in the run that saw `seen`.
    fn retain(&mut self, seen: &HashSet<String>) {
        self.ledgers.retain(|path, _| seen.contains(path));
        self.plans.retain(|path, _| seen.contains(path));
    }
}

/// Live plans parsed once per run (`None`: the plan does not load), since
/// every ledger of a plan and the closing pass over plans all read it.
struct Plans<'m> {
    memo: &'m mut MappingMemo,
    run: HashMap<String, Option<Arc<PlanSteps>>>,
}

impl Plans<'_> {
    fn get(&mut self, storage: &dyn Storage, path: &str) -> Option<Arc<PlanSteps>> {
        if let Some(plan) = self.run.get(path) {
            return plan.clone();
        }
        let plan = self.memo.plan(storage, path);
        self.run.insert(path.to_owned(), plan.clone());
        plan
    }
}

/// The parent plan of an exec document, from its `related:` wiki-links:
/// the first that names a live plan wins; failing that, the parent is
/// archived when any of them names an archived plan, and missing otherwise
/// (named after the first link ending `-plan`, as the reference's message).
fn parent(
    storage: &dyn Storage,
    plans: &mut Plans<'_>,
    related: &[String],
) -> Result<Parent, LedgerError> {
    let stems: Vec<&str> = related.iter().filter_map(|r| link_stem(r)).collect();
    let mut archived = false;
    for stem in &stems {
        let live = format!("{PLAN_DIR}/{stem}.md");
        if storage.exists(&live)? {
            return Ok(Parent::Live((*stem).to_owned(), plans.get(storage, &live)));
        }
        archived = archived || storage.exists(&format!("{ARCHIVED_PLAN_DIR}/{stem}.md"))?;
    }
    if archived {
        return Ok(Parent::Archived);
    }
    let named = stems.iter().find(|s| s.ends_with("-plan")).copied();
    Ok(Parent::Missing(named.unwrap_or_default().to_owned()))
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

/// Where the exec documents the mapping reads live.
const EXEC_DIR: &str = ".vault/exec";

/// Where the mapping looks for an archived parent plan.
const ARCHIVED_PLAN_DIR: &str = ".vault/_archive/plan";

/// Whether the mapping reads the file at `path`, or looks whether it
/// exists: what it found holds while no such file changed, came or went.
pub fn reads(path: &str) -> bool {
    [EXEC_DIR, PLAN_DIR, ARCHIVED_PLAN_DIR].iter().any(|dir| {
        path.strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
    })
}

/// Runs the check over `.vault/exec/` and `.vault/plan/`, optionally for
/// one feature.
pub fn exec_mapping(
    storage: &dyn Storage,
    feature: Option<&str>,
) -> Result<Vec<MappingFinding>, LedgerError> {
    exec_mapping_kept(storage, feature, &mut MappingMemo::once())
}

/// [`exec_mapping`], parsing again only the ledgers and plans whose bytes
/// changed since `memo` last saw them.
pub fn exec_mapping_kept(
    storage: &dyn Storage,
    feature: Option<&str>,
    memo: &mut MappingMemo,
) -> Result<Vec<MappingFinding>, LedgerError> {
    let feature = feature.map(crate::doc::feature_arg);
    let mut out = Vec::new();
    let mut facts: BTreeMap<String, PlanFacts> = BTreeMap::new();
    let mut seen = HashSet::new();
    let mut ledgers = Vec::new();
    for entry in storage.list(EXEC_DIR)? {
        if !entry.path.ends_with(".md") {
            continue;
        }
        if let Some(ledger) = memo.known_ledger(storage, &entry.path) {
            seen.insert(entry.path.clone());
            ledgers.push((entry.path, ledger));
            continue;
        }
        // A ledger that cannot be read or decoded is reported by `encoding`.
        let bytes = match storage.read(&entry.path) {
            Ok(bytes) => bytes,
            Err(e @ StorageError::BudgetExceeded { .. }) => return Err(e.into()),
            Err(_) => continue,
        };
        seen.insert(entry.path.clone());
        if let Some(ledger) = memo.ledger(&entry.path, &bytes) {
            ledgers.push((entry.path, ledger));
        }
    }
    let plan_paths = live_plan_paths(storage)?;
    seen.extend(plan_paths.iter().cloned());
    memo.retain(&seen);
    let mut plans = Plans {
        memo,
        run: HashMap::new(),
    };
    let mut push = |severity, path: &str, message: String| {
        out.push(MappingFinding {
            severity,
            path: path.to_string(),
            message,
        })
    };
    for (path, ledger) in &ledgers {
        let path = path.as_str();
        let meta = &ledger.meta;
        if feature.is_some() && meta.feature.as_deref() != feature {
            continue;
        }
        for (line, message) in &ledger.unparsable {
            push(Severity::Error, path, format!("line {line}: {message}"));
        }
        let steps = &ledger.steps;
        let ledger_file = is_ledger_stem(crate::doc::stem_of(path));
        if !ledger_file && let Some(step) = steps.first() {
            // A per-Step record is the finding whatever its parent.
            let feature = meta.feature.as_deref().unwrap_or("<feature>");
            push(
                Severity::Error,
                path,
                format!(
                    "per-step execution record for `{step}`; fold it into the ledger with `vault exec fold --feature {feature} --force`"
                ),
            );
        }
        let p = parent(storage, &mut plans, &meta.related)?;
        if steps.is_empty() {
            if !ledger_file && let Parent::Live(stem, _) = &p {
                facts.entry(stem.clone()).or_default().unattributable = true;
            }
            continue;
        }
        match p {
            Parent::Archived => {}
            Parent::Missing(stem) => {
                let named = if stem.is_empty() {
                    String::new()
                } else {
                    format!(" `{stem}`")
                };
                push(
                    Severity::Warning,
                    path,
                    format!(
                        "execution record declares step `{}` but its parent plan{named} was not found live or archived; point `related:` at it as a quoted `\"[[plan-stem]]\"`",
                        steps[0]
                    ),
                )
            }
            Parent::Live(stem, plan) => {
                let f = facts.entry(stem.clone()).or_default();
                f.covered.extend(steps.iter().cloned());
                if !ledger_file {
                    continue;
                }
                f.native |= ledger.native;
                let Some(plan) = plan else {
                    push(
                        Severity::Warning,
                        &format!("{PLAN_DIR}/{stem}.md"),
                        format!(
                            "parent plan `{stem}` does not parse, so the rows for step `{}` cannot be verified; fix it with `vault plan check`",
                            steps[0]
                        ),
                    );
                    continue;
                };
                for s in steps {
                    if plan.retired.contains(s) {
                        continue;
                    }
                    match plan.steps.iter().find(|(id, _)| id == s) {
                        Some((_, true)) => {}
                        Some(_) => push(
                            Severity::Info,
                            path,
                            format!(
                                "ledger has rows for step `{s}`, which is still open (work in flight)"
                            ),
                        ),
                        None => push(
                            Severity::Warning,
                            path,
                            format!(
                                "ledger row names step `{s}`, which does not exist in parent plan `{stem}`"
                            ),
                        ),
                    }
                }
            }
        }
    }
    for path in &plan_paths {
        // A plan's feature is read from the same frontmatter its parse
        // reads; a plan that does not parse has nothing to report here.
        let Some(plan) = plans.get(storage, path) else {
            continue;
        };
        if feature.is_some() && plan.feature.as_deref() != feature {
            continue;
        }
        let stem = path[".vault/plan/".len()..].trim_end_matches(".md");
        let f = facts.remove(stem).unwrap_or_default();
        let missing: Vec<&str> = plan
            .steps
            .iter()
            .filter(|(id, checked)| *checked && !f.covered.contains(id))
            .map(|(id, _)| id.as_str())
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
            path: path.clone(),
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

    #[test]
    fn a_kept_memo_answers_as_a_fresh_run_after_edits_and_removals() {
        let s = MemStorage::new();
        let plan = ".vault/plan/2026-03-01-f-plan.md";
        let ledger = ".vault/exec/2026-03-01-f/2026-03-01-f-ledger.md";
        s.insert(plan, "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-01'\ntier: L1\n---\n\n# p\n\n## Steps\n\n- [ ] `S01` - a; `x`.\n- [x] `S02` - b; `y`.\n");
        s.insert(ledger, "---\ntags:\n  - '#exec'\n  - '#f'\nrelated:\n  - \"[[2026-03-01-f-plan]]\"\n---\n\n# l\n\n## Changes\n\n- `S01` `A` `x`\n");
        let mut memo = MappingMemo::default();
        let mut same = |label: &str| {
            let kept = exec_mapping_kept(&s, None, &mut memo).unwrap();
            assert_eq!(kept, exec_mapping(&s, None).unwrap(), "{label}");
            kept
        };
        assert_eq!(same("first run").len(), 2);
        same("unchanged");
        // The plan closes S01 and the ledger gains a row for S02: both are
        // parsed again, by their new bytes.
        s.insert(plan, "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-01'\ntier: L1\n---\n\n# p\n\n## Steps\n\n- [x] `S01` - a; `x`.\n- [x] `S02` - b; `y`.\n");
        assert_eq!(same("plan edited").len(), 1, "S02 has no row yet");
        s.insert(ledger, "---\ntags:\n  - '#exec'\n  - '#f'\nrelated:\n  - \"[[2026-03-01-f-plan]]\"\n---\n\n# l\n\n## Changes\n\n- `S01` `A` `x`\n- `S02` `A` `y`\n- not a row\n");
        let after = same("ledger edited");
        assert!(
            after.iter().any(|f| f.message.contains("not a ledger row")),
            "{after:?}"
        );
        s.remove(ledger).unwrap();
        same("ledger removed");
        assert!(
            memo.ledgers.is_empty(),
            "a removed ledger's entry is dropped"
        );
    }

    /// Older records as a real vault has them, and what `vaultspec-core`
    /// 0.3.9 reports for them (`vault check exec-mapping --json`, observed):
    /// an unquoted `- [[plan]]` is no link, an archived link before the live
    /// plan does not hide it, and a per-Step record is an error whatever
    /// its parent.
    #[test]
    fn older_records_pair_with_plans_as_the_reference_pairs_them() {
        let s = MemStorage::new();
        let plan = |feature: &str, date: &str| {
            format!(
                "---\ntags:\n  - \"#plan\"\n  - \"#{feature}\"\ndate: \"{date}\"\ntier: L1\nrelated: []\n---\n\n# {feature} plan\n\n## Steps\n\n- [x] `S01` - a; `x`.\n- [x] `S02` - b; `y`.\n- [ ] `S03` - c; `z`.\n"
            )
        };
        s.insert(".vault/plan/2026-03-01-f-plan.md", plan("f", "2026-03-01"));
        s.insert(".vault/plan/2026-03-02-g-plan.md", plan("g", "2026-03-02"));
        s.insert(
            ".vault/_archive/plan/2026-01-01-old-plan.md",
            plan("old", "2026-01-01"),
        );
        s.insert(
            ".vault/exec/2026-03-01-f/2026-03-01-f-s01-exec.md",
            "---\ntags:\n  - '#exec'\n  - '#f'\ndate: '2026-03-01'\nstep_id: S01\nrelated:\n  - [[2026-03-01-f-plan]]\n---\n\n# record\n",
        );
        s.insert(
            ".vault/exec/2026-03-02-g/2026-03-02-g-notes-exec.md",
            "---\ntags:\n  - '#exec'\n  - '#g'\ndate: '2026-03-02'\nrelated:\n  - \"[[2026-01-01-old-plan]]\"\n  - \"[[2026-03-02-g-plan|the plan]]\"\n---\n\n# notes\n",
        );
        s.insert(
            ".vault/exec/2026-03-02-g/2026-03-02-g-s09-exec.md",
            "---\ntags:\n  - '#exec'\n  - '#g'\ndate: '2026-03-02'\nstep_id: S09\nrelated:\n  - \"[[2026-02-02-gone-plan]]\"\n---\n\n# lost\n",
        );
        s.insert(
            ".vault/exec/2026-03-02-g/2026-03-02-g-ledger.md",
            "---\ntags:\n  - '#exec'\n  - '#g'\ndate: '2026-03-02'\nrelated:\n  - \"[[2026-03-02-g-plan]]\"\n---\n\n# ledger\n\n## Changes\n\n- `S03` `T` `src/z.rs`\n",
        );
        let findings = exec_mapping(&s, None).unwrap();
        let found: Vec<(Severity, &str)> = findings
            .iter()
            .map(|f| (f.severity, f.path.rsplit('/').next().unwrap_or_default()))
            .collect();
        assert_eq!(
            found,
            [
                (Severity::Error, "2026-03-01-f-s01-exec.md"),
                (Severity::Warning, "2026-03-01-f-s01-exec.md"),
                (Severity::Info, "2026-03-02-g-ledger.md"),
                (Severity::Error, "2026-03-02-g-s09-exec.md"),
                (Severity::Warning, "2026-03-02-g-s09-exec.md"),
                (Severity::Warning, "2026-03-01-f-plan.md"),
                (Severity::Info, "2026-03-02-g-plan.md"),
            ]
        );
        assert!(
            findings[4].message.contains("2026-02-02-gone-plan"),
            "{findings:?}"
        );
    }
}

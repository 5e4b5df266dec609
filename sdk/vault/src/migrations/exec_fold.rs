//! The two migrations that fold per-Step execution records into one ledger
//! per plan, as the reference's do: `exec_ledger_fold` (0.1.58: each exec
//! folder's records of an older body schema) and `exec_ledger_only` (0.1.74:
//! every record, flat ones with their plan's folder, and a phase summary
//! once each Step of its phase has rows).
//!
//! The ledger is written first; a record goes only when the ledger holds
//! every row and note recovered from the fold, and only after a copy of it
//! is in a [`Snapshot`] under `.vault/.trash/`. A fold that recovered
//! nothing removes nothing.

use std::collections::{BTreeMap, BTreeSet};

use crate::date::Date;
use crate::doc::DocType;
use crate::hash;
use crate::ledger::fold::{Recovered, recover};
use crate::ledger::section::{append_notes, append_rows, section_rows};
use crate::ledger::{LedgerRow, is_ledger_stem, ledger_path};
use crate::pattern::Pattern;
use crate::plan::load_plan;
use crate::storage::Storage;
use crate::template::{self, BODY_SCHEMA, Fill};
use crate::trash::Snapshot;

/// Where exec folders and flat records live.
const EXEC_DIR: &str = ".vault/exec";

/// The phase a summary's stem names: `…-P01-summary`, `…-W01-P01-summary`.
static SUMMARY: Pattern = Pattern::new(r"-(?:(W\d{2,}[a-z]?)-)?(P\d{2,}[a-z]?)-summary$");

/// Which of the two migrations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    /// `exec_ledger_fold` (0.1.58).
    LegacyRecords,
    /// `exec_ledger_only` (0.1.74).
    EveryRecord,
}

impl Fold {
    /// The migration's registered name (also its snapshot label).
    pub fn name(self) -> &'static str {
        match self {
            Fold::LegacyRecords => "exec_ledger_fold",
            Fold::EveryRecord => "exec_ledger_only",
        }
    }
}

/// The frontmatter facts the fold reads, as the reference's line scanner
/// reads them (the last `key:` line wins; list items are `- value`).
#[derive(Debug, Default)]
struct Meta {
    step_id: Option<String>,
    body_schema: Option<String>,
    related: Vec<String>,
}

/// `text` read as the reference's quick scanner reads it, and its body.
fn scan(text: &str) -> (Meta, &str) {
    let mut meta = Meta::default();
    let Some(split) = crate::frontmatter::split(text) else {
        return (meta, text);
    };
    let unquote = |v: &str| v.trim_matches(|c| c == '"' || c == '\'').to_owned();
    let mut key = String::new();
    for line in split.yaml(text).lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((k, v)) = line.split_once(':').filter(|_| !line.starts_with('-')) {
            key = k.trim().to_owned();
            let v = v.trim();
            match key.as_str() {
                "step_id" => meta.step_id = Some(unquote(v)).filter(|v| !v.is_empty()),
                "body_schema" => meta.body_schema = Some(unquote(v)).filter(|v| !v.is_empty()),
                "related" if v.starts_with('[') && v.ends_with(']') => {
                    meta.related = v[1..v.len() - 1]
                        .split(',')
                        .filter(|i| !i.trim().is_empty())
                        .map(|i| unquote(i.trim()))
                        .collect();
                }
                _ => {}
            }
        } else if let Some(item) = line.strip_prefix('-')
            && key == "related"
        {
            meta.related.push(unquote(item.trim()));
        }
    }
    (meta, &text[split.close.end..])
}

/// The first `[[…-plan]]` stem among `related`.
fn plan_link(related: &[String]) -> Option<String> {
    related.iter().find_map(|link| {
        let stem = link.trim().strip_prefix("[[")?;
        let end = stem.find([']', '#', '|']).unwrap_or(stem.len());
        let stem = stem[..end].trim();
        (!stem.is_empty() && stem.ends_with("-plan")).then(|| stem.to_owned())
    })
}

fn stem_of(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".md").unwrap_or(name)
}

/// A Python-sliced `s[from..to]` (clamped, empty when crossed).
fn slice(s: &str, from: usize, to: usize) -> &str {
    let to = to.min(s.len());
    s.get(from.min(to)..to).unwrap_or("")
}

/// One record offered to the planner.
struct Source {
    path: String,
    step_id: Option<String>,
    body: String,
}

/// What one plan's fold decided, before anything is written.
#[derive(Default)]
struct Decision {
    rows: Vec<LedgerRow>,
    notes: Vec<String>,
    folded: Vec<String>,
    summaries: Vec<String>,
    skipped: usize,
    paths: usize,
}

impl Decision {
    fn recovers_content(&self) -> bool {
        !self.rows.is_empty() || !self.notes.is_empty()
    }

    fn is_empty(&self) -> bool {
        self.folded.is_empty() && self.summaries.is_empty()
    }

    /// What the fold removes once its ledger holds what it recovered.
    fn removals(&self) -> Vec<String> {
        if !self.recovers_content() {
            return Vec::new();
        }
        self.folded.iter().chain(&self.summaries).cloned().collect()
    }
}

/// The reference's Step order: `S<n>` by number, anything else after.
fn step_order(step: &str) -> (u64, String) {
    match step.strip_prefix('S').and_then(|n| n.parse::<u64>().ok()) {
        Some(n) if step[1..].bytes().all(|b| b.is_ascii_digit()) => (n, String::new()),
        _ => (1_000_000_000, step.to_owned()),
    }
}

/// Decides which records fold, what rows and notes they become, and which
/// phase summaries may go (`phases`: a phase's Steps by its path; `covered`:
/// Steps the existing ledger already has rows for).
fn decide(
    sources: Vec<Source>,
    phases: &BTreeMap<String, Vec<String>>,
    covered: &BTreeSet<String>,
) -> Decision {
    let mut decision = Decision::default();
    let mut foldable: Vec<Recovered> = Vec::new();
    let mut summaries = Vec::new();
    for source in sources {
        let stem = stem_of(&source.path);
        if is_ledger_stem(stem) {
            decision.skipped += 1;
        } else if stem.ends_with("-summary") {
            summaries.push(source.path);
        } else if let Some(step) = &source.step_id {
            foldable.push(recover(&source.path, &source.body, step));
        } else {
            decision.skipped += 1;
        }
    }
    foldable.sort_by(|a, b| {
        let name = |r: &Recovered| r.path.rsplit('/').next().unwrap_or("").to_owned();
        (step_order(&a.step), name(a)).cmp(&(step_order(&b.step), name(b)))
    });
    let mut covered_after = covered.clone();
    for r in foldable {
        decision.rows.extend(r.rows);
        decision.notes.extend(r.notes);
        decision.paths += r.paths.len();
        covered_after.insert(r.step);
        decision.folded.push(r.path);
    }
    let carries = decision.recovers_content();
    for path in summaries {
        let steps = SUMMARY.captures(stem_of(&path)).and_then(|c| {
            let phase = match c.get(1) {
                Some(wave) => format!("{}.{}", wave.as_str(), &c[2]),
                None => c[2].to_owned(),
            };
            phases.get(&phase)
        });
        match steps {
            Some(steps)
                if carries
                    && !steps.is_empty()
                    && steps.iter().all(|s| covered_after.contains(s)) =>
            {
                decision.summaries.push(path)
            }
            _ => decision.skipped += 1,
        }
    }
    decision
}

/// One exec folder's fold.
struct Group {
    folder: String,
    plan_stem: String,
    feature: String,
    decision: Decision,
    current: usize,
}

/// A document's text with its line breaks made `\n`, as Python reads text.
fn read_text(storage: &dyn Storage, path: &str) -> Result<String, String> {
    let bytes = storage
        .read(path)
        .map_err(|e| format!("failed to read {path}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("failed to read {path}: not UTF-8"))?;
    Ok(text.replace("\r\n", "\n").replace('\r', "\n"))
}

/// Files by the exec folder holding them.
type Folders = BTreeMap<String, Vec<String>>;

/// The Markdown files of `.vault/exec/`: by folder (each sorted), and the
/// flat ones.
fn exec_files(storage: &dyn Storage) -> Result<(Folders, Vec<String>), String> {
    let mut folders = Folders::new();
    let mut flat = Vec::new();
    for entry in storage.list(EXEC_DIR).map_err(|e| e.to_string())? {
        let Some(rest) = entry.path.strip_prefix(".vault/exec/") else {
            continue;
        };
        if !rest.ends_with(".md") {
            continue;
        }
        match rest.split('/').collect::<Vec<_>>().as_slice() {
            [folder, _] => folders
                .entry((*folder).to_owned())
                .or_default()
                .push(entry.path.clone()),
            [_] => flat.push(entry.path.clone()),
            _ => {}
        }
    }
    for files in folders.values_mut() {
        files.sort();
    }
    flat.sort();
    Ok((folders, flat))
}

/// Each phase's Steps, keyed by its path (`P01`, `W01.P01`) and its id; an
/// unreadable plan gives none, so no summary goes on its account.
fn phase_steps(storage: &dyn Storage, plan_stem: &str) -> BTreeMap<String, Vec<String>> {
    let mut map = BTreeMap::new();
    let Ok(doc) = load_plan(storage, &format!(".vault/plan/{plan_stem}.md")) else {
        return map;
    };
    let plan = doc.plan;
    for phase in &plan.phases {
        let steps: Vec<String> = plan
            .steps
            .iter()
            .filter(|s| s.phase == Some(phase.key))
            .map(|s| s.id.clone())
            .collect();
        let wave = phase
            .wave
            .and_then(|k| plan.waves.iter().find(|w| w.key == k));
        let path = match wave {
            Some(w) => format!("{}.{}", w.id, phase.id),
            None => phase.id.clone(),
        };
        map.insert(path, steps.clone());
        map.entry(phase.id.clone()).or_insert(steps);
    }
    map
}

/// 0.1.58's plan: each folder's records of an older body schema.
fn legacy_groups(storage: &dyn Storage) -> Result<Vec<Group>, String> {
    let name = Fold::LegacyRecords.name();
    let (folders, _) = exec_files(storage)?;
    let mut groups = Vec::new();
    for (folder, files) in folders {
        let mut plan_stem = format!("{folder}-plan");
        let (mut sources, mut current) = (Vec::new(), 0);
        for path in files {
            let text = read_text(storage, &path).map_err(|e| format!("{name}: {e}"))?;
            let (meta, body) = scan(&text);
            if let Some(stem) = plan_link(&meta.related) {
                plan_stem = stem;
            }
            if meta.body_schema.as_deref() == Some(BODY_SCHEMA) {
                current += 1;
                continue;
            }
            sources.push(Source {
                path,
                step_id: meta.step_id,
                body: body.to_owned(),
            });
        }
        let feature = match slice(&folder, 11, folder.len()) {
            "" => folder.clone(),
            f => f.to_owned(),
        };
        groups.push(Group {
            decision: decide(sources, &BTreeMap::new(), &BTreeSet::new()),
            folder,
            plan_stem,
            feature,
            current,
        });
    }
    Ok(groups)
}

/// 0.1.74's plan: every record of each folder, flat records with their
/// plan's folder, phase summaries against the plan's phases.
fn every_record_groups(storage: &dyn Storage) -> Result<Vec<Group>, String> {
    let (mut folders, flat) = exec_files(storage)?;
    for path in flat {
        let Ok(text) = read_text(storage, &path) else {
            continue;
        };
        let (meta, _) = scan(&text);
        if let (Some(_), Some(stem)) = (&meta.step_id, plan_link(&meta.related)) {
            let folder = slice(&stem, 0, stem.len() - "-plan".len()).to_owned();
            folders.entry(folder).or_default().push(path);
        }
    }
    let mut groups = Vec::new();
    for (folder, mut files) in folders {
        // As Python orders paths: by their parts, so a folder's files come
        // before a flat record whose name extends the folder's.
        files.sort_by(|a, b| a.split('/').cmp(b.split('/')));
        let (mut sources, mut plan_stem, mut covered) = (Vec::new(), None, BTreeSet::new());
        for path in files {
            let Ok(text) = read_text(storage, &path) else {
                continue;
            };
            let (meta, body) = scan(&text);
            if is_ledger_stem(stem_of(&path)) {
                covered.extend(section_rows(body).into_iter().filter_map(|r| r.step));
            }
            if plan_stem.is_none() {
                plan_stem = plan_link(&meta.related);
            }
            sources.push(Source {
                path,
                step_id: meta.step_id,
                body: body.to_owned(),
            });
        }
        let plan_stem = plan_stem.unwrap_or_else(|| format!("{folder}-plan"));
        let feature = match slice(&plan_stem, 11, plan_stem.len() - 5) {
            "" => match slice(&folder, 11, folder.len()) {
                "" => folder.clone(),
                f => f.to_owned(),
            },
            f => f.to_owned(),
        };
        let phases = phase_steps(storage, &plan_stem);
        groups.push(Group {
            decision: decide(sources, &phases, &covered),
            folder,
            plan_stem,
            feature,
            current: 0,
        });
    }
    Ok(groups)
}

fn groups(storage: &dyn Storage, which: Fold) -> Result<Vec<Group>, String> {
    match which {
        Fold::LegacyRecords => legacy_groups(storage),
        Fold::EveryRecord => every_record_groups(storage),
    }
}

/// The documents `which` would remove from the tree as it stands.
pub fn preview(storage: &dyn Storage, which: Fold) -> Result<Vec<String>, String> {
    Ok(groups(storage, which)?
        .iter()
        .filter(|g| !g.decision.is_empty())
        .flat_map(|g| g.decision.removals())
        .collect())
}

/// What a fold run did: its summary and the files it wrote or removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoldRun {
    /// The reference's one-line summary.
    pub summary: String,
    /// Ledgers written, records removed, snapshot files written.
    pub changes: Vec<String>,
    /// The snapshot folder, when something was removed.
    pub snapshot: Option<String>,
}

/// Runs `which` on `storage` (a staged overlay: a failure leaves nothing
/// behind once the caller drops it). `today` stamps each ledger written;
/// `snapshot` takes the copies of what goes.
pub fn run(
    storage: &dyn Storage,
    which: Fold,
    today: Date,
    snapshot: &mut Snapshot,
) -> Result<FoldRun, String> {
    let name = which.name();
    if storage
        .list(EXEC_DIR)
        .map_err(|e| e.to_string())?
        .is_empty()
    {
        return Ok(FoldRun {
            summary: "no .vault/exec/ directory; nothing to fold".into(),
            changes: Vec::new(),
            snapshot: None,
        });
    }
    let (mut folders, mut folded, mut summaries, mut paths, mut skipped, mut current) =
        (0, 0, 0, 0, 0, 0);
    let mut changes = Vec::new();
    for group in groups(storage, which)? {
        let d = &group.decision;
        skipped += d.skipped;
        current += group.current;
        if d.is_empty() {
            continue;
        }
        let fail = |e: String| format!("{name}: failed to fold {}: {e}", group.folder);
        let ledger = write_ledger(storage, &group, today).map_err(fail)?;
        if let Some(path) = ledger.written {
            changes.push(path);
        }
        folders += 1;
        folded += d.folded.len();
        summaries += d.summaries.len();
        paths += d.paths;
        if !ledger.carries {
            continue;
        }
        let removals = d.removals();
        snapshot.capture(storage, &removals).map_err(|e| {
            format!(
                "{name}: refusing to fold {} without a backup: {e}",
                group.folder
            )
        })?;
        for path in removals {
            storage.remove(&path).map_err(|e| fail(e.to_string()))?;
            changes.push(path);
        }
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut summary = match which {
        _ if folded == 0 && summaries == 0 => "no per-Step execution records to fold".to_owned(),
        Fold::LegacyRecords => format!(
            "folded {} execution {} into {} ({paths} scope path(s) recovered)",
            folded,
            if folded == 1 { "record" } else { "records" },
            plural(folders, "ledger"),
        ),
        Fold::EveryRecord => format!(
            "folded {} execution {} into {} ({paths} path(s) recovered, {summaries} summary(ies) removed)",
            folded,
            if folded == 1 { "record" } else { "records" },
            plural(folders, "ledger"),
        ),
    };
    if skipped > 0 {
        summary.push_str(&format!("; {skipped} left intact"));
    }
    if current > 0 {
        summary.push_str(&format!("; {current} current-schema record(s) untouched"));
    }
    if let Some(dir) = snapshot.dir() {
        summary.push_str(&format!("; {} copied to .vault/.trash/", snapshot.files()));
        changes.push(format!("{dir}/"));
    }
    Ok(FoldRun {
        summary,
        changes,
        snapshot: snapshot.dir().map(str::to_owned),
    })
}

/// What writing one group's ledger came to.
struct Ledger {
    /// The ledger's path, when it was written.
    written: Option<String>,
    /// Whether it now holds every row and note the group recovered.
    carries: bool,
}

/// Scaffolds the group's ledger when missing (from the workspace's
/// template, else ours), appends the recovered rows and notes, and stamps
/// it `today` when that changed it.
fn write_ledger(storage: &dyn Storage, group: &Group, today: Date) -> Result<Ledger, String> {
    let date = Date::parse_lenient(slice(&group.folder, 0, 10))
        .map_err(|_| format!("`{}` does not start with a date", group.folder))?;
    let path = ledger_path(date, &group.feature);
    let exists = storage.exists(&path).map_err(|e| e.to_string())?;
    let text = if exists {
        read_text(storage, &path)?
    } else {
        let tpl = template::load(storage, DocType::Exec).map_err(|e| e.to_string())?;
        let related = vec![format!("[[{}]]", group.plan_stem)];
        template::hydrate(
            &tpl,
            &Fill {
                feature: &group.feature,
                date,
                title: None,
                tier: None,
                plan_stem: Some(&group.plan_stem),
                related: &related,
            },
        )
    };
    let d = &group.decision;
    let (with_rows, _) = append_rows(&text, &d.rows).map_err(|e| e.to_string())?;
    let (updated, _) = append_notes(&with_rows, &d.notes);
    // An existing ledger is rewritten only when the fold adds to it.
    let written = (!exists || updated != text).then(|| path.clone());
    let final_text = if updated != text {
        hash::refresh_modified_stamp(&updated, today)
    } else {
        text
    };
    if written.is_some() {
        storage
            .write(&path, final_text.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let lines: BTreeSet<&str> = final_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let carries = d.recovers_content()
        && d.rows.iter().all(|r| lines.contains(r.render().trim()))
        && d.notes.iter().all(|n| lines.contains(n.trim()));
    Ok(Ledger { written, carries })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;

    const PLAN: &str = "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-01'\ntier: L3\n---\n\n# p\n\n## Wave `W01` - a\n\nI.\n\n### Phase `W01.P01` - b\n\nJ.\n\n- [x] `W01.P01.S01` - a; `x`.\n- [x] `W01.P01.S02` - b; `y`.\n";

    fn record(step: &str, schema: &str, body: &str) -> String {
        format!(
            "---\ntags:\n  - '#exec'\n  - '#f'\ndate: '2026-03-01'\nstep_id: {step}\nbody_schema: {schema}\nrelated:\n  - \"[[2026-03-01-f-plan]]\"\n---\n\n# r\n\n{body}"
        )
    }

    fn workspace() -> MemStorage {
        let s = MemStorage::new();
        s.insert(".vault/plan/2026-03-01-f-plan.md", PLAN);
        let dir = ".vault/exec/2026-03-01-f";
        s.insert(
            &format!("{dir}/2026-03-01-f-S01.md"),
            record(
                "S01",
                "body-v1",
                "## Scope\n\n- `src/x.rs`\n- ``\n- `src/x.rs`\n",
            ),
        );
        s.insert(
            &format!("{dir}/2026-03-01-f-S02.md"),
            record(
                "S02",
                "body-v2",
                "## Changes\n\n- `M` `src/y.rs`\n\n## Notes\n\nhand prose\n",
            ),
        );
        s.insert(&format!("{dir}/2026-03-01-f-W01-P01-summary.md"), "# s\n");
        s
    }

    fn day() -> Date {
        Date::new(2026, 12, 6).unwrap()
    }

    #[test]
    fn the_legacy_fold_leaves_current_records_and_every_summary() {
        let s = workspace();
        let mut snap = Snapshot::new("exec_ledger_fold", day(), 0);
        let run = run(&s, Fold::LegacyRecords, day(), &mut snap).unwrap();
        assert_eq!(
            run.summary,
            "folded 1 execution record into 1 ledger (1 scope path(s) recovered); 1 left intact; \
             1 current-schema record(s) untouched; 1 copied to .vault/.trash/"
        );
        assert!(
            s.exists(".vault/exec/2026-03-01-f/2026-03-01-f-S02.md")
                .unwrap()
        );
        assert!(
            !s.exists(".vault/exec/2026-03-01-f/2026-03-01-f-S01.md")
                .unwrap()
        );
    }

    #[test]
    fn every_record_folds_and_a_waved_summary_goes_once_its_steps_have_rows() {
        let s = workspace();
        assert_eq!(
            preview(&s, Fold::EveryRecord).unwrap(),
            [
                ".vault/exec/2026-03-01-f/2026-03-01-f-S01.md",
                ".vault/exec/2026-03-01-f/2026-03-01-f-S02.md",
                ".vault/exec/2026-03-01-f/2026-03-01-f-W01-P01-summary.md",
            ]
        );
        let mut snap = Snapshot::new("exec_ledger_only", day(), 0);
        let run = run(&s, Fold::EveryRecord, day(), &mut snap).unwrap();
        assert_eq!(
            run.summary,
            "folded 2 execution records into 1 ledger (2 path(s) recovered, 1 summary(ies) \
             removed); 3 copied to .vault/.trash/"
        );
        let ledger = String::from_utf8(
            s.read(".vault/exec/2026-03-01-f/2026-03-01-f-ledger.md")
                .unwrap(),
        )
        .unwrap();
        assert!(
            ledger.contains("- `S01` `T` `src/x.rs`\n- `S02` `M` `src/y.rs`\n"),
            "{ledger}"
        );
        assert!(
            ledger.contains("## Notes\n\n- `S02` hand prose\n"),
            "{ledger}"
        );
        assert!(ledger.contains("modified: '2026-12-06'"), "{ledger}");
        assert_eq!(s.list(".vault/exec").unwrap().len(), 1);
        // Nothing is left to fold the second time.
        let mut again = Snapshot::new("exec_ledger_only", day(), 1);
        let second = super::run(&s, Fold::EveryRecord, day(), &mut again).unwrap();
        assert_eq!(
            second.summary,
            "no per-Step execution records to fold; 1 left intact"
        );
        assert!(second.changes.is_empty());
    }

    #[test]
    fn a_fold_that_recovers_nothing_removes_nothing() {
        let s = MemStorage::new();
        s.insert(
            ".vault/exec/2026-03-01-f/2026-03-01-f-P01-summary.md",
            "# s\n",
        );
        s.insert(
            ".vault/exec/2026-03-01-f/2026-03-01-f-notes.md",
            "---\ntags:\n  - '#exec'\n---\n\nno step\n",
        );
        let mut snap = Snapshot::new("exec_ledger_only", day(), 0);
        let run = run(&s, Fold::EveryRecord, day(), &mut snap).unwrap();
        assert_eq!(
            run.summary,
            "no per-Step execution records to fold; 2 left intact"
        );
        assert_eq!(s.list(".vault").unwrap().len(), 2);
    }
}

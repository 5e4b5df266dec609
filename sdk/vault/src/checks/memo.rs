//! Findings of the checkers that judge each document by itself alone, kept
//! per document between runs, so a server re-checks only the documents that
//! changed since its last run instead of the whole vault.
//!
//! Ten checkers judge a document by its own path and text, the run's options
//! and the body-schema attestation ledger only, and report its findings
//! together, in path order (see [`PER_DOCUMENT`]). For them
//! [`DocFindings::check_all`] runs the checker over the documents it has no
//! findings for and reuses the rest; every other checker reads the vault as
//! a whole and runs in full, the checkers side by side on the machine's
//! threads, `exec-mapping` parsing again only the plans and ledgers whose
//! bytes changed ([`MappingMemo`]), and not running at all while no plan or
//! ledger changed ([`KeptMapping`]). The owner must
//! [`forget`](DocFindings::forget) every document whose text may have
//! changed: the per-document findings are kept by path, not by content.

use std::sync::Mutex;

use crate::error::Result;
use crate::graph::default_threads;
use crate::graph::fxhash::FxMap;
use crate::ledger::MappingMemo;
use crate::ledger::mapping;
use crate::parallel;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding};
use super::run::dispatch;
use super::{body_sections, exec_mapping, frontmatter};

/// The checkers whose findings about a document depend on that document
/// (its path and text), the run's options and the body-schema ledger alone,
/// emitted in path order with each document's findings together.
/// `frontmatter` also reports the files whose frontmatter does not parse,
/// first: that part reads the graph, and runs in full every time.
pub const PER_DOCUMENT: [Check; 10] = [
    Check::Frontmatter,
    Check::Annotations,
    Check::Markdown,
    Check::Links,
    Check::BodyLinks,
    Check::Placeholders,
    Check::BodySections,
    Check::FeatureRenameIntegrity,
    Check::AdrStatus,
    Check::ModifiedStamp,
];

/// What the [`PER_DOCUMENT`] checkers found about one document, in that
/// order: nothing at all for a document without findings (most are, and a
/// server keeps one of these for every document of its vault), else one
/// allocation.
#[derive(Debug, Clone, Default)]
struct Judged(Option<Box<Found>>);

/// The findings of a document that has some, and where each checker's end.
#[derive(Debug, Clone)]
struct Found {
    findings: Box<[Finding]>,
    ends: [u32; PER_DOCUMENT.len()],
}

impl Judged {
    /// The findings of each checker, in [`PER_DOCUMENT`] order.
    fn new(lists: [Vec<Finding>; PER_DOCUMENT.len()]) -> Judged {
        if lists.iter().all(Vec::is_empty) {
            return Judged(None);
        }
        let mut findings = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        let mut ends = [0; PER_DOCUMENT.len()];
        for (end, list) in ends.iter_mut().zip(lists) {
            findings.extend(list);
            *end = findings.len() as u32;
        }
        Judged(Some(Box::new(Found {
            findings: findings.into_boxed_slice(),
            ends,
        })))
    }

    /// What the `k`th checker of [`PER_DOCUMENT`] found.
    fn of(&self, k: usize) -> &[Finding] {
        let Some(found) = &self.0 else { return &[] };
        let start = k.checked_sub(1).map_or(0, |before| found.ends[before]);
        &found.findings[start as usize..found.ends[k] as usize]
    }
}

/// What kept findings were made with; other inputs start over.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Inputs {
    options: Options,
    /// The body-schema attestation ledger's bytes, if it could be read.
    baseline: Option<Vec<u8>>,
}

/// Kept per-document findings of the [`PER_DOCUMENT`] checkers.
#[derive(Debug, Default, Clone)]
pub struct DocFindings {
    inputs: Option<Inputs>,
    /// In path order: a document's path and what each checker found about it.
    kept: Vec<(String, Judged)>,
    /// What `exec-mapping` parsed of each plan and ledger, kept by content.
    mapping: MappingMemo,
    /// What `exec-mapping` found last, while it still holds.
    mapping_found: Option<KeptMapping>,
}

/// The last `exec-mapping` result and the files it was worked out from.
///
/// The mapping reads only the plans, the exec documents and whether plans
/// are archived: its result holds while none of those documents is
/// forgotten, the same such paths are listed, and each of them is a
/// document whose text is its bytes (the mapping reads bytes; a file whose
/// line ends or byte-order mark alone changed keeps its normalised text, so
/// it is never forgotten).
#[derive(Debug, Clone)]
struct KeptMapping {
    /// The listed paths the mapping reads, in listing order.
    paths: Vec<String>,
    result: CheckResult,
}

/// The listed paths of `snap` that `exec-mapping` reads or looks for, or
/// `None` when one of its documents is not its plain bytes (normalised,
/// or with a problem): no kept result may stand for those.
fn mapping_inputs<'s>(snap: &'s Snapshot<'_>) -> Option<Vec<&'s str>> {
    let plain = snap
        .graph
        .docs()
        .iter()
        .filter(|d| mapping::reads(&d.path))
        .all(|d| d.problem.is_none() && !d.normalized);
    plain.then(|| {
        snap.listing
            .iter()
            .map(|e| e.path.as_str())
            .filter(|p| mapping::reads(p))
            .collect()
    })
}

/// One piece of a check run, done on whichever thread is free.
enum Job {
    /// Judge the documents with nothing kept.
    Judge,
    /// Run a checker that reads the vault as a whole.
    Whole(Check),
}

/// What a [`Job`] gave.
enum Done {
    /// Each document judged, in path order; `None` when a checker reported
    /// a finding about a document it was not lent.
    Judged(Result<Option<Vec<(String, Judged)>>>),
    Whole(Result<CheckResult>),
}

impl DocFindings {
    /// Drop what is kept for the document at `path`, which may have changed.
    pub fn forget(&mut self, path: &str) {
        if mapping::reads(path) {
            self.mapping_found = None;
        }
        if let Ok(i) = self.kept.binary_search_by(|(p, _)| p.as_str().cmp(path)) {
            self.kept.remove(i);
        }
    }

    /// How many documents have findings kept.
    pub fn kept(&self) -> usize {
        self.kept.len()
    }

    /// Every check without fixing, as [`super::check_all_on`] reports it,
    /// running the [`PER_DOCUMENT`] checkers only over the documents of
    /// `snap` that have nothing kept. What is kept of documents no longer
    /// in `snap` is dropped.
    pub fn check_all(&mut self, snap: &Snapshot<'_>, opts: &Options) -> Result<Vec<CheckResult>> {
        let opts = Options {
            fix: false,
            ..opts.clone()
        };
        let inputs = Inputs {
            options: opts.clone(),
            baseline: snap.storage.read(body_sections::BASELINE).ok(),
        };
        if self.inputs.as_ref() != Some(&inputs) {
            self.kept.clear();
            self.mapping_found = None;
            self.inputs = Some(inputs);
        }
        let mapping_paths = mapping_inputs(snap);
        let mapping_found = match (&self.mapping_found, &mapping_paths) {
            (Some(kept), Some(paths)) if kept.paths == *paths => Some(kept.result.clone()),
            _ => None,
        };
        let mut aligned = self.align(snap);
        let fresh: Vec<usize> = (0..aligned.len())
            .filter(|&i| aligned[i].is_none() && snap.doc(i).is_some())
            .collect();

        let jobs: Vec<Job> = std::iter::once(Job::Judge)
            .chain(std::iter::once(Job::Whole(Check::ExecMapping)))
            .chain(
                Check::all()
                    .iter()
                    .filter(|c| !PER_DOCUMENT.contains(c) && **c != Check::ExecMapping)
                    .map(|&c| Job::Whole(c)),
            )
            .collect();
        let mapping = Mutex::new(&mut self.mapping);
        let mut done = parallel::map_heavy(&jobs, default_threads(), |job| match job {
            Job::Judge => Done::Judged(judge(snap, &fresh, &opts)),
            Job::Whole(Check::ExecMapping) if mapping_found.is_some() => {
                Done::Whole(Ok(mapping_found.clone().expect("a kept mapping")))
            }
            Job::Whole(Check::ExecMapping) => {
                let mut mapping = mapping.lock().expect("mapping memo lock poisoned");
                Done::Whole(exec_mapping::run_kept(snap, &opts, &mut mapping))
            }
            Job::Whole(check) => Done::Whole(dispatch(snap, *check, &opts)),
        });

        let Done::Judged(judged) = done.remove(0) else {
            unreachable!("the first job judges");
        };
        let Some(judged) = judged? else {
            // A finding about a document it was not lent breaks the rule
            // this memo stands on: trust a full run instead.
            self.kept.clear();
            return super::check_all_on(snap, &opts);
        };
        for (&i, judged) in fresh.iter().zip(judged) {
            aligned[i] = Some(judged);
        }
        self.kept = aligned.into_iter().flatten().collect();

        let mut found: [Vec<Finding>; PER_DOCUMENT.len()] = Default::default();
        for (_, judged) in &self.kept {
            for (k, list) in found.iter_mut().enumerate() {
                list.extend(judged.of(k).iter().cloned());
            }
        }
        let mut whole: Vec<(Check, Result<CheckResult>)> = jobs[1..]
            .iter()
            .zip(done)
            .filter_map(|(job, done)| match (job, done) {
                (Job::Whole(check), Done::Whole(result)) => Some((*check, result)),
                _ => None,
            })
            .collect();
        if mapping_found.is_none() {
            let found = whole
                .iter()
                .find(|(check, _)| *check == Check::ExecMapping)
                .and_then(|(_, result)| result.as_ref().ok());
            self.mapping_found = match (mapping_paths, found) {
                (Some(paths), Some(result)) => Some(KeptMapping {
                    paths: paths.into_iter().map(str::to_owned).collect(),
                    result: result.clone(),
                }),
                _ => None,
            };
        }
        Check::all()
            .iter()
            .map(
                |&check| match PER_DOCUMENT.iter().position(|&c| c == check) {
                    Some(k) => {
                        let mut findings = std::mem::take(&mut found[k]);
                        if check == Check::Frontmatter {
                            let mut all = frontmatter::malformed(snap, &opts);
                            all.append(&mut findings);
                            findings = all;
                        }
                        Ok(CheckResult {
                            check,
                            findings,
                            fixed_count: 0,
                        })
                    }
                    None => {
                        let at = whole
                            .iter()
                            .position(|(c, _)| *c == check)
                            .expect("every other checker ran as a job of its own");
                        whole.swap_remove(at).1
                    }
                },
            )
            .collect()
    }

    /// The kept findings lined up with the documents of `snap` (both are in
    /// path order): slot `i` holds what is kept for graph node `i`, if any.
    fn align(&mut self, snap: &Snapshot<'_>) -> Vec<Option<(String, Judged)>> {
        let mut kept = std::mem::take(&mut self.kept).into_iter().peekable();
        (0..snap.graph.docs().len())
            .map(|id| {
                let path = snap.doc(id)?.path.as_str();
                while kept.next_if(|(p, _)| p.as_str() < path).is_some() {}
                kept.next_if(|(p, _)| p == path)
            })
            .collect()
    }
}

/// Run the [`PER_DOCUMENT`] checkers over the documents of graph nodes
/// `fresh` (ascending) alone; what each found about each, in that order.
/// `None` when a checker reported a finding about another document.
fn judge(
    snap: &Snapshot<'_>,
    fresh: &[usize],
    opts: &Options,
) -> Result<Option<Vec<(String, Judged)>>> {
    if fresh.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let lent;
    let lent = if fresh.len() == snap.all_docs().count() {
        snap
    } else {
        lent = snap.lending(fresh);
        &lent
    };
    let at: FxMap<&str, usize> = lent
        .all_docs()
        .enumerate()
        .map(|(j, d)| (d.path.as_str(), j))
        .collect();
    // Each finding with the document and checker it belongs to, then in
    // document order (a stable sort keeps each checker's own order): no
    // list per document and checker while a whole vault is judged.
    let mut tagged: Vec<(usize, usize, Finding)> = Vec::new();
    for (k, &check) in PER_DOCUMENT.iter().enumerate() {
        let result = match check {
            Check::Frontmatter => frontmatter::run_documents(lent, opts)?,
            _ => dispatch(lent, check, opts)?,
        };
        for finding in result.findings {
            match finding.path.as_deref().and_then(|p| at.get(p)) {
                Some(&j) => tagged.push((j, k, finding)),
                None => return Ok(None),
            }
        }
    }
    tagged.sort_by_key(|&(j, k, _)| (j, k));
    let mut tagged = tagged.into_iter().peekable();
    Ok(Some(
        lent.all_docs()
            .enumerate()
            .map(|(j, d)| {
                let mut lists: [Vec<Finding>; PER_DOCUMENT.len()] = Default::default();
                while let Some((_, k, finding)) = tagged.next_if(|t| t.0 == j) {
                    lists[k].push(finding);
                }
                (d.path.clone(), Judged::new(lists))
            })
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::check_all_on;
    use crate::storage::Storage;
    use crate::testgen::{GenSpec, generate};
    use crate::{CapStorage, Date};

    /// A workspace of `docs` generated documents, and its storage.
    fn generated(docs: usize, features: usize, seed: u64) -> (tempfile::TempDir, CapStorage) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".vaultspec")).unwrap();
        let storage = CapStorage::open(dir.path()).unwrap();
        let spec = GenSpec {
            docs,
            features,
            seed,
        };
        generate(&storage, &spec).unwrap();
        (dir, storage)
    }

    fn snapshot(storage: &CapStorage) -> Snapshot<'_> {
        Snapshot::load(storage).unwrap()
    }

    #[test]
    fn kept_findings_equal_a_full_run_after_edits() {
        let (_dir, storage) = generated(120, 6, 3);
        let opts = Options::check(Date::new(2026, 12, 4).unwrap());
        let mut memo = DocFindings::default();
        let snap = snapshot(&storage);
        assert_eq!(
            memo.check_all(&snap, &opts).unwrap(),
            check_all_on(&snap, &opts).unwrap()
        );
        assert_eq!(memo.kept(), snap.all_docs().count());
        let paths: Vec<String> = snap.all_docs().map(|d| d.path.clone()).collect();
        // Edits that each per-document checker reports on: a placeholder,
        // a broken link, an annotation, a stale body, a deleted document.
        let edits = [
            "\n<!-- TODO: fill this in -->\n",
            "\nSee [[no-such-document]] and [x](missing.md).\n",
            "\n> [!NOTE] left over\n",
            "\n# Second title\n",
        ];
        // A document whose frontmatter no longer parses leaves the memo's
        // documents: `frontmatter` reports it apart.
        let broken = &paths[3];
        let text = String::from_utf8(storage.read(broken).unwrap()).unwrap();
        storage
            .write(
                broken,
                text.replacen("tags:", "tags: [unclosed", 1).as_bytes(),
            )
            .unwrap();
        memo.forget(broken);
        for (round, edit) in edits.iter().enumerate() {
            for path in paths.iter().skip(round).step_by(7) {
                let mut text = String::from_utf8(storage.read(path).unwrap()).unwrap();
                text.push_str(edit);
                storage.write(path, text.as_bytes()).unwrap();
                memo.forget(path);
            }
            let gone = &paths[paths.len() - 1 - round];
            storage.remove(gone).unwrap();
            memo.forget(gone);
            let snap = snapshot(&storage);
            let full = check_all_on(&snap, &opts).unwrap();
            assert!(
                full[1]
                    .findings
                    .iter()
                    .any(|f| f.path.as_ref() == Some(broken) && f.message.starts_with("Malformed")),
                "the broken document is reported"
            );
            assert_eq!(memo.check_all(&snap, &opts).unwrap(), full, "round {round}");
        }
    }

    #[test]
    fn a_new_attestation_ledger_starts_over() {
        let (_dir, storage) = generated(40, 4, 9);
        let opts = Options::check(Date::new(2026, 12, 4).unwrap());
        let path = snapshot(&storage)
            .all_docs()
            .find(|d| d.doc_type == Some(crate::doc::DocType::Adr))
            .unwrap()
            .path
            .clone();
        let text = String::from_utf8(storage.read(&path).unwrap()).unwrap();
        let legacy = text.replace("body_schema: 'body-v2'", "body_schema: 'legacy-adr-v3'");
        assert_ne!(legacy, text);
        storage.write(&path, legacy.as_bytes()).unwrap();
        let mut memo = DocFindings::default();
        let unattested = |results: &[CheckResult]| {
            results
                .iter()
                .flat_map(|r| &r.findings)
                .any(|f| f.path.as_deref() == Some(&path) && f.message.contains("not attested"))
        };
        assert!(unattested(
            &memo.check_all(&snapshot(&storage), &opts).unwrap()
        ));

        // Attest the document's body: its finding goes, though the document
        // itself did not change and was not forgotten.
        let snap = snapshot(&storage);
        let body = snap.all_docs().find(|d| d.path == path).unwrap().body();
        let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(body.as_bytes()));
        let ledger = serde_json::json!({"version": 1, "entries": [
            {"path": path, "body_sha256": sha, "body_schema": "legacy-adr-v3"}
        ]});
        storage
            .write(body_sections::BASELINE, ledger.to_string().as_bytes())
            .unwrap();
        let snap = snapshot(&storage);
        let kept = memo.check_all(&snap, &opts).unwrap();
        assert!(!unattested(&kept));
        assert_eq!(kept, check_all_on(&snap, &opts).unwrap());
    }

    #[test]
    fn other_options_start_over() {
        let (_dir, storage) = generated(40, 4, 5);
        let snap = snapshot(&storage);
        let mut memo = DocFindings::default();
        let today = Options::check(Date::new(2026, 12, 4).unwrap());
        memo.check_all(&snap, &today).unwrap();
        let feature = snap.all_docs().find_map(|d| d.feature()).unwrap();
        let scoped = today.clone().with_feature(Some(&feature));
        assert_eq!(
            memo.check_all(&snap, &scoped).unwrap(),
            check_all_on(&snap, &scoped).unwrap()
        );
    }

    /// What `exec-mapping` found in `results`.
    fn mapping(results: &[CheckResult]) -> &CheckResult {
        results
            .iter()
            .find(|r| r.check == Check::ExecMapping)
            .unwrap()
    }

    #[test]
    fn the_kept_mapping_holds_only_while_its_plans_and_ledgers_do() {
        let (_dir, storage) = generated(120, 6, 11);
        let opts = Options::check(Date::new(2026, 12, 4).unwrap());
        let mut memo = DocFindings::default();
        let first = memo.check_all(&snapshot(&storage), &opts).unwrap();
        let ledgers: Vec<String> = snapshot(&storage)
            .listing
            .iter()
            .map(|e| e.path.clone())
            .filter(|p| p.starts_with(".vault/exec/") && p.ends_with("-ledger.md"))
            .collect();
        let (ledger, other) = (&ledgers[0], &ledgers[1]);
        let plan = format!(
            ".vault/plan/{}-plan.md",
            crate::doc::stem_of(ledger).trim_end_matches("-ledger")
        );
        assert!(storage.exists(&plan).unwrap(), "{plan}");
        let append = |path: &str, extra: &str| {
            let text = String::from_utf8(storage.read(path).unwrap()).unwrap();
            storage
                .write(path, format!("{text}{extra}").as_bytes())
                .unwrap();
        };
        let agrees = |memo: &mut DocFindings| {
            let snap = snapshot(&storage);
            let kept = memo.check_all(&snap, &opts).unwrap();
            assert_eq!(kept, check_all_on(&snap, &opts).unwrap());
            mapping(&kept).clone()
        };

        // Prose elsewhere: the mapping is kept, and still right.
        let research = snapshot(&storage)
            .all_docs()
            .find(|d| d.doc_type == Some(crate::doc::DocType::Research))
            .unwrap()
            .path
            .clone();
        append(&research, "\nMore prose.\n");
        memo.forget(&research);
        assert_eq!(agrees(&mut memo), *mapping(&first));

        // A ledger row for a Step its plan does not have.
        append(ledger, "- `S99` `M` `src/nowhere.rs`\n");
        memo.forget(ledger);
        let unknown_step = agrees(&mut memo);
        assert_ne!(unknown_step, *mapping(&first), "the row is reported");

        // Its plan archived behind the memo's back (a removed document is
        // never forgotten): the listing tells.
        let archived = plan.replace(".vault/plan/", ".vault/_archive/plan/");
        storage
            .write(&archived, &storage.read(&plan).unwrap())
            .unwrap();
        storage.remove(&plan).unwrap();
        assert_ne!(agrees(&mut memo), unknown_step, "the parent is archived");

        // A ledger given a byte-order mark: its text reads the same, so it
        // is not forgotten, but the bytes the mapping reads changed.
        let text = String::from_utf8(storage.read(other).unwrap()).unwrap();
        storage
            .write(other, format!("\u{feff}{text}").as_bytes())
            .unwrap();
        agrees(&mut memo);
    }
}

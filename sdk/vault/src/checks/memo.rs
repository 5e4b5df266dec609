//! Findings of the checkers that judge each document by itself alone, kept
//! per document between runs, so a server re-checks only the documents that
//! changed since its last run instead of the whole vault.
//!
//! Eight checkers judge a document by its own path and text and the run's
//! options only, and report its findings together, in path order (see
//! [`PER_DOCUMENT`]). For them [`DocFindings::check_all`] runs the checker
//! over the documents it has no findings for and reuses the rest; every
//! other checker reads the vault as a whole and runs in full, but
//! `exec-mapping` parses again only the plans and ledgers whose bytes
//! changed ([`MappingMemo`]). The owner must
//! [`forget`](DocFindings::forget) every document whose text may have
//! changed: the per-document findings are kept by path, not by content.

use std::collections::HashSet;

use crate::error::Result;
use crate::graph::fxhash::FxMap;
use crate::ledger::MappingMemo;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding};
use super::run::dispatch;

/// The checkers whose findings about a document depend on that document
/// (its path and text) and the run's options alone, emitted in path order
/// with each document's findings together.
pub const PER_DOCUMENT: [Check; 8] = [
    Check::Annotations,
    Check::Markdown,
    Check::Links,
    Check::BodyLinks,
    Check::Placeholders,
    Check::FeatureRenameIntegrity,
    Check::AdrStatus,
    Check::ModifiedStamp,
];

/// What the [`PER_DOCUMENT`] checkers found about one document, in that
/// order (none is an empty list).
type Judged = [Vec<Finding>; PER_DOCUMENT.len()];

/// Kept per-document findings of the [`PER_DOCUMENT`] checkers.
#[derive(Debug, Default, Clone)]
pub struct DocFindings {
    /// The options the findings were made with; other options start over.
    options: Option<Options>,
    /// Document path → what each checker found about it.
    kept: FxMap<String, Judged>,
    /// What `exec-mapping` parsed of each plan and ledger, kept by content.
    mapping: MappingMemo,
}

impl DocFindings {
    /// Drop what is kept for the document at `path`, which may have changed.
    pub fn forget(&mut self, path: &str) {
        self.kept.remove(path);
    }

    /// How many documents have findings kept.
    pub fn kept(&self) -> usize {
        self.kept.len()
    }

    /// Every check without fixing, as [`super::check_all_on`] reports it,
    /// running the [`PER_DOCUMENT`] checkers only over the documents of
    /// `snap` that have nothing kept. `snap` is lent: the documents judged
    /// before are taken out while those checkers run over the rest, and put
    /// back before the others run over the whole vault.
    pub fn check_all(
        &mut self,
        snap: &mut Snapshot<'_>,
        opts: &Options,
    ) -> Result<Vec<CheckResult>> {
        let opts = Options {
            fix: false,
            ..opts.clone()
        };
        if self.options.as_ref() != Some(&opts) {
            self.kept.clear();
            self.options = Some(opts.clone());
        }
        // What is kept of documents gone since is never reported (a result
        // lists the snapshot's documents only), so it is dropped only when
        // it could outgrow the vault: more kept than there are documents.
        if self.kept.len() > snap.all_docs().count() {
            let present: HashSet<&str> = snap.all_docs().map(|d| d.path.as_str()).collect();
            self.kept.retain(|path, _| present.contains(path.as_str()));
        }
        if !self.judge_fresh(snap, &opts)? {
            // A finding about no document it was lent breaks the rule this
            // memo stands on: trust a full run instead.
            self.kept.clear();
            return super::check_all_on(snap, &opts);
        }
        // Each checker's findings in path order, one lookup per document.
        let mut found: [Vec<Finding>; PER_DOCUMENT.len()] = Default::default();
        for judged in snap.all_docs().filter_map(|d| self.kept.get(&d.path)) {
            for (list, findings) in found.iter_mut().zip(judged) {
                list.extend(findings.iter().cloned());
            }
        }
        let mut found = found.into_iter();
        Check::all()
            .iter()
            .map(|&check| match PER_DOCUMENT.contains(&check) {
                true => Ok(CheckResult {
                    check,
                    findings: found.next().expect("one list per checker"),
                    fixed_count: 0,
                }),
                false if check == Check::ExecMapping => {
                    super::exec_mapping::run_kept(snap, &opts, &mut self.mapping)
                }
                false => dispatch(snap, check, &opts),
            })
            .collect()
    }

    /// Run the [`PER_DOCUMENT`] checkers over the documents of `snap` with
    /// nothing kept, and keep what they found. False when a checker reported
    /// a finding about a document it was not lent (nothing is kept then).
    fn judge_fresh(&mut self, snap: &mut Snapshot<'_>, opts: &Options) -> Result<bool> {
        // Lend the checkers only the documents not judged yet.
        let mut parked = Vec::with_capacity(snap.docs.len());
        for slot in &mut snap.docs {
            let known = slot
                .as_ref()
                .is_some_and(|d| self.kept.contains_key(&d.path));
            parked.push(if known { slot.take() } else { None });
        }
        let mut fresh: FxMap<String, Judged> = snap
            .all_docs()
            .map(|d| (d.path.clone(), Judged::default()))
            .collect();
        let mut ran = Ok(true);
        if !fresh.is_empty() {
            for (i, &check) in PER_DOCUMENT.iter().enumerate() {
                let findings = match dispatch(snap, check, opts) {
                    Ok(result) => result.findings,
                    Err(err) => {
                        ran = Err(err);
                        break;
                    }
                };
                for finding in findings {
                    match finding.path.as_ref().and_then(|p| fresh.get_mut(p)) {
                        Some(judged) => judged[i].push(finding),
                        None => ran = Ok(false),
                    }
                }
            }
        }
        for (slot, doc) in snap.docs.iter_mut().zip(parked) {
            if doc.is_some() {
                *slot = doc;
            }
        }
        if matches!(ran, Ok(true)) {
            self.kept.extend(fresh);
        }
        ran
    }
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
        let mut snap = snapshot(&storage);
        assert_eq!(
            memo.check_all(&mut snap, &opts).unwrap(),
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
            let mut snap = snapshot(&storage);
            let full = check_all_on(&snap, &opts).unwrap();
            assert_eq!(
                memo.check_all(&mut snap, &opts).unwrap(),
                full,
                "round {round}"
            );
        }
    }

    #[test]
    fn other_options_start_over() {
        let (_dir, storage) = generated(40, 4, 5);
        let mut snap = snapshot(&storage);
        let mut memo = DocFindings::default();
        let today = Options::check(Date::new(2026, 12, 4).unwrap());
        memo.check_all(&mut snap, &today).unwrap();
        let feature = snap.all_docs().find_map(|d| d.feature()).unwrap();
        let scoped = today.clone().with_feature(Some(&feature));
        assert_eq!(
            memo.check_all(&mut snap, &scoped).unwrap(),
            check_all_on(&snap, &scoped).unwrap()
        );
    }
}

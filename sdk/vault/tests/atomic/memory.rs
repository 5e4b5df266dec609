//! Every multi-file operation over a [`MemStorage`], on the golden vectors'
//! vaults.

use vaultspec_vault::checks::{Options, RepairOptions, repair, run_all};
use vaultspec_vault::ops::{archive, feature, rename};
use vaultspec_vault::{MemStorage, Storage, adr};

use crate::common::{Vector, golden_today};
use crate::harness::{Files, Op, Vault, exercise, rename_cache_layer};

impl Vault for MemStorage {
    fn storage(&self) -> &dyn Storage {
        self
    }
    fn files(&self) -> Files {
        self.snapshot()
    }
}

fn make(files: &Files) -> Box<dyn Vault> {
    let s = MemStorage::new();
    for (p, b) in files {
        s.insert(p, b.clone());
    }
    Box::new(s)
}

/// Exercises `op` on the `before/` vault of a golden vector.
fn on_vector(vector: &str, op: Op<'_>) {
    let v = Vector::load(vector);
    let changes = exercise(vector, &v.before_storage().snapshot(), &make, op);
    assert!(
        changes >= 2,
        "{vector}: a multi-file operation made {changes} change(s)"
    );
}

#[test]
fn vault_rename_is_all_or_nothing() {
    on_vector("30-rename", &|s| {
        rename::rename(
            s,
            "2026-03-01-cache-layer-eviction-research",
            "2026-03-01-cache-layer-aging-research",
            None,
            false,
            golden_today(),
        )
        .map(drop)
    });
}

#[test]
fn feature_rename_is_all_or_nothing() {
    on_vector("31-feature-rename", &rename_cache_layer);
}

#[test]
fn feature_archive_is_all_or_nothing() {
    on_vector("37-feature-archive", &|s| {
        archive::archive_feature(s, "cache-layer", false).map(drop)
    });
}

#[test]
fn feature_unarchive_is_all_or_nothing() {
    on_vector("38-feature-unarchive", &|s| {
        archive::unarchive_feature(s, "cache-layer", false).map(drop)
    });
}

#[test]
fn archive_documents_is_all_or_nothing() {
    let v = Vector::load("39-archive-documents-and-restore");
    let mut refs: Vec<String> = v
        .input("manifest.txt")
        .lines()
        .map(str::to_string)
        .collect();
    refs.push("2026-03-08-search-box-adr".to_string());
    on_vector("39-archive-documents-and-restore", &|s| {
        archive::archive_documents(s, &refs, false).map(drop)
    });
}

#[test]
fn feature_index_of_every_feature_is_all_or_nothing() {
    on_vector("33-feature-index-all-and-rerun", &|s| {
        feature::index_features(s, None, golden_today()).map(drop)
    });
}

#[test]
fn adr_supersede_is_all_or_nothing() {
    on_vector("35-adr-supersede", &|s| {
        adr::supersede(
            s,
            "2026-03-03-cache-layer-size-cap-adr",
            "2026-03-09-cache-layer-byte-cap-adr",
            golden_today(),
        )
        .map(drop)
    });
}

#[test]
fn check_all_fix_is_all_or_nothing() {
    on_vector("91-check-all-fix", &|s| {
        run_all(s, &Options::fix(golden_today())).map(drop)
    });
}

#[test]
fn repair_is_all_or_nothing() {
    on_vector("91-check-all-fix", &|s| {
        repair(s, &RepairOptions::new(golden_today())).map(drop)
    });
}

#[test]
fn ledger_fold_is_all_or_nothing() {
    let plan = "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-01'\ntier: L2\n---\n\n# p\n\n## Steps\n\n### Phase `P01` - a\n\nI.\n\n- [x] `P01.S01` - a; `x`.\n- [x] `P01.S02` - b; `y`.\n";
    let dir = ".vault/exec/2026-03-01-f";
    let record = |step: &str, section: &str| {
        format!(
            "---\ntags:\n  - '#exec'\n  - '#f'\ndate: '2026-03-01'\nstep_id: {step}\n---\n\n# r\n\n{section}\n"
        )
    };
    let mut files = Files::new();
    files.insert(".vault/plan/2026-03-01-f-plan.md".into(), plan.into());
    files.insert(
        format!("{dir}/2026-03-01-f-S01.md"),
        record("S01", "## Scope\n\n- `src/x.rs`").into_bytes(),
    );
    files.insert(
        format!("{dir}/2026-03-01-f-S02.md"),
        record(
            "S02",
            "## Changes\n\n- `M` `src/y.rs`\n\n## Notes\n\n- skipped a test",
        )
        .into_bytes(),
    );
    files.insert(
        format!("{dir}/2026-03-01-f-P01-summary.md"),
        b"---\ntags:\n  - '#exec'\n  - '#f'\n---\n\n# s\n".to_vec(),
    );
    let changes = exercise("ledger fold", &files, &make, &|s| {
        vaultspec_vault::ledger::fold::fold(s, "f", golden_today(), false, false)
            .map(drop)
            .map_err(|e| vaultspec_vault::Error::Invalid(e.to_string()))
    });
    assert!(changes >= 2);
}

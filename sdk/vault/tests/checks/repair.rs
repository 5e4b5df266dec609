//! `vault repair` and `commit-gate` over the broken vault of golden vector
//! 91.

use crate::common::{Vector, golden_today};
use vaultspec_vault::checks::{RepairOptions, commit_gate, repair};

#[test]
fn repair_fixes_indexes_and_a_second_run_changes_nothing() {
    let v = Vector::load("91-check-all-fix");
    let s = v.before_storage();
    let dry = repair(
        &s,
        &RepairOptions {
            dry_run: true,
            ..RepairOptions::new(golden_today())
        },
    )
    .unwrap();
    assert!(
        s.snapshot() == v.before_storage().snapshot(),
        "a dry run writes nothing"
    );
    assert!(dry.planned_fixes.len() >= 7, "{:?}", dry.planned_fixes);
    assert_eq!(dry.generated_indexes, [".vault/index/loose-ends.index.md"]);

    let run = repair(&s, &RepairOptions::new(golden_today())).unwrap();
    assert_eq!(run.generated_indexes, [".vault/index/loose-ends.index.md"]);
    assert_eq!(
        run.error_count, 2,
        "the ADR's placeholders need an author: {:?}",
        run.unresolved
    );
    assert_eq!(run.root_causes, ["placeholders"]);
    assert!(
        run.changed_files
            .contains(&".vault/research/2026-03-14-loose-ends-notes-research.md".to_string())
    );
    let phases: Vec<&str> = run
        .phases
        .iter()
        .map(|p| p["phase"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        phases,
        ["preflight", "check", "fix", "index", "postcheck", "summary"]
    );

    let after = s.snapshot();
    let again = repair(&s, &RepairOptions::new(golden_today())).unwrap();
    assert!(
        again.changed_files.is_empty() && again.generated_indexes.is_empty(),
        "{again:?}"
    );
    assert!(s.snapshot() == after);
}

#[test]
fn commit_gate_blocks_on_errors_in_staged_files_only() {
    let v = Vector::load("90-check-all-json");
    let s = v.before_storage();
    let staged = |p: &str| commit_gate(&s, &[p.to_string()], golden_today()).unwrap();
    assert!(staged(".vault/research/2026-03-14-loose-ends-notes.md").is_blocking());
    assert!(!staged(".vault/plan/2026-03-14-loose-ends-plan.md").is_blocking());
    assert!(staged(".vaultspec/.env").is_blocking());
    let data = staged(".vault/adr/2026-03-14-loose-ends-adr.md").to_json();
    assert_eq!(data["blocking"].as_array().map(Vec::len), Some(2));
    assert_eq!(data["results"].as_array().map(Vec::len), Some(20));
}

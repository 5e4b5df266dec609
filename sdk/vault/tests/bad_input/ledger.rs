//! A ledger row that does not parse is found by `check all`, not only when
//! the next `vault exec log` refuses the ledger.

use vaultspec_vault::checks::{Check, Options, run_all};
use vaultspec_vault::ledger::{LogOptions, LogRequest, log};
use vaultspec_vault::{Date, MemStorage, Storage};

const PLAN: &str = "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-01'\ntier: L2\n---\n\n# p\n\n## Steps\n\n### Phase `P01` - a\n\nI.\n\n- [ ] `P01.S01` - a; `x`.\n";
const LEDGER: &str = ".vault/exec/2026-03-01-f/2026-03-01-f-ledger.md";

fn logged() -> (MemStorage, Date) {
    let s = MemStorage::new();
    s.insert(".vault/plan/2026-03-01-f-plan.md", PLAN);
    let today = Date::new(2026, 3, 2).unwrap();
    let request = LogRequest {
        feature: "#f".into(),
        plan_stem: "2026-03-01-f-plan".into(),
        step: "P01.S01".into(),
        rows: vec!["A:a.rs".into()],
        ..Default::default()
    };
    log(&s, &request, &LogOptions::new(today)).expect("the first log");
    (s, today)
}

fn mapping_errors(s: &MemStorage, today: Date) -> Vec<String> {
    let results = run_all(s, &Options::check(today)).expect("check all runs");
    results
        .iter()
        .filter(|r| r.check == Check::ExecMapping)
        .flat_map(|r| &r.findings)
        .filter(|f| f.path.as_deref() == Some(LEDGER))
        .map(|f| f.message.clone())
        .collect()
}

#[test]
fn a_stray_row_in_the_changes_section_is_an_exec_mapping_error_naming_its_line() {
    let (s, today) = logged();
    let text = String::from_utf8(s.read(LEDGER).unwrap()).unwrap();
    let line = text.lines().count() + 1;
    s.insert(LEDGER, format!("{text}- stray line\n"));
    let errors = mapping_errors(&s, today);
    assert!(
        errors
            .iter()
            .any(|m| m.contains(&format!("line {line}")) && m.contains("- stray line")),
        "{errors:#?}"
    );
}

#[test]
fn an_unclosed_fence_in_a_ledger_is_an_exec_mapping_error() {
    let (s, today) = logged();
    let text = String::from_utf8(s.read(LEDGER).unwrap()).unwrap();
    s.insert(LEDGER, format!("{text}\n```\nnever closed\n"));
    let errors = mapping_errors(&s, today);
    assert!(
        errors.iter().any(|m| m.contains("never closed")),
        "{errors:#?}"
    );
}

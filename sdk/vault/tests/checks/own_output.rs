//! What our own verbs write must pass our own checks: documents scaffolded
//! by `vault add`, a plan grown by the plan verbs, and the feature index,
//! with only the findings a fresh scaffold cannot avoid (the ADR status is
//! the author's choice).

use vaultspec_vault::checks::{Check, CheckResult, Options, run_all};
use vaultspec_vault::doc::Corpus;
use vaultspec_vault::ops::add::{AddRequest, add};
use vaultspec_vault::ops::apply;
use vaultspec_vault::plan::{PlanOp, WriteOptions, mutate_plan};
use vaultspec_vault::{Date, MemStorage, index};

fn today() -> Date {
    Date::new(2026, 11, 30).expect("valid date")
}

fn req(
    t: &str,
    topic: Option<&str>,
    title: Option<&str>,
    tier: Option<&str>,
    related: &[&str],
) -> AddRequest {
    AddRequest {
        doc_type: t.into(),
        feature: "f".into(),
        date: Some("2026-03-01".into()),
        topic: topic.map(Into::into),
        title: title.map(Into::into),
        tier: tier.map(Into::into),
        related: related.iter().map(|r| r.to_string()).collect(),
        ..AddRequest::default()
    }
}

/// Scaffolds one document of each authored type, grows the plan by a Phase
/// and a Step, and writes the feature index.
fn scaffold(s: &MemStorage) {
    add(
        s,
        &req("research", Some("eviction"), None, None, &[]),
        today(),
    )
    .unwrap();
    add(s, &req("reference", Some("keys"), None, None, &[]), today()).unwrap();
    add(
        s,
        &req(
            "audit",
            None,
            Some("sweep"),
            None,
            &["2026-03-01-f-eviction-research"],
        ),
        today(),
    )
    .unwrap();
    add(
        s,
        &req(
            "adr",
            None,
            Some("use lru"),
            None,
            &["2026-03-01-f-eviction-research"],
        ),
        today(),
    )
    .unwrap();
    add(
        s,
        &req("plan", None, None, Some("L2"), &["2026-03-01-f-adr"]),
        today(),
    )
    .unwrap();
    let plan = ".vault/plan/2026-03-01-f-plan.md";
    let opts = WriteOptions::new(today());
    mutate_plan(
        s,
        plan,
        &PlanOp::PhaseAdd {
            title: "Build".into(),
            intent: "Build the cache.".into(),
            wave: None,
        },
        &opts,
    )
    .unwrap();
    mutate_plan(
        s,
        plan,
        &PlanOp::StepAdd {
            action: "write the cache".into(),
            scope: "src/cache.rs".into(),
            phase: Some("P01".into()),
        },
        &opts,
    )
    .unwrap();
    let corpus = Corpus::load(s).unwrap();
    let (_, change) = index::plan_index(&corpus, "f", today()).expect("index");
    apply(s, &[change]).unwrap();
}

/// Findings other than the ADR status the author still has to choose.
fn unexpected(results: &[CheckResult]) -> Vec<String> {
    results
        .iter()
        .flat_map(|r| r.findings.iter().map(move |f| (r.check, f)))
        .filter(|(c, f)| {
            let adr_status_choice = f.path.as_deref() == Some(".vault/adr/2026-03-01-f-adr.md")
                && (*c == Check::AdrStatus
                    || (*c == Check::Placeholders && f.message.contains("{proposed|")));
            !adr_status_choice
        })
        .map(|(c, f)| format!("{c}: {:?} {}", f.path, f.message))
        .collect()
}

#[test]
fn scaffolds_from_the_workspace_templates_and_plan_additions_pass_every_check() {
    let root = crate::common::golden_root();
    let s = MemStorage::new();
    for e in std::fs::read_dir(root.join("_workspace/.vaultspec/templates")).expect("templates") {
        let e = e.expect("entry");
        s.insert(
            &format!(".vaultspec/templates/{}", e.file_name().to_string_lossy()),
            std::fs::read(e.path()).expect("read"),
        );
    }
    scaffold(&s);
    let results = run_all(&s, &Options::check(today())).unwrap();
    assert!(
        unexpected(&results).is_empty(),
        "{:#?}",
        unexpected(&results)
    );
}

/// Our own default templates (used when a workspace has none) write prose,
/// not HTML-comment guidance, and a settled ADR status, so what our verbs
/// scaffold passes every check with nothing left for the author to clear.
#[test]
fn scaffolds_from_the_embedded_templates_pass_every_check() {
    let s = MemStorage::new();
    scaffold(&s);
    let results = run_all(&s, &Options::check(today())).unwrap();
    let findings: Vec<String> = results
        .iter()
        .flat_map(|r| r.findings.iter().map(move |f| (r.check, f)))
        .filter(|(_, f)| f.severity != vaultspec_vault::checks::Severity::Info)
        .map(|(c, f)| format!("{c}: {:?} {}", f.path, f.message))
        .collect();
    assert!(findings.is_empty(), "{findings:#?}");
}

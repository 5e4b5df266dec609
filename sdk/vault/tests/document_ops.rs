//! Document operations beyond the golden vectors: refusals that must leave
//! the vault untouched, replays that must be no-ops, and cross-feature links.

use vaultspec_vault::ops::{self, Status};
use vaultspec_vault::{Date, Error, MemStorage, Storage, adr};

fn today() -> Date {
    Date::new(2026, 11, 30).expect("valid date")
}

fn doc(s: &MemStorage, path: &str, tags: [&str; 2], related: &[&str], h1: &str) {
    let rel = if related.is_empty() {
        "related: []".to_string()
    } else {
        format!(
            "related:\n{}",
            related
                .iter()
                .map(|r| format!("  - '[[{r}]]'"))
                .collect::<Vec<_>>()
                .join("\n")
        )
    };
    s.insert(
        path,
        format!(
            "---\ntags:\n  - '{}'\n  - '{}'\ndate: '2026-03-01'\nmodified: '2026-03-01'\n{rel}\n---\n\n# {h1}\n",
            tags[0], tags[1]
        ),
    );
}

fn adr_doc(s: &MemStorage, stem: &str, status: &str, extra: &str) {
    s.insert(
        &format!(".vault/adr/{stem}.md"),
        format!(
            "---\ntags:\n  - '#adr'\n  - '#f'\ndate: '2026-03-01'\nmodified: '2026-03-01'\n{extra}related: []\n---\n\n# `f` adr: `x` | (**status:** `{status}`)\n"
        ),
    );
}

#[test]
fn supersede_refuses_a_cycle_and_replays_as_a_no_op() {
    let s = MemStorage::new();
    adr_doc(
        &s,
        "2026-03-01-f-a-adr",
        "accepted",
        "supersedes:\n  - '2026-03-02-f-b-adr'\n",
    );
    adr_doc(&s, "2026-03-02-f-b-adr", "accepted", "");
    let before = s.snapshot();
    let e = adr::supersede(&s, "2026-03-01-f-a-adr", "2026-03-02-f-b-adr", today()).unwrap_err();
    assert!(e.to_string().contains("cycle"), "{e}");
    assert_eq!(s.snapshot(), before);

    let r = adr::supersede(&s, "2026-03-02-f-b-adr", "2026-03-01-f-a-adr", today()).unwrap();
    assert_eq!(r.status, Status::Updated);
    let after = s.snapshot();
    let r = adr::supersede(&s, "2026-03-02-f-b-adr", "2026-03-01-f-a-adr", today()).unwrap();
    assert_eq!(r.status, Status::Unchanged);
    assert_eq!(s.snapshot(), after);
    let old = String::from_utf8(s.read(".vault/adr/2026-03-02-f-b-adr.md").unwrap()).unwrap();
    assert!(
        old.contains("superseded_by: '2026-03-01-f-a-adr'\n"),
        "{old}"
    );
    assert!(old.contains("(**status:** `superseded`)"), "{old}");
}

#[test]
fn archive_aborts_the_whole_batch_on_an_existing_destination() {
    let s = MemStorage::new();
    doc(
        &s,
        ".vault/research/2026-03-01-f-a-research.md",
        ["#research", "#f"],
        &[],
        "a",
    );
    doc(
        &s,
        ".vault/research/2026-03-01-f-b-research.md",
        ["#research", "#f"],
        &[],
        "b",
    );
    s.insert(
        ".vault/_archive/research/2026-03-01-f-b-research.md",
        "old copy",
    );
    let before = s.snapshot();
    let e = ops::archive::archive_feature(&s, "f", false).unwrap_err();
    assert!(matches!(e, Error::FileExists { .. }), "{e}");
    assert_eq!(s.snapshot(), before);
}

#[test]
fn unarchive_drops_an_identical_duplicate_and_reports_incoming_links() {
    let s = MemStorage::new();
    doc(
        &s,
        ".vault/research/2026-03-01-f-a-research.md",
        ["#research", "#f"],
        &[],
        "a",
    );
    doc(
        &s,
        ".vault/adr/2026-03-02-g-adr.md",
        ["#adr", "#g"],
        &["2026-03-01-f-a-research"],
        "g",
    );
    let a = ops::archive::archive_feature(&s, "#f", false).unwrap();
    assert_eq!(
        a.paths,
        [".vault/_archive/research/2026-03-01-f-a-research.md"]
    );
    assert_eq!(a.cross_link_paths, [".vault/adr/2026-03-02-g-adr.md"]);
    // An identical live copy appears meanwhile: unarchive deduplicates it.
    let bytes = s
        .read(".vault/_archive/research/2026-03-01-f-a-research.md")
        .unwrap();
    s.insert(".vault/research/2026-03-01-f-a-research.md", bytes);
    let r = ops::archive::unarchive_feature(&s, "f", false).unwrap();
    assert_eq!((r.restored_count, r.deduplicated_count), (0, 1));
    assert!(
        !s.exists(".vault/_archive/research/2026-03-01-f-a-research.md")
            .unwrap()
    );
}

#[test]
fn feature_rename_repoints_links_from_other_features() {
    let s = MemStorage::new();
    doc(
        &s,
        ".vault/research/2026-03-01-old-a-research.md",
        ["#research", "#old"],
        &[],
        "a",
    );
    doc(
        &s,
        ".vault/adr/2026-03-02-other-adr.md",
        ["#adr", "#other"],
        &["2026-03-01-old-a-research"],
        "o",
    );
    let r = ops::feature::rename_feature(&s, "old", "new", false, false, today()).unwrap();
    assert_eq!(r.renamed_count, 1);
    assert_eq!(r.cross_links, [".vault/adr/2026-03-02-other-adr.md"]);
    let other = String::from_utf8(s.read(".vault/adr/2026-03-02-other-adr.md").unwrap()).unwrap();
    assert!(
        other.contains("  - '[[2026-03-01-new-a-research]]'\n"),
        "{other}"
    );
    assert!(other.contains("modified: '2026-11-30'\n"), "{other}");
    assert!(s.exists(".vault/index/new.index.md").unwrap());
    // The renamed feature's index is current; `other` gets one; a rerun writes nothing.
    let first = ops::feature::index_features(&s, None, today()).unwrap();
    assert_eq!(first.generated, [".vault/index/other.index.md"]);
    let again = ops::feature::index_features(&s, None, today()).unwrap();
    assert_eq!(again.status, Status::Unchanged);
}

#[test]
fn link_add_refuses_an_unknown_target_unless_forced_and_link_list_shows_edges() {
    let s = MemStorage::new();
    doc(
        &s,
        ".vault/research/2026-03-01-f-a-research.md",
        ["#research", "#f"],
        &[],
        "a",
    );
    let before = s.snapshot();
    let e = ops::link::add(
        &s,
        "2026-03-01-f-a-research",
        "nowhere",
        false,
        false,
        today(),
    )
    .unwrap_err();
    assert!(matches!(e, Error::Unresolved(_)), "{e}");
    assert_eq!(s.snapshot(), before);
    let r = ops::link::add(
        &s,
        "2026-03-01-f-a-research",
        "[[nowhere]]",
        true,
        false,
        today(),
    )
    .unwrap();
    assert_eq!((r.status, r.dst.as_str()), (Status::Created, "nowhere"));
    let graph = vaultspec_vault::graph::load_graph(&s).unwrap();
    let edges = ops::link::list(&graph, Some("2026-03-01-f-a-research"), None).unwrap();
    assert_eq!(edges.len(), 1);
    assert_eq!(edges[0].dst, "nowhere");
    let r = ops::link::remove(&s, "2026-03-01-f-a-research", "nowhere", false, today()).unwrap();
    assert_eq!(r.status, Status::Removed);
    let text = String::from_utf8(
        s.read(".vault/research/2026-03-01-f-a-research.md")
            .unwrap(),
    )
    .unwrap();
    assert!(text.contains("related: []\n"), "{text}");
}

#[test]
fn link_list_keys_a_shared_stem_by_type_and_counts_body_links() {
    // Two documents share a stem (a research note and a reference); a plan
    // links to that stem in `related:` and to another note in its body. As
    // in the reference's graph, the shared stem is both `<type>/<stem>` keys,
    // and the body link is an edge like any other.
    let s = MemStorage::new();
    doc(
        &s,
        ".vault/research/2026-03-01-f-x.md",
        ["#research", "#f"],
        &[],
        "x",
    );
    doc(
        &s,
        ".vault/reference/2026-03-01-f-x.md",
        ["#reference", "#f"],
        &[],
        "x",
    );
    doc(
        &s,
        ".vault/research/2026-03-02-f-y-research.md",
        ["#research", "#f"],
        &[],
        "y",
    );
    s.insert(
        ".vault/plan/2026-03-03-f-plan.md",
        "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-03'\nrelated:\n  - '[[2026-03-01-f-x]]'\n---\n\n# plan\n\nSee [[2026-03-02-f-y-research]].\n".to_string(),
    );
    let graph = vaultspec_vault::graph::load_graph(&s).unwrap();
    let edges = ops::link::list(&graph, None, None).unwrap();
    let pairs: Vec<(&str, &str)> = edges
        .iter()
        .map(|e| (e.src.as_str(), e.dst.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("2026-03-03-f-plan", "2026-03-02-f-y-research"),
            ("2026-03-03-f-plan", "reference/2026-03-01-f-x"),
            ("2026-03-03-f-plan", "research/2026-03-01-f-x"),
        ]
    );
    let into = ops::link::list(&graph, Some("2026-03-02-f-y-research"), None).unwrap();
    assert_eq!(into.len(), 1);
    assert_eq!(
        (into[0].src.as_str(), into[0].direction),
        ("2026-03-03-f-plan", "in")
    );
    assert!(ops::link::list(&graph, Some("2026-03-01-f-x"), None).is_none());
}

#[test]
fn add_refuses_a_stem_taken_elsewhere_and_a_bad_feature() {
    let s = MemStorage::new();
    doc(
        &s,
        ".vault/adr/2026-03-01-f-research.md",
        ["#adr", "#f"],
        &[],
        "misplaced",
    );
    let req = ops::add::AddRequest {
        doc_type: "research".into(),
        feature: "f".into(),
        date: Some("2026-03-01".into()),
        ..Default::default()
    };
    let e = ops::add::add(&s, &req, today()).unwrap_err();
    assert!(matches!(e, Error::StemTaken { .. }), "{e}");
    let bad = ops::add::AddRequest {
        feature: "Com1".into(),
        ..req
    };
    let e = ops::add::add(&s, &bad, today()).unwrap_err();
    assert!(e.to_string().contains("reserved device name"), "{e}");
}

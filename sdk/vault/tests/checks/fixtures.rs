//! Each checker on a fixture made for it: it finds what it must, and its
//! fix (where it has one) makes the check clean and is idempotent: a second
//! fixing run writes nothing.

use vaultspec_vault::checks::{Check, CheckResult, Options, Severity, run_all, run_check};
use vaultspec_vault::{Date, MemStorage, hash};

fn today() -> Date {
    Date::new(2026, 11, 30).expect("valid date")
}

fn check(s: &MemStorage, c: Check) -> CheckResult {
    run_check(s, c, &Options::check(today())).expect("check runs")
}

/// Runs the fixer twice; the second run must change nothing.
fn fix_twice(s: &MemStorage, c: Check) -> CheckResult {
    let first = run_check(s, c, &Options::fix(today())).expect("fix runs");
    let after = s.snapshot();
    let second = run_check(s, c, &Options::fix(today())).expect("fix runs");
    assert_eq!(
        second.fixed_count, 0,
        "second {c} run fixed again: {:?}",
        second.findings
    );
    assert!(s.snapshot() == after, "second {c} run changed files");
    first
}

fn sev(r: &CheckResult) -> Vec<Severity> {
    r.findings.iter().map(|f| f.severity).collect()
}

/// A conforming document of `t` for `feature`, stamped and fingerprinted.
fn doc(t: &str, feature: &str, related: &[&str], body: &str) -> String {
    let related = if related.is_empty() {
        "related: []\n".to_string()
    } else {
        format!(
            "related:\n{}",
            related
                .iter()
                .map(|r| format!("  - '[[{r}]]'\n"))
                .collect::<String>()
        )
    };
    let text = format!(
        "---\ntags:\n  - '#{t}'\n  - '#{feature}'\ndate: '2026-03-01'\nmodified: '2026-03-01'\nbody_schema: 'body-v2'\n{related}---\n\n{body}"
    );
    hash::set_body_hash(&text, &hash::body_hash(&text))
}

const RESEARCH: &str =
    "# `f` research: `x`\n\n## Findings\n\nA point.\n\n## Sources\n\nA source.\n";
const ADR: &str = "# `f` adr: `t` | (**status:** `accepted`)\n\n## Problem Statement\n\np\n\n## Considerations\n\nc\n\n## Considered options\n\no\n\n## Constraints\n\nc\n\n## Implementation\n\ni\n\n## Rationale\n\nr\n\n## Consequences\n\nc\n";

/// A small vault that passes every checker.
fn clean_vault() -> MemStorage {
    let s = MemStorage::new();
    s.insert(
        ".vault/research/2026-03-01-f-research.md",
        doc("research", "f", &[], RESEARCH),
    );
    s.insert(
        ".vault/adr/2026-03-01-f-adr.md",
        doc("adr", "f", &["2026-03-01-f-research"], ADR),
    );
    s
}

#[test]
fn a_conforming_vault_is_clean_under_every_checker_but_features() {
    let s = clean_vault();
    for r in run_all(&s, &Options::check(today())).unwrap() {
        if r.check == Check::Features {
            assert_eq!(r.findings.len(), 1, "no index yet");
            continue;
        }
        assert!(r.is_clean(), "{}: {:?}", r.check, r.findings);
    }
}

#[test]
fn structure_renames_and_repoints_links_and_refuses_collisions() {
    let s = clean_vault();
    s.insert(
        ".vault/research/2026-03-02-f-Notes.md",
        doc("research", "f", &[], RESEARCH),
    );
    s.insert(
        ".vault/adr/2026-03-02-f-adr.md",
        doc(
            "adr",
            "f",
            &["2026-03-02-f-Notes", "2026-03-01-f-research"],
            ADR,
        ),
    );
    s.insert(".vault/stray.txt", "x");
    s.insert(".vault/readme.md", "# hi\n");
    s.insert(".vault/misc/x.md", "x");
    s.insert(".vault/old.index.md", "x");
    s.insert(
        ".vault/plan/2026-03-03-g-notes.md",
        doc("plan", "g", &[], "# p\n"),
    );
    s.insert(
        ".vault/plan/2026-03-03-g-notes-plan.md",
        doc("plan", "g", &[], "# p\n"),
    );
    let r = check(&s, Check::Structure);
    assert_eq!(
        sev(&r),
        [
            Severity::Error,
            Severity::Warning,
            Severity::Error,
            Severity::Error,
            Severity::Error
        ],
        "{:?}",
        r.findings
    );
    let fixed = fix_twice(&s, Check::Structure);
    assert_eq!(fixed.fixed_count, 3, "{:?}", fixed.findings);
    assert!(
        s.snapshot()
            .contains_key(".vault/research/2026-03-02-f-notes-research.md")
    );
    let adr = String::from_utf8(s.snapshot()[".vault/adr/2026-03-02-f-adr.md"].clone()).unwrap();
    assert!(
        adr.contains("  - '[[2026-03-02-f-notes-research]]'\n  - '[[2026-03-01-f-research]]'"),
        "{adr}"
    );
    assert!(fixed.findings.iter().any(|f| {
        f.message
            .starts_with("Cannot rename to 2026-03-03-g-notes-plan.md")
    }));
}

#[test]
fn frontmatter_fix_normalises_tags_and_dates_and_leaves_a_clean_document() {
    let s = MemStorage::new();
    s.insert(".vault/audit/2026-01-05-chk-audit.md", "---\ntags: ['audit', '#chk']\ndate: 2026-01-05 extra\nmodified: '2026-01-06'\nmodified: '2026-01-07'\nrelated: []\n---\n\n# body\n");
    s.insert(
        ".vault/adr/2026-01-05-chk-adr.md",
        "---\ntags:\n  - '#adr'\n---\n\n# body\n",
    );
    let r = check(&s, Check::Frontmatter);
    assert!(
        r.error_count() >= 2 && r.warning_count() >= 3,
        "{:?}",
        r.findings
    );
    let fixed = fix_twice(&s, Check::Frontmatter);
    assert_eq!(fixed.fixed_count, 3);
    let r = check(&s, Check::Frontmatter);
    assert!(
        r.findings
            .iter()
            .all(|f| f.path.as_deref() == Some(".vault/adr/2026-01-05-chk-adr.md")),
        "{:?}",
        r.findings
    );
}

#[test]
fn annotations_markdown_and_links_fixes_are_clean_and_idempotent() {
    let s = MemStorage::new();
    let body = "# `f` research: `x`   \n\n<!-- guidance -->\n\n## Findings\n\nSee `[[a.md]]` and keep <!-- inline --> this.\t\n\n\n\n## Sources\n\nnone";
    s.insert(".vault/research/2026-03-01-f-research.md", format!("---\n# a comment\ntags:\n  - '#research'\n  - '#f'\ndate: '2026-03-01'\nrelated:\n  - '[[b.md]]'\n---\n\n{body}"));
    for c in [Check::Annotations, Check::Markdown, Check::Links] {
        let r = check(&s, c);
        assert_eq!(sev(&r), [Severity::Warning], "{c}");
        assert!(r.findings[0].fixable);
        assert_eq!(fix_twice(&s, c).fixed_count, 1, "{c}");
        assert!(check(&s, c).is_clean(), "{c}: {:?}", check(&s, c).findings);
    }
    let text = String::from_utf8(s.snapshot()[".vault/research/2026-03-01-f-research.md"].clone())
        .unwrap();
    // A comment inside prose is the author's: the reference keeps it.
    assert!(
        text.contains("keep <!-- inline --> this.\n\n## Sources") && !text.contains("guidance"),
        "{text}"
    );
    assert!(
        text.contains("'[[b]]'") && text.contains("`[[a]]`"),
        "{text}"
    );
}

#[test]
fn dangling_fix_removes_related_entries_restamps_and_spares_archived_targets() {
    let s = clean_vault();
    s.insert(".vault/_archive/adr/2026-01-01-f-old-adr.md", "x");
    s.insert(
        ".vault/plan/2026-03-01-f-plan.md",
        doc(
            "plan",
            "f",
            &[
                "2026-03-09-f-gone-adr",
                "2026-01-01-f-old-adr",
                "2026-03-01-f-adr",
            ],
            "# p\n",
        ),
    );
    let r = check(&s, Check::Dangling);
    assert_eq!(sev(&r), [Severity::Error]);
    let fixed = fix_twice(&s, Check::Dangling);
    assert_eq!((fixed.fixed_count, fixed.error_count()), (1, 1));
    assert!(check(&s, Check::Dangling).is_clean());
    let plan = String::from_utf8(s.snapshot()[".vault/plan/2026-03-01-f-plan.md"].clone()).unwrap();
    assert!(
        plan.contains("modified: '2026-11-30'") && !plan.contains("gone"),
        "{plan}"
    );
}

#[test]
fn body_links_fix_converts_wiki_links_and_keeps_markdown_link_errors() {
    let s = clean_vault();
    s.insert(".vault/research/2026-03-02-f-more-research.md", doc("research", "f", &[], "# r\n\nSee [[2026-03-01-f-adr]] and [the code](src/lib.rs) and [site](https://x.org).\n"));
    let r = check(&s, Check::BodyLinks);
    assert_eq!(r.error_count(), 2);
    let fixed = fix_twice(&s, Check::BodyLinks);
    assert_eq!(fixed.fixed_count, 1);
    let after = check(&s, Check::BodyLinks);
    assert_eq!((after.error_count(), after.findings[0].fixable), (1, false));
}

#[test]
fn read_only_document_checkers_find_their_cases() {
    let s = clean_vault();
    s.insert(
        ".vault/reference/2026-03-01-f-reference.md",
        doc(
            "reference",
            "f",
            &["2026-03-01-f-adr"],
            "# `f` reference: `{topic}`\n\n## Summary\n\n<!-- later -->\n",
        ),
    );
    s.insert(
        ".vault/audit/2026-03-01-lonely-audit.md",
        doc(
            "audit",
            "lonely",
            &[],
            "# a\n\n## Scope\n\ns\n\n## Findings\n\nf\n\n## Recommendations\n\nr\n",
        ),
    );
    s.insert(
        ".vault/research/2026-03-03-f-unread-research.md",
        doc("research", "f", &[], RESEARCH),
    );
    s.insert(
        ".vault/adr/2026-03-04-f-bare-adr.md",
        doc("adr", "f", &[], &ADR.replace("`accepted`", "Proposed")),
    );
    s.insert(
        ".vault/plan/2026-03-05-f-plan.md",
        doc("plan", "f", &["2026-03-04-f-bare-adr"], "# p\n\n## Description\n\nApproved 2026-03-05\n\n## Steps\n\n- [ ] `S01` - do; `x`.\n\n## Parallelization\n\nn\n\n## Verification\n\nv\n"),
    );
    let paths = |r: &CheckResult| {
        r.findings
            .iter()
            .map(|f| f.path.clone().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        paths(&check(&s, Check::Placeholders)),
        [".vault/reference/2026-03-01-f-reference.md"]
    );
    assert_eq!(
        paths(&check(&s, Check::Orphans)),
        [".vault/audit/2026-03-01-lonely-audit.md"]
    );
    assert_eq!(
        paths(&check(&s, Check::BodySections)),
        [".vault/reference/2026-03-01-f-reference.md"]
    );
    assert_eq!(
        paths(&check(&s, Check::References)),
        [".vault/research/2026-03-03-f-unread-research.md"]
    );
    let schema = check(&s, Check::Schema);
    assert_eq!(
        paths(&schema),
        [
            ".vault/adr/2026-03-04-f-bare-adr.md",
            ".vault/plan/2026-03-05-f-plan.md"
        ],
        "{:?}",
        schema.findings
    );
    let adr = check(&s, Check::AdrStatus);
    assert_eq!((adr.findings.len(), adr.findings[0].fixable), (1, true));
    fix_twice(&s, Check::AdrStatus);
    assert!(check(&s, Check::AdrStatus).is_clean());
}

#[test]
fn features_exec_mapping_and_feature_rename_integrity_are_reported() {
    let s = clean_vault();
    s.insert(".vault/index/f.index.md", "---\ngenerated: true\ntags:\n  - '#index'\n  - '#f'\ndate: '2026-03-01'\nrelated:\n  - '[[2026-03-01-f-adr]]'\n---\n\n# i\n");
    s.insert(
        ".vault/exec/2026-03-01-g/2026-03-01-g-ledger.md",
        doc(
            "exec",
            "h",
            &["2026-03-01-g-plan"],
            "# l\n\n## Changes\n\n- `S01` `A` `x`\n",
        ),
    );
    let f = check(&s, Check::Features);
    assert_eq!(
        f.warning_count(),
        3,
        "stale f, h exec without plan, h without index: {:?}",
        f.findings
    );
    assert!(f.findings.iter().all(|x| x.path.is_none()));
    assert_eq!(
        sev(&check(&s, Check::FeatureRenameIntegrity)),
        [Severity::Error]
    );
    assert_eq!(
        sev(&check(&s, Check::ExecMapping)),
        [Severity::Warning],
        "parent plan missing"
    );
}

#[test]
fn an_uncategorized_record_in_a_feature_exec_folder_is_not_rename_drift() {
    let s = clean_vault();
    s.insert(
        ".vault/exec/2026-03-01-f/2026-03-01-f-notes.md",
        doc("exec", "uncategorized", &[], "# n\n\nA note.\n"),
    );
    assert!(
        check(&s, Check::FeatureRenameIntegrity).is_clean(),
        "{:?}",
        check(&s, Check::FeatureRenameIntegrity).findings
    );
    s.insert(
        ".vault/exec/2026-03-01-f/2026-03-01-f-notes.md",
        doc("exec", "g", &[], "# n\n\nA note.\n"),
    );
    assert_eq!(
        sev(&check(&s, Check::FeatureRenameIntegrity)),
        [Severity::Error]
    );
}

#[test]
fn modified_stamp_covers_each_row_and_seeds_fingerprints() {
    let s = MemStorage::new();
    let base = |fm: &str| {
        format!("---\ntags:\n  - '#research'\n  - '#f'\ndate: '2026-03-10'\n{fm}---\n\n# r\n")
    };
    s.insert(".vault/research/2026-03-10-f-a-research.md", base(""));
    s.insert(
        ".vault/research/2026-03-10-f-b-research.md",
        base("modified: soon\n"),
    );
    s.insert(
        ".vault/research/2026-03-10-f-c-research.md",
        base("modified: '2026-03-11'\nbody_hash: 'sha256:0000000000000000000000000000000000000000000000000000000000000000'\n"),
    );
    s.insert(
        ".vault/research/2026-03-10-f-d-research.md",
        base("modified: 2026/3/12\n"),
    );
    s.insert(
        ".vault/research/2026-03-10-f-e-research.md",
        base("modified: '2026-03-01'\n"),
    );
    s.insert(
        ".vault/research/2026-03-10-f-f-research.md",
        base("modified: '2026-03-10'\n"),
    );
    let r = check(&s, Check::ModifiedStamp);
    assert_eq!(
        sev(&r),
        [
            Severity::Warning,
            Severity::Error,
            Severity::Warning,
            Severity::Warning,
            Severity::Warning
        ]
    );
    let fixed = fix_twice(&s, Check::ModifiedStamp);
    assert_eq!(fixed.fixed_count, 6, "{:?}", fixed.findings);
    assert_eq!(sev(&check(&s, Check::ModifiedStamp)), [Severity::Error]);
    let text = |p: &str| String::from_utf8(s.snapshot()[p].clone()).unwrap();
    assert!(
        text(".vault/research/2026-03-10-f-a-research.md")
            .contains("date: '2026-03-10'\nmodified: '2026-03-10'\nbody_hash: 'sha256:")
    );
    assert!(text(".vault/research/2026-03-10-f-c-research.md").contains("modified: '2026-11-30'"));
    assert!(text(".vault/research/2026-03-10-f-d-research.md").contains("modified: '2026-03-12'"));
    assert!(text(".vault/research/2026-03-10-f-e-research.md").contains("modified: '2026-03-10'"));
    assert!(text(".vault/research/2026-03-10-f-f-research.md").contains("body_hash: 'sha256:"));
}

#[test]
fn framework_encoding_and_foreign_checks_report_and_rename_integrity_fixes() {
    let s = clean_vault();
    s.insert(
        ".vaultspec/rules/style.md",
        "---\nname: styling\n---\nbody\n",
    );
    s.insert(".vaultspec/templates/adr.md", "x");
    s.insert(".vaultspec/junk/x.txt", "x");
    s.insert(".vault/adr/diagram.png", "x");
    s.insert(
        ".vault/research/2026-03-09-f-bad-research.md",
        vec![b'-', 0xff, b'\n'],
    );
    s.insert("src/lib.rs", "// see 2026-03-01-f-adr\n");
    assert_eq!(sev(&check(&s, Check::Encoding)), [Severity::Error]);
    assert_eq!(
        sev(&check(&s, Check::Foreign)),
        [Severity::Warning, Severity::Warning]
    );
    assert_eq!(sev(&check(&s, Check::CodeBoundary)), [Severity::Warning]);
    assert_eq!(sev(&check(&s, Check::RenameIntegrity)), [Severity::Error]);
    assert_eq!(fix_twice(&s, Check::RenameIntegrity).fixed_count, 1);
    assert!(check(&s, Check::RenameIntegrity).is_clean());
}

#[test]
fn a_feature_scope_limits_per_document_checkers() {
    let s = clean_vault();
    s.insert(
        ".vault/research/2026-03-01-g-research.md",
        "---\ntags:\n  - '#research'\n  - 'g'\ndate: '2026-03-01'\n---\n\n# r\n",
    );
    let scoped = run_check(
        &s,
        Check::Frontmatter,
        &Options::check(today()).with_feature(Some("#f")),
    )
    .unwrap();
    assert!(scoped.is_clean());
    assert_eq!(check(&s, Check::Frontmatter).findings.len(), 1);
}

#[test]
fn fixers_keep_a_crlf_file_crlf_and_its_bom() {
    let s = clean_vault();
    let text = "\u{feff}---\r\ntags:\r\n  - '#research'\r\n  - 'f'\r\ndate: '2026-03-02'\r\nrelated:\r\n  - '[[2026-03-01-f-adr.md]]'\r\n  - '[[2026-03-09-f-gone]]'\r\n---\r\n\r\n# `f` research: `y`  \r\n\r\n<!-- guide -->\r\n\r\n## Findings\r\n\r\nSee [[2026-03-01-f-adr]].\r\n\r\n\r\n## Sources\r\n\r\nnone";
    s.insert(".vault/research/2026-03-02-f-y-research.md", text);
    s.insert(
        ".vault/exec/2026-03-01-f/2026-03-01-f-W01-P01-S01.md",
        doc("exec", "f", &[], "# legacy step record\n"),
    );
    run_all(&s, &Options::fix(today())).unwrap();
    let after = s.snapshot();
    let out =
        String::from_utf8(after[".vault/research/2026-03-02-f-y-research.md"].clone()).unwrap();
    assert!(out.starts_with("\u{feff}---\r\n"), "{out:?}");
    assert!(
        !out.replace("\r\n", "").contains('\n'),
        "a lone LF crept in: {out:?}"
    );
    assert!(
        out.contains("See `2026-03-01-f-adr`.\r\n\r\n## Sources")
            && !out.contains("gone")
            && !out.contains(".md]]"),
        "{out:?}"
    );
    let again = run_all(&s, &Options::fix(today())).unwrap();
    assert!(
        again.iter().all(|r| r.fixed_count == 0),
        "{:?}",
        again
            .iter()
            .filter(|r| r.fixed_count > 0)
            .collect::<Vec<_>>()
    );
    assert!(s.snapshot() == after);
    assert!(
        check(&s, Check::Structure).is_clean(),
        "legacy step records raise nothing"
    );
}

#[test]
fn a_case_only_rename_lands_on_a_real_folder() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".vault/research");
    std::fs::create_dir_all(&path).unwrap();
    std::fs::write(
        path.join("2026-03-05-F-research.md"),
        doc("research", "f", &[], RESEARCH),
    )
    .unwrap();
    let s = vaultspec_vault::CapStorage::open(dir.path()).unwrap();
    let r = run_check(&s, Check::Structure, &Options::fix(today())).unwrap();
    assert_eq!(r.fixed_count, 1, "{:?}", r.findings);
    let names: Vec<String> = std::fs::read_dir(&path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["2026-03-05-f-research.md"]);
}

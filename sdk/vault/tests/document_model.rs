//! The document model end to end: round-trips of what the model writes,
//! tolerance of hand-edited input, refusal of malformed files, and property
//! tests for format-preserving edits and link-keeping renames.

mod common;

use std::collections::BTreeMap;

use proptest::prelude::*;
use vaultspec_vault::doc::{Corpus, Document};
use vaultspec_vault::frontmatter::{edit::key_blocks, split};
use vaultspec_vault::ops::{self, Status};
use vaultspec_vault::{Date, Error, MemStorage, Storage, hash};

fn today() -> Date {
    Date::new(2026, 11, 30).expect("valid date")
}

fn add(
    s: &MemStorage,
    ty: &str,
    feature: &str,
    topic: Option<&str>,
    related: &[&str],
) -> ops::add::Added {
    let req = ops::add::AddRequest {
        doc_type: ty.into(),
        feature: feature.into(),
        date: Some("2026-03-01".into()),
        topic: topic.map(str::to_string),
        related: related.iter().map(|r| r.to_string()).collect(),
        ..Default::default()
    };
    ops::add::add(s, &req, today()).expect("add")
}

fn text(s: &MemStorage, path: &str) -> String {
    String::from_utf8(s.read(path).expect("read")).expect("utf-8")
}

#[test]
fn scaffolds_parse_back_to_the_same_model_and_rewrite_nothing() {
    let s = MemStorage::new();
    let first = add(&s, "research", "cache", Some("eviction"), &[]);
    for ty in ["adr", "audit", "plan", "reference"] {
        let a = add(&s, ty, "cache", None, &[&first.name]);
        let doc = Document::from_text(&a.path, text(&s, &a.path));
        assert_eq!(
            doc.meta().tags().to_vec(),
            [format!("#{ty}"), "#cache".to_string()]
        );
        assert_eq!(
            doc.meta().related().to_vec(),
            [format!("[[{}]]", first.name)]
        );
        assert_eq!(doc.date(), Date::new(2026, 3, 1));
        assert_eq!(
            doc.meta().body_hash(),
            Some(hash::body_hash(&doc.text).as_str())
        );
        assert!(
            vaultspec_vault::checks::prewrite(&doc)
                .iter()
                .all(|f| f.check != "frontmatter"),
            "{ty}"
        );
        // Re-applying the same values on the day the stamp already holds is
        // a no-op: same bytes, nothing written.
        let fm = ops::edit::FrontmatterEdit {
            date: Some("2026-03-01".into()),
            ..Default::default()
        };
        let scaffold_day = Date::new(2026, 3, 1).unwrap();
        let e = ops::edit::set_frontmatter(&s, &a.name, &fm, scaffold_day).expect("edit");
        assert_eq!(e.status, Status::Unchanged, "{ty}");
        assert_eq!(text(&s, &a.path), *doc.text);
        // On a later day it still re-stamps `modified:` (and only that), as
        // the reference's edit engine does.
        let e = ops::edit::set_frontmatter(&s, &a.name, &fm, today()).expect("edit");
        assert_eq!(e.status, Status::Updated, "{ty}");
        let stamped = text(&s, &a.path);
        assert_eq!(
            stamped.replace(
                &format!("modified: '{}'", today()),
                "modified: '2026-03-01'"
            ),
            *doc.text,
            "{ty}"
        );
    }
}

#[test]
fn hand_edited_documents_with_bom_crlf_and_odd_quoting_are_read_and_kept() {
    let s = MemStorage::new();
    let path = ".vault/research/2026-01-05-odd-research.md";
    let original = "\u{feff}---\r\ntags: [\"#research\", '#odd']\r\ndate: 2026-01-05\r\nrelated:\r\n- \"[[2026-01-05-odd-research]]\"\r\n---\r\n\r\n# `odd` research: `quoting`\r\n\r\n## Findings\r\n\r\nx\r\n";
    s.insert(path, original);
    let c = Corpus::load(&s).unwrap();
    let d = &c.docs[0];
    assert_eq!(d.feature().as_deref(), Some("odd"));
    assert_eq!(d.meta().modified(), None);
    assert_eq!(d.related_stems(), ["2026-01-05-odd-research"]);
    let e = ops::edit::set_body(
        &s,
        "[[2026-01-05-odd-research]]",
        "# `odd` research: `quoting`\n\n## Findings\n\ny\n",
        None,
        today(),
    )
    .unwrap();
    assert_eq!(e.status, Status::Updated);
    let out = text(&s, path);
    // BOM and CRLF kept, `modified` inserted after `date`, `body_hash` after it,
    // every other frontmatter byte untouched.
    let h = hash::body_hash(&out);
    assert_eq!(
        out,
        format!(
            "\u{feff}---\r\ntags: [\"#research\", '#odd']\r\ndate: 2026-01-05\r\nmodified: '2026-11-30'\r\nbody_hash: '{h}'\r\nrelated:\r\n- \"[[2026-01-05-odd-research]]\"\r\n---\r\n# `odd` research: `quoting`\r\n\r\n## Findings\r\n\r\ny\r\n"
        )
    );
    // A link added to a CRLF file stays CRLF and keeps the existing item's quotes.
    let other = add(&s, "reference", "odd", None, &[]);
    let r = ops::link::add(&s, path, &other.name, false, false, today()).unwrap();
    assert_eq!(r.status, Status::Created);
    let out = text(&s, path);
    assert!(
        out.contains(&format!(
            "- \"[[2026-01-05-odd-research]]\"\r\n  - '[[{}]]'\r\n---",
            other.name
        )),
        "{out}"
    );
    assert!(!out.replace("\r\n", "").contains('\n'));
}

#[test]
fn an_edit_with_a_stale_hash_changes_nothing() {
    let s = MemStorage::new();
    let a = add(&s, "research", "cache", None, &[]);
    let before = s.snapshot();
    let req = ops::edit::EditRequest {
        reference: a.name.clone(),
        body: Some("new".into()),
        expected_blob_hash: Some("0".repeat(40)),
        ..Default::default()
    };
    match ops::edit::edit(&s, &req, today()) {
        Err(Error::Conflict { actual, .. }) => assert_eq!(actual, a.blob_hash),
        other => panic!("{other:?}"),
    }
    assert_eq!(s.snapshot(), before);
}

#[test]
fn a_malformed_file_is_reported_with_its_line_and_never_rewritten() {
    let s = MemStorage::new();
    let path = ".vault/adr/2026-01-05-bad-adr.md";
    s.insert(
        path,
        "---\ntags:\n  - '#adr'\n  - '#bad\ndate: '2026-01-05'\n---\n\n# t\n",
    );
    let before = s.snapshot();
    let fm = ops::edit::FrontmatterEdit {
        date: Some("2026-01-06".into()),
        ..Default::default()
    };
    let e = ops::edit::set_frontmatter(&s, "2026-01-05-bad-adr", &fm, today()).unwrap_err();
    assert!(matches!(e, Error::Malformed { line: 4, .. }), "{e}");
    assert!(e.to_string().contains(path), "{e}");
    let e = ops::link::add(
        &s,
        "2026-01-05-bad-adr",
        "2026-01-05-bad-adr",
        true,
        false,
        today(),
    )
    .unwrap_err();
    assert!(matches!(e, Error::Malformed { .. }), "{e}");
    // A file without frontmatter is refused too, naming the file.
    s.insert(".vault/adr/2026-01-06-none-adr.md", "# no frontmatter\n");
    let e = ops::edit::set_frontmatter(&s, "2026-01-06-none-adr", &fm, today()).unwrap_err();
    assert!(matches!(e, Error::NoFrontmatter { .. }), "{e}");
    assert_eq!(s.snapshot().len(), before.len() + 1);
    assert_eq!(s.snapshot().get(path), before.get(path));
}

#[test]
fn an_unresolvable_reference_names_the_nearest_documents() {
    let s = MemStorage::new();
    let a = add(&s, "research", "cache", Some("eviction"), &[]);
    let req = ops::add::AddRequest {
        doc_type: "adr".into(),
        feature: "cache".into(),
        related: vec!["2026-03-01-cache-eviction-reserch".into()],
        ..Default::default()
    };
    let e = ops::add::add(&s, &req, today()).unwrap_err();
    assert!(
        e.to_string()
            .contains(&format!("did you mean `{}`", a.name)),
        "{e}"
    );
}

#[test]
fn loading_ten_thousand_documents_is_quick() {
    let s = MemStorage::new();
    for i in 0..10_000 {
        let f = format!("feat-{}", i % 50);
        s.insert(
            &format!(".vault/research/2026-03-01-{f}-t{i}-research.md"),
            format!(
                "---\ntags:\n  - '#research'\n  - '#{f}'\ndate: '2026-03-01'\nmodified: '2026-03-01'\nbody_schema: 'body-v2'\nbody_hash: 'sha256:00'\nrelated:\n  - \"[[2026-03-01-{f}-t{}-research]]\"\n---\n\n# `{f}` research: `t{i}`\n\n## Findings\n\nSome text about item {i}.\n\n## Sources\n\n- here\n",
                (i + 1) % 10_000
            ),
        );
    }
    let start = std::time::Instant::now();
    let c = Corpus::load(&s).unwrap();
    let took = start.elapsed();
    eprintln!("loaded {} documents in {took:?}", c.docs.len());
    assert_eq!(c.docs.len(), 10_000);
    assert_eq!(c.features().len(), 50);
    // Generous for unoptimised builds; the release build takes a fraction.
    assert!(took.as_secs_f64() < 5.0, "{took:?}");
}

/// A frontmatter value in one of the quoting styles readers must accept.
fn quoted(v: String) -> impl Strategy<Value = String> {
    prop_oneof![
        Just(format!("'{v}'")),
        Just(format!("\"{v}\"")),
        Just(v.clone())
    ]
}

fn word() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9-]{0,8}"
}

prop_compose! {
    fn document()(
        feature in word(),
        date in quoted("2026-02-03".to_string()),
        extra in proptest::collection::vec((word().prop_map(|w| format!("x_{w}")), word()), 0..3),
        related in proptest::collection::vec(word(), 0..3),
        crlf in any::<bool>(),
        inline_tags in any::<bool>(),
        body in "[a-zA-Z0-9 #\n]{0,40}",
    ) -> String {
        let mut lines = vec!["---".to_string()];
        if inline_tags {
            lines.push(format!("tags: ['#research', \"#{feature}\"]"));
        } else {
            lines.extend(["tags:".to_string(), "  - '#research'".to_string(), format!("  - \"#{feature}\"")]);
        }
        lines.push(format!("date: {date}"));
        for (k, v) in &extra {
            lines.push(format!("{k}: {v}"));
        }
        if related.is_empty() {
            lines.push("related: []".into());
        } else {
            lines.push("related:".into());
            lines.extend(related.iter().map(|r| format!("  - \"[[{r}]]\"")));
        }
        lines.push("---".into());
        lines.push(String::new());
        lines.push(body);
        let t = lines.join("\n");
        if crlf { t.replace('\n', "\r\n") } else { t }
    }
}

/// The text with the blocks of `key` cut out.
fn without_key(text: &str, key: &str) -> String {
    let s = split(text).expect("frontmatter");
    let mut out = String::new();
    let mut pos = 0;
    for b in key_blocks(text, &s).into_iter().filter(|b| b.key == key) {
        out.push_str(&text[pos..b.range.start]);
        pos = b.range.end;
    }
    out.push_str(&text[pos..]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn a_frontmatter_edit_touches_only_the_edited_key(doc in document(), which in 0..3usize, values in proptest::collection::vec(word(), 0..3)) {
        let corpus = Corpus::from_docs(
            values.iter().map(|v| Document::from_text(&format!(".vault/research/{v}.md"), String::new())).collect(),
            vec![],
        );
        let (key, fm) = match which {
            0 => ("date", ops::edit::FrontmatterEdit { date: Some("2026-04-05".into()), ..Default::default() }),
            1 => ("tags", ops::edit::FrontmatterEdit { tags: Some(values.iter().map(|v| format!("#{v}")).collect()), ..Default::default() }),
            _ => ("related", ops::edit::FrontmatterEdit { related: Some(values.clone()), ..Default::default() }),
        };
        let out = ops::edit::apply_frontmatter(&corpus, &doc, &fm).unwrap();
        prop_assert_eq!(without_key(&out, key), without_key(&doc, key));
        let parsed = Document::from_text(".vault/research/x.md", out.clone());
        match key {
            "date" => prop_assert_eq!(parsed.meta().date(), Some("2026-04-05")),
            "tags" => prop_assert_eq!(parsed.meta().tags().to_vec(), values.iter().map(|v| format!("#{v}")).collect::<Vec<_>>()),
            _ => {
                let mut want: Vec<String> = Vec::new();
                for v in &values {
                    let l = format!("[[{v}]]");
                    if !want.contains(&l) { want.push(l); }
                }
                prop_assert_eq!(parsed.meta().related().to_vec(), want);
            }
        }
        // Line endings follow the file's convention.
        prop_assert_eq!(out.contains("\r\n"), doc.contains("\r\n"));
    }

    #[test]
    fn a_rename_keeps_every_link_resolvable(
        links in proptest::collection::vec(proptest::collection::vec(0..6usize, 0..4), 6),
        pick in 0..6usize,
        new in "[a-z]{3,8}",
    ) {
        let s = MemStorage::new();
        let stem = |i: usize| format!("2026-03-0{}-f-n{i}-research", i + 1);
        for (i, targets) in links.iter().enumerate() {
            let mut related: Vec<String> = targets.iter().map(|&t| format!("  - '[[{}]]'", stem(t))).collect();
            related.dedup();
            let rel = if related.is_empty() { "related: []".to_string() } else { format!("related:\n{}", related.join("\n")) };
            s.insert(
                &format!(".vault/research/{}.md", stem(i)),
                format!("---\ntags:\n  - '#research'\n  - '#f'\ndate: '2026-03-01'\nmodified: '2026-03-01'\n{rel}\n---\n\n# t{i}\n"),
            );
        }
        let count_links = |c: &Corpus| c.docs.iter().map(|d| d.related_stems().len()).sum::<usize>();
        let before = Corpus::load(&s).unwrap();
        let new_stem = format!("2026-03-09-f-{new}-research");
        ops::rename::rename(&s, &stem(pick), &new_stem, None, false, today()).unwrap();
        let after = Corpus::load(&s).unwrap();
        prop_assert_eq!(count_links(&after), count_links(&before));
        for d in &after.docs {
            for t in d.related_stems() {
                prop_assert!(!after.by_stem(t).is_empty(), "{} links to missing {}", d.path, t);
            }
        }
        prop_assert!(after.by_stem(&stem(pick)).is_empty());
        let by_path: BTreeMap<&str, &Document> = after.docs.iter().map(|d| (d.path.as_str(), d)).collect();
        let new_path = format!(".vault/research/{new_stem}.md");
        prop_assert!(by_path.contains_key(new_path.as_str()));
    }
}

//! Fuzzes the document readers and the format-preserving writers: any bytes
//! must parse without panicking, and the stamp writers and key edits must
//! keep the text outside the edited lines intact.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vaultspec_vault::doc::Document;
use vaultspec_vault::frontmatter::{self, edit, render, yaml};
use vaultspec_vault::{Date, checks, hash, resolve};

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = Document::from_bytes(".vault/research/2026-01-01-f-research.md", data.to_vec())
    else {
        return;
    };
    let text = &doc.text;
    let _ = doc.feature();
    let _ = doc.date();
    let _ = doc.title();
    let _ = doc.body();
    let _ = doc.related_stems();
    let _ = checks::prewrite(&doc);
    let _ = hash::body_hash(text);
    let _ = Date::parse_lenient(text);
    let _ = yaml::parse(doc.split.as_ref().map_or("", |s| s.yaml(text)));
    let today = Date::new(2026, 11, 30).expect("valid date");
    let stamped = hash::refresh_modified_stamp(text, today);
    // Stamping twice is stable.
    assert_eq!(hash::refresh_modified_stamp(&stamped, today), stamped);
    if let Some(s) = frontmatter::split(text) {
        // A key edit leaves everything before the YAML and the body as it was.
        if let Some(out) = edit::set_key(text, "date", &["date: '2026-01-02'".to_string()]) {
            assert!(out.starts_with(&text[..s.yaml.start]));
            assert!(out.ends_with(&text[s.close.start..]));
        }
        let _ = render::rerender_plan(text);
        let _ = render::rerender_for_supersede(text, &doc.meta);
        let _ = edit::rewrite_items(text, "related", &|v: &str| Some(format!("{v}x")));
    }
    let corpus = vaultspec_vault::doc::Corpus::from_docs(vec![doc.clone()], vec![]);
    let _ = resolve::resolve(&corpus, text);
});

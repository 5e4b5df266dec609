//! Feature indexes (spec/vault-format.md §9): `.vault/index/<feature>.index.md`,
//! generated from the documents tagged `#<feature>` and rewritten only when
//! its bytes would change.

use crate::date::Date;
use crate::doc::{Corpus, DocType, Document, frontmatter_problem, name, stem_of};
use crate::frontmatter::render::{Quote, list_lines};
use crate::hash;
use crate::ops::Change;

/// The members of a feature's index: corpus documents tagged `#<feature>`
/// whose stem does not end `.index` (an index never lists itself).
pub fn members<'c>(corpus: &'c Corpus, feature: &str) -> Vec<&'c Document> {
    corpus
        .feature_docs(feature)
        .filter(|d| !d.stem().ends_with(".index"))
        .collect()
}

/// The index body: H1, the fixed sentence, and one `### <type>` list per
/// document type present.
pub fn render_body(feature: &str, members: &[&Document]) -> String {
    let mut by_type: std::collections::BTreeMap<&str, Vec<&Document>> = Default::default();
    for d in members {
        let t = d
            .path
            .strip_prefix(".vault/")
            .and_then(|p| p.split_once('/'))
            .map_or("", |(t, _)| t);
        by_type.entry(t).or_default().push(d);
    }
    let mut list = String::new();
    for (t, mut docs) in by_type {
        docs.sort_by(|a, b| {
            (a.meta().date().unwrap_or(""), a.stem())
                .cmp(&(b.meta().date().unwrap_or(""), b.stem()))
        });
        list.push_str(&format!("### {t}\n\n"));
        for d in docs {
            list.push_str(&format!(
                "- `{}` - {}\n",
                d.stem(),
                d.title().unwrap_or(d.stem())
            ));
        }
        list.push('\n');
    }
    format!(
        "# `{feature}` feature index\n\nAuto-generated index of all documents tagged with `#{feature}`.\n\n## Documents\n\n{}\n",
        list.trim_end()
    )
}

/// The whole index file for `members`, with the given creation and
/// modification dates.
pub fn render(feature: &str, members: &[&Document], created: Date, modified: Date) -> String {
    let mut related: Vec<String> = members
        .iter()
        .map(|d| format!("[[{}]]", d.stem()))
        .collect();
    related.sort();
    related.dedup();
    let body = render_body(feature, members);
    let mut fm = vec![
        "generated: true".to_string(),
        "tags:".to_string(),
        format!("  - '{}'", DocType::Index.tag()),
        format!("  - '#{feature}'"),
        format!("date: '{created}'"),
        format!("modified: '{modified}'"),
        "body_schema: 'body-v2'".to_string(),
        format!("body_hash: '{}'", hash::digest_of_body(&body)),
    ];
    fm.extend(list_lines("related", &related, Quote::Single));
    format!("---\n{}\n---\n\n{body}", fm.join("\n"))
}

/// Plans the regeneration of one feature's index against `corpus`: `None`
/// when the feature has no members or the index is already current. The
/// creation date of an existing index is kept; `modified` becomes `today`
/// only when something else changed.
///
/// An index that links to a document the corpus could not read, or whose
/// frontmatter does not parse, is left alone: its membership cannot be
/// known, and regenerating would drop the link (the reference does).
pub fn plan_index(corpus: &Corpus, feature: &str, today: Date) -> Option<(String, Change)> {
    let members = members(corpus, feature);
    if members.is_empty() {
        return None;
    }
    let path = name::index_path(feature);
    let existing = corpus.by_path(&path);
    if existing.is_some_and(|old| links_unseen(corpus, old)) {
        return None;
    }
    let created = existing.and_then(Document::date).unwrap_or(today);
    if let Some(old) = existing {
        let old_modified = old
            .meta()
            .modified()
            .and_then(|m| Date::parse_lenient(m).ok())
            .unwrap_or(today);
        if render(feature, &members, created, old_modified) == *old.text {
            return None;
        }
    }
    let text = render(feature, &members, created, today);
    Some((
        path.clone(),
        Change::Write {
            path,
            bytes: text.into_bytes(),
        },
    ))
}

/// Whether `doc` links to a document whose feature cannot be known: one
/// the corpus skipped, or one with malformed frontmatter.
fn links_unseen(corpus: &Corpus, doc: &Document) -> bool {
    doc.related_stems().into_iter().any(|stem| {
        let skipped = corpus
            .skipped
            .iter()
            .any(|s| stem_of(&s.path).eq_ignore_ascii_case(stem));
        skipped
            || corpus
                .by_stem(stem)
                .iter()
                .any(|d| frontmatter_problem(&d.text).is_some())
    })
}

/// Every feature that has at least one non-index member, sorted.
pub fn features(corpus: &Corpus) -> Vec<String> {
    let mut f: Vec<String> = corpus
        .docs
        .iter()
        .filter(|d| !d.stem().ends_with(".index"))
        .flat_map(|d| {
            d.meta()
                .tags()
                .iter()
                .filter(|t| DocType::from_tag(t).is_none())
                .map(|t| crate::doc::tag_name(t).to_string())
        })
        .filter(|t| !t.is_empty())
        .collect();
    f.sort();
    f.dedup();
    f
}

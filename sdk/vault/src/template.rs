//! Templates and scaffolding (spec/vault-format.md §8): the workspace's
//! `.vaultspec/templates/<type>.md`, our own defaults for a workspace that
//! has none, and the hydration that turns a template into a new document.
//!
//! Hydration follows the reference step by step (placeholders, `modified`,
//! `body_schema`, the `related:` block, `body_hash`) so a scaffold written
//! from the same template is byte-identical.

use std::sync::LazyLock;

use regex::Regex;

use crate::date::Date;
use crate::doc::{DocType, TEMPLATES_DIR};
use crate::error::Result;
use crate::frontmatter::render::{Quote, list_lines};
use crate::storage::Storage;
use crate::{hash, text};

/// The body schema every scaffold declares.
pub const BODY_SCHEMA: &str = "body-v2";

/// The template file name of a type (`exec` uses `exec-ledger.md`).
pub fn template_name(doc_type: DocType) -> &'static str {
    match doc_type {
        DocType::Adr => "adr.md",
        DocType::Audit => "audit.md",
        DocType::Exec => "exec-ledger.md",
        DocType::Index => "index.md",
        DocType::Plan => "plan.md",
        DocType::Reference => "reference.md",
        DocType::Research => "research.md",
    }
}

/// The workspace template of `doc_type`, else our default. The legacy
/// `ref-audit.md` is accepted for references.
pub fn load(storage: &dyn Storage, doc_type: DocType) -> Result<String> {
    let mut names = vec![template_name(doc_type)];
    if doc_type == DocType::Reference {
        names.push("ref-audit.md");
    }
    for name in names {
        let path = format!("{TEMPLATES_DIR}/{name}");
        if storage.exists(&path)? {
            let bytes = storage.read(&path)?;
            let text = String::from_utf8(bytes).map_err(|e| crate::Error::Encoding {
                path: path.clone(),
                offset: e.utf8_error().valid_up_to(),
            })?;
            return Ok(text);
        }
    }
    Ok(default_template(doc_type).to_string())
}

/// Our own template of a type, carrying the sections body-v2 requires.
pub fn default_template(doc_type: DocType) -> &'static str {
    match doc_type {
        DocType::Adr => include_str!("templates/adr.md"),
        DocType::Audit => include_str!("templates/audit.md"),
        DocType::Exec => include_str!("templates/exec-ledger.md"),
        DocType::Index => include_str!("templates/index.md"),
        DocType::Plan => include_str!("templates/plan.md"),
        DocType::Reference => include_str!("templates/reference.md"),
        DocType::Research => include_str!("templates/research.md"),
    }
}

/// The values a template is filled with.
#[derive(Debug, Clone)]
pub struct Fill<'a> {
    /// The normalised feature (no `#`).
    pub feature: &'a str,
    /// The document date.
    pub date: Date,
    /// The title (explicit, else the topic with `-` turned to spaces).
    pub title: Option<&'a str>,
    /// The plan tier (`L1`..`L4`).
    pub tier: Option<&'a str>,
    /// The parent plan's stem (ledgers).
    pub plan_stem: Option<&'a str>,
    /// The `related:` items, already `[[stem]]`.
    pub related: &'a [String],
}

fn replace_both(text: &mut String, key: &str, value: &str) {
    *text = text
        .replace(&format!("{{{key}}}"), value)
        .replace(&format!("<{key}>"), value);
}

static RELATED_BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^related:(?:[ \t]*\[\]|(?:\n[ \t]+- .*)*)").expect("valid regex")
});

fn has_key_line(text: &str, key: &str) -> bool {
    fm_lines(text)
        .iter()
        .any(|l| l.starts_with(&format!("{key}:")))
}

fn fm_lines(text: &str) -> Vec<&str> {
    match crate::frontmatter::split(text) {
        Some(s) => s.yaml(text).lines().collect(),
        None => Vec::new(),
    }
}

/// Inserts `line` after the first frontmatter line starting with `anchor:`.
fn insert_after(text: &str, anchor: &str, line: &str) -> String {
    let Some(s) = crate::frontmatter::split(text) else {
        return text.to_string();
    };
    let yaml = s.yaml(text);
    let mut at = None;
    let mut pos = s.yaml.start;
    for l in yaml.split_inclusive('\n') {
        pos += l.len();
        if l.starts_with(&format!("{anchor}:")) {
            at = Some(pos);
            break;
        }
    }
    match at {
        Some(i) => format!("{}{line}\n{}", &text[..i], &text[i..]),
        None => text.to_string(),
    }
}

/// Turns a template into the text of a new document (§8 steps 4 to 8).
pub fn hydrate(template: &str, fill: &Fill<'_>) -> String {
    let mut t = text::normalize_newlines(text::strip_bom(template)).into_owned();
    let date = fill.date.to_string();
    replace_both(&mut t, "feature", fill.feature);
    replace_both(&mut t, "yyyy-mm-dd", &date);
    replace_both(&mut t, "date", &date);
    if let Some(title) = fill.title {
        for key in ["title", "topic", "phase"] {
            replace_both(&mut t, key, title);
        }
    }
    if let Some(tier) = fill.tier {
        t = t.replace("'{tier}'", tier).replace("'<tier>'", tier);
        replace_both(&mut t, "tier", tier);
    }
    t = t.replace(
        "{plan_stem}",
        fill.plan_stem.unwrap_or("{yyyy-mm-dd-*-plan}"),
    );
    if !has_key_line(&t, "modified") {
        t = insert_after(&t, "date", &format!("modified: '{date}'"));
    }
    let schema_line = format!("body_schema: '{BODY_SCHEMA}'");
    if has_key_line(&t, "body_schema") {
        let lines: Vec<String> = t
            .split_inclusive('\n')
            .map(|l| {
                if l.starts_with("body_schema:") {
                    format!("{schema_line}\n")
                } else {
                    l.to_string()
                }
            })
            .collect();
        t = lines.concat();
    } else {
        t = insert_after(&t, "modified", &schema_line);
    }
    let related = list_lines("related", fill.related, Quote::Double).join("\n");
    t = RELATED_BLOCK
        .replace(&t, regex::NoExpand(&related))
        .into_owned();
    let digest = hash::body_hash(&t);
    hash::set_body_hash(&t, &digest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_template_hydrates_to_a_valid_document() {
        let d = Date::new(2026, 3, 1).unwrap();
        for t in DocType::ALL {
            let related = vec!["[[a]]".to_string()];
            let out = hydrate(
                default_template(t),
                &Fill {
                    feature: "f",
                    date: d,
                    title: Some("t"),
                    tier: Some("L1"),
                    plan_stem: Some("p"),
                    related: &related,
                },
            );
            let doc = crate::doc::Document::from_text(&format!(".vault/{t}/x.md"), out.clone());
            assert_eq!(doc.meta().tags().to_vec(), [t.tag(), "#f".into()], "{t}");
            assert_eq!(doc.meta().modified(), Some("2026-03-01"), "{t}");
            assert_eq!(doc.meta().body_schema(), Some(BODY_SCHEMA), "{t}");
            assert_eq!(
                doc.meta().body_hash(),
                Some(hash::body_hash(&out).as_str()),
                "{t}"
            );
            assert_eq!(doc.meta().related().to_vec(), ["[[a]]"], "{t}");
            assert!(
                !out.contains("{feature}") && !out.contains("{yyyy-mm-dd}"),
                "{t}"
            );
            for section in crate::body::required_sections(t) {
                assert!(
                    out.contains(&format!("\n## {section}\n")),
                    "{t} lacks {section}"
                );
            }
        }
    }
}

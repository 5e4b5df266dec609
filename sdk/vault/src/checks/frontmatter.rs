//! The `frontmatter` checker: `DocumentMetadata.validate` of
//! spec/vault-format.md §5.3 plus repeated keys, and its fixer (drop earlier
//! duplicates, add missing `#`, build tags from a legacy `feature:` key,
//! truncate a date with trailing text, then re-render the block).
//!
//! Severity follows the reference: a missing required field (tags, directory
//! tag, feature tag, date) is an ERROR, every format problem a WARNING.
//!
//! Frontmatter that cannot be parsed (a fence never closed, broken YAML) is
//! one ERROR naming the line, and the file is left byte for byte. The
//! reference reads such YAML through its naive `key: value` fallback and its
//! fixers then rewrite the block from that guess (quoting a `related:` link,
//! dropping a tag, deleting `related: []`); a fixer here never guesses.

use std::sync::LazyLock;

use regex::Regex;

use crate::date::Date;
use crate::doc::{DocProblem, Document};
use crate::error::Result;
use crate::frontmatter::edit::key_blocks;
use crate::frontmatter::render::{self, Rerender};
use crate::frontmatter::scan;
use crate::frontmatter::split;

use super::context::{Options, Snapshot, rewrite};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "frontmatter";

static FEATURE_TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^#[a-z0-9-]+$").expect("valid regex"));
static DATE_PREFIX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{4}-\d{2}-\d{2}).+").expect("valid regex"));

fn is_dir_tag(t: &str) -> bool {
    t.starts_with('#') && crate::doc::DocType::from_tag(t).is_some()
}

/// The frontmatter findings of one document, with the reference's
/// severities; every finding is marked fixable (the fixer re-reports what it
/// could not repair).
pub fn validate(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut push = |key: &str, required: bool, message: String| {
        let severity = if required {
            Severity::Error
        } else {
            Severity::Warning
        };
        out.push(
            Finding::new(NAME, severity, Some(&doc.path), message)
                .at_line(doc.key_line(key))
                .fixable(None),
        );
    };
    let m = doc.meta();
    let dirs = m.tags().iter().filter(|t| is_dir_tag(t)).count();
    let features: Vec<&str> = m.tags().iter().filter(|t| !is_dir_tag(t)).collect();
    if m.tags().is_empty() {
        push("tags", true, "`tags` is required: a directory tag such as `#adr` and a feature tag such as `#my-feature`".into());
    } else if dirs != 1 {
        push(
            "tags",
            true,
            format!(
                "exactly one directory tag is required (`#adr`, `#audit`, `#exec`, `#index`, `#plan`, `#reference`, `#research`), found {dirs}"
            ),
        );
    } else if features.len() != 1 {
        push(
            "tags",
            true,
            format!(
                "exactly one feature tag is required, found {}",
                features.len()
            ),
        );
    }
    for t in features {
        if !FEATURE_TAG.is_match(t) {
            push(
                "tags",
                false,
                format!(
                    "invalid feature tag format `{t}`: expected kebab-case with `#`, such as `#editor-demo`"
                ),
            );
        }
    }
    match m.date() {
        None => push(
            "date",
            true,
            "`date` is required: expected `yyyy-mm-dd`".into(),
        ),
        Some(d) if Date::parse_strict(d).is_err() => push(
            "date",
            false,
            format!("`date` value `{d}` is not `yyyy-mm-dd`"),
        ),
        _ => {}
    }
    if let Some(v) = m.modified().filter(|v| Date::parse_lenient(v).is_err()) {
        push(
            "modified",
            false,
            format!("`modified` value `{v}` is not a date: expected `yyyy-mm-dd`"),
        );
    }
    if let Some(v) = m.archived().filter(|v| Date::parse_strict(v).is_err()) {
        push(
            "archived",
            false,
            format!("`archived` value `{v}` is not `yyyy-mm-dd`"),
        );
    }
    for r in m
        .related()
        .iter()
        .filter(|r| !(r.starts_with("[[") && r.ends_with("]]")))
    {
        push(
            "related",
            false,
            format!("`related` item `{r}` must be a wiki-link `[[stem]]`"),
        );
    }
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for (k, _) in doc.keys() {
        match seen.iter_mut().find(|(s, _)| *s == k) {
            Some(e) => e.1 += 1,
            None => seen.push((k, 1)),
        }
    }
    for (k, n) in seen.into_iter().filter(|(_, n)| *n > 1) {
        push(
            k,
            false,
            format!("frontmatter key `{k}` is written {n} times; readers keep only the last"),
        );
    }
    out
}

/// Runs the checker (and its fixer under `opts.fix`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = run_documents(snap, opts)?;
    let mut findings = malformed(snap, opts);
    findings.append(&mut result.findings);
    result.findings = findings;
    Ok(result)
}

/// The findings about corpus files whose frontmatter cannot be parsed
/// (they have no [`Document`], so no other part of the checker sees them).
pub fn malformed(snap: &Snapshot<'_>, opts: &Options) -> Vec<Finding> {
    snap.problems()
        .filter_map(|(path, problem)| match problem {
            DocProblem::Malformed { line, message } if snap.path_in_scope(path, opts) => {
                Some(Finding::new(
                    NAME,
                    Severity::Error,
                    Some(path),
                    format!("Malformed frontmatter at line {line}: {message}; no fixer touches this file until it is repaired by hand"),
                ))
            }
            _ => None,
        })
        .collect()
}

/// The checker over the readable documents alone, each judged (and, under
/// `opts.fix`, repaired) by itself, in path order.
pub fn run_documents(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Frontmatter);
    for doc in snap.scoped(opts) {
        let found = validate(doc);
        if found.is_empty() {
            continue;
        }
        if !opts.fix {
            result.findings.extend(found);
            continue;
        }
        let mut notes = Vec::new();
        let doc_type = doc.doc_type;
        rewrite(snap.storage, &doc.path, |t| {
            let (new, n) = repair(t, doc_type.map(|d| d.tag()));
            notes = n;
            Some(new)
        })?;
        result.fixed_count += notes.len();
        result.findings.extend(
            notes
                .into_iter()
                .map(|n| Finding::fixed(NAME, &doc.path, n)),
        );
        let after = Document::from_bytes(&doc.path, snap.storage.read(&doc.path)?)?;
        result.findings.extend(validate(&after));
    }
    Ok(result)
}

/// The fixer on a normalised text: returns the new text and one note per
/// kind of repair.
pub fn repair(text: &str, dir_tag: Option<String>) -> (String, Vec<String>) {
    let mut notes = Vec::new();
    let Some(s) = split(text) else {
        return (text.to_string(), notes);
    };
    // Earlier duplicates go; the last occurrence survives.
    let blocks = key_blocks(text, &s);
    let mut drop = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        if blocks[i + 1..].iter().any(|later| later.key == b.key) {
            drop.push(b.range.clone());
        }
    }
    let mut t = text.to_string();
    for r in drop.iter().rev() {
        t.replace_range(r.clone(), "");
    }
    let mut dropped: Vec<&str> = blocks
        .iter()
        .filter(|b| drop.contains(&b.range))
        .map(|b| b.key.as_str())
        .collect();
    dropped.dedup();
    if !dropped.is_empty() {
        notes.push(format!(
            "Fixed: removed earlier duplicates of {}",
            dropped
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let Some(s) = split(&t) else {
        return (t, notes);
    };
    let mut meta = scan::scan(s.yaml(&t));
    let mut rerender = false;
    if meta.tags.is_empty() {
        if let (Some(f), Some(d)) = (meta.feature.clone(), dir_tag) {
            meta.tags = vec![d, format!("#{}", crate::doc::tag_name(&f).to_lowercase())];
            notes.push("Fixed: built tags from the `feature:` key".to_string());
            rerender = true;
        }
    } else if meta
        .tags
        .iter()
        .any(|t| !t.is_empty() && !t.starts_with('#'))
    {
        meta.tags = meta
            .tags
            .iter()
            .map(|t| {
                if t.is_empty() || t.starts_with('#') {
                    t.clone()
                } else {
                    format!("#{t}")
                }
            })
            .collect();
        notes.push("Fixed: normalized tag # prefixes".to_string());
        rerender = true;
    }
    if let Some(d) = meta.date.clone()
        && let Some(c) = DATE_PREFIX.captures(d.trim())
    {
        meta.date = Some(c[1].to_string());
        notes.push(format!("Fixed: truncated date to `{}`", &c[1]));
        rerender = true;
    }
    if rerender {
        t = render::rerender(&t, &meta, Rerender::WithStamps).unwrap_or(t);
    }
    (t, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verified_example_is_repaired_byte_for_byte() {
        let t = "---\ntags: ['audit', '#chk']\ndate: 2026-01-05 extra\nmodified: '2026-01-01'\nmodified: '2026-01-06'\nrelated: []\n---\n\n# body\n";
        let (out, notes) = repair(t, Some("#audit".into()));
        assert_eq!(
            out,
            "---\ntags:\n  - \"#audit\"\n  - \"#chk\"\ndate: 2026-01-05\nmodified: '2026-01-06'\n---\n# body\n"
        );
        assert_eq!(notes.len(), 3, "{notes:?}");
        let (again, notes) = repair(&out, Some("#audit".into()));
        assert_eq!((again.as_str(), notes.len()), (out.as_str(), 0));
        let d = Document::from_text(".vault/audit/2026-01-05-chk-audit.md", out);
        assert!(validate(&d).is_empty(), "{:?}", validate(&d));
    }

    #[test]
    fn missing_fields_are_errors_and_format_problems_warnings() {
        let d = Document::from_text(
            ".vault/adr/x.md",
            "---\ntags:\n  - '#adr'\nrelated:\n  - 'x'\n---\nb\n",
        );
        let sev: Vec<Severity> = validate(&d).iter().map(|f| f.severity).collect();
        assert_eq!(sev, [Severity::Error, Severity::Error, Severity::Warning]);
    }

    #[test]
    fn a_legacy_feature_key_becomes_tags() {
        let (out, _) = repair(
            "---\nfeature: Cache\ndate: '2026-01-01'\n---\nb\n",
            Some("#adr".into()),
        );
        assert_eq!(
            out,
            "---\ntags:\n  - \"#adr\"\n  - \"#cache\"\ndate: 2026-01-01\nfeature: Cache\n---\nb\n"
        );
    }
}

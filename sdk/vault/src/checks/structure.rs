//! The `structure` checker: the layout of `.vault/` (spec/vault-format.md §2)
//! and every document's filename against the grammar of §4. The fixer
//! renames a misnamed document in up to three steps (type suffix, date
//! prefix, lowercase), refuses to overwrite an existing file, and re-points
//! the `related:` links of every other document to the new stem.
//!
//! Unlike the reference, the fixer renames only when the result is a valid
//! name (a name with spaces stays an ERROR, with a valid name suggested),
//! never renames a document it cannot parse, and never renames a document
//! that a file it cannot parse may link to (that link could not be updated).

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use regex::Regex;

use crate::date::Date;
use crate::doc::name::filename_problem;
use crate::doc::{DocType, is_excluded, stem_of};
use crate::error::Result;
use crate::ops::rename::repoint_related;

use super::context::{Options, Snapshot, read_text, write_if_changed};
use super::model::{Check, CheckResult, Finding, Severity};
use super::unseen::unseen_referrer;

const NAME: &str = "structure";
const AUXILIARY: [&str; 3] = ["data", "logs", "_archive"];

static SUFFIXED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\d{4}-\d{2}-\d{2}-.+?)(?:-(?:adr|audit|exec|plan|reference|research).*)?\.md$")
        .expect("valid regex")
});
static DATED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\d{4}-\d{2}-\d{2}-").expect("valid regex"));

fn wrong_suffix(name: &str, t: DocType) -> bool {
    match t {
        DocType::Exec => !name.contains("-exec"),
        t => !name.ends_with(&format!("-{t}.md")),
    }
}

/// The successive names the fixer gives a misnamed file: type suffix (dated
/// names only), date prefix, then the suffix again if the date made it
/// possible, then lowercase. Empty when no step applies.
pub fn rename_steps(name: &str, t: DocType, today: Date) -> Vec<String> {
    let mut steps: Vec<String> = Vec::new();
    let mut current = name.to_string();
    let suffix = |n: &str| -> Option<String> {
        if !wrong_suffix(n, t) {
            return None;
        }
        SUFFIXED.captures(n).map(|c| format!("{}-{t}.md", &c[1]))
    };
    let mut push = |n: String, current: &mut String| {
        if n != *current {
            *current = n.clone();
            steps.push(n);
        }
    };
    if let Some(n) = suffix(&current) {
        push(n, &mut current);
    }
    if !DATED.is_match(&current) {
        push(format!("{today}-{current}"), &mut current);
        if let Some(n) = suffix(&current) {
            push(n, &mut current);
        }
    }
    let lower = current.to_lowercase();
    push(lower, &mut current);
    steps
}

/// A valid name for a file the fixer's steps cannot repair (spaces or other
/// characters outside kebab-case): the stem lowercased with every run of
/// such characters turned into one `-`, then the fixer's steps; `None` when
/// even that is not a valid name.
pub fn valid_name(name: &str, t: DocType, today: Date) -> Option<String> {
    let mut kebab = String::new();
    for c in stem_of(name).to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            kebab.push(c);
        } else if !kebab.is_empty() && !kebab.ends_with('-') {
            kebab.push('-');
        }
    }
    let candidate = format!("{}.md", kebab.trim_end_matches('-'));
    let named = rename_steps(&candidate, t, today)
        .pop()
        .unwrap_or(candidate);
    filename_problem(&named, t).is_none().then_some(named)
}

fn folder(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// Runs the checker (and its fixer under `opts.fix`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Structure);
    let mut bad_dirs = BTreeSet::new();
    let mut renames: HashMap<String, String> = HashMap::new();
    let mut moved: HashMap<String, String> = HashMap::new();
    for entry in snap.listing.iter() {
        let rel = &entry.path[".vault/".len()..];
        let Some((top, _)) = rel.split_once('/') else {
            if rel.eq_ignore_ascii_case("readme.md") || rel.starts_with('.') {
                continue;
            }
            let f = if rel.ends_with(".index.md") {
                Finding::new(NAME, Severity::Warning, Some(&entry.path), format!("Misplaced feature index `{rel}`: pending schema migration into `.vault/index/`"))
                    .hint("vaultspec migrations run")
            } else {
                Finding::new(
                    NAME,
                    Severity::Error,
                    Some(&entry.path),
                    format!("File found in .vault/ root: `{rel}` (only `readme.md` belongs there)"),
                )
            };
            result.findings.push(f);
            continue;
        };
        if top.starts_with('.') || AUXILIARY.contains(&top) || is_excluded(&entry.path) {
            continue;
        }
        let Ok(t) = top.parse::<DocType>() else {
            if bad_dirs.insert(top.to_string()) {
                result.findings.push(Finding::new(
                    NAME,
                    Severity::Error,
                    Some(&format!(".vault/{top}")),
                    format!("Unsupported directory found in .vault/: '{top}'"),
                ));
            }
            continue;
        };
        let name = entry.path.rsplit('/').next().unwrap_or_default();
        if !name.ends_with(".md") || t == DocType::Index {
            continue;
        }
        if name.ends_with(".index.md") {
            result.findings.push(
                Finding::new(NAME, Severity::Warning, Some(&entry.path), format!("Misplaced feature index `{name}` outside `.vault/index/`: pending schema migration"))
                    .hint("vaultspec migrations run"),
            );
            continue;
        }
        let Some(problem) = filename_problem(name, t) else {
            continue;
        };
        let original = Finding::new(
            NAME,
            Severity::Error,
            Some(&entry.path),
            format!("Vault violation: {problem}"),
        );
        let steps = rename_steps(name, t, opts.today);
        let Some(last) = steps.last() else {
            result.findings.push(original);
            continue;
        };
        if let Some(still) = filename_problem(last, t) {
            let advice = match valid_name(name, t, opts.today) {
                Some(valid) => format!("rename it by hand, for example to `{valid}`"),
                None => {
                    "rename it by hand to `yyyy-mm-dd-<feature>[-<topic>]-<type>.md` in kebab-case"
                        .to_string()
                }
            };
            result.findings.push(Finding::new(
                NAME,
                Severity::Error,
                Some(&entry.path),
                format!("Vault violation: {problem}; not renamed, since the fixer's name would still be invalid ({still}): {advice}"),
            ));
            continue;
        }
        if let Some(p) = snap
            .problems()
            .find(|(p, _)| *p == entry.path)
            .map(|(_, p)| p)
        {
            result.findings.push(Finding::new(
                NAME,
                Severity::Error,
                Some(&entry.path),
                format!("Vault violation: {problem}; not renamed, since the document {p}: rename it by hand to `{last}`"),
            ));
            continue;
        }
        if !opts.fix {
            result
                .findings
                .push(original.fixable(Some(format!("rename to `{last}`"))));
            continue;
        }
        let target = format!("{}/{last}", folder(&entry.path));
        // A rename that only changes case must not see the file itself as
        // the existing target on a case-insensitive file system.
        let case_only = target.to_lowercase() == entry.path.to_lowercase();
        if let Some(referrer) = unseen_referrer(snap, stem_of(name))? {
            result.findings.push(Finding::new(
                NAME,
                Severity::Error,
                Some(&entry.path),
                format!("Cannot rename to {last}: `{referrer}` cannot be parsed and may link to this document, and its link could not be updated; repair that file first"),
            ));
            result.findings.push(original);
            continue;
        }
        if !case_only && snap.storage.exists(&target)? {
            result.findings.push(Finding::new(
                NAME,
                Severity::Error,
                Some(&entry.path),
                format!("Cannot rename to {last}: target already exists"),
            ));
            result.findings.push(original);
            continue;
        }
        if case_only {
            let step = format!("{target}.renaming");
            snap.storage.rename(&entry.path, &step)?;
            snap.storage.rename(&step, &target)?;
        } else {
            snap.storage.rename(&entry.path, &target)?;
        }
        for step in &steps {
            result.fixed_count += 1;
            result.findings.push(Finding::fixed(
                NAME,
                &target,
                format!("Fixed: renamed to {step}"),
            ));
        }
        renames.insert(stem_of(name).to_lowercase(), stem_of(last).to_string());
        moved.insert(entry.path.clone(), target);
    }
    if renames.is_empty() {
        return Ok(result);
    }
    for doc in snap.all_docs() {
        let path = moved.get(&doc.path).unwrap_or(&doc.path);
        let own = doc.stem().to_lowercase();
        let others: HashMap<String, String> = renames
            .iter()
            .filter(|(k, _)| **k != own)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let raw = read_text(snap.storage, path)?;
        let (new, n) = repoint_related(&raw, &others);
        if n == 0 {
            continue;
        }
        write_if_changed(snap.storage, path, &raw, &new)?;
        for stem in doc.related_stems() {
            if let Some(to) = others.get(&stem.to_lowercase()) {
                result.fixed_count += 1;
                result.findings.push(Finding::fixed(
                    NAME,
                    path,
                    format!("Updated wiki-link: [[{stem}]] -> [[{to}]]"),
                ));
            }
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_follow_the_verified_examples() {
        let today = Date::new(2026, 11, 30).unwrap();
        let r = |n: &str, t| rename_steps(n, t, today);
        assert_eq!(
            r("2026-01-05-Chk-Notes.md", DocType::Research),
            [
                "2026-01-05-Chk-Notes-research.md",
                "2026-01-05-chk-notes-research.md"
            ]
        );
        assert_eq!(
            r("2026-01-05-x-research.md", DocType::Reference),
            ["2026-01-05-x-reference.md"]
        );
        assert_eq!(
            r("2026-01-05-x-reference-extra.md", DocType::Reference),
            ["2026-01-05-x-reference.md"]
        );
        assert_eq!(
            r("2026-01-05-x-notes.md", DocType::Exec),
            ["2026-01-05-x-notes-exec.md"]
        );
        assert_eq!(
            r("x-notes.md", DocType::Research),
            ["2026-11-30-x-notes.md", "2026-11-30-x-notes-research.md"]
        );
        assert!(r("2026-01-05-x-research.md", DocType::Research).is_empty());
    }

    #[test]
    fn a_name_with_spaces_gets_a_valid_suggestion() {
        let today = Date::new(2026, 11, 30).unwrap();
        assert_eq!(
            valid_name("2026-01-05-My Notes.md", DocType::Research, today).as_deref(),
            Some("2026-01-05-my-notes-research.md")
        );
    }
}

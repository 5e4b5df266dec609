//! The `links` checker: wiki-links written with a `.md` extension
//! (`[[stem.md]]`), in `related:` or the body; the fixer drops the extension
//! everywhere in the file.

use std::sync::LazyLock;

use regex::Regex;

use crate::doc::Document;
use crate::error::Result;

use super::context::{Options, Snapshot, rewrite};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "links";

static MD_WIKI: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[\[([^\]|]+)\.md(\|[^\]]+)?\]\]").expect("valid regex"));

/// The text with `.md` removed inside every wiki-link, and how many changed.
pub fn strip_extensions(text: &str) -> (String, usize) {
    let n = MD_WIKI.find_iter(text).count();
    (MD_WIKI.replace_all(text, "[[${1}${2}]]").into_owned(), n)
}

/// The finding of one document, if it has `.md` wiki-links.
pub fn find(doc: &Document) -> Vec<Finding> {
    // Every match holds `.md`; most texts have none but many `[[`, which the
    // regex would otherwise try one by one.
    if !doc.text.contains(".md") {
        return Vec::new();
    }
    let n = MD_WIKI.find_iter(&doc.text).count();
    if n == 0 {
        return Vec::new();
    }
    let line = MD_WIKI
        .find(&doc.text)
        .map(|m| doc.text[..m.start()].matches('\n').count() + 1);
    vec![
        Finding::new(
            NAME,
            Severity::Warning,
            Some(&doc.path),
            format!("{n} wiki-link(s) use the `.md` extension: write `[[stem]]`"),
        )
        .at_line(line)
        .fixable(None),
    ]
}

/// Runs the checker (and its fixer under `opts.fix`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Links);
    for doc in snap.scoped(opts) {
        let found = find(doc);
        if found.is_empty() {
            continue;
        }
        if !opts.fix {
            result.findings.extend(found);
            continue;
        }
        let mut n = 0;
        rewrite(snap.storage, &doc.path, |t| {
            let (new, count) = strip_extensions(t);
            n = count;
            Some(new)
        })?;
        result.fixed_count += 1;
        result.findings.push(Finding::fixed(
            NAME,
            &doc.path,
            format!("Fixed: removed .md extension from {n} wiki-link(s)"),
        ));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_go_and_aliases_stay() {
        let (out, n) = strip_extensions("- '[[a.md]]'\nsee [[b.md|B]] and [[c]]");
        assert_eq!((out.as_str(), n), ("- '[[a]]'\nsee [[b|B]] and [[c]]", 2));
        assert_eq!(strip_extensions(&out).1, 0);
    }
}

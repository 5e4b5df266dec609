//! The `dangling` checker: graph edges whose target resolves to no document
//! and is not archived. The fixer removes those targets from the source's
//! `related:` list and restamps the file; the findings stay ERRORs in the
//! fixing run (as the reference reports them) and a rerun is clean, except
//! for body wiki-links, which are never removed (`body-links` rewrites them).

use std::collections::BTreeMap;

use crate::doc::wiki_target;
use crate::error::Result;
use crate::hash;
use crate::ops::link::remove_related;

use super::context::{Options, Snapshot, read_text, write_if_changed};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "dangling";

/// Runs the checker (and its fixer under `opts.fix`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Dangling);
    let mut by_source: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (src, tgt) in snap.graph.dangling_links() {
        if !snap.node_in_scope(src, opts) {
            continue;
        }
        let Some(doc) = snap.doc(src) else { continue };
        let key = snap.graph.node(tgt).key.clone();
        result.findings.push(
            Finding::new(
                NAME,
                Severity::Error,
                Some(&doc.path),
                format!("Dangling wiki-link: [[{key}]] does not exist"),
            )
            .fixable(Some(format!("Remove [[{key}]] from related:"))),
        );
        by_source.entry(src).or_default().push(key);
    }
    if !opts.fix {
        return Ok(result);
    }
    for (src, keys) in by_source {
        let Some(doc) = snap.doc(src) else { continue };
        let raw = read_text(snap.storage, &doc.path)?;
        let matches = |item: &str| wiki_target(item).is_some_and(|t| keys.iter().any(|k| k == t));
        let (new, n) = remove_related(&raw, &matches);
        if n == 0 {
            continue;
        }
        let new = hash::refresh_modified_stamp(&new, opts.today);
        write_if_changed(snap.storage, &doc.path, &raw, &new)?;
        result.fixed_count += n;
        let related = doc.related_stems();
        for f in result
            .findings
            .iter_mut()
            .filter(|f| f.path.as_deref() == Some(doc.path.as_str()))
        {
            f.fixed = related
                .iter()
                .any(|t| f.message.contains(&format!("[[{t}]]")));
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn related_items_are_removed_surgically() {
        let t = "---\nrelated:\n  - \"[[a]]\"\n  - '[[b.md]]'\n---\nx";
        let m = |i: &str| wiki_target(i) == Some("b");
        assert_eq!(
            remove_related(t, &m),
            ("---\nrelated:\n  - \"[[a]]\"\n---\nx".to_string(), 1)
        );
        let m = |_: &str| true;
        assert_eq!(
            remove_related(t, &m),
            ("---\nrelated: []\n---\nx".to_string(), 2)
        );
        assert_eq!(
            remove_related("---\nrelated: ['[[a]]', '[[b]]']\n---\n", &|i: &str| i
                == "[[b]]")
            .0,
            "---\nrelated:\n  - '[[a]]'\n---\n"
        );
    }
}

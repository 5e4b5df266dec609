//! The `body-links` checker: no `[[wiki-links]]` and no relative markdown
//! links in body prose (fenced code, inline code and HTML comments do not
//! count). The fixer rewrites each prose wiki-link as a code span naming its
//! target; markdown links need an author and stay ERRORs.

use std::sync::LazyLock;

use regex::Regex;

use crate::doc::Document;
use crate::error::Result;
use crate::frontmatter::split;
use crate::text;

use super::context::{Options, Snapshot, rewrite};
use super::model::{Check, CheckResult, Finding, Severity};
use super::prewrite::prose;

const NAME: &str = "body-links";

static WIKI: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[\[([^\]|]+)(?:\|[^\]]+)?\]\]").expect("valid regex"));
static MD_LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[([^\]]+)\]\(([^)]+)\)").expect("valid regex"));

fn external(target: &str) -> bool {
    ["http://", "https://", "#", "mailto:"]
        .iter()
        .any(|p| target.starts_with(p))
}

/// The body-links findings of one document (generated indexes skipped).
pub fn find(doc: &Document) -> Vec<Finding> {
    if doc.generated() {
        return Vec::new();
    }
    let start = doc.body_range().start;
    let body = doc.body();
    // Both patterns need `[[` or `](`, which masking never creates; most
    // bodies hold neither, and masking the body is the costly part.
    if !text::contains(body, "[[") && !text::contains(body, "](") {
        return Vec::new();
    }
    let offset = doc.text[..start].matches('\n').count();
    let p = prose(body);
    let line_of = |at: usize| Some(offset + p[..at].matches('\n').count() + 1);
    let mut out = Vec::new();
    for m in WIKI.find_iter(&p) {
        out.push(
            Finding::new(
                NAME,
                Severity::Error,
                Some(&doc.path),
                format!(
                    "Wiki-link in body text: {} - move it to `related:` or write it as a code span",
                    m.as_str()
                ),
            )
            .at_line(line_of(m.start()))
            .fixable(Some(
                "Run body-links check with --fix to convert it to a code span".into(),
            )),
        );
    }
    for c in MD_LINK.captures_iter(&p) {
        let target = c.get(2).map_or("", |m| m.as_str());
        if external(target) {
            continue;
        }
        out.push(
            Finding::new(
                NAME,
                Severity::Error,
                Some(&doc.path),
                format!("Markdown link to `{target}` in body text: cite files as code spans and documents in `related:`"),
            )
            .at_line(line_of(c.get(0).map_or(0, |m| m.start()))),
        );
    }
    out
}

/// Rewrites every prose wiki-link of a normalised text's body as a code
/// span; returns the new text and how many changed.
pub fn to_code_spans(text: &str) -> (String, usize) {
    let start = split(text).map_or(0, |s| s.body);
    let p = prose(&text[start..]);
    let spans: Vec<(usize, usize, String)> = WIKI
        .captures_iter(&p)
        .filter_map(|c| {
            let m = c.get(0)?;
            let target = text[start + c.get(1)?.start()..start + c.get(1)?.end()]
                .trim()
                .to_string();
            Some((start + m.start(), start + m.end(), format!("`{target}`")))
        })
        .collect();
    let mut out = text.to_string();
    for (a, b, r) in spans.iter().rev() {
        out.replace_range(*a..*b, r);
    }
    (out, spans.len())
}

/// Runs the checker (and its fixer under `opts.fix`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::BodyLinks);
    for doc in snap.scoped(opts) {
        let found = find(doc);
        if !opts.fix || !found.iter().any(|f| f.fixable) {
            result.findings.extend(found);
            continue;
        }
        let mut n = 0;
        rewrite(snap.storage, &doc.path, |t| {
            let (new, count) = to_code_spans(t);
            n = count;
            Some(new)
        })?;
        result.fixed_count += n;
        result.findings.push(Finding::fixed(
            NAME,
            &doc.path,
            format!("Fixed {n} body wiki-link(s) as code spans"),
        ));
        result
            .findings
            .extend(found.into_iter().filter(|f| !f.fixable));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_wiki_links_become_code_spans() {
        let t =
            "---\nrelated:\n  - '[[a]]'\n---\n\nsee [[ a |alias]] and `[[b]]`\n<!-- [[c]] -->\n";
        let (out, n) = to_code_spans(t);
        assert_eq!(n, 1);
        assert_eq!(
            out,
            "---\nrelated:\n  - '[[a]]'\n---\n\nsee `a` and `[[b]]`\n<!-- [[c]] -->\n"
        );
        assert_eq!(to_code_spans(&out).1, 0);
    }
}

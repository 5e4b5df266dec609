//! The `placeholders` checker (read-only): template placeholders left in
//! body prose, such as `{topic}` or the ADR status enum
//! `{proposed|accepted|...}`. Fenced code and HTML comments never count;
//! inline code counts only on heading lines, where the templates put their
//! placeholders inside backticks.

use std::sync::LazyLock;

use regex::Regex;

use crate::doc::Document;
use crate::error::Result;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};
use super::prewrite::prose;

const NAME: &str = "placeholders";

static TOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\{[a-z0-9_*|-]*[a-z][a-z0-9_*|-]*\}").expect("valid regex"));

/// Placeholder names the templates and scaffolder use.
const KNOWN: [&str; 21] = [
    "feature",
    "topic",
    "title",
    "phase",
    "wave",
    "step",
    "tier",
    "summary",
    "level",
    "description",
    "research",
    "reference",
    "adr",
    "heading",
    "plan_stem",
    "step_id",
    "scope_block",
    "document_list",
    "file1",
    "file2",
    "date",
];

fn is_template_token(inner: &str) -> bool {
    inner.contains('|') || inner.starts_with("yyyy-mm-dd") || KNOWN.contains(&inner)
}

/// The placeholder tokens of a body, with their 1-based line in the body.
pub fn tokens(body: &str) -> Vec<(usize, String)> {
    // Every token starts with `{`; most bodies hold none, and masking the
    // body is the costly part.
    if !body.contains('{') {
        return Vec::new();
    }
    let masked = prose(body);
    let mut out = Vec::new();
    for (n, (orig, mask)) in body.split('\n').zip(masked.split('\n')).enumerate() {
        let line = if mask.trim_start().starts_with('#') {
            orig
        } else {
            mask
        };
        for m in TOKEN.find_iter(line) {
            let before = line[..m.start()].chars().next_back();
            let after = line[m.end()..].chars().next();
            if matches!(before, Some('$' | '{')) || after == Some('}') {
                continue;
            }
            let inner = &m.as_str()[1..m.as_str().len() - 1];
            if is_template_token(inner) {
                out.push((n + 1, m.as_str().to_string()));
            }
        }
    }
    out
}

fn finding(doc: &Document, line: usize, token: &str) -> Finding {
    let inner = &token[1..token.len() - 1];
    let message = if inner.contains('|') {
        format!(
            "Unresolved template enum {token} - choose one option ({}) and replace it",
            inner.split('|').collect::<Vec<_>>().join(", ")
        )
    } else {
        format!("Unreplaced template placeholder {token} - replace it with the intended value")
    };
    let offset = doc.text[..doc.body_range().start].matches('\n').count();
    Finding::new(NAME, Severity::Error, Some(&doc.path), message).at_line(Some(offset + line))
}

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Placeholders);
    for doc in snap.scoped(opts) {
        for (line, token) in tokens(doc.body()) {
            result.findings.push(finding(doc, line, &token));
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_tokens_are_found_in_prose_and_heading_code() {
        let body = "# `f` adr: `{title}` | (**status:** `{proposed|accepted}`)\n\nx `{topic}` ${feature} {{step}} {other}\n```\n{topic}\n```\n{yyyy-mm-dd-*}\n<!-- {phase} -->\n";
        let t: Vec<String> = tokens(body).into_iter().map(|(_, t)| t).collect();
        assert_eq!(t, ["{title}", "{proposed|accepted}", "{yyyy-mm-dd-*}"]);
    }
}

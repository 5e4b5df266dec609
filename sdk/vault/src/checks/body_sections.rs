//! The `body-sections` checker (read-only): the `## ` sections a document's
//! body schema requires (spec/vault-format.md §7) must be present and not
//! empty. The schema comes from `body_schema:` or, for legacy documents,
//! from the attestation ledger `.vaultspec/body-schema-baseline.json`.

use std::collections::HashMap;
use std::ops::Range;

use sha2::{Digest, Sha256};

use crate::body;
use crate::doc::Document;
use crate::error::Result;
use crate::graph::markdown::{FenceTracker, atx_heading};
use crate::storage::Storage;

use super::context::{Options, Snapshot, declared_type};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "body-sections";
/// The attestation ledger of legacy body schemas.
pub const BASELINE: &str = ".vaultspec/body-schema-baseline.json";

/// The attested legacy schemas: path → (body sha256 hex, schema id). A
/// malformed ledger attests nothing.
pub fn load_baseline(storage: &dyn Storage) -> HashMap<String, (String, String)> {
    let Ok(bytes) = storage.read(BASELINE) else {
        return HashMap::new();
    };
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return HashMap::new();
    };
    let (Some(1), Some(entries)) = (
        v.get("version").and_then(|x| x.as_u64()),
        v.get("entries").and_then(|x| x.as_array()),
    ) else {
        return HashMap::new();
    };
    let mut out = HashMap::new();
    let mut last: Option<String> = None;
    for e in entries {
        let get = |k: &str| e.get(k).and_then(|x| x.as_str()).map(str::to_string);
        let (Some(path), Some(sha), Some(schema)) =
            (get("path"), get("body_sha256"), get("body_schema"))
        else {
            return HashMap::new();
        };
        let parts: Vec<&str> = path.split('/').collect();
        let ok_path = path.starts_with(".vault/")
            && parts.len() >= 3
            && path.ends_with(".md")
            && !path.contains('\\')
            && !parts
                .iter()
                .any(|p| *p == "." || *p == ".." || p.is_empty());
        let ok = ok_path
            && last.as_deref().is_none_or(|l| l < path.as_str())
            && schema.starts_with("legacy-")
            && body::is_registered(&schema)
            && sha.len() == 64
            && sha.bytes().all(|b| b.is_ascii_hexdigit());
        if !ok {
            return HashMap::new();
        }
        last = Some(path.clone());
        out.insert(path, (sha.to_lowercase(), schema));
    }
    out
}

/// How a document's body schema resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// A registered schema applies.
    Schema(String),
    /// No schema claimed and none attested: nothing to check.
    Missing,
    /// The claim cannot be trusted; the message says why.
    Unattested(String),
}

/// Resolves the body schema of `doc` against the baseline ledger.
pub fn resolve(doc: &Document, baseline: &HashMap<String, (String, String)>) -> Resolution {
    let declared = doc.meta().body_schema();
    if let Some(id) = declared.filter(|id| !id.starts_with("legacy-")) {
        return if body::is_registered(id) {
            Resolution::Schema(id.to_string())
        } else {
            Resolution::Unattested(format!(
                "`body_schema` value `{id}` is not a registered schema"
            ))
        };
    }
    let Some((sha, schema)) = baseline.get(&doc.path) else {
        return match declared {
            None => Resolution::Missing,
            Some(id) => {
                Resolution::Unattested(format!("legacy schema `{id}` has no entry in `{BASELINE}`"))
            }
        };
    };
    let actual = hex::encode(Sha256::digest(doc.body().as_bytes()));
    if &actual != sha || declared.is_some_and(|d| d != schema) {
        return Resolution::Unattested(format!(
            "the `{BASELINE}` entry does not match the current body"
        ));
    }
    Resolution::Schema(schema.clone())
}

/// The level-2 sections of a body (outside fenced code) with their content,
/// the lines up to the next section; `## Wave ...` and `## Epic intent`
/// continue the section before them.
pub fn sections(body: &str) -> Vec<(&str, &str)> {
    let mut out: Vec<(&str, Range<usize>)> = Vec::new();
    let mut fences = FenceTracker::default();
    let mut at = 0;
    for raw in body.split_inclusive('\n') {
        let start = at;
        at += raw.len();
        let line = line_content(raw);
        let code = fences.code_line(line);
        if !code
            && let Some((2, title)) = atx_heading(line)
            && !(title.starts_with("Wave") || title == "Epic intent")
        {
            if let Some((_, last)) = out.last_mut() {
                last.end = start;
            }
            out.push((title, at..body.len()));
        }
    }
    out.into_iter()
        .map(|(title, r)| (title, &body[r]))
        .collect()
}

/// A line without its terminator, as [`str::lines`] yields it (`\n` or
/// `\r\n`).
fn line_content(raw: &str) -> &str {
    match raw.strip_suffix('\n') {
        Some(l) => l.strip_suffix('\r').unwrap_or(l),
        None => raw,
    }
}

/// Whether a section's content says nothing: empty once HTML comments are
/// removed, or only `{...}` placeholders.
pub fn is_empty_section(content: &str) -> bool {
    if !content.contains("<!--") {
        return only_placeholders(content);
    }
    let mut text = String::new();
    let mut rest = content;
    while let Some(i) = rest.find("<!--") {
        text.push_str(&rest[..i]);
        rest = rest[i..].find("-->").map_or("", |j| &rest[i + j + 3..]);
    }
    text.push_str(rest);
    only_placeholders(&text)
}

fn only_placeholders(text: &str) -> bool {
    text.split_whitespace()
        .all(|w| w.starts_with('{') && w.ends_with('}'))
}

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::BodySections);
    let baseline = load_baseline(snap.storage);
    for doc in snap.scoped(opts) {
        let Some(doc_type) = declared_type(doc) else {
            continue;
        };
        if doc.generated() {
            continue;
        }
        let schema = match resolve(doc, &baseline) {
            Resolution::Missing => continue,
            Resolution::Unattested(why) => {
                result.findings.push(Finding::new(
                    NAME,
                    Severity::Warning,
                    Some(&doc.path),
                    format!("Body schema provenance is not attested: {why}"),
                ));
                continue;
            }
            Resolution::Schema(s) => s,
        };
        let Some(required) = body::sections(&schema, doc_type, doc.stem().ends_with("-summary"))
        else {
            continue;
        };
        let present = sections(doc.body());
        for title in required {
            match present.iter().find(|(t, _)| t == title) {
                None => result.findings.push(
                    Finding::new(
                        NAME,
                        Severity::Warning,
                        Some(&doc.path),
                        format!("Missing required section '## {title}' mandated by attested body schema '{schema}'."),
                    )
                    .hint(format!("Add and fill the '## {title}' section.")),
                ),
                Some((_, content)) if is_empty_section(content) => result.findings.push(
                    Finding::new(NAME, Severity::Warning, Some(&doc.path), format!("Required section '## {title}' is empty"))
                        .hint(format!("Fill the '## {title}' section.")),
                ),
                Some(_) => {}
            }
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waves_continue_steps_and_comment_only_sections_are_empty() {
        let body = "# p\n\n## Steps\n\n## Wave `W01`\n\n- [ ] `S01` - a; `x`.\n\n## Verification\n\n<!-- later -->\n{x}\n";
        let s = sections(body);
        assert_eq!(
            s.iter().map(|(t, _)| *t).collect::<Vec<_>>(),
            ["Steps", "Verification"]
        );
        assert!(!is_empty_section(s[0].1));
        assert!(is_empty_section(s[1].1));
    }
}

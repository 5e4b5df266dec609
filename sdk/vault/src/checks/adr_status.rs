//! The `adr-status` checker: the status marker of an ADR's H1
//! (spec/vault-format.md §11) must hold one canonical token in backticks,
//! agree with `superseded_by`, and no legacy `## Status` section may carry
//! it instead. That section is matched as `vaultspec-core` 0.3.9 matches it:
//! a level-2 heading outside fenced code whose text is exactly `Status`
//! (`## status` or `### Status` is an ordinary section). The fixer only quotes a bare canonical token (and restamps);
//! choosing a status is the author's call.

use crate::adr::{AdrStatus, marker};
use crate::doc::Document;
use crate::error::Result;
use crate::hash;

use super::body_sections::sections;
use super::context::{Options, Snapshot, rewrite};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "adr-status";
fn canonical(token: &str) -> Option<&'static str> {
    AdrStatus::parse(token).map(AdrStatus::as_str)
}

/// The canonical words, for messages.
fn canonical_set() -> String {
    AdrStatus::ALL.map(AdrStatus::as_str).join(", ")
}

/// The findings of one ADR.
pub fn find(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    let warn = |message: String| Finding::new(NAME, Severity::Warning, Some(&doc.path), message);
    let legacy = sections(doc.body()).iter().any(|(t, _)| *t == "Status");
    if legacy {
        out.push(warn(
            "Legacy '## Status' section: the status belongs in the H1 marker `| (**status:** `accepted`)`".into(),
        ));
    }
    let word = match doc.title().and_then(marker) {
        None => {
            if !legacy {
                out.push(warn("No parseable status in the H1: expected `| (**status:** `proposed`)` at its end".into()));
            }
            None
        }
        Some(found) => match canonical(found.token) {
            None => {
                out.push(
                    warn(format!("ADR status '{}' is outside the canonical set ({})", found.token, canonical_set()))
                        .hint("Establish the authorized status before setting the H1 to a canonical value"),
                );
                None
            }
            Some(c) => {
                if !found.quoted {
                    out.push(
                        warn(format!("ADR status '{}' is not in backticks", found.token))
                            .fixable(Some(format!("wrap the status in backticks: `{c}`"))),
                    );
                }
                Some(c)
            }
        },
    };
    match (doc.meta().superseded_by(), word) {
        (Some(by), Some(w)) if w != "superseded" => out.push(warn(format!(
            "`superseded_by: {by}` is set but the status is '{w}', not 'superseded'"
        ))),
        (None, Some("superseded")) => out.push(warn(
            "Status is 'superseded' but `superseded_by` names no successor".into(),
        )),
        _ => {}
    }
    out
}

/// Quotes a bare canonical status token in the first H1 of a normalised
/// text; `None` when there is nothing to quote.
pub fn quote_status(text: &str) -> Option<String> {
    let doc = Document::from_text("x.md", text.to_string());
    let title = doc.title()?;
    let found = marker(title)?;
    if found.quoted {
        return None;
    }
    let token = canonical(found.token)?;
    let range = found.quoted_range;
    let start = doc.body_range().start + doc.body().find(title)?;
    let mut out = text.to_string();
    out.replace_range(
        start + range.start..start + range.end,
        &format!("`{token}`"),
    );
    Some(out)
}

/// Runs the checker (and its fixer under `opts.fix`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::AdrStatus);
    for doc in snap.scoped(opts) {
        let Some(name) = doc.path.strip_prefix(".vault/adr/") else {
            continue;
        };
        if name.contains('/') {
            continue;
        }
        let found = find(doc);
        if !opts.fix || !found.iter().any(|f| f.fixable) {
            result.findings.extend(found);
            continue;
        }
        let wrote = rewrite(snap.storage, &doc.path, |t| {
            quote_status(t).map(|q| hash::refresh_modified_stamp(&q, opts.today))
        })?;
        if wrote {
            result.fixed_count += 1;
            result.findings.push(Finding::fixed(
                NAME,
                &doc.path,
                "Fixed: wrapped the ADR status in backticks",
            ));
        }
        result
            .findings
            .extend(found.into_iter().filter(|f| !f.fixable));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adr(h1: &str, extra: &str) -> Document {
        Document::from_text(
            ".vault/adr/2026-01-01-x-adr.md",
            format!("---\ntags:\n  - '#adr'\n  - '#x'\ndate: '2026-01-01'\n{extra}---\n\n{h1}\n"),
        )
    }

    #[test]
    fn statuses_are_judged_and_bare_tokens_quoted() {
        assert!(find(&adr("# `x` adr: `t` | (**status:** `accepted`)", "")).is_empty());
        let f = find(&adr(
            "# `x` adr: `t` | (**status:** `{proposed|accepted}`)",
            "",
        ));
        assert_eq!((f.len(), f[0].fixable), (1, false));
        let bare = adr("# `x` adr: `t` | (**status:** Accepted)", "");
        assert!(find(&bare)[0].fixable);
        let fixed = quote_status(&bare.text).unwrap();
        assert!(fixed.ends_with("| (**status:** `accepted`)\n"), "{fixed}");
        assert!(quote_status(&fixed).is_none());
        assert_eq!(
            find(&adr(
                "# `x` adr: `t` | (**status:** `accepted`)",
                "superseded_by: 'y'\n"
            ))
            .len(),
            1
        );
        assert_eq!(find(&adr("# `x` adr: `t`", "")).len(), 1);
    }

    #[test]
    fn only_an_exact_level_two_status_heading_is_legacy() {
        let h1 = "# `x` adr: `t` | (**status:** `accepted`)";
        let legacy = |section: &str| {
            find(&adr(&format!("{h1}\n\n{section}\n\nAccepted.\n"), ""))
                .iter()
                .any(|f| f.message.contains("Legacy"))
        };
        assert!(legacy("## Status"));
        assert!(legacy("## Status ##"));
        assert!(!legacy("## status"));
        assert!(!legacy("## STATUS"));
        assert!(!legacy("### Status"));
        assert!(!legacy("## Status:"));
        assert!(!legacy("```\n## Status\n```"));
    }
}

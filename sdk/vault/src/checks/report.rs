//! The JSON shapes the check results travel in at the command line: the
//! `data` of `vault check <name> --json` and `vault check all --json`
//! (spec/checks.md §1). The callers add the envelope (`schema`, `status`)
//! with [`schema_name`] and [`status_word`]. The MCP `check` tool's result
//! (§5) belongs to the host's MCP layer.

use serde::Serialize;
use serde_json::{Value, json};

use super::model::{Check, CheckResult, Finding, Severity};
use super::run::total;

/// Which diagnostics a CLI report shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Page {
    /// At most this many items (`--limit`); `None` for the default page
    /// ([`crate::window::DEFAULT_LIMIT`], as `vaultspec-core` bounds
    /// diagnostics); never more than [`crate::window::MAX_LIMIT`].
    pub limit: Option<usize>,
    /// Skip this many first (`--offset`).
    pub offset: usize,
    /// Show INFO items in text (`--fix` or `-v`). JSON carries them always,
    /// as the reference's does (`exec-mapping`'s work in flight is INFO).
    pub info: bool,
}

/// One diagnostic as the CLI prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic<'a> {
    /// Workspace-relative path, or `null` for vault-wide findings.
    pub path: Option<&'a str>,
    /// The message.
    pub message: &'a str,
    /// `error`, `warning` or `info`.
    pub severity: Severity,
    /// Whether the fixer can repair it.
    pub fixable: bool,
    /// How to repair it.
    pub fix_description: Option<&'a str>,
}

impl<'a> From<&'a Finding> for Diagnostic<'a> {
    fn from(f: &'a Finding) -> Diagnostic<'a> {
        Diagnostic {
            path: f.path.as_deref(),
            message: &f.message,
            severity: f.severity,
            fixable: f.fixable,
            fix_description: f.fix_description.as_deref(),
        }
    }
}

/// The `data` of `vault check <name> --json` for one result: every finding,
/// INFO included whatever `-v` says (the reference's JSON withholds none).
pub fn result_data(r: &CheckResult, page: Page) -> Value {
    let shown: Vec<&Finding> = r.findings.iter().collect();
    let (page_items, window) = crate::window::apply(&shown, page.limit, page.offset);
    let items: Vec<Diagnostic<'_>> = page_items.iter().map(|f| Diagnostic::from(*f)).collect();
    let mut diagnostics = window.fields();
    diagnostics.insert("items".into(), json!(items));
    json!({
        "check_name": r.check,
        "diagnostics": diagnostics,
        "fixed_count": r.fixed_count,
        "supports_fix": r.check.supports_fix(),
    })
}

/// The `data` of `vault check all --json`: `{checks: [...]}` in run order.
pub fn all_data(results: &[CheckResult], page: Page) -> Value {
    json!({ "checks": results.iter().map(|r| result_data(r, page)).collect::<Vec<_>>() })
}

/// The envelope schema: `vaultspec.vault.check.all.v1` for `all`,
/// `vaultspec.vault.check.<name>.v2` for one checker.
pub fn schema_name(check: Option<Check>) -> String {
    match check {
        None => "vaultspec.vault.check.all.v1".to_string(),
        Some(c) => format!("vaultspec.vault.check.{c}.v2"),
    }
}

/// The envelope status: `failed` while an error remains, `updated` when a
/// fixer repaired something, else `unchanged`.
pub fn status_word(results: &[CheckResult]) -> &'static str {
    if total(results, Severity::Error) > 0 {
        "failed"
    } else if results.iter().any(|r| r.fixed_count > 0) {
        "updated"
    } else {
        "unchanged"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_keep_info_items_as_the_reference_and_report_truncation() {
        let mut r = CheckResult::new(Check::ExecMapping);
        for i in 0..3 {
            r.findings.push(Finding::new(
                "exec-mapping",
                Severity::Warning,
                Some(&format!("p{i}")),
                "w",
            ));
        }
        r.findings
            .push(Finding::new("exec-mapping", Severity::Info, None, "i"));
        let d = result_data(
            &r,
            Page {
                limit: Some(2),
                offset: 1,
                info: false,
            },
        );
        // `vaultspec-core` 0.3.9's JSON carries INFO items without `-v`
        // (an `exec-mapping` work-in-flight row is INFO).
        assert_eq!(d["diagnostics"]["total"], 4);
        assert_eq!(d["diagnostics"]["returned"], 2);
        assert_eq!(d["diagnostics"]["items"][0]["path"], "p1");
        let last = result_data(
            &r,
            Page {
                limit: None,
                offset: 3,
                info: false,
            },
        );
        assert_eq!(
            last["diagnostics"]["items"][0]["severity"], "info",
            "{last}"
        );
        let d = result_data(
            &r,
            Page {
                limit: Some(1),
                offset: 0,
                info: true,
            },
        );
        assert_eq!(
            (
                d["diagnostics"]["total"].as_u64(),
                d["diagnostics"]["truncated"].as_bool()
            ),
            (Some(4), Some(true))
        );
        assert_eq!(d["supports_fix"], false);
        assert_eq!(
            schema_name(Some(Check::BodyLinks)),
            "vaultspec.vault.check.body-links.v2"
        );
        assert_eq!(status_word(&[r]), "unchanged");
    }

    #[test]
    fn diagnostics_are_paged_fifty_at_a_time_by_default() {
        let mut r = CheckResult::new(Check::Links);
        for i in 0..120 {
            r.findings.push(Finding::new(
                "links",
                Severity::Warning,
                Some(&format!("p{i}")),
                "w",
            ));
        }
        let d = &result_data(&r, Page::default())["diagnostics"];
        assert_eq!(
            (
                d["returned"].as_u64(),
                d["total"].as_u64(),
                d["next_offset"].as_u64()
            ),
            (Some(50), Some(120), Some(50))
        );
        let d = &result_data(
            &r,
            Page {
                offset: 100,
                ..Page::default()
            },
        )["diagnostics"];
        assert_eq!(d["items"][0]["path"], "p100");
        assert_eq!(
            (d["returned"].as_u64(), d["truncated"].as_bool()),
            (Some(20), Some(false))
        );
        assert!(d.get("next_offset").is_none());
    }
}

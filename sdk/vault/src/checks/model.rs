//! The result model of the checks (spec/checks.md §1): a [`Finding`] per
//! problem or applied fix, gathered per checker into a [`CheckResult`], and
//! the [`Check`] names in the order `vault check all` runs them.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Refuses a write; makes `vault check` exit 1.
    Error,
    /// Reported only.
    Warning,
    /// Work in flight, or a fix that was applied.
    Info,
}

/// One problem found, or one fix applied, in the shape every verb reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The check that produced it (`frontmatter`, `body-links` ...).
    pub check: &'static str,
    /// Workspace-relative path; `None` for vault-wide findings (serialised as
    /// `null`: the key is always present).
    pub path: Option<String>,
    /// 1-based line, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What is wrong and what would be accepted (or what was fixed).
    pub message: String,
    /// Severity.
    pub severity: Severity,
    /// Whether the check's fixer can repair it.
    pub fixable: bool,
    /// How to repair it, when there is something to say.
    pub fix_description: Option<String>,
    /// Whether this run repaired it (INFO records of applied fixes, and the
    /// dangling links removed in the fixing run).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fixed: bool,
}

impl Finding {
    /// A finding about `path` with no line, not fixable.
    pub fn new(
        check: &'static str,
        severity: Severity,
        path: Option<&str>,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            check,
            path: path.map(str::to_string),
            line: None,
            message: message.into(),
            severity,
            fixable: false,
            fix_description: None,
            fixed: false,
        }
    }

    /// The INFO record of a fix applied to `path`.
    pub fn fixed(check: &'static str, path: &str, message: impl Into<String>) -> Finding {
        Finding {
            fixed: true,
            ..Finding::new(check, Severity::Info, Some(path), message)
        }
    }

    /// Marks the finding fixable, with an optional description of the fix.
    pub fn fixable(mut self, description: Option<String>) -> Finding {
        self.fixable = true;
        self.fix_description = description;
        self
    }

    /// Sets the fix description without making the finding fixable.
    pub fn hint(mut self, description: impl Into<String>) -> Finding {
        self.fix_description = Some(description.into());
        self
    }

    /// Sets the line.
    pub fn at_line(mut self, line: Option<usize>) -> Finding {
        self.line = line;
        self
    }
}

/// What one checker reported (`CheckResult` of the reference).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckResult {
    /// The checker.
    pub check: Check,
    /// Findings in the checker's order; INFO ones record applied fixes.
    pub findings: Vec<Finding>,
    /// How many repairs the fixer applied.
    pub fixed_count: usize,
}

impl CheckResult {
    /// An empty result of `check`.
    pub fn new(check: Check) -> CheckResult {
        CheckResult {
            check,
            findings: Vec::new(),
            fixed_count: 0,
        }
    }

    /// How many findings have `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// Error findings.
    pub fn error_count(&self) -> usize {
        self.count(Severity::Error)
    }

    /// Warning findings.
    pub fn warning_count(&self) -> usize {
        self.count(Severity::Warning)
    }

    /// INFO findings.
    pub fn info_count(&self) -> usize {
        self.count(Severity::Info)
    }

    /// No findings at all (INFO included), as the reference's `is_clean`.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }
}

macro_rules! checks {
    ($($variant:ident => $name:literal, fix: $fix:literal, doc: $doc:literal;)*) => {
        /// A checker of `vault check` (spec/checks.md §3).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Check {
            $(#[doc = $doc] $variant,)*
        }

        impl Check {
            /// Every checker: the 20 of `check all` in run order, then the
            /// opt-in `code-boundary`.
            pub const EVERY: [Check; 21] = [$(Check::$variant,)*];

            /// The name used on the command line and in reports.
            pub fn as_str(self) -> &'static str {
                match self { $(Check::$variant => $name,)* }
            }

            /// Whether the checker has a fixer (`supports_fix`).
            pub fn supports_fix(self) -> bool {
                match self { $(Check::$variant => $fix,)* }
            }
        }
    };
}

checks! {
    Structure => "structure", fix: true, doc: "Vault layout and filename grammar.";
    Frontmatter => "frontmatter", fix: true, doc: "The modelled frontmatter fields.";
    Annotations => "annotations", fix: true, doc: "Template guidance comments left in documents.";
    Markdown => "markdown", fix: true, doc: "Trailing whitespace, blank runs, final newline.";
    Links => "links", fix: true, doc: "Wiki-links written with a `.md` extension.";
    Dangling => "dangling", fix: true, doc: "Wiki-links that resolve to no document.";
    BodyLinks => "body-links", fix: true, doc: "Wiki-links and path links in body prose.";
    Placeholders => "placeholders", fix: false, doc: "Unreplaced template placeholders.";
    Orphans => "orphans", fix: false, doc: "Documents with no links and no feature siblings.";
    Features => "features", fix: false, doc: "Feature completeness: plan, index, index freshness.";
    ExecMapping => "exec-mapping", fix: false, doc: "Ledger rows against plan Steps.";
    BodySections => "body-sections", fix: false, doc: "Required `##` sections of the body schema.";
    FeatureRenameIntegrity => "feature-rename-integrity", fix: false, doc: "Exec folders against their records' feature.";
    References => "references", fix: false, doc: "Research not referenced within its feature.";
    Schema => "schema", fix: false, doc: "ADR grounding and approved plans' decision status.";
    AdrStatus => "adr-status", fix: true, doc: "The ADR status marker of the H1.";
    ModifiedStamp => "modified-stamp", fix: true, doc: "The `modified` stamp and body fingerprint.";
    RenameIntegrity => "rename-integrity", fix: true, doc: "Rule, skill and agent names against their files.";
    Encoding => "encoding", fix: false, doc: "Documents that are not UTF-8.";
    Foreign => "foreign", fix: false, doc: "Files the framework did not place.";
    CodeBoundary => "code-boundary", fix: false, doc: "Source files naming vault documents (opt-in).";
}

impl Check {
    /// The 20 checkers of `vault check all`, in run order.
    pub fn all() -> &'static [Check] {
        &Check::EVERY[..20]
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Check {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// An unknown check name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown check `{name}`: expected one of {}", Check::EVERY.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", "))]
pub struct UnknownCheck {
    /// The name given.
    pub name: String,
}

impl FromStr for Check {
    type Err = UnknownCheck;
    fn from_str(s: &str) -> Result<Check, UnknownCheck> {
        Check::EVERY
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCheck {
                name: s.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_all_has_the_reference_order() {
        for c in Check::EVERY {
            assert_eq!(c.as_str().parse::<Check>(), Ok(c));
        }
        assert_eq!(Check::all().len(), 20);
        assert_eq!(Check::all()[0], Check::Structure);
        assert_eq!(Check::all()[19], Check::Foreign);
        assert!(
            "nope"
                .parse::<Check>()
                .unwrap_err()
                .to_string()
                .starts_with("unknown check `nope`")
        );
    }
}

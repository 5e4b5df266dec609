//! The errors of ledger operations: each variant names the culprit and says
//! what would be accepted.

use crate::plan::PlanError;
use crate::storage::StorageError;

/// Everything a ledger read, log or recovery can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// The ledger has no `## Changes` section to append to.
    #[error("the ledger has no `## Changes` section; add the heading before logging")]
    NoChangesSection,
    /// The ledger holds a row the grammar cannot read; it is not rewritten.
    #[error(
        "ledger `{path}` line {line}: `{row}` is not a row (`- `S##` `OP` `path``); fix it by hand before logging"
    )]
    Malformed {
        /// The ledger path.
        path: String,
        /// 1-based line.
        line: usize,
        /// The row as written.
        row: String,
    },
    /// The parent plan does not exist.
    #[error(
        "no plan {}of feature `{feature}`: name an existing plan by its stem or its feature \
         (`vaultspec status` lists the plans in flight){}",
        named(.stem),
        near_plans(.near)
    )]
    PlanNotFound {
        /// The feature given.
        feature: String,
        /// The plan stem given (empty: none, the feature's plan was looked for).
        stem: String,
        /// Plans whose names come close.
        near: Vec<String>,
    },
    /// Neither the plan's `date:` nor its filename gives a date.
    #[error("plan `{stem}` has no usable date in `date:` or its filename")]
    NoPlanDate {
        /// The plan stem.
        stem: String,
    },
    /// A `--row` spec does not parse.
    #[error("row `{spec}` is not accepted: {reason}")]
    BadRow {
        /// The spec given.
        spec: String,
        /// What would be accepted.
        reason: &'static str,
    },
    /// A `--verify` spec does not parse.
    #[error("verify `{spec}` is not accepted: {reason}")]
    BadVerify {
        /// The spec given.
        spec: String,
        /// What would be accepted.
        reason: &'static str,
    },
    /// A `--by` persona is empty or holds a backtick.
    #[error("persona `{persona}` is not accepted: use a non-empty name without backticks")]
    BadBy {
        /// The persona given.
        persona: String,
    },
    /// A feature handle is not usable.
    #[error("feature `{feature}` is not accepted: use lowercase letters, digits and `-`")]
    BadFeature {
        /// The feature given.
        feature: String,
    },
    /// A document is not UTF-8.
    #[error("`{path}` is not valid utf-8")]
    NotUtf8 {
        /// The path.
        path: String,
    },
    /// The ledger changed since the caller read it.
    #[error("ledger `{path}` changed: expected blob `{expected}`, found `{actual}`")]
    Stale {
        /// The ledger path.
        path: String,
        /// The hash the caller expected.
        expected: String,
        /// The hash on disk.
        actual: String,
    },
    /// `exec fold` found no exec folder or record of the feature.
    #[error("no execution folder found for feature `{feature}`: nothing to fold")]
    NoExecFolder {
        /// The feature, without `#`.
        feature: String,
    },
    /// A recovery operation does not apply to this record.
    #[error("record `{path}`: {reason}")]
    Recovery {
        /// The record path.
        path: String,
        /// Why it is refused.
        reason: String,
    },
    /// The parent plan refused (unknown or ambiguous Step, malformed plan).
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// The template could not be read.
    #[error(transparent)]
    Template(#[from] crate::Error),
    /// The storage refused or failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// "`stem` " for a plan stem given, or nothing.
fn named(stem: &str) -> String {
    match stem {
        "" => String::new(),
        stem => format!("`{stem}` "),
    }
}

/// `; did you mean …` for the plans `near` a target, or nothing.
fn near_plans(near: &[String]) -> String {
    match near {
        [] => String::new(),
        _ => format!("; did you mean {}?", near.join(", ")),
    }
}

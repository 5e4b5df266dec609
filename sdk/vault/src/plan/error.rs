//! The errors of plan operations: each variant names the culprit and says
//! what would be accepted.

use crate::storage::StorageError;

use super::frontmatter::Tier;
use super::ids::Kind;

/// Everything a plan read, edit or write can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// `tier:` is not one of `L1`..`L4`.
    #[error("plan tier `{value}` is not valid; use one of `L1`, `L2`, `L3`, `L4`")]
    InvalidTier {
        /// The value found.
        value: String,
    },
    /// A frontmatter key has the wrong shape.
    #[error("plan frontmatter key `{key}`: {reason}")]
    Frontmatter {
        /// The key.
        key: String,
        /// What is wrong.
        reason: String,
    },
    /// The document has no frontmatter block.
    #[error("plan has no `---` frontmatter block at its start")]
    NoFrontmatter,
    /// A Step row does not follow the row grammar.
    #[error("line {line}: step row `{row}` is missing the `;` between action and scope")]
    MalformedRow {
        /// 1-based line in the file.
        line: usize,
        /// The row as written.
        row: String,
    },
    /// No container of `kind` has the given id.
    #[error("{kind} `{id}` does not exist in this plan{}", did_you_mean(.suggestions))]
    Unknown {
        /// What was looked up.
        kind: Kind,
        /// The id or path given.
        id: String,
        /// The nearest existing ids.
        suggestions: Vec<String>,
    },
    /// A leaf id matches several containers.
    #[error("{kind} `{id}` is ambiguous; address one of {}", list(.candidates))]
    Ambiguous {
        /// What was looked up.
        kind: Kind,
        /// The id given.
        id: String,
        /// The display paths it could mean.
        candidates: Vec<String>,
    },
    /// The verb does not apply at the plan's tier.
    #[error("`{verb}` is not available on an {tier} plan; {hint}")]
    WrongTier {
        /// The verb.
        verb: &'static str,
        /// The plan's tier.
        tier: Tier,
        /// What to do instead.
        hint: String,
    },
    /// An action, scope, title or intent breaks the row contract.
    #[error("{field} `{value}` is not accepted: {reason}")]
    InvalidText {
        /// Which input (`action`, `scope`, `title`, `intent`, `text`).
        field: &'static str,
        /// The value given.
        value: String,
        /// What would be accepted.
        reason: &'static str,
    },
    /// The flags of a verb do not fit together.
    #[error("{0}")]
    Usage(String),
    /// A demotion would collapse several containers and `force` was not set.
    #[error(
        "{tier} plan has {count} live {kind}s; demoting to {target} collapses the {kind} layer and needs `--force`"
    )]
    DemoteNeedsForce {
        /// The current tier.
        tier: Tier,
        /// The target tier.
        target: Tier,
        /// How many live containers would collapse.
        count: usize,
        /// Their kind.
        kind: Kind,
    },
    /// A promotion crosses tiers whose new containers need titles/intents.
    #[error("promoting {from} to {to} needs {}; the placeholders are never written by the cli", list(.flags))]
    PromoteNeedsFlags {
        /// The current tier.
        from: Tier,
        /// The target tier.
        to: Tier,
        /// The flags missing.
        flags: Vec<String>,
    },
    /// The source plan has error-level findings and is not rewritten.
    #[error("the plan has structural errors and is not safe to rewrite: {findings}")]
    Unsafe {
        /// The findings, one per `; `.
        findings: String,
    },
    /// The rewrite guard refused the output.
    #[error("refusing to write the plan: {0}")]
    Guard(String),
    /// The plan changed since the caller read it.
    #[error("plan `{path}` changed: expected blob `{expected}`, found `{actual}`")]
    Stale {
        /// The plan path.
        path: String,
        /// The hash the caller expected.
        expected: String,
        /// The hash on disk.
        actual: String,
    },
    /// The plan file is not UTF-8.
    #[error("plan `{path}` is not valid utf-8")]
    NotUtf8 {
        /// The plan path.
        path: String,
    },
    /// A plan target resolves to nothing.
    #[error("no plan matches `{target}` by stem or feature{}", did_you_mean(.near))]
    PlanNotFound {
        /// The target given.
        target: String,
        /// Up to five near stems.
        near: Vec<String>,
    },
    /// A feature handle resolves to several plans.
    #[error("`{target}` matches {} plans; pass the plan stem: {}", .stems.len(), list(.stems))]
    AmbiguousPlan {
        /// The target given.
        target: String,
        /// The candidate stems.
        stems: Vec<String>,
    },
    /// A plan target is a path or otherwise not a stem or feature handle.
    #[error("plan target `{target}` must be a stem or a feature handle, not a path")]
    InvalidTarget {
        /// The target given.
        target: String,
    },
    /// The written bytes did not read back; the original was restored.
    #[error("plan `{path}` did not read back as written; the original bytes were restored")]
    VerifyFailed {
        /// The plan path.
        path: String,
    },
    /// The storage refused or failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// A batch an interrupted operation left half-applied could not be
    /// rolled back before this write (see `ops::journal`).
    #[error(transparent)]
    Interrupted(Box<crate::Error>),
}

fn list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn did_you_mean(items: &[String]) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", list(items))
    }
}

//! The errors of the vault model's document layer: each variant names the
//! culprit (a path, a key, a value) and says what would be accepted.
//!
//! A failed operation writes nothing: every operation computes all of its
//! output before its first write and applies it all or nothing
//! ([`crate::ops::transaction`]), so an error always means "unchanged"
//! (or, for [`Error::RollbackFailed`], "unchanged once the journal is rolled
//! back by the next write command").

use crate::storage::StorageError;

/// The result type of the document layer.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// One reference that did not resolve, with the nearest stems of the corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    /// The reference as given.
    pub input: String,
    /// Up to three stems that look alike, best first.
    pub nearest: Vec<String>,
}

fn unresolved_list(items: &[Unresolved]) -> String {
    items
        .iter()
        .map(|u| {
            if u.nearest.is_empty() {
                format!("`{}`", u.input)
            } else {
                let n: Vec<String> = u.nearest.iter().map(|s| format!("`{s}`")).collect();
                format!("`{}` (did you mean {}?)", u.input, n.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Everything a document operation can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The storage refused or failed.
    #[error(transparent)]
    Storage(#[from] StorageError),

    /// A file is not UTF-8.
    #[error(
        "`{path}` is not valid UTF-8 (first bad byte at offset {offset}); expected a UTF-8 text file"
    )]
    Encoding {
        /// The file.
        path: String,
        /// Byte offset of the first invalid sequence.
        offset: usize,
    },

    /// A document has no `---` frontmatter at its first line.
    #[error(
        "`{path}` has no frontmatter at line 1: expected a `---` line, the YAML keys, and a closing `---` line"
    )]
    NoFrontmatter {
        /// The file.
        path: String,
    },

    /// A frontmatter value is malformed.
    #[error("`{path}` line {line}: {message}")]
    Malformed {
        /// The file.
        path: String,
        /// 1-based line in the file.
        line: usize,
        /// What was found and what was expected.
        message: String,
    },

    /// An empty feature tag or topic.
    #[error("{what} is required (e.g. `my-feature`)")]
    EmptyName {
        /// `feature tag` or `topic`.
        what: &'static str,
    },

    /// A feature tag or topic outside the grammar.
    #[error("invalid {what} `{raw}`: {}", reason.unwrap_or("expected kebab-case (lowercase letters, digits, hyphens)"))]
    InvalidName {
        /// `feature tag` or `topic`.
        what: &'static str,
        /// The value as given.
        raw: String,
        /// Why, when it is not the kebab-case rule.
        reason: Option<&'static str>,
    },

    /// A date that no accepted form reads.
    #[error(
        "invalid date `{raw}`: expected a calendar date in (or normalizable to) `yyyy-mm-dd` form"
    )]
    InvalidDate {
        /// The value as given.
        raw: String,
    },

    /// A document type name that is not one of the seven.
    #[error(
        "unknown document type `{raw}`: expected one of `adr`, `audit`, `exec`, `index`, `plan`, `reference`, `research`"
    )]
    UnknownDocType {
        /// The value as given.
        raw: String,
    },

    /// A type that `add` does not scaffold (`index`, `exec`).
    #[error("`{doc_type}` documents are not added directly: {instead}")]
    NotScaffolded {
        /// The refused type.
        doc_type: String,
        /// What to use instead.
        instead: &'static str,
    },

    /// A topic given for a type that takes none.
    #[error(
        "`--topic` is not accepted for `{doc_type}` documents: expected `adr`, `audit`, `reference` or `research`"
    )]
    TopicNotAllowed {
        /// The document type.
        doc_type: String,
    },

    /// Tags beyond the required directory and feature tags.
    #[error("unsupported tags {}: only `{allowed_dir}` and `{allowed_feature}` are accepted", tags.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", "))]
    UnsupportedTags {
        /// The refused tags.
        tags: Vec<String>,
        /// The directory tag.
        allowed_dir: String,
        /// The feature tag.
        allowed_feature: String,
    },

    /// A plan tier outside `L1`..`L4`.
    #[error("invalid tier `{raw}`: expected `L1`, `L2`, `L3` or `L4`")]
    InvalidTier {
        /// The value as given.
        raw: String,
    },

    /// A file already exists where one would be created.
    #[error(
        "`{path}` already exists: choose another date, feature or topic, or force the overwrite"
    )]
    FileExists {
        /// The existing file.
        path: String,
    },

    /// A document with the same stem already exists elsewhere.
    #[error("stem `{stem}` is already taken by `{path}`: stems must be unique across the vault")]
    StemTaken {
        /// The stem.
        stem: String,
        /// The document holding it.
        path: String,
    },

    /// A template file is missing and no default exists.
    #[error("no template for `{doc_type}` at `{path}`")]
    TemplateMissing {
        /// The document type.
        doc_type: String,
        /// Where it was looked for.
        path: String,
    },

    /// References that match no document.
    #[error("no document matches {}", unresolved_list(.0))]
    Unresolved(Vec<Unresolved>),

    /// The optimistic-concurrency guard failed: the file changed since read.
    #[error(
        "`{path}` changed on disk since it was read: expected blob `{expected}`, found `{actual}`"
    )]
    Conflict {
        /// The file.
        path: String,
        /// The blob id the caller expected.
        expected: String,
        /// The blob id on disk.
        actual: String,
    },

    /// Pre-write checks found errors; nothing was written.
    #[error("`{path}` was not written: {}", findings.iter().map(|f| f.message.as_str()).collect::<Vec<_>>().join("; "))]
    Refused {
        /// The file.
        path: String,
        /// The error-severity findings.
        findings: Vec<crate::checks::Finding>,
        /// What the frontmatter validation refused (a malformed date), apart
        /// from the checks: the reference reports these as `errors`.
        errors: Vec<String>,
    },

    /// A document is not of the type an operation needs.
    #[error("`{path}` is not an {expected} document")]
    WrongType {
        /// The file.
        path: String,
        /// The type needed.
        expected: &'static str,
    },

    /// An ADR operation's precondition failed.
    #[error("{0}")]
    Adr(String),

    /// An argument is invalid for the operation.
    #[error("{0}")]
    Invalid(String),

    /// An operation was interrupted earlier and its half-applied batch was
    /// just rolled back, so this one's plan (made from the half-changed
    /// files) was not applied.
    #[error(
        "an interrupted operation had left the vault half-changed (journal `{journal}`); it was rolled back{} and nothing of this operation was written: run it again",
        kept_note(.kept)
    )]
    Recovered {
        /// The journal that was rolled back.
        journal: String,
        /// Files the roll-back kept as they are: they had changed since.
        kept: Vec<String>,
    },

    /// A batch failed and putting its files back failed too.
    #[error(
        "{cause}; putting back the files already changed failed as well ({rollback}): the journal `{journal}` keeps their old bytes, and the next write command puts them back before anything else"
    )]
    RollbackFailed {
        /// Why the batch stopped.
        cause: Box<Error>,
        /// Why the roll-back stopped.
        rollback: Box<Error>,
        /// The journal left for the next run.
        journal: String,
    },

    /// The journal of an interrupted operation cannot be used.
    #[error(
        "the journal `{path}` of an interrupted operation cannot be read: {message}; expected the JSON journal this version writes. Nothing was changed: put back the files it lists by hand (their old bytes are the `.bak` files beside it), then remove the folder"
    )]
    Journal {
        /// The journal file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

/// The clause of [`Error::Recovered`] naming the files a roll-back kept.
fn kept_note(kept: &[String]) -> String {
    if kept.is_empty() {
        String::new()
    } else {
        format!(
            " (except {}, which changed after the operation stopped and were kept as they are)",
            kept.iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

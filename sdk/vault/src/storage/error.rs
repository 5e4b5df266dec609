//! The errors a [`Storage`](super::Storage) reports, each naming its path.

/// Why a storage operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// Nothing exists at the path.
    #[error("`{path}` does not exist")]
    NotFound {
        /// The path asked for.
        path: String,
    },
    /// The file is larger than a single read may return.
    #[error("`{path}` is {size} bytes, over the {limit}-byte limit for one file")]
    TooLarge {
        /// The file.
        path: String,
        /// Its size in bytes.
        size: u64,
        /// The per-file limit.
        limit: u64,
    },
    /// Reading the file would exceed the call's read budget.
    #[error("reading `{path}` would exceed this call's read budget of {budget} bytes")]
    BudgetExceeded {
        /// The file whose read was refused.
        path: String,
        /// The budget of the call.
        budget: u64,
    },
    /// Changing the file would exceed the call's write budget.
    #[error("changing `{path}` would exceed this call's write budget of {limit} {unit}")]
    WriteBudgetExceeded {
        /// The file whose change was refused.
        path: String,
        /// The limit crossed.
        limit: u64,
        /// What it counts: `bytes` or `files`.
        unit: &'static str,
    },
    /// The path is not a plain workspace-relative path.
    #[error("`{path}` is not a valid workspace path: {reason}")]
    InvalidPath {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The path leads outside the workspace (for example through a symlink).
    #[error("`{path}` leads outside the workspace")]
    Outside {
        /// The path as given.
        path: String,
    },
    /// A write outside the folders writes may touch, or with no write access.
    #[error("writing `{path}` is not allowed: {reason}")]
    Denied {
        /// The path as given.
        path: String,
        /// Why it is denied.
        reason: String,
    },
    /// The destination of a rename already exists.
    #[error("`{path}` already exists")]
    AlreadyExists {
        /// The destination.
        path: String,
    },
    /// Any other I/O failure.
    #[error("{op} `{path}`: {message}")]
    Io {
        /// What was being done (`reading`, `writing`, …).
        op: &'static str,
        /// The path involved.
        path: String,
        /// The operating system's message.
        message: String,
    },
}

impl StorageError {
    /// The path the error is about.
    pub fn path(&self) -> &str {
        match self {
            Self::NotFound { path }
            | Self::TooLarge { path, .. }
            | Self::BudgetExceeded { path, .. }
            | Self::WriteBudgetExceeded { path, .. }
            | Self::InvalidPath { path, .. }
            | Self::Outside { path }
            | Self::Denied { path, .. }
            | Self::AlreadyExists { path }
            | Self::Io { path, .. } => path,
        }
    }
}

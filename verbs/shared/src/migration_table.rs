//! The migration table, which lives in the vault model so that the host
//! reads it too (`install` stamps the manifest with its version).

pub use vaultspec_sdk::vault::migrations::*;

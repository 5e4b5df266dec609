//! Files the user named at the command line (`--body-file`, `--manifest`),
//! read by the host and served to the verb under the names given.
//!
//! A flag declared `input: file` names the user's own input, not a file of
//! the workspace: at the command line the host reads it with the user's
//! authority (any readable path, `-` for standard input) and the verb, whose
//! reads are confined to the workspace, receives exactly those bytes when it
//! reads that name. Nothing else outside the workspace becomes readable, and
//! through MCP no inputs are given, so a path there is a workspace path.

use std::collections::BTreeMap;
use std::sync::Arc;

/// The inputs of one call: the name the verb reads → the bytes.
#[derive(Debug, Clone, Default)]
pub struct Inputs(Arc<BTreeMap<String, Arc<[u8]>>>);

impl Inputs {
    /// Inputs from (name, bytes) pairs.
    pub fn new(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Self {
        Self(Arc::new(
            files
                .into_iter()
                .map(|(name, bytes)| (name, Arc::from(bytes)))
                .collect(),
        ))
    }

    /// The bytes given under `name`, if any.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.0.get(name).map(|bytes| &bytes[..])
    }

    /// Whether no input was given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

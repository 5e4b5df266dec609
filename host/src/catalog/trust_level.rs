//! Whether the catalog may run a component's verbs: builtin, trusted or not.
//!
//! A third-party component that nobody approved still shows its verbs (so
//! `discover` and `--help` can list them, marked), but running one is refused
//! with [`Untrusted`], which names the command that would approve it.

use std::path::PathBuf;

use super::{Origin, VerbComponent};
use crate::display::Escaped;

/// How far the host trusts a component of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Trust {
    /// Embedded in the binary.
    Builtin,
    /// A third-party component a person approved for this workspace, at
    /// this path, with these exact bytes.
    Trusted,
    /// A third-party component nobody approved (or whose file changed
    /// since): listed, never run.
    Untrusted,
}

impl Trust {
    /// Whether verbs of this component may run.
    pub fn runnable(self) -> bool {
        !matches!(self, Self::Untrusted)
    }
}

/// Refusal to run a verb of an untrusted component.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "verb `{verb}` comes from `{}`{}, which is not trusted in this workspace: review and trust it with `{}`",
    Escaped::new(.component),
    .path.as_ref().map(|p| format!(" (`{}`)", Escaped::new(&p.display().to_string()))).unwrap_or_default(),
    Escaped::new(.command)
)]
pub struct Untrusted {
    /// The verb path.
    pub verb: String,
    /// The component's name.
    pub component: String,
    /// The component's file.
    pub path: Option<PathBuf>,
    /// The command a person runs at a terminal to approve it
    /// (`vaultspec verbs trust notes`).
    pub command: String,
}

impl Untrusted {
    /// The refusal for running `verb` of `component`.
    pub fn new(verb: &str, component: &VerbComponent) -> Self {
        let path = match &component.origin {
            Origin::File(path) => Some(path.clone()),
            Origin::Builtin | Origin::Host => None,
        };
        Self {
            verb: verb.to_owned(),
            component: component.name.clone(),
            path,
            command: trust_command(&component.name),
        }
    }
}

/// The command that approves a component by name.
pub fn trust_command(component: &str) -> String {
    format!("vaultspec verbs trust {component}")
}

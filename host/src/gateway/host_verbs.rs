//! Verbs the host runs itself but the gateway reaches too: read-only
//! diagnoses such as `spec doctor` and `spec mcps status`, which read the
//! user's own records outside the workspace and so cannot be components.
//!
//! They are declared in WIT like every verb, so `discover` ranks them and
//! `invoke` checks their arguments the same way; the catalog holds them as
//! one pseudo-component of [`Origin::Host`](crate::catalog::Origin::Host)
//! without code. What runs them is handed in by the layer that owns them
//! (the provisioning commands), and runs on a blocking thread under the
//! call's deadline; what it prints is kept, never written to the server's
//! stdout, and held to the gateway's output limit.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::invocation::Invocation;
use crate::report::Printed;
use crate::sandbox::{Failure, FailureKind, OUTPUT_LIMIT, Outcome};

/// Runs one host verb (`spec doctor`) with its checked invocation on the
/// workspace at the given root.
pub type Runner = fn(&str, &Invocation, &Path) -> Printed;

/// The host's gateway verbs: their WIT declaration and their runner.
#[derive(Clone, Copy)]
pub struct HostVerbs {
    /// A world exporting the verbs, in the shape of `wit/README.md`.
    pub declaration: &'static str,
    /// What runs them.
    pub run: Runner,
}

impl HostVerbs {
    /// Run `verb` under `timeout`: its exit code and output, or a timeout
    /// or output-limit failure. A runner still going at the deadline is
    /// left to finish on its thread; its output is dropped.
    pub async fn call(
        &self,
        verb: &str,
        invocation: &Invocation,
        root: &Path,
        timeout: Duration,
    ) -> Outcome {
        let (run, verb_owned, invocation, root): (Runner, String, Invocation, PathBuf) = (
            self.run,
            verb.to_owned(),
            invocation.clone(),
            root.to_owned(),
        );
        let task = tokio::task::spawn_blocking(move || run(&verb_owned, &invocation, &root));
        let failed = |kind, message: String| Outcome {
            failure: Some(Failure { kind, message }),
            ..Outcome::default()
        };
        let printed = match tokio::time::timeout(timeout, task).await {
            Ok(Ok(printed)) => printed,
            Ok(Err(panic)) => {
                return failed(FailureKind::Trap, format!("`{verb}` failed: {panic}"));
            }
            Err(_) => return failed(FailureKind::Timeout, String::new()),
        };
        if printed.stdout.len() + printed.stderr.len() > OUTPUT_LIMIT {
            return failed(FailureKind::OutputLimit, String::new());
        }
        Outcome {
            exit_code: Some(printed.code),
            stdout: printed.stdout.into_bytes(),
            stderr: printed.stderr.into_bytes(),
            ..Outcome::default()
        }
    }
}

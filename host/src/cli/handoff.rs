//! What only the host can know, prepared before a builtin runs at the
//! command line and handed to it ([`vaultspec_vault::handoff`]): the setup
//! report for `doctor`, and for `migrations run` the migrations that change
//! files no verb may write, run here first.

use std::path::Path;

use crate::invocation::{FlagValue, Invocation};
use crate::provision::{enroll, migrate};

/// The variables to set for the builtin `verb`; `Err` is a migration that
/// failed (nothing of the host's pass was written).
pub fn prepare(
    verb: &str,
    invocation: &Invocation,
    root: &Path,
) -> Result<Vec<(&'static str, String)>, String> {
    let mut env = Vec::new();
    match verb {
        "doctor" => {
            if let Some(homes) = enroll::targets::Homes::from_env() {
                let report = enroll::diagnose(root, &homes, true, false);
                env.extend(
                    enroll::doctor_handoff(&report)
                        .map(|h| (vaultspec_vault::handoff::SPEC_DOCTOR, h)),
                );
            }
        }
        "migrations run" => {
            let dry_run = invocation.flags.get("dry-run") == Some(&FlagValue::Switch(true));
            let done =
                migrate::run(root, dry_run).map_err(|e| format!("migration failed: {e:#}"))?;
            env.extend(done.map(|d| (migrate::DONE_ENV, d)));
        }
        _ => {}
    }
    Ok(env)
}

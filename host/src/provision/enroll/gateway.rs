//! `spec doctor`, `spec mcps list|status`, `spec hooks list|show|status`
//! and `spec triggers list|show|status` for the gateway:
//! read-only, declared in `gateway.wit`, run natively (they read the
//! person's approvals and MCP files outside the workspace, which no
//! component may) and printed into a [`Printed`], never onto stdout.

use std::path::Path;

use super::args::TargetArgs;
use super::targets::Homes;
use super::{commands, doctor};
use crate::gateway::HostVerbs;
use crate::invocation::{FlagValue, Invocation};
use crate::report::{Printed, exit};

/// The verbs and their runner, for [`crate::gateway::Gateway::with_host_verbs`].
pub fn host_verbs() -> HostVerbs {
    HostVerbs {
        declaration: include_str!("gateway.wit"),
        run,
    }
}

fn switch(invocation: &Invocation, name: &str) -> bool {
    matches!(invocation.flags.get(name), Some(FlagValue::Switch(true)))
}

fn values(invocation: &Invocation, name: &str) -> Vec<String> {
    match invocation.flags.get(name) {
        Some(FlagValue::Values(values)) => values.clone(),
        _ => Vec::new(),
    }
}

fn value<'i>(invocation: &'i Invocation, name: &str) -> Option<&'i str> {
    match invocation.flags.get(name) {
        Some(FlagValue::Values(values)) => values.first().map(String::as_str),
        _ => None,
    }
}

fn run(verb: &str, invocation: &Invocation, root: &Path) -> Printed {
    let failed = |message: String| {
        let mut printed = Printed::new(exit::FINDINGS);
        printed.stderr = format!("error: {message}\n");
        printed
    };
    let root = match root.canonicalize() {
        Ok(root) => root,
        Err(err) => return failed(format!("resolving `{}`: {err}", root.display())),
    };
    let json = invocation.json;
    let name = || invocation.operands.first().cloned().unwrap_or_default();
    use crate::provision::hooks::commands as hooks;
    use crate::provision::hooks::scripts::Folder;
    match verb {
        "vault check coherence" => {
            return crate::coherence::run(&root, value(invocation, "feature"), json);
        }
        "review context" => {
            let Some(base) = value(invocation, "base") else {
                let mut printed = Printed::new(exit::USAGE);
                printed.stderr = "error: `review context` needs --base REV\n".into();
                return printed;
            };
            let request = crate::review::Request {
                objective: name(),
                base: base.to_owned(),
                head: value(invocation, "head").map(str::to_owned),
                candidates: values(invocation, "candidate"),
                limit: value(invocation, "limit").and_then(|l| l.parse().ok()),
                no_hosted: switch(invocation, "no-hosted"),
            };
            return crate::review::run(&root, &request, json);
        }
        "project context" => {
            let request = crate::project::Request {
                objective: name(),
                repo: value(invocation, "repo").map(str::to_owned),
                previous: value(invocation, "previous").map(Into::into),
                limit: value(invocation, "limit").and_then(|l| l.parse().ok()),
                no_hosted: switch(invocation, "no-hosted"),
            };
            return crate::project::run(&root, &request, crate::project::Caller::Tool, json);
        }
        "spec mcps list" => return commands::list(&root, json),
        "spec hooks show" => return hooks::show(&root, Folder::Hooks, &name(), json),
        "spec triggers show" => return hooks::show(&root, Folder::Triggers, &name(), json),
        "spec triggers status" => return hooks::triggers_status(&root, json),
        _ => {}
    }
    let Some(homes) = Homes::from_env() else {
        return failed("no home folder: the server runs without HOME".into());
    };
    match verb {
        "spec doctor" => doctor::diagnose(&root, &homes, json, switch(invocation, "gate-errors")),
        "spec mcps status" => {
            let args = TargetArgs {
                provider: invocation
                    .operands
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "all".into()),
                scope: value(invocation, "scope").unwrap_or("project").to_owned(),
                json,
            };
            commands::status_command(&root, &homes, &args)
        }
        "spec hooks list" => hooks::list_hooks(&root, &homes, json),
        "spec hooks status" => hooks::hooks_status(&root, &homes, json),
        "spec triggers list" => hooks::list_triggers(&root, &homes, json),
        other => failed(format!("`{other}` is not a host verb")),
    }
}

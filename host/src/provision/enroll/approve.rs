//! `spec mcps trust`: a person reviews each exact launch at the terminal
//! and approves it, or `--revoke` takes this workspace's approvals back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{Value, json};

use super::args::TrustArgs;
use super::commands::selected;
use super::consent::{Approval, Ledger};
use super::definitions;
use super::native::Native;
use super::pyjson::{self, Style};
use super::status::takeovers;
use super::sync::launch_line;
use super::targets::Homes;
use crate::report::exit;
use crate::trust::{Terminal, cannot_ask};

pub fn trust(root: &Path, homes: &Homes, args: &TrustArgs) -> anyhow::Result<u8> {
    let reporter = crate::report::Reporter {
        json: args.target.json,
    };
    if args.revoke {
        let revoked = Ledger::update(homes, |ledger| ledger.revoke_workspace(root))?;
        if args.target.json {
            let status = if revoked > 0 { "removed" } else { "unchanged" };
            crate::report::print_envelope(
                "vaultspec.spec.mcps.trust.v1",
                status,
                json!({"revoked": revoked}),
            )?;
        } else {
            crate::report::write_stdout(&format!(
                "Revoked {revoked} MCP approval(s) of this workspace; the agents' files are unchanged.\n"
            ))?;
        }
        return Ok(exit::OK);
    }
    if cannot_ask(args.target.json) {
        return Ok(reporter.fail(
            exit::FINDINGS,
            "MCP approval requires review and confirmation at an interactive terminal \
             (not with --json, in CI or with VAULTSPEC_NON_INTERACTIVE set).",
        ));
    }
    let (targets, _) = match selected(root, homes, &args.target) {
        Ok(found) => found,
        Err(err) => return Ok(reporter.fail(exit::FINDINGS, &err)),
    };
    let (defs, warnings) = definitions::collect(root);
    let ledger = Ledger::read(homes);
    let mut pending: Vec<(Approval, Value)> = Vec::new();
    let mut notes = warnings;
    let names: BTreeSet<String> = defs.iter().map(|d| d.name.clone()).collect();
    for target in &targets {
        // What each entry would replace, where it is vaultspec-core's own.
        let replaced: BTreeMap<String, String> = match Native::load(target) {
            Ok(native) => takeovers(&native, &names)
                .iter()
                .map(|(name, entry)| (name.clone(), launch_line(entry)))
                .collect(),
            Err(_) => BTreeMap::new(),
        };
        for def in &defs {
            match definitions::normalise(def, target.provider) {
                Ok(launch) => {
                    let approval = Approval::of(root, def, &launch, target);
                    if ledger.approves(&approval) {
                        continue;
                    }
                    let mut shown = json!({
                        "name": def.name,
                        "source": def.file.display().to_string(),
                        "provider": target.provider.name(),
                        "scope": target.scope.name(),
                        "target": target.path.display().to_string(),
                        "definition_digest": def.digest,
                        "launch": approval.launch,
                    });
                    if let Some(old) = replaced.get(&def.name) {
                        shown["replaces"] = json!(format!("vaultspec-core's Python server: {old}"));
                    }
                    pending.push((approval, shown));
                }
                Err(warning) => notes.push(warning),
            }
        }
    }
    for note in &notes {
        eprintln!("warning: {}", pyjson::dumps(&json!(note), Style::PLAIN));
    }
    if pending.is_empty() {
        crate::report::write_stdout(
            "Every MCP enrollment of this workspace is already approved.\n",
        )?;
        return Ok(exit::OK);
    }
    let mut terminal = Terminal::open()?;
    let mut review = String::from("These MCP servers would be enrolled:\n\n");
    for (_, shown) in &pending {
        review.push_str(&serde_json::to_string_pretty(shown)?);
        review.push_str("\n\n");
    }
    review.push_str(
        "An agent that reads these files will run each command above as you, with your \
         permissions, whenever it starts. Approve only commands you recognise.\n",
    );
    terminal.say(&review)?;
    if !terminal.confirm("Approve these MCP enrollments?")? {
        return Ok(reporter.fail(exit::FINDINGS, "MCP definitions were not approved."));
    }
    let count = pending.len();
    Ledger::update(homes, |ledger| {
        for (approval, _) in &pending {
            ledger.grant(approval);
        }
    })?;
    crate::report::write_stdout(&format!(
        "Approved {count} MCP enrollment(s); run `vaultspec spec mcps sync` next.\n"
    ))?;
    Ok(exit::OK)
}

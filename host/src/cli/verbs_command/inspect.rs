//! `vaultspec verbs inspect FILE`: what a component would add, and why not.
//!
//! Runs every check the host would: the imports and the declaration (as at
//! startup), shadowing and duplicates against this workspace's catalog, and
//! the declaration against the component's real export types, which needs
//! the component compiled (no guest code runs).

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use serde_json::json;

use super::describe::{capability_words, usage, verb_json};
use super::{VerbsContext, print_envelope};
use crate::catalog::{Reason, conflicts, load_file, trust_command};
use crate::display::Escaped;
use crate::sandbox::{CompileCache, Sandbox};
use crate::trust::TrustStore;

/// Arguments of `verbs inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The component file (`target/wasm32-wasip2/release/NAME.wasm`)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print one JSON document instead of text
    #[arg(long)]
    pub json: bool,
}

/// Inspect a component; exit 0 when it would be admitted, 1 when refused.
pub fn run(args: &InspectArgs, context: &VerbsContext<'_>) -> anyhow::Result<u8> {
    if !args.file.is_file() {
        anyhow::bail!(
            "`{}` is not a file: give the path of a built `.wasm` component",
            Escaped::new(&args.file.display().to_string())
        );
    }
    let mut reasons: Vec<Reason> = Vec::new();
    let component = match load_file(&args.file) {
        Ok(component) => Some(component),
        Err(refusal) => {
            reasons.push(refusal.reason);
            None
        }
    };
    let mut trusted = false;
    if let Some(component) = &component {
        reasons.extend(conflicts(&context.loaded.catalog, component));
        let sandbox = Sandbox::new(CompileCache::from_env()).context("starting the sandbox")?;
        if let Err(refusal) = sandbox.prepare(component) {
            reasons.push(refusal.reason);
        }
        if let (Some(root), Some(home)) = (context.root, context.home) {
            trusted = TrustStore::read(home)
                .map(|store| store.is_trusted(root, &args.file, &component.digest))
                .unwrap_or(false);
        }
    }
    let name = args
        .file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let code = if reasons.is_empty() { 0 } else { 1 };

    if args.json {
        let data = json!({
            "name": name,
            "path": args.file.display().to_string(),
            "digest": component.as_ref().map(|c| c.digest.clone()),
            "capabilities": component.as_ref().map(|c| c.capabilities),
            "verbs": component.as_ref().map(|c| c.verbs.iter().map(verb_json).collect::<Vec<_>>()).unwrap_or_default(),
            "admitted": reasons.is_empty(),
            "reasons": reasons.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "trusted": trusted,
        });
        print_envelope(
            "inspect",
            if reasons.is_empty() {
                "unchanged"
            } else {
                "failed"
            },
            data,
        )?;
        return Ok(code);
    }
    let mut out = format!(
        "{}  ({})\n",
        Escaped::new(&name),
        Escaped::new(&args.file.display().to_string())
    );
    if let Some(component) = &component {
        out.push_str(&format!("  digest        {}\n", component.digest));
        out.push_str(&format!(
            "  capabilities  {}\n",
            capability_words(component.capabilities)
        ));
        out.push_str("  verbs it would add:\n");
        for verb in &component.verbs {
            out.push_str(&format!("    {}\n", Escaped::new(&usage(verb))));
            if !verb.summary().is_empty() {
                out.push_str(&format!("      {}\n", Escaped::new(&verb.summary())));
            }
            for intent in &verb.intents {
                out.push_str(&format!("      - {}\n", Escaped::new(intent)));
            }
        }
    }
    if reasons.is_empty() {
        out.push_str("  admitted: nothing refuses it\n");
        if !trusted {
            out.push_str(&format!(
                "  once in `.vaultspec/verbs/`, trust it with `{}`\n",
                Escaped::new(&trust_command(&name))
            ));
        }
    } else {
        out.push_str("  refused:\n");
        for reason in &reasons {
            out.push_str(&format!("    - {reason}\n"));
        }
    }
    print!("{out}");
    Ok(code)
}

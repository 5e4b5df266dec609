//! `vaultspec verbs list`: every component of the catalog and every refusal.

use clap::Args;
use serde_json::json;

use super::describe::{component_json, component_text, refusal_json};
use super::{VerbsContext, print_envelope};
use crate::catalog::Trust;
use crate::display::Escaped;

/// Arguments of `verbs list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only third-party components (and refusals), not the builtins
    #[arg(long)]
    pub third_party: bool,
    /// Print one JSON document instead of text
    #[arg(long)]
    pub json: bool,
}

/// List the components; exit 0.
pub fn run(args: &ListArgs, context: &VerbsContext<'_>) -> anyhow::Result<u8> {
    for warning in &context.loaded.warnings {
        eprintln!("warning: {}", Escaped::text(warning));
    }
    let catalog = &context.loaded.catalog;
    let shown: Vec<_> = catalog
        .components()
        .iter()
        .enumerate()
        .map(|(i, c)| (c, catalog.component_trust(i)))
        .filter(|(_, trust)| !args.third_party || *trust != Trust::Builtin)
        .collect();
    if args.json {
        let data = json!({
            "workspace": context.root.map(|r| r.display().to_string()),
            "components": shown.iter().map(|(c, t)| component_json(c, *t, context.root)).collect::<Vec<_>>(),
            "refused": context.loaded.refusals.iter().map(refusal_json).collect::<Vec<_>>(),
        });
        print_envelope("list", "unchanged", data)?;
        return Ok(0);
    }
    let mut out = String::new();
    for (component, trust) in &shown {
        out.push_str(&component_text(component, *trust, context.root));
        out.push('\n');
    }
    if !context.loaded.refusals.is_empty() {
        out.push_str("refused:\n");
        for refusal in &context.loaded.refusals {
            out.push_str(&format!(
                "  {}: {}\n",
                Escaped::new(&refusal.component),
                refusal.reason
            ));
        }
    }
    if shown.is_empty() && context.loaded.refusals.is_empty() {
        out.push_str("no third-party verb components (put them in `.vaultspec/verbs/` or `~/.vaultspec/verbs/`)\n");
    }
    print!("{out}");
    Ok(0)
}

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
    #[arg(long, conflicts_with = "builtins")]
    pub third_party: bool,
    /// Show every builtin component's verbs in full too (by default the
    /// builtins get a line each, after the third-party components)
    #[arg(long)]
    pub builtins: bool,
    /// Print one JSON document instead of text
    #[arg(long)]
    pub json: bool,
}

/// List the components; exit 0.
pub fn run(args: &ListArgs, context: &VerbsContext<'_>) -> anyhow::Result<u8> {
    for warning in &context.loaded.warnings {
        eprintln!(
            "{} {}",
            crate::display::warning_label(),
            Escaped::text(warning)
        );
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
    let (builtins, others): (Vec<_>, Vec<_>) = shown
        .iter()
        .partition(|(_, trust)| *trust == Trust::Builtin);
    let mut out = String::new();
    if !args.third_party {
        let verbs: usize = builtins.iter().map(|(c, _)| c.verbs.len()).sum();
        let untrusted = others
            .iter()
            .filter(|(_, trust)| *trust == Trust::Untrusted)
            .count();
        out.push_str(&format!(
            "{} builtin components ({verbs} verbs), {} third-party{}\n\n",
            builtins.len(),
            others.len(),
            match untrusted {
                0 => String::new(),
                n => format!(" ({n} not trusted yet)"),
            }
        ));
    }
    // Third-party components first, in full: they are what a person
    // installed and may have to trust.
    for (component, trust) in &others {
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
        out.push('\n');
    }
    if others.is_empty() && context.loaded.refusals.is_empty() {
        out.push_str(
            "No third-party verb components: put them in `.vaultspec/verbs/` or \
             `~/.vaultspec/verbs/`, or start one with `vaultspec verbs new NAME`.\n\n",
        );
    }
    if args.builtins {
        for (component, trust) in &builtins {
            out.push_str(&component_text(component, *trust, context.root));
            out.push('\n');
        }
    } else if !builtins.is_empty() {
        out.push_str("Builtin components (in full: `vaultspec verbs list --builtins`):\n");
        let width = builtins
            .iter()
            .map(|(c, _)| c.name.len())
            .max()
            .unwrap_or(0);
        for (component, _) in &builtins {
            let names: Vec<String> = component.verbs.iter().map(|v| v.path_string()).collect();
            out.push_str(&format!(
                "  {:<width$}  {:>3} verbs  {}\n",
                component.name,
                names.len(),
                clip(&names.join(", "), 60)
            ));
        }
    }
    print!("{out}");
    Ok(0)
}

/// `text` cut to `max` characters, with `…` where it was cut.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

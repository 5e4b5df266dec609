//! For `spec doctor`: how far each agent's framework files have drifted
//! from the sources, counted without changing anything.

use std::path::Path;

use vaultspec_vault::framework::run::chosen;
use vaultspec_vault::framework::sync::{self, Action, Overwrite};
use vaultspec_vault::framework::{Kind, Sources, render};

use super::render_run;

/// One agent's framework files against the sources.
#[derive(Debug, Clone)]
pub struct Drift {
    /// The agent.
    pub provider: String,
    /// How many of its files are missing, differ and are stale.
    pub counts: [usize; 3],
    /// Each rule file by name, in the reference's words: `clean`,
    /// `missing`, `diverged` or `stale`.
    pub rules: std::collections::BTreeMap<String, &'static str>,
}

/// The rule file the system prompt is rendered into.
const SYSTEM_RULE: &str = "vaultspec-system.builtin.md";

/// Per installed agent, its framework files against the sources, and the
/// sources that cannot be used.
pub fn drift(root: &Path) -> anyhow::Result<(Vec<Drift>, Vec<String>)> {
    let storage = render_run::storage(root)?;
    let providers = chosen(&storage, "all", &[]).unwrap_or_default();
    let sources = Sources::read(&storage);
    let problems = sources.problems.iter().map(|p| p.message.clone()).collect();
    let mut by_provider = Vec::new();
    for provider in providers {
        let rendered = render::render(&sources, &[provider], &Kind::ALL);
        let rules_dir = format!("{}/", provider.rules_dir());
        let mut counts = [0usize; 3];
        let mut rules = std::collections::BTreeMap::new();
        for change in sync::plan(&storage, &rendered, Overwrite::default()) {
            let word = match change.action {
                Action::Create => {
                    counts[0] += 1;
                    "missing"
                }
                Action::Update | Action::Keep(_) => {
                    counts[1] += 1;
                    "diverged"
                }
                Action::Remove => {
                    counts[2] += 1;
                    "stale"
                }
                Action::Same => "clean",
            };
            if let Some(name) = change.path.strip_prefix(&rules_dir)
                && !name.contains('/')
                && name.ends_with(".md")
            {
                rules.insert(name.to_owned(), word);
            }
        }
        // As the reference reads them: its system prompt rule is made, not
        // a source; any other rule file without a source is stale, whoever
        // wrote it.
        rules.remove(SYSTEM_RULE);
        let listed = vaultspec_vault::Storage::list(&storage, provider.rules_dir());
        for entry in listed.unwrap_or_default() {
            if let Some(name) = entry.path.strip_prefix(&rules_dir)
                && !name.contains('/')
                && name.ends_with(".md")
                && name != SYSTEM_RULE
            {
                rules.entry(name.to_owned()).or_insert("stale");
            }
        }
        by_provider.push(Drift {
            provider: provider.name().to_owned(),
            counts,
            rules,
        });
    }
    Ok((by_provider, problems))
}

//! For `spec doctor`: how far each agent's framework files have drifted
//! from the sources, counted without changing anything.

use std::path::Path;

use vaultspec_vault::framework::run::chosen;
use vaultspec_vault::framework::sync::{self, Action, Overwrite};
use vaultspec_vault::framework::{Kind, Sources, render};

use super::render_run;

/// One agent's framework files out of line: its name, and how many are
/// missing, differ and are stale.
pub type Drift = (String, [usize; 3]);

/// Per installed agent, how many of its framework files are missing,
/// drifted or stale (agents whose files are all in line are left out), and
/// the sources that cannot be used.
pub fn drift(root: &Path) -> anyhow::Result<(Vec<Drift>, Vec<String>)> {
    let storage = render_run::storage(root)?;
    let providers = chosen(&storage, "all", &[]).unwrap_or_default();
    let sources = Sources::read(&storage);
    let problems = sources.problems.iter().map(|p| p.message.clone()).collect();
    let mut by_provider = Vec::new();
    for provider in providers {
        let rendered = render::render(&sources, &[provider], &Kind::ALL);
        let mut counts = [0usize; 3];
        for change in sync::plan(&storage, &rendered, Overwrite::default()) {
            match change.action {
                Action::Create => counts[0] += 1,
                Action::Update | Action::Keep(_) => counts[1] += 1,
                Action::Remove => counts[2] += 1,
                Action::Same => {}
            }
        }
        if counts.iter().any(|c| *c > 0) {
            by_provider.push((provider.name().to_owned(), counts));
        }
    }
    Ok((by_provider, problems))
}

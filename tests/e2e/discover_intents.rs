//! `discover` finds the intended verb for intents phrased the way people and
//! agents ask, typos included.

use vaultspec_host::builtins;
use vaultspec_host::gateway::discover::rank;

/// (intent, the verb it means).
const INTENTS: [(&str, &str); 32] = [
    ("rename a feature tag", "vault feature rename"),
    ("which documents link nowhere", "vault check orphans"),
    ("list all documents", "vault list"),
    ("show vault statistics", "vault stats"),
    ("create a new adr document", "vault add"),
    ("add a step to a plan", "vault plan step add"),
    ("mark a plan step done", "vault plan step check"),
    ("check off step", "vault plan step check"),
    ("reopen a step", "vault plan step uncheck"),
    ("move a step before another", "vault plan step move"),
    ("remove a step from the plan", "vault plan step remove"),
    ("add a phase to the plan", "vault plan phase add"),
    ("renumber a phase", "vault plan phase renumber"),
    ("add a wave", "vault plan wave add"),
    ("promote a plan to a higher tier", "vault plan tier promote"),
    ("demote plan tier", "vault plan tier demote"),
    ("plan progress and completion", "vault plan status"),
    ("record changes in the execution ledger", "vault exec log"),
    ("run every vault health check", "vault check all"),
    ("find dangling links", "vault check dangling"),
    ("find orphan documents", "vault check orphans"),
    ("archive a feature", "vault feature archive"),
    ("restore archived documents", "vault archive restore"),
    ("link two documents", "vault link add"),
    ("remove a related link", "vault link remove"),
    ("supersede an old adr", "vault adr supersede"),
    ("replace the body of a document", "vault set-body"),
    ("change frontmatter date", "vault set-frontmatter"),
    ("rename a document file", "vault rename"),
    ("list feature tags", "vault feature list"),
    ("renmae feature", "vault feature rename"),
    ("serach the vault for a passage", "vault search"),
];

#[test]
fn discover_finds_the_intended_verb_for_each_intent() -> anyhow::Result<()> {
    let catalog = builtins::catalog()?;
    let mut misses = Vec::new();
    let mut first = 0;
    for (intent, verb) in INTENTS {
        if catalog.get(verb).is_none() {
            misses.push(format!("`{verb}` is not in the catalog"));
            continue;
        }
        let ranked: Vec<String> = rank(&catalog, intent, 3)
            .into_iter()
            .map(|(_, e)| e.spec.path_string())
            .collect();
        match ranked.iter().position(|v| v == verb) {
            Some(0) => first += 1,
            Some(_) => {}
            None => misses.push(format!("{intent:?} → {ranked:?}, wanted `{verb}`")),
        }
    }
    eprintln!("{first} of {} intents found at rank 1", INTENTS.len());
    anyhow::ensure!(misses.is_empty(), "discover missed:\n{}", misses.join("\n"));
    Ok(())
}

//! The vault's history as a verb reads it: the host reads the workspace's
//! repository (a verb never reaches `.git`) and the verb dates documents
//! from it the way `vault check coherence` does.
//!
//! Calling [`read`] makes the component import
//! `vaultspec:verb/vault-history`, a read-only interface every verb may use.

use vaultspec_vault::Storage;
use vaultspec_vault::coherence::{self, Changed, History, Stale, When};
use vaultspec_vault::graph::Graph;

use crate::Workspace;
use crate::bindings::vault_history as host;

/// The vault's files at `HEAD` and the commits that last changed them, or
/// why there is no history (not a repository, a `.git` that links out, …).
pub fn read() -> Result<History, String> {
    let read = host::read()?;
    let mut history = History {
        complete: read.complete,
        ..History::default()
    };
    for file in read.files {
        if let Some(change) = file.last_change {
            history.changed.insert(
                file.path.clone(),
                Changed {
                    time: change.time,
                    commit: change.commit,
                },
            );
        }
        history.at_head.insert(file.path, file.blob);
    }
    Ok(history)
}

/// When the workspace file at `path` was last modified, in seconds since
/// the epoch.
pub fn modified(path: &str) -> Option<i64> {
    host::modified(&[path.to_owned()]).pop().flatten()
}

/// The stale `related:` links of `graph` (of `feature`'s documents alone,
/// when given), dated from the repository's history, or from `modified:`
/// where there is none; with `git` or `dates` for which it was.
pub fn stale_links(
    workspace: &Workspace,
    graph: &Graph,
    feature: Option<&str>,
) -> (Vec<Stale>, &'static str) {
    let history = read().ok();
    let found = coherence::stale(graph, feature, &|doc| match &history {
        Some(history) => history.when(
            doc,
            || {
                let bytes = workspace.read(&doc.path).ok()?;
                Some(vaultspec_vault::hash::blob_oid(&bytes))
            },
            || modified(&doc.path),
        ),
        None => When::of_dates(doc),
    });
    (found, if history.is_some() { "git" } else { "dates" })
}

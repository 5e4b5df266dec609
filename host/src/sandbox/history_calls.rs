//! The host side of `vaultspec:verb/vault-history`: the vault's history
//! read from the workspace's repository for a verb that may not reach
//! `.git` itself.
//!
//! The history is [`crate::git_history`]'s, kept while `HEAD` stays put.
//! The call's [`super::Journal`] notes the state `HEAD` was in, so an
//! answer kept from the call holds only while it still is.

use vaultspec::verb::vault_history::{self, Change, Committed, History};

use super::state::CallState;
use super::workspace_calls::vaultspec;

impl vault_history::Host for CallState {
    fn read(&mut self) -> Result<History, String> {
        // The walk is a host wait of the call: it ends by the call's deadline.
        let budget = self
            .deadline
            .map_or(crate::git_history::TIME_BUDGET, |deadline| {
                deadline.saturating_duration_since(std::time::Instant::now())
            });
        let (state, history) = crate::git_history::read_vault_cached(&self.root, budget);
        self.journal.note_history(state);
        let history = history.as_ref().as_ref().map_err(Clone::clone)?;
        let mut files: Vec<Committed> = history
            .at_head
            .iter()
            .map(|(path, blob)| Committed {
                path: path.clone(),
                blob: blob.clone(),
                last_change: history.changed.get(path).map(|c| Change {
                    commit: c.commit.clone(),
                    time: c.time,
                }),
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(History {
            files,
            complete: history.complete,
        })
    }

    fn modified(&mut self, paths: Vec<String>) -> wasmtime::Result<Vec<Option<i64>>> {
        self.charge_paths("modified", &paths)?;
        self.note_files(&paths);
        Ok(paths
            .iter()
            .map(|path| self.storage.modified_time(path).ok())
            .collect())
    }
}

//! The host side of `vaultspec:verb/kept-results`: a call recalls and keeps
//! through its [`KeptResults`](super::KeptResults), or, without one (over
//! MCP, for a third-party verb, under `--no-cache`), recalls nothing and
//! keeps nothing.

use super::state::CallState;
use super::workspace_calls::vaultspec::verb::kept_results;

impl kept_results::Host for CallState {
    fn recall(
        &mut self,
        kind: String,
        paths: Vec<String>,
    ) -> wasmtime::Result<Vec<Option<Vec<u8>>>> {
        // The paths are held only while they are looked up, and nothing is
        // kept of them after: their bytes are charged, not an error's.
        let bytes = paths.iter().map(|p| p.len() as u64).sum();
        self.charge("recall", bytes, || format!("{} paths", paths.len()))?;
        Ok(match &self.kept {
            Some(kept) => kept
                .lock()
                .expect("kept results lock poisoned")
                .recall(&kind, &paths),
            None => vec![None; paths.len()],
        })
    }

    fn keep(&mut self, kind: String, path: String, value: Vec<u8>) -> wasmtime::Result<()> {
        // What the host may hold of it counts like the paths handed in.
        let size = path.len() + kind.len() + value.len();
        self.charge("keep", size as u64, || "the results kept".to_owned())?;
        if let Some(kept) = &self.kept {
            kept.lock()
                .expect("kept results lock poisoned")
                .keep(kind, &path, value);
        }
        Ok(())
    }
}

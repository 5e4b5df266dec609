//! One framework sync in the host, for `install` and `sync`: the storage it
//! writes through and the links it refuses to write beneath.

use std::path::Path;

use anyhow::Context;
use vaultspec_vault::framework::run::{self, SyncReport};
use vaultspec_vault::framework::sync::Overwrite;
use vaultspec_vault::framework::{Kind, Provider};
use vaultspec_vault::{CapStorage, WriteScope};

/// The storage a framework sync writes through: no link followed, each
/// file replaced atomically, nothing outside the agents' folders, their
/// root files and the sources.
pub fn storage(root: &Path) -> anyhow::Result<CapStorage> {
    Ok(CapStorage::open(root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(WriteScope::Framework))
}

/// Sync `kinds` for `providers` in the workspace at `root` (see
/// [`run::run`]); a top folder or root file that is a symbolic link is
/// reported by name and nothing beneath it is touched.
pub fn run(
    root: &Path,
    storage: &CapStorage,
    providers: &[Provider],
    kinds: &[Kind],
    overwrite: Overwrite,
    dry_run: bool,
) -> SyncReport {
    let linked =
        |top: &str| std::fs::symlink_metadata(root.join(top)).is_ok_and(|m| m.is_symlink());
    run::run(storage, providers, kinds, overwrite, dry_run, &linked)
}

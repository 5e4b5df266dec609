//! The two migrations about who owns the MCP entries in the agents' files.
//!
//! - `launch_convergence` (0.1.48): entries recorded as vaultspec's in the
//!   ownership records under `~/.vaultspec/` are refreshed to today's
//!   launch, which is what `vaultspec sync`'s MCP pass does: each entry
//!   still only after its approval, and one a person edited left alone.
//! - `mcp_ownership` (0.3.2): releases before it kept those records in the
//!   repository, in `.vaultspec/mcp-ownership.json`, where a clone could
//!   claim entries on a person's machine. The file goes (a copy into
//!   `.vault/.trash/` first); the records in the home folder are the only
//!   ones read.

use std::path::Path;

use vaultspec_vault::Storage;
use vaultspec_vault::date::Date;
use vaultspec_vault::trash::Snapshot;

use super::Done;
use crate::provision::enroll::ownership;
use crate::provision::enroll::sync::Outcome;
use crate::provision::enroll::targets::{Homes, Scope};

const SIDECAR: &str = ".vaultspec/mcp-ownership.json";

pub fn converge_launches(root: &Path, dry_run: bool) -> Result<Done, String> {
    let Some(homes) = Homes::from_env() else {
        return Ok(Done::said(
            "no home folder, so no ownership records; nothing to refresh",
        ));
    };
    let root = root
        .canonicalize()
        .map_err(|e| format!("resolving `{}`: {e}", root.display()))?;
    if !ownership::place(&homes, &root, Scope::Project)
        .path()
        .is_file()
    {
        return Ok(Done::said(
            "no MCP entries recorded as vaultspec's for this workspace; nothing to refresh",
        ));
    }
    let report =
        crate::provision::enroll::sync_installed(&root, dry_run).map_err(|e| format!("{e:#}"))?;
    let count = |outcome: Outcome| report.items.iter().filter(|i| i.outcome == outcome).count();
    let (refreshed, skipped) = (
        count(Outcome::Updated) + count(Outcome::Created),
        count(Outcome::Skipped),
    );
    let mut summary = match refreshed {
        0 => "vaultspec's MCP launches are already current".to_owned(),
        1 => "refreshed 1 MCP launch of vaultspec's".to_owned(),
        n => format!("refreshed {n} MCP launches of vaultspec's"),
    };
    if skipped > 0 {
        summary.push_str(&format!(
            "; {skipped} left alone (edited by a person, or not approved: `vaultspec spec mcps \
             status` says which)"
        ));
    }
    Ok(Done::said(summary))
}

pub fn retire_sidecar(storage: &dyn Storage) -> Result<Done, String> {
    if !storage.exists(SIDECAR).map_err(|e| e.to_string())? {
        return Ok(Done::said(
            "no .vaultspec/mcp-ownership.json; nothing to retire",
        ));
    }
    // Read before it goes: a file that cannot be read (a link out, a
    // FIFO, too large) is refused here and stays.
    let (day, seconds) = Date::now_utc();
    let mut snapshot = Snapshot::new("mcp_ownership", day, seconds);
    snapshot
        .capture(storage, &[SIDECAR.to_owned()])
        .map_err(|e| format!("keeping a copy of {SIDECAR}: {e}"))?;
    storage.remove(SIDECAR).map_err(|e| e.to_string())?;
    let mut changes = vec![SIDECAR.to_owned()];
    changes.extend(snapshot.dir().map(|d| format!("{d}/")));
    Ok(Done {
        summary: format!(
            "removed .vaultspec/mcp-ownership.json (a copy is in {}/); a repository no longer \
             says which MCP entries are vaultspec's: `vaultspec spec mcps sync --force` adopts \
             existing entries once their definitions are approved",
            snapshot.dir().unwrap_or(".vault/.trash")
        ),
        changes,
    })
}

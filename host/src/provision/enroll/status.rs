//! How each agent's file stands against the definitions, read only: what
//! is missing, what drifted, what vaultspec owns and what it does not.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use std::path::Path;

use vaultspec_vault::framework::legacy_server::is_reference_launch;

use super::consent::{Approval, Ledger};
use super::definitions::{self, Definition};
use super::native::Native;
use super::ownership::Ownership;
use super::sync::managed_names;
use super::targets::Target;

/// The assessment of one target.
#[derive(Debug, Clone)]
pub struct TargetStatus {
    pub target: Target,
    pub status: &'static str,
    pub exists: bool,
    pub configured: BTreeSet<String>,
    pub managed: BTreeSet<String>,
    pub missing: BTreeSet<String>,
    pub drifted: BTreeSet<String>,
    pub stale_managed: BTreeSet<String>,
    pub external: BTreeSet<String>,
    /// Entries that still launch `vaultspec-core`'s Python server, ours to
    /// take over once approved (not in the reference's report, and not
    /// counted as external).
    pub reference: BTreeSet<String>,
    /// Definitions whose launch here no person has approved: sync skips
    /// them. (Not in the reference's report.)
    pub unapproved: BTreeSet<String>,
    pub warnings: Vec<String>,
}

impl TargetStatus {
    pub fn json(&self) -> Value {
        json!({
            "status": self.status,
            "scope": self.target.scope.name(),
            "config_path": self.target.path.display().to_string(),
            "config_exists": self.exists,
            "configured": self.configured,
            "managed": self.managed,
            "missing": self.missing,
            "drifted": self.drifted,
            "stale_managed": self.stale_managed,
            "external": self.external,
            "reference": self.reference,
            "unapproved": self.unapproved,
            "warnings": self.warnings,
        })
    }
}

/// What `spec mcps status` reads besides the target: the workspace, its
/// definitions, and the user's records.
pub struct StatusInputs<'a> {
    pub root: &'a Path,
    pub defs: &'a [Definition],
    pub ownership: &'a Ownership,
    pub ledger: &'a Ledger,
}

/// Assess `target`.
pub fn assess(target: &Target, cx: &StatusInputs<'_>) -> TargetStatus {
    let defs = cx.defs;
    let names: BTreeSet<String> = defs.iter().map(|d| d.name.clone()).collect();
    let mut status = TargetStatus {
        target: target.clone(),
        status: "ok",
        exists: target.path.is_file(),
        configured: BTreeSet::new(),
        managed: BTreeSet::new(),
        missing: BTreeSet::new(),
        drifted: BTreeSet::new(),
        stale_managed: BTreeSet::new(),
        external: BTreeSet::new(),
        reference: BTreeSet::new(),
        unapproved: BTreeSet::new(),
        warnings: Vec::new(),
    };
    let native = match Native::load(target) {
        Ok(native) => native,
        Err(err) => {
            status.status = "invalid_config";
            status.missing = names;
            status.warnings.push(err);
            return status;
        }
    };
    let servers = native.servers();
    status.configured = servers.keys().cloned().collect();
    status.managed = managed_names(target, &native, &cx.ownership.managed(target));
    status.missing = names.difference(&status.configured).cloned().collect();
    for def in defs {
        match definitions::normalise(def, target.provider) {
            Ok(launch) => {
                if !cx
                    .ledger
                    .approves(&Approval::of(cx.root, def, &launch, target))
                {
                    status.unapproved.insert(def.name.clone());
                }
                if status.managed.contains(&def.name)
                    && servers.get(&def.name) != Some(&launch.entry())
                {
                    status.drifted.insert(def.name.clone());
                }
            }
            Err(warning) => status.warnings.push(warning),
        }
    }
    status.stale_managed = status.managed.difference(&names).cloned().collect();
    status.reference = takeovers(&native, &names)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    status
        .drifted
        .retain(|name| !status.reference.contains(name));
    status.external = status
        .configured
        .difference(&status.managed)
        .filter(|name| !status.reference.contains(*name))
        .cloned()
        .collect();
    status.status = if !status.exists {
        if names.is_empty() {
            "no_definitions"
        } else {
            "missing_config"
        }
    } else if !status.missing.is_empty()
        || !status.drifted.is_empty()
        || !status.stale_managed.is_empty()
        || !status.reference.is_empty()
    {
        "partial"
    } else {
        "ok"
    };
    status
}

/// The entries of `native` that vaultspec may take over from the
/// reference, by name: one of the workspace's definitions (`names`), where
/// vaultspec may write it, still launching `vaultspec-core`'s server.
pub fn takeovers(native: &Native, names: &BTreeSet<String>) -> Map<String, Value> {
    native
        .servers()
        .into_iter()
        .filter(|(name, entry)| {
            names.contains(name) && native.in_our_part(name) && is_reference_launch(entry)
        })
        .collect()
}

/// Assess each of `targets` against the workspace at `root`.
pub fn assess_all(
    root: &Path,
    homes: &super::targets::Homes,
    targets: &[Target],
    defs: &[Definition],
    ownership: &Ownership,
) -> Vec<TargetStatus> {
    let ledger = Ledger::read(homes);
    let cx = StatusInputs {
        root,
        defs,
        ownership,
        ledger: &ledger,
    };
    targets.iter().map(|t| assess(t, &cx)).collect()
}

/// The aggregate over `targets`: the data of `spec mcps status`.
pub fn aggregate(statuses: &[TargetStatus], defs: &[Definition], warnings: &[String]) -> Value {
    let union = |pick: fn(&TargetStatus) -> &BTreeSet<String>| -> BTreeSet<String> {
        statuses
            .iter()
            .flat_map(|s| pick(s).iter().cloned())
            .collect()
    };
    let status = if statuses.is_empty() {
        "no_providers"
    } else if statuses.iter().any(|s| s.status == "invalid_config") {
        "invalid_config"
    } else if statuses
        .iter()
        .all(|s| matches!(s.status, "ok" | "no_definitions"))
    {
        "ok"
    } else {
        "partial"
    };
    let mut providers = serde_json::Map::new();
    for s in statuses {
        providers.insert(s.target.provider.name().to_owned(), s.json());
    }
    let mut all_warnings: Vec<String> = warnings.to_vec();
    all_warnings.extend(statuses.iter().flat_map(|s| s.warnings.iter().cloned()));
    json!({
        "status": status,
        "config_path": (statuses.len() == 1).then(|| statuses[0].target.path.display().to_string()),
        "config_exists": !statuses.is_empty() && statuses.iter().all(|s| s.exists),
        "definitions": defs.iter().map(|d| d.name.clone()).collect::<Vec<_>>(),
        "configured": union(|s| &s.configured),
        "managed": union(|s| &s.managed),
        "missing": union(|s| &s.missing),
        "drifted": union(|s| &s.drifted),
        "stale_managed": union(|s| &s.stale_managed),
        "external": union(|s| &s.external),
        "reference": union(|s| &s.reference),
        "unapproved": union(|s| &s.unapproved),
        "providers": providers,
        "warnings": all_warnings,
    })
}

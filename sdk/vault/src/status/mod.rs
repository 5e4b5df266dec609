//! Orientation: where each feature and plan stands (the `status` rollup), or
//! one feature's or plan's steps with the records that ground them (a trace).
//!
//! Shared by the MCP `status` tool and the `status` verb, so both read the
//! vault the same way (`spec/mcp-tools.md` §6.5). Everything is computed from
//! one graph load plus the plans and ledgers; nothing is written.

pub mod companion;
mod features;
mod recency;
mod report;

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::{Value, json};

pub use features::{ActiveFeature, PlanInFlight};
pub use recency::recency;
pub use report::{ReportOptions, rollup_report};

use crate::Storage;
use crate::graph::{DocSelect, FeatureFilter, Graph, Stats};
use crate::ledger::{ExecIndex, exec_index, step_evidence};
use crate::plan::{
    PlanEntry, PlanStatus, StepQuery, Tier, list_plans, load_plan, parse_plan, plan_entry,
    plan_status, query_steps, read_plans,
};

/// How many active features a rollup shows by default.
pub const DEFAULT_FEATURE_LIMIT: usize = 10;

/// One feature in the MCP `status` rollup (`features[]`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeatureStatus {
    /// Feature name.
    pub name: String,
    /// Its documents, feature indexes not counted.
    pub doc_count: usize,
    /// Its latest document date (see [`recency`]), if any.
    pub latest_activity: Option<String>,
    /// Whether it has a plan.
    pub has_plan: bool,
    /// Lifecycle word from its plans' progress (see [`lifecycle_word`];
    /// the rollup knows no document types, as the reference's does not).
    pub status: String,
    /// The highest tier of its readable plans.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan_tier: Option<String>,
    /// Completion over all its plans' steps.
    pub plan_completion_percent: f64,
}

impl From<&ActiveFeature> for FeatureStatus {
    fn from(f: &ActiveFeature) -> Self {
        FeatureStatus {
            name: f.name.clone(),
            doc_count: f.doc_count,
            latest_activity: f.latest_activity.clone(),
            has_plan: f.has_plan,
            status: lifecycle_word(&[], f.has_plan, f.plan_step_count, f.plan_steps_completed)
                .to_owned(),
            plan_tier: f.plan_tier.clone(),
            plan_completion_percent: f.plan_completion_percent,
        }
    }
}

/// One plan with open steps, as the MCP `status` rollup gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanProgressLine {
    /// The plan's stem.
    pub stem: String,
    /// Its feature.
    pub feature: Option<String>,
    /// Its tier.
    pub tier: String,
    /// Steps still open.
    pub open_steps: usize,
    /// Steps checked.
    pub closed_steps: usize,
    /// All live steps.
    pub total_steps: usize,
    /// Closed over total, one decimal.
    pub completion_percent: f64,
    /// The first open step's display path.
    pub next_open_step: Option<String>,
}

impl From<&PlanInFlight> for PlanProgressLine {
    fn from(p: &PlanInFlight) -> Self {
        PlanProgressLine {
            stem: p.stem.clone(),
            feature: p.feature.clone(),
            tier: p.tier.clone(),
            open_steps: p.open_steps,
            closed_steps: p.closed_steps,
            total_steps: p.total_steps,
            completion_percent: p.completion_percent,
            next_open_step: p.next_open_step.clone(),
        }
    }
}

/// `hosted_search` of both `status` surfaces: vaultspec ranks locally and
/// has no hosted search to configure.
pub fn hosted_search() -> Value {
    json!({ "configured": false, "source": null })
}

/// Vault-wide counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Totals {
    /// Documents in the corpus.
    pub total_docs: usize,
    /// Distinct features.
    pub total_features: usize,
    /// Documents per type.
    pub counts_by_type: BTreeMap<String, usize>,
    /// Documents with no links in or out.
    pub orphaned_count: usize,
    /// Links whose target does not exist.
    pub dangling_link_count: usize,
}

/// The rollup of the MCP `status` tool: the vault at a glance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rollup {
    /// Active features, latest activity first (ties: name, descending).
    pub features: Vec<FeatureStatus>,
    /// How many features there are in all.
    pub features_total: usize,
    /// Plans with at least one open step, most recently changed first.
    pub plans_in_flight: Vec<PlanProgressLine>,
    /// Vault-wide counts.
    pub totals: Totals,
}

/// One step in a trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepTrace {
    /// Its canonical id (`S03`).
    pub canonical_id: String,
    /// Its display path (`P02.S03`).
    pub display_path: String,
    /// Whether it is checked.
    pub checked: bool,
    /// The execution record that grounds it, if any.
    pub record_stem: Option<String>,
    /// How many change rows the record has for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// The last verification result recorded for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verify: Option<String>,
}

/// One plan in a trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanTrace {
    /// The plan's stem.
    pub stem: String,
    /// Its feature.
    pub feature: Option<String>,
    /// Its tier, when it parsed.
    pub tier: Option<String>,
    /// All live steps.
    pub total_steps: usize,
    /// Steps checked.
    pub closed_steps: usize,
    /// Steps open.
    pub open_steps: usize,
    /// Closed over total, one decimal.
    pub completion_percent: f64,
    /// The first open step's display path.
    pub next_open_step: Option<String>,
    /// Every step.
    pub steps: Vec<StepTrace>,
    /// The feature's documents by type.
    pub grounding: BTreeMap<String, Vec<String>>,
    /// Execution records of the feature that name no step.
    pub unlinked_records: Vec<String>,
    /// Why the plan could not be read, if it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Waves (the CLI trace gives them; the MCP trace does not).
    #[serde(skip)]
    pub wave_count: usize,
    /// Waves with every step checked.
    #[serde(skip)]
    pub waves_completed: usize,
    /// Phases.
    #[serde(skip)]
    pub phase_count: usize,
    /// Phases with every step checked.
    #[serde(skip)]
    pub phases_completed: usize,
    /// Checked steps without ledger evidence.
    #[serde(skip)]
    pub exec_missing: usize,
}

impl PlanTrace {
    /// The plan as `status <target> --json` gives it: the MCP fields, the
    /// container counts and `exec_missing`, and `error`, `rows` and
    /// `verify` even when null.
    pub fn cli_payload(&self) -> Value {
        json!({
            "stem": self.stem,
            "feature": self.feature,
            "tier": self.tier,
            "total_steps": self.total_steps,
            "closed_steps": self.closed_steps,
            "open_steps": self.open_steps,
            "completion_percent": self.completion_percent,
            "wave_count": self.wave_count,
            "waves_completed": self.waves_completed,
            "phase_count": self.phase_count,
            "phases_completed": self.phases_completed,
            "next_open_step": self.next_open_step,
            "exec_missing": self.exec_missing,
            "steps": self.steps.iter().map(|s| json!({
                "canonical_id": s.canonical_id,
                "display_path": s.display_path,
                "checked": s.checked,
                "record_stem": s.record_stem,
                "rows": s.rows,
                "verify": s.verify,
            })).collect::<Vec<_>>(),
            "unlinked_records": self.unlinked_records,
            "grounding": self.grounding,
            "error": self.error,
        })
    }
}

/// The workspace path of every stem a trace names (its plans, their
/// records, unlinked records and grounding documents), for `--paths`;
/// stems with no document are left out.
pub fn trace_paths(graph: &Graph, trace: &Trace) -> BTreeMap<String, String> {
    let mut paths = BTreeMap::new();
    for plan in &trace.plans {
        let stems = std::iter::once(&plan.stem)
            .chain(plan.steps.iter().filter_map(|s| s.record_stem.as_ref()))
            .chain(&plan.unlinked_records)
            .chain(plan.grounding.values().flatten());
        for stem in stems {
            if let Some(doc) = graph.node_id(stem).and_then(|id| graph.doc(id)) {
                paths.insert(stem.clone(), doc.path.clone());
            }
        }
    }
    paths
}

/// A trace of one feature or plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trace {
    /// `plan` or `feature`.
    pub trace_kind: &'static str,
    /// The plans traced.
    pub plans: Vec<PlanTrace>,
}

/// Why a trace target was not found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "Could not resolve orientation target '{0}'. Run `vaultspec vault feature list` to enumerate available targets."
)]
pub struct UnknownTarget(pub String);

/// The lifecycle word of a feature, as the reference derives it: `In
/// Progress` when it has execution records; with a plan, `Completed` once
/// every step is checked (completion rounds to 100.0), `In Progress` once one
/// is, else `Planned`; without one, `Specified` with an ADR, `Researching`
/// with research, else `Unknown`. `types` are the document types the
/// feature has (`find` knows them; the `status` rollup passes none).
pub fn lifecycle_word(types: &[&str], has_plan: bool, steps: usize, done: usize) -> &'static str {
    if types.contains(&"exec") {
        return "In Progress";
    }
    if has_plan {
        return if steps > 0 && crate::plan::completion_percent(done, steps) >= 100.0 {
            "Completed"
        } else if done > 0 {
            "In Progress"
        } else {
            "Planned"
        };
    }
    if types.contains(&"adr") {
        "Specified"
    } else if types.contains(&"research") {
        "Researching"
    } else {
        "Unknown"
    }
}

/// Every plan of the vault with its status (ledger evidence included), or
/// `None` for a plan that cannot be read: what the rollup and the lifecycle
/// words are computed from.
///
/// Reading it means reading every plan and ledger; a caller that keeps the
/// vault loaded (the MCP server) keeps this beside it and brings it up to
/// date after an edit with [`PlanStatuses::updated`].
#[derive(Debug, Clone, Default)]
pub struct PlanStatuses {
    plans: Vec<(PlanEntry, Option<PlanStatus>)>,
    /// The ledgers' evidence the statuses were worked out with.
    index: ExecIndex,
}

/// Where the ledgers [`exec_index`] reads live.
const EXEC_PREFIX: &str = ".vault/exec/";

impl PlanStatuses {
    /// Read every plan (once) and the execution ledgers.
    pub fn read(storage: &dyn Storage) -> Self {
        let index = exec_index(storage).unwrap_or_default();
        let Ok(read) = read_plans(storage) else {
            return Self::default();
        };
        // Each plan parsed on the machine's threads.
        let statuses = crate::parallel::map(
            &read,
            crate::parallel::default_threads(),
            |(entry, bytes)| status_of(entry, bytes.as_deref(), &index),
        );
        let plans = read
            .into_iter()
            .zip(statuses)
            .map(|((entry, _), status)| (entry, status))
            .collect();
        Self { plans, index }
    }

    /// These statuses after the files `changed` (workspace paths) were
    /// edited in place, the same files still there: each changed plan is
    /// read again through `storage`, the rest kept (borrowed as they are
    /// when no plan changed). `None` when a ledger changed (every plan's
    /// evidence may have moved): read them all again then. Equal to
    /// [`PlanStatuses::read`] of the same files.
    pub fn updated<'a>(
        &self,
        storage: &dyn Storage,
        changed: impl IntoIterator<Item = &'a str>,
    ) -> Option<Cow<'_, Self>> {
        let mut plans: Vec<&str> = Vec::new();
        for path in changed {
            if path.starts_with(EXEC_PREFIX) {
                return None;
            }
            if self.plans.iter().any(|(entry, _)| entry.path == path) {
                plans.push(path);
            }
        }
        if plans.is_empty() {
            return Some(Cow::Borrowed(self));
        }
        let mut next = self.clone();
        for (entry, status) in &mut next.plans {
            if plans.contains(&entry.path.as_str()) {
                let bytes = storage.read(&entry.path).ok();
                *entry = plan_entry(&entry.path, bytes.as_deref());
                *status = status_of(entry, bytes.as_deref(), &self.index);
            }
        }
        Some(Cow::Owned(next))
    }

    /// Every plan, with its status when it could be read.
    pub fn entries(&self) -> &[(PlanEntry, Option<PlanStatus>)] {
        &self.plans
    }

    /// The readable plans and their statuses.
    fn readable(&self) -> impl Iterator<Item = (&PlanEntry, &PlanStatus)> {
        self.plans
            .iter()
            .filter_map(|(entry, status)| status.as_ref().map(|s| (entry, s)))
    }

    /// Steps and checked steps over the readable plans of each feature.
    pub fn progress_by_feature(&self) -> BTreeMap<String, (usize, usize)> {
        let mut by_feature: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for (entry, status) in self.readable() {
            if let Some(feature) = &entry.feature {
                let row = by_feature.entry(feature.clone()).or_default();
                row.0 += status.step_count;
                row.1 += status.steps_completed;
            }
        }
        by_feature
    }

    /// The rollup of the vault, with at most `limit` features (at least one).
    pub fn rollup(&self, graph: &Graph, limit: usize) -> Rollup {
        let all = features::active_features(graph, self);
        let in_flight = features::plans_in_flight(graph, self);
        Rollup {
            features: all
                .iter()
                .take(limit.max(1))
                .map(FeatureStatus::from)
                .collect(),
            features_total: all.len(),
            plans_in_flight: in_flight.iter().map(PlanProgressLine::from).collect(),
            totals: totals(graph.stats(DocSelect::All, None, None)),
        }
    }
}

/// The status of the plan `entry` read as `bytes`, with the ledgers'
/// evidence of `index`; `None` when it cannot be read or parsed.
fn status_of(entry: &PlanEntry, bytes: Option<&[u8]>, index: &ExecIndex) -> Option<PlanStatus> {
    let plan = parse_plan(std::str::from_utf8(bytes?).ok()?).ok()?;
    let covered = entry.feature.as_deref().map(|f| index.covered(f));
    Some(plan_status(&plan, covered.as_ref()))
}

fn tier_name(tier: Tier) -> String {
    format!("{tier:?}")
}

fn totals(stats: Stats) -> Totals {
    Totals {
        total_docs: stats.total_docs,
        total_features: stats.total_features,
        counts_by_type: stats.counts_by_type.into_iter().collect(),
        orphaned_count: stats.orphaned_count,
        dangling_link_count: stats.dangling_link_count,
    }
}

/// The rollup of the vault, with at most `limit` features.
pub fn rollup(storage: &dyn Storage, graph: &Graph, limit: usize) -> Rollup {
    PlanStatuses::read(storage).rollup(graph, limit)
}

/// Trace a feature tag or a plan stem (or path).
pub fn trace(storage: &dyn Storage, graph: &Graph, target: &str) -> Result<Trace, UnknownTarget> {
    let wanted = crate::doc::feature_arg(target);
    let wanted_stem = crate::doc::stem_of(wanted);
    let entries = list_plans(storage).unwrap_or_default();
    let index = exec_index(storage).unwrap_or_default();
    let (kind, chosen): (&str, Vec<PlanEntry>) =
        if let Some(plan) = entries.iter().find(|e| e.stem == wanted_stem) {
            ("plan", vec![plan.clone()])
        } else if graph
            .feature_list(&FeatureFilter::default())
            .iter()
            .any(|f| f.name == wanted)
        {
            (
                "feature",
                entries
                    .iter()
                    .filter(|e| e.feature.as_deref() == Some(wanted))
                    .cloned()
                    .collect(),
            )
        } else {
            return Err(UnknownTarget(target.to_owned()));
        };
    let plans = chosen
        .iter()
        .map(|entry| plan_trace(storage, graph, &index, entry))
        .collect();
    Ok(Trace {
        trace_kind: kind,
        plans,
    })
}

/// The types whose documents ground a plan. Exec records are the steps'
/// concern and feature indexes ground nothing, so neither is listed.
const GROUNDING_TYPES: [&str; 5] = ["adr", "audit", "plan", "reference", "research"];

/// A plan's grounding documents by type: its neighbours in the graph, linked
/// from it or linking to it, whose type is one of [`GROUNDING_TYPES`] (the
/// reference's trace, decision D5 of its orientation design).
fn grounding(graph: &Graph, plan: &PlanEntry) -> BTreeMap<String, Vec<String>> {
    let mut grouped: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let id = graph
        .node_id(&plan.stem)
        .or_else(|| graph.node_id(&format!("plan/{}", plan.stem)));
    let Some(id) = id else {
        return BTreeMap::new();
    };
    for other in graph
        .out_links(id)
        .chain(graph.in_links(id).iter().copied())
    {
        let doc_type = graph
            .doc(other)
            .and_then(|d| d.doc_type)
            .map(|t| t.as_str());
        match doc_type {
            Some(t) if other != id && GROUNDING_TYPES.contains(&t) => {
                grouped
                    .entry(t.to_owned())
                    .or_default()
                    .insert(graph.node(other).key.clone());
            }
            _ => {}
        }
    }
    grouped
        .into_iter()
        .map(|(t, stems)| (t, stems.into_iter().collect()))
        .collect()
}

fn plan_trace(
    storage: &dyn Storage,
    graph: &Graph,
    index: &ExecIndex,
    entry: &PlanEntry,
) -> PlanTrace {
    let feature = entry.feature.as_deref();
    let unlinked = feature
        .and_then(|f| index.unlinked_by_feature.get(f).cloned())
        .unwrap_or_default();
    let mut trace = PlanTrace {
        stem: entry.stem.clone(),
        feature: entry.feature.clone(),
        tier: None,
        total_steps: 0,
        closed_steps: 0,
        open_steps: 0,
        completion_percent: 0.0,
        next_open_step: None,
        steps: Vec::new(),
        grounding: grounding(graph, entry),
        unlinked_records: unlinked,
        error: None,
        wave_count: 0,
        waves_completed: 0,
        phase_count: 0,
        phases_completed: 0,
        exec_missing: 0,
    };
    let doc = match load_plan(storage, &entry.path) {
        Ok(doc) => doc,
        Err(err) => {
            trace.error = Some(err.to_string());
            return trace;
        }
    };
    let covered: BTreeSet<String> = feature.map(|f| index.covered(f)).unwrap_or_default();
    let status = plan_status(&doc.plan, Some(&covered));
    let evidence: BTreeMap<String, crate::ledger::StepEvidence> = feature
        .and_then(|f| {
            let stem = index
                .by_step
                .iter()
                .find(|((feat, _), _)| feat == f)
                .map(|(_, stem)| stem.clone())?;
            let path = graph
                .docs()
                .iter()
                .find(|d| d.stem() == stem)
                .map(|d| d.path.clone())?;
            let bytes = storage.read(&path).ok()?;
            Some(step_evidence(&String::from_utf8_lossy(&bytes)))
        })
        .unwrap_or_default();
    trace.tier = Some(tier_name(status.tier));
    trace.total_steps = status.step_count;
    trace.closed_steps = status.steps_completed;
    trace.open_steps = status.step_count - status.steps_completed;
    trace.completion_percent = status.completion_percent;
    trace.next_open_step = status.next_open_step.clone();
    trace.wave_count = status.wave_count;
    trace.waves_completed = status.waves_completed;
    trace.phase_count = status.phase_count;
    trace.phases_completed = status.phases_completed;
    trace.exec_missing = status.exec_missing_ids.len();
    trace.steps = query_steps(&doc.plan, &StepQuery::default())
        .into_iter()
        .map(|view| {
            let record = feature.and_then(|f| {
                index
                    .by_step
                    .get(&(f.to_owned(), view.canonical_id.clone()))
                    .cloned()
            });
            let found = evidence.get(&view.canonical_id);
            StepTrace {
                record_stem: record,
                rows: found.map(|e| e.rows),
                verify: found.and_then(|e| e.verify.clone()),
                canonical_id: view.canonical_id,
                display_path: view.display_path,
                checked: view.checked,
            }
        })
        .collect();
    trace
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of `vaultspec-core` 0.3.9's `feature_lifecycle_status`.
    #[test]
    fn the_lifecycle_word_is_the_references() {
        assert_eq!(lifecycle_word(&[], false, 0, 0), "Unknown");
        assert_eq!(lifecycle_word(&[], true, 0, 0), "Planned");
        assert_eq!(lifecycle_word(&[], true, 3, 0), "Planned");
        assert_eq!(lifecycle_word(&[], true, 3, 1), "In Progress");
        assert_eq!(lifecycle_word(&[], true, 5, 5), "Completed");
        // 1999 of 2000 rounds to 100.0, which the reference calls complete.
        assert_eq!(lifecycle_word(&[], true, 2000, 1999), "Completed");
        assert_eq!(lifecycle_word(&["exec", "plan"], true, 3, 0), "In Progress");
        assert_eq!(
            lifecycle_word(&["adr", "research"], false, 0, 0),
            "Specified"
        );
        assert_eq!(lifecycle_word(&["research"], false, 0, 0), "Researching");
    }
}

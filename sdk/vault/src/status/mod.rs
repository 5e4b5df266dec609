//! Orientation: where each feature and plan stands (the `status` rollup), or
//! one feature's or plan's steps with the records that ground them (a trace).
//!
//! Shared by the MCP `status` tool and the `status` verb, so both read the
//! vault the same way (`spec/mcp-tools.md` §6.5). Everything is computed from
//! one graph load plus the plans and ledgers; nothing is written.

mod report;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

pub use report::{ReportOptions, rollup_report};

use crate::Storage;
use crate::graph::{DocSelect, FeatureFilter, Graph, Stats};
use crate::ledger::{ExecIndex, exec_index, step_evidence};
use crate::plan::{
    PlanEntry, PlanStatus, StepQuery, Tier, list_plans, load_plan, parse_plan, plan_status,
    query_steps, read_plans,
};

/// How many active features a rollup shows by default.
pub const DEFAULT_FEATURE_LIMIT: usize = 10;

/// One feature in the rollup.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeatureStatus {
    /// Feature name.
    pub name: String,
    /// Documents carrying it.
    pub doc_count: usize,
    /// Its latest document date, if any.
    pub latest_activity: Option<String>,
    /// Whether it has a plan.
    pub has_plan: bool,
    /// Lifecycle word, from its plans' progress (see [`lifecycle`]).
    pub status: String,
    /// Tier of its first plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan_tier: Option<String>,
    /// Completion over all its plans' steps.
    pub plan_completion_percent: f64,
}

/// One plan with open steps.
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

/// The rollup: the vault at a glance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rollup {
    /// Active features, latest activity first.
    pub features: Vec<FeatureStatus>,
    /// How many features there are in all.
    pub features_total: usize,
    /// Plans with at least one open step.
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

/// The lifecycle word of a feature from its plans: `Unknown` without a plan,
/// `Planned` before any step is checked, `In progress` while steps are open,
/// `Complete` when every step is checked.
pub fn lifecycle(statuses: &[&PlanStatus]) -> &'static str {
    let total: usize = statuses.iter().map(|s| s.step_count).sum();
    let done: usize = statuses.iter().map(|s| s.steps_completed).sum();
    lifecycle_of(statuses.len(), total, done)
}

/// [`lifecycle`] from counts: plans, their steps, and the steps checked.
pub fn lifecycle_of(plans: usize, steps: usize, done: usize) -> &'static str {
    match (plans, steps, done) {
        (0, _, _) => "Unknown",
        (_, 0, _) | (_, _, 0) => "Planned",
        (_, t, d) if d >= t => "Complete",
        _ => "In progress",
    }
}

/// Every plan of the vault with its status (ledger evidence included), or
/// `None` for a plan that cannot be read: what the rollup and the lifecycle
/// words are computed from.
///
/// Reading it means reading every plan and ledger; a caller that keeps the
/// vault loaded (the MCP server) keeps this beside it.
#[derive(Debug, Clone, Default)]
pub struct PlanStatuses(Vec<(PlanEntry, Option<PlanStatus>)>);

impl PlanStatuses {
    /// Read every plan (once) and the execution ledgers.
    pub fn read(storage: &dyn Storage) -> Self {
        let index = exec_index(storage).unwrap_or_default();
        let Ok(read) = read_plans(storage) else {
            return Self::default();
        };
        let plans = read
            .into_iter()
            .map(|(entry, bytes)| {
                let plan = bytes
                    .as_deref()
                    .and_then(|b| parse_plan(std::str::from_utf8(b).ok()?).ok());
                let status = plan.map(|plan| {
                    let covered = entry.feature.as_deref().map(|f| index.covered(f));
                    plan_status(&plan, covered.as_ref())
                });
                (entry, status)
            })
            .collect();
        Self(plans)
    }

    /// Every plan, with its status when it could be read.
    pub fn entries(&self) -> &[(PlanEntry, Option<PlanStatus>)] {
        &self.0
    }

    /// The readable plans and their statuses.
    fn readable(&self) -> impl Iterator<Item = (&PlanEntry, &PlanStatus)> {
        self.0
            .iter()
            .filter_map(|(entry, status)| status.as_ref().map(|s| (entry, s)))
    }

    fn by_feature(&self) -> BTreeMap<&str, Vec<&PlanStatus>> {
        let mut by_feature: BTreeMap<&str, Vec<&PlanStatus>> = BTreeMap::new();
        for (entry, status) in self.readable() {
            if let Some(feature) = &entry.feature {
                by_feature.entry(feature).or_default().push(status);
            }
        }
        by_feature
    }

    /// The lifecycle word of every feature that has a plan.
    pub fn lifecycle_words(&self) -> BTreeMap<String, String> {
        self.by_feature()
            .into_iter()
            .map(|(f, s)| (f.to_owned(), lifecycle(&s).to_owned()))
            .collect()
    }

    /// The rollup of the vault, with at most `limit` features.
    pub fn rollup(&self, graph: &Graph, limit: usize) -> Rollup {
        let by_feature = self.by_feature();
        let mut rows = graph.feature_list(&FeatureFilter::default());
        rows.sort_by(|a, b| {
            b.latest_activity
                .cmp(&a.latest_activity)
                .then_with(|| a.name.cmp(&b.name))
        });
        let features_total = rows.len();
        let features = rows
            .into_iter()
            .take(limit)
            .map(|row| {
                let statuses: &[&PlanStatus] = by_feature
                    .get(row.name.as_str())
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                let total: usize = statuses.iter().map(|s| s.step_count).sum();
                let done: usize = statuses.iter().map(|s| s.steps_completed).sum();
                FeatureStatus {
                    status: lifecycle(statuses).to_owned(),
                    plan_tier: statuses.first().map(|s| tier_name(s.tier)),
                    plan_completion_percent: crate::plan::completion_percent(done, total),
                    name: row.name,
                    doc_count: row.doc_count,
                    latest_activity: row.latest_activity,
                    has_plan: row.has_plan,
                }
            })
            .collect();
        let plans_in_flight = self
            .readable()
            .filter(|(_, s)| s.steps_completed < s.step_count)
            .map(|(entry, s)| PlanProgressLine {
                stem: entry.stem.clone(),
                feature: entry.feature.clone(),
                tier: tier_name(s.tier),
                open_steps: s.step_count - s.steps_completed,
                closed_steps: s.steps_completed,
                total_steps: s.step_count,
                completion_percent: s.completion_percent,
                next_open_step: s.next_open_step.clone(),
            })
            .collect();
        Rollup {
            features,
            features_total,
            plans_in_flight,
            totals: totals(graph.stats(DocSelect::All, None, None)),
        }
    }
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

/// The lifecycle word of every feature that has a plan.
pub fn lifecycle_words(storage: &dyn Storage) -> BTreeMap<String, String> {
    PlanStatuses::read(storage).lifecycle_words()
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

fn grounding(graph: &Graph, feature: Option<&str>) -> BTreeMap<String, Vec<String>> {
    let mut grounding: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some(feature) = feature {
        for row in graph.list_documents(DocSelect::All, Some(feature), None) {
            grounding.entry(row.doc_type).or_default().push(row.name);
        }
    }
    grounding
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
        grounding: grounding(graph, feature),
        unlinked_records: unlinked,
        error: None,
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
                .find(|d| d.stem == stem)
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

    #[test]
    fn the_lifecycle_word_follows_plan_progress() {
        assert_eq!(lifecycle_of(0, 0, 0), "Unknown");
        assert_eq!(lifecycle_of(1, 3, 0), "Planned");
        assert_eq!(lifecycle_of(1, 3, 1), "In progress");
        assert_eq!(lifecycle_of(2, 5, 5), "Complete");
    }
}

//! The rollup's rows as the reference computes them: every active feature
//! with its plans' combined progress, and the plans in flight and recently
//! completed, each ordered by recency.
//!
//! Rules (`vaultspec-core` 0.3.9, `vaultcore/orientation_rollup.py`):
//! feature indexes are not documents of their feature (`doc_count` leaves
//! them out); a feature's `latest_activity` is the newest [`recency`] of its
//! documents; features sort by that date, then by name, both descending. A
//! plan's progress sums every readable plan tagged with the feature, and its
//! tier is the highest of them. Plans without steps are in neither bucket;
//! both buckets sort by the plan's recency, then stem, descending, and at
//! most five completed plans are kept. A plan's `modified` is the recency
//! of the document its bare stem names, so a plan whose stem another
//! document shares (and whose key is qualified, `plan/<stem>`) has none.

use std::collections::BTreeMap;

use serde::Serialize;

use super::recency::recency;
use super::{PlanStatuses, tier_name};
use crate::date::Date;
use crate::graph::Graph;

/// How many recently completed plans the rollup keeps.
pub const RECENTLY_COMPLETED_CAP: usize = 5;

/// One active feature of the `status` rollup (`active_features[]`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActiveFeature {
    /// Feature name.
    pub name: String,
    /// Its documents, feature indexes not counted.
    pub doc_count: usize,
    /// The newest recency of its documents, `yyyy-mm-dd`.
    pub latest_activity: Option<String>,
    /// Whether one of its documents is a plan.
    pub has_plan: bool,
    /// The highest tier of its readable plans.
    pub plan_tier: Option<String>,
    /// Checked steps over its readable plans.
    pub plan_steps_completed: usize,
    /// Steps over its readable plans.
    pub plan_step_count: usize,
    /// Checked over all steps, one decimal.
    pub plan_completion_percent: f64,
    /// Plans tagged with it, readable or not.
    pub plan_count: usize,
    /// Those that do not parse.
    pub plans_unreadable: usize,
}

/// One plan of `plans_in_flight[]` or `recently_completed[]`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanInFlight {
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
    /// Waves.
    pub wave_count: usize,
    /// Waves with every step checked.
    pub waves_completed: usize,
    /// Phases.
    pub phase_count: usize,
    /// Phases with every step checked.
    pub phases_completed: usize,
    /// The first open step's display path.
    pub next_open_step: Option<String>,
    /// How many checked steps have no ledger evidence.
    pub exec_missing: usize,
    /// The plan's recency, `yyyy-mm-dd`.
    pub modified: Option<String>,
}

#[derive(Default)]
struct Tally {
    docs: usize,
    latest: Option<Date>,
    has_plan: bool,
}

#[derive(Default)]
struct PlanTotals {
    count: usize,
    unreadable: usize,
    done: usize,
    steps: usize,
    tier: Option<String>,
}

/// Every active feature, latest activity first.
pub fn active_features(graph: &Graph, plans: &PlanStatuses) -> Vec<ActiveFeature> {
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    for doc in graph.docs().iter().filter(|d| d.type_name() != "index") {
        let Some(feature) = doc.graph_feature() else {
            continue;
        };
        let tally = tallies.entry(feature).or_default();
        tally.docs += 1;
        tally.latest = tally.latest.max(recency(doc));
        tally.has_plan |= doc.type_name() == "plan";
    }
    let mut totals: BTreeMap<&str, PlanTotals> = BTreeMap::new();
    for (entry, status) in plans.entries() {
        let Some(feature) = entry.feature.as_deref() else {
            continue;
        };
        let t = totals.entry(feature).or_default();
        t.count += 1;
        let Some(status) = status else {
            t.unreadable += 1;
            continue;
        };
        t.done += status.steps_completed;
        t.steps += status.step_count;
        let tier = tier_name(status.tier);
        if t.tier.as_ref().is_none_or(|have| tier > *have) {
            t.tier = Some(tier);
        }
    }
    let mut rows: Vec<(Option<Date>, ActiveFeature)> = tallies
        .into_iter()
        .map(|(name, tally)| {
            let t = totals.remove(name).unwrap_or_default();
            let row = ActiveFeature {
                doc_count: tally.docs,
                latest_activity: tally.latest.map(|d| d.to_string()),
                has_plan: tally.has_plan,
                plan_tier: t.tier,
                plan_steps_completed: t.done,
                plan_step_count: t.steps,
                plan_completion_percent: crate::plan::completion_percent(t.done, t.steps),
                plan_count: t.count,
                plans_unreadable: t.unreadable,
                name: name.to_owned(),
            };
            (tally.latest, row)
        })
        .collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.name.cmp(&a.1.name)));
    rows.into_iter().map(|(_, row)| row).collect()
}

/// The plans in flight and the recently completed ones (at most
/// [`RECENTLY_COMPLETED_CAP`]).
pub fn plan_buckets(graph: &Graph, plans: &PlanStatuses) -> (Vec<PlanInFlight>, Vec<PlanInFlight>) {
    buckets(graph, plans, true)
}

/// The plans in flight alone, as [`plan_buckets`] gives them.
pub fn plans_in_flight(graph: &Graph, plans: &PlanStatuses) -> Vec<PlanInFlight> {
    buckets(graph, plans, false).0
}

/// [`plan_buckets`], leaving the completed plans out unless `completed_too`.
fn buckets(
    graph: &Graph,
    plans: &PlanStatuses,
    completed_too: bool,
) -> (Vec<PlanInFlight>, Vec<PlanInFlight>) {
    let mut in_flight = Vec::new();
    let mut completed = Vec::new();
    for (entry, status) in plans.readable() {
        let done = status.steps_completed >= status.step_count;
        if status.step_count == 0 || (done && !completed_too) {
            continue;
        }
        let when = graph
            .node_id(&entry.stem)
            .and_then(|id| graph.doc(id))
            .and_then(recency);
        let plan = PlanInFlight {
            stem: entry.stem.clone(),
            feature: entry.feature.clone(),
            tier: tier_name(status.tier),
            open_steps: status.step_count - status.steps_completed,
            closed_steps: status.steps_completed,
            total_steps: status.step_count,
            completion_percent: status.completion_percent,
            wave_count: status.wave_count,
            waves_completed: status.waves_completed,
            phase_count: status.phase_count,
            phases_completed: status.phases_completed,
            next_open_step: status.next_open_step.clone(),
            exec_missing: status.exec_missing_ids.len(),
            modified: when.map(|d| d.to_string()),
        };
        if plan.open_steps > 0 {
            in_flight.push((when, plan));
        } else {
            completed.push((when, plan));
        }
    }
    let order = |list: &mut Vec<(Option<Date>, PlanInFlight)>| {
        list.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.stem.cmp(&a.1.stem)));
        list.drain(..).map(|(_, p)| p).collect::<Vec<_>>()
    };
    let in_flight = order(&mut in_flight);
    let mut completed = order(&mut completed);
    completed.truncate(RECENTLY_COMPLETED_CAP);
    (in_flight, completed)
}

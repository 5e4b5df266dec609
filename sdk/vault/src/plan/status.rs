//! Plan status: counts, completion and the next open Step
//! (spec/plan-format.md §7), in the reference's JSON key order.

use std::collections::BTreeSet;

use serde::Serialize;

use super::frontmatter::Tier;
use super::model::Plan;

/// The status of one plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanStatus {
    /// Declared tier.
    pub tier: Tier,
    /// Whether `tier:` was missing and defaulted to L2.
    pub legacy_tier_default: bool,
    /// Number of Waves.
    pub wave_count: usize,
    /// Number of Phases.
    pub phase_count: usize,
    /// Number of Step rows.
    pub step_count: usize,
    /// Rows checked `[x]`.
    pub steps_completed: usize,
    /// `steps_completed / step_count * 100`, rounded half-even to one decimal.
    pub completion_percent: f64,
    /// Whether the Epic intent block is present.
    pub has_epic_intent: bool,
    /// Waves with at least one Step, all checked.
    pub waves_completed: usize,
    /// Phases with at least one Step, all checked.
    pub phases_completed: usize,
    /// Display path of the first open Step, if any.
    pub next_open_step: Option<String>,
    /// Checked Steps with no ledger evidence (empty without an index).
    pub exec_missing_ids: Vec<String>,
}

/// Python's `round(x, 1)` on the f64 value: half-even on exact binary halves.
pub fn round1(x: f64) -> f64 {
    let scaled = x * 10.0;
    let floor = scaled.floor();
    let diff = scaled - floor;
    let up = diff > 0.5 || (diff == 0.5 && floor % 2.0 != 0.0);
    let r = if up { floor + 1.0 } else { floor };
    r / 10.0
}

/// The completion percentage of `done` out of `total`.
pub fn completion_percent(done: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        round1(done as f64 / total as f64 * 100.0)
    }
}

/// The status of `plan`; `covered` holds the canonical Step ids that have
/// ledger evidence (pass `None` to skip `exec_missing_ids`).
pub fn plan_status(plan: &Plan, covered: Option<&BTreeSet<String>>) -> PlanStatus {
    let all_done =
        |steps: Vec<&super::model::Step>| !steps.is_empty() && steps.iter().all(|s| s.checked);
    PlanStatus {
        tier: plan.tier(),
        legacy_tier_default: plan.frontmatter.legacy_tier_default,
        wave_count: plan.waves.len(),
        phase_count: plan.phases.len(),
        step_count: plan.steps.len(),
        steps_completed: plan.steps_completed(),
        completion_percent: completion_percent(plan.steps_completed(), plan.steps.len()),
        has_epic_intent: plan.epic.is_some(),
        waves_completed: plan
            .waves
            .iter()
            .filter(|w| {
                all_done(
                    plan.phases_of(w.key)
                        .flat_map(|p| plan.steps_of(p.key))
                        .collect(),
                )
            })
            .count(),
        phases_completed: plan
            .phases
            .iter()
            .filter(|p| all_done(plan.steps_of(p.key).collect()))
            .count(),
        next_open_step: plan
            .steps
            .iter()
            .find(|s| !s.checked)
            .map(|s| plan.shown_path(s)),
        exec_missing_ids: match covered {
            Some(c) => plan
                .steps
                .iter()
                .filter(|s| s.checked && !c.contains(&s.id))
                .map(|s| s.id.clone())
                .collect(),
            None => Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_rounds_like_python() {
        assert_eq!(completion_percent(1, 3), 33.3);
        assert_eq!(completion_percent(2, 3), 66.7);
        assert_eq!(completion_percent(1, 2), 50.0);
        assert_eq!(completion_percent(0, 0), 0.0);
        assert_eq!(completion_percent(1, 8), 12.5);
    }
}

//! `vault plan query` (spec/plan-format.md §6 "Query"): Step rows filtered
//! by container (`--phase` wins over `--wave`), open/closed state and tier.

use serde::Serialize;

use super::frontmatter::Tier;
use super::model::Plan;

/// The filters of a query.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepQuery {
    /// Only Steps of this Phase (canonical id); wins over `wave`.
    pub phase: Option<String>,
    /// Only Steps of this Wave (canonical id).
    pub wave: Option<String>,
    /// Only open Steps.
    pub open: bool,
    /// Only closed Steps.
    pub closed: bool,
    /// Only when the plan has this tier (else nothing matches).
    pub tier: Option<Tier>,
}

/// One Step as a query reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepView {
    /// Canonical id.
    pub canonical_id: String,
    /// Display path as the row writes it (computed for a row added since).
    pub display_path: String,
    /// Whether the box is checked.
    pub checked: bool,
    /// Action text.
    pub action: String,
    /// Scope.
    pub scope: String,
    /// Canonical id of the Phase, if any.
    pub phase: Option<String>,
    /// Canonical id of the Wave, if any.
    pub wave: Option<String>,
}

/// Every Step matching `q`, in document order.
pub fn query_steps(plan: &Plan, q: &StepQuery) -> Vec<StepView> {
    if q.tier.is_some_and(|t| t != plan.tier()) {
        return Vec::new();
    }
    plan.steps
        .iter()
        .filter_map(|s| {
            let phase = s.phase.and_then(|k| plan.phase_by_key(k));
            let wave = phase.and_then(|p| p.wave).and_then(|k| plan.wave_by_key(k));
            let in_scope = match (&q.phase, &q.wave) {
                (Some(p), _) => phase.is_some_and(|x| &x.id == p),
                (None, Some(w)) => wave.is_some_and(|x| &x.id == w),
                (None, None) => true,
            };
            let state_ok = (!q.open || !s.checked) && (!q.closed || s.checked);
            (in_scope && state_ok).then(|| StepView {
                canonical_id: s.id.clone(),
                display_path: plan.shown_path(s),
                checked: s.checked,
                action: s.action.clone(),
                scope: s.scope.clone(),
                phase: phase.map(|p| p.id.clone()),
                wave: wave.map(|w| w.id.clone()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::parse_plan;

    #[test]
    fn phase_wins_over_wave_and_state_filters_apply() {
        let p = parse_plan("---\ntier: L3\n---\n\n# p\n\n## Wave `W01` - a\n\nI.\n\n### Phase `W01.P01` - b\n\nJ.\n\n- [x] `W01.P01.S01` - a; `x`.\n- [ ] `W01.P01.S02` - b; `y`.\n\n### Phase `W01.P02` - c\n\nK.\n\n- [ ] `W01.P02.S03` - c; `z`.\n").unwrap();
        let q = StepQuery {
            phase: Some("P02".into()),
            wave: Some("W01".into()),
            ..Default::default()
        };
        assert_eq!(query_steps(&p, &q).len(), 1);
        let q = StepQuery {
            wave: Some("W01".into()),
            open: true,
            ..Default::default()
        };
        let ids: Vec<String> = query_steps(&p, &q)
            .into_iter()
            .map(|v| v.display_path)
            .collect();
        assert_eq!(ids, vec!["W01.P01.S02", "W01.P02.S03"]);
        assert!(
            query_steps(
                &p,
                &StepQuery {
                    tier: Some(Tier::L2),
                    ..Default::default()
                }
            )
            .is_empty()
        );
    }
}

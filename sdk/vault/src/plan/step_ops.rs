//! Step verbs (spec/plan-format.md §6): add, insert, check/uncheck/toggle,
//! edit, remove and move, with the reference's flag rules.

use super::contract;
use super::error::PlanError;
use super::frontmatter::Tier;
use super::ids::Kind;
use super::model::{Key, Plan, Step};
use super::op::{Anchor, OpOutcome};

impl Plan {
    fn new_step(&self, action: &str, scope: &str, phase: Option<Key>) -> Result<Step, PlanError> {
        Ok(Step {
            id: self.next_id(Kind::Step),
            written_path: String::new(),
            checked: false,
            action: contract::action(action)?,
            scope: contract::scope(scope)?,
            line: 0,
            phase,
        })
    }

    /// Where a Step appended to `phase` goes in `steps`: after the last Step
    /// of that Phase or of any Phase emitted before it.
    fn phase_tail_index(&self, phase: Key) -> usize {
        let order = self.phase_order();
        let Some(rank) = order.iter().position(|k| *k == phase) else {
            return self.steps.len();
        };
        let before = &order[..=rank];
        self.steps
            .iter()
            .rposition(|s| s.phase.is_some_and(|p| before.contains(&p)))
            .map_or(0, |i| i + 1)
    }

    /// Resolves `--phase` for a Step verb: refused at L1, required above.
    fn step_phase_flag(
        &self,
        verb: &'static str,
        phase: Option<&str>,
        required: bool,
    ) -> Result<Option<Key>, PlanError> {
        match (self.tier(), phase) {
            (Tier::L1, Some(_)) => Err(PlanError::WrongTier {
                verb,
                tier: Tier::L1,
                hint: "an L1 plan has no Phases; drop `--phase` or promote the plan first".into(),
            }),
            (Tier::L1, None) => Ok(None),
            (tier, None) if required => Err(PlanError::WrongTier {
                verb,
                tier,
                hint: "pass `--phase P##` to say which Phase gets the Step".into(),
            }),
            (_, None) => Ok(None),
            (_, Some(p)) => Ok(Some(self.phases[self.find_phase(p)?].key)),
        }
    }

    pub(crate) fn step_add(
        &mut self,
        action: &str,
        scope: &str,
        phase: Option<&str>,
    ) -> Result<OpOutcome, PlanError> {
        let phase = self.step_phase_flag("step add", phase, true)?;
        let step = self.new_step(action, scope, phase)?;
        let at = match phase {
            Some(k) => self.phase_tail_index(k),
            None => self.steps.len(),
        };
        self.steps.insert(at, step);
        let path = self.step_path(&self.steps[at]);
        Ok(OpOutcome::new(format!("Added Step `{path}`."), Some(path)))
    }

    pub(crate) fn step_insert(
        &mut self,
        anchor: &Anchor,
        action: &str,
        scope: &str,
    ) -> Result<OpOutcome, PlanError> {
        let a = self.find_step(anchor.id())?;
        let step = self.new_step(action, scope, self.steps[a].phase)?;
        let at = if matches!(anchor, Anchor::Before(_)) {
            a
        } else {
            a + 1
        };
        self.steps.insert(at, step);
        let path = self.step_path(&self.steps[at]);
        Ok(OpOutcome::new(
            format!("Inserted Step `{path}`."),
            Some(path),
        ))
    }

    /// Check (`Some(true)`), uncheck (`Some(false)`) or toggle (`None`).
    pub(crate) fn step_set(
        &mut self,
        addr: &str,
        state: Option<bool>,
    ) -> Result<OpOutcome, PlanError> {
        let i = self.find_step(addr)?;
        let new = state.unwrap_or(!self.steps[i].checked);
        self.steps[i].checked = new;
        let path = self.step_path(&self.steps[i]);
        let message = match state {
            Some(true) => format!("Closed Step `{path}`."),
            Some(false) => format!("Re-opened Step `{path}`."),
            None => format!(
                "Toggled Step `{path}` to {}.",
                if new { "closed" } else { "open" }
            ),
        };
        Ok(OpOutcome::new(message, Some(path)))
    }

    pub(crate) fn step_edit(
        &mut self,
        addr: &str,
        action: Option<&str>,
        scope: Option<&str>,
    ) -> Result<OpOutcome, PlanError> {
        if action.is_none() && scope.is_none() {
            return Err(PlanError::Usage(
                "`step edit` needs `--action` or `--scope`".into(),
            ));
        }
        let i = self.find_step(addr)?;
        if let Some(a) = action {
            self.steps[i].action = contract::action(a)?;
        }
        if let Some(s) = scope {
            self.steps[i].scope = contract::scope(s)?;
        }
        let path = self.step_path(&self.steps[i]);
        Ok(OpOutcome::new(format!("Edited Step `{path}`."), Some(path)))
    }

    pub(crate) fn step_remove(&mut self, addr: &str) -> Result<OpOutcome, PlanError> {
        let i = self.find_step(addr)?;
        let step = self.steps.remove(i);
        let mut out = OpOutcome::new(
            format!("Retired Step `{}`.", step.id),
            Some(step.id.clone()),
        );
        if !self.steps.iter().any(|s| s.id == step.id) {
            self.retire(Kind::Step, &step.id, &mut out);
        }
        Ok(out)
    }

    pub(crate) fn step_move(
        &mut self,
        addr: &str,
        to_phase: Option<&str>,
        anchor: Option<&Anchor>,
    ) -> Result<OpOutcome, PlanError> {
        if to_phase.is_none() && anchor.is_none() {
            return Err(PlanError::Usage(
                "`step move` needs `--to-phase`, `--before` or `--after`".into(),
            ));
        }
        let i = self.find_step(addr)?;
        // Without `--to-phase` the Step stays in its own Phase, and an
        // anchor elsewhere is refused (the reference's move-flag rule).
        let dest_phase = match to_phase {
            Some(_) => self.step_phase_flag("step move", to_phase, false)?,
            None => self.steps[i].phase,
        };
        let moving_id = self.steps[i].id.clone();
        let anchor_idx = match anchor {
            Some(a) => {
                let ai = self.find_step(a.id())?;
                if ai == i {
                    return Err(PlanError::Usage(format!(
                        "step `{moving_id}` cannot be moved next to itself"
                    )));
                }
                if self.steps[ai].phase != dest_phase {
                    let phase = match to_phase {
                        Some(p) => p.to_string(),
                        None => self
                            .step_path(&self.steps[i])
                            .rsplit_once('.')
                            .map(|(phase, _)| phase.to_string())
                            .unwrap_or_default(),
                    };
                    return Err(PlanError::Usage(format!(
                        "anchor step `{}` is not in phase `{phase}`; move the step into the anchor's phase with `--to-phase`, or pick an anchor inside `{phase}`",
                        a.id(),
                    )));
                }
                Some(ai)
            }
            None => None,
        };
        let mut step = self.steps.remove(i);
        match (anchor, anchor_idx) {
            (Some(a), Some(ai)) => {
                let ai = if ai > i { ai - 1 } else { ai };
                step.phase = self.steps[ai].phase;
                let at = if matches!(a, Anchor::Before(_)) {
                    ai
                } else {
                    ai + 1
                };
                self.steps.insert(at, step);
            }
            _ => {
                step.phase = dest_phase;
                let at = match dest_phase {
                    Some(k) => self.phase_tail_index(k),
                    None => self.steps.len(),
                };
                self.steps.insert(at, step);
            }
        }
        self.renormalise();
        let idx = self
            .steps
            .iter()
            .position(|s| s.id == moving_id)
            .unwrap_or(0);
        let path = self.step_path(&self.steps[idx]);
        Ok(OpOutcome::new(format!("Moved Step `{path}`."), Some(path)))
    }
}

#[cfg(test)]
mod tests {
    use crate::plan::{Anchor, PlanError, PlanOp, parse_plan, serialise_plan};

    const L2: &str = "---\ntier: L2\n---\n\n# p\n\n## Steps\n\n### Phase `P01` - a\n\nI.\n\n- [ ] `P01.S01` - a; `x`.\n- [ ] `P01.S02` - b; `y`.\n\n### Phase `P02` - b\n\nJ.\n\n- [ ] `P02.S02` - dup; `z`.\n";

    #[test]
    fn an_unknown_step_names_the_nearest_ids() {
        let mut p = parse_plan(L2).unwrap();
        let e = p
            .apply(&PlanOp::StepCheck { step: "S03".into() })
            .unwrap_err();
        assert!(
            matches!(&e, PlanError::Unknown { suggestions, .. } if suggestions.contains(&"S01".to_string())),
            "{e}"
        );
        assert!(e.to_string().contains("did you mean"), "{e}");
    }

    #[test]
    fn an_ambiguous_leaf_lists_its_display_paths() {
        let mut p = parse_plan(L2).unwrap();
        let e = p
            .apply(&PlanOp::StepCheck { step: "S02".into() })
            .unwrap_err();
        match e {
            PlanError::Ambiguous { candidates, .. } => {
                assert_eq!(candidates, vec!["P01.S02", "P02.S02"])
            }
            other => panic!("{other}"),
        }
        // The full display path disambiguates.
        p.apply(&PlanOp::StepCheck {
            step: "P02.S02".into(),
        })
        .unwrap();
        assert!(p.steps[2].checked);
    }

    #[test]
    fn move_flags_follow_the_precedence_rules() {
        let mut p = parse_plan(L2).unwrap();
        assert!(
            p.apply(&PlanOp::StepMove {
                step: "S01".into(),
                to_phase: None,
                anchor: None
            })
            .is_err()
        );
        let bad = PlanOp::StepMove {
            step: "S01".into(),
            to_phase: Some("P02".into()),
            anchor: Some(Anchor::Before("P01.S02".into())),
        };
        assert!(p.apply(&bad).is_err());
        // An anchor in another Phase, without `--to-phase`: refused.
        let across = PlanOp::StepMove {
            step: "S01".into(),
            to_phase: None,
            anchor: Some(Anchor::Before("P02.S02".into())),
        };
        assert!(p.apply(&across).is_err());
        p.apply(&PlanOp::StepMove {
            step: "S01".into(),
            to_phase: Some("P02".into()),
            anchor: None,
        })
        .unwrap();
        let out = serialise_plan(&p, false);
        assert!(
            out.contains("- [ ] `P02.S02` - dup; `z`.\n- [ ] `P02.S01` - a; `x`.\n"),
            "{out}"
        );
    }

    #[test]
    fn a_malformed_row_is_reported_with_its_line() {
        let e =
            parse_plan("---\ntier: L1\n---\n\n# p\n\n- [ ] `S01` - no scope here\n").unwrap_err();
        assert!(matches!(e, PlanError::MalformedRow { line: 7, .. }), "{e}");
    }

    #[test]
    fn demote_refuses_a_multi_child_collapse_without_force() {
        let mut p = parse_plan(L2).unwrap();
        let e = p
            .apply(&PlanOp::TierDemote {
                target: None,
                force: false,
            })
            .unwrap_err();
        assert!(
            matches!(e, PlanError::DemoteNeedsForce { count: 2, .. }),
            "{e}"
        );
        let out = p
            .apply(&PlanOp::TierDemote {
                target: None,
                force: true,
            })
            .unwrap();
        assert_eq!(out.retired, vec!["P01", "P02"]);
    }
}

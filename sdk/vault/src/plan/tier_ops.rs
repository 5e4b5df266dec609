//! Tier verbs and the Epic intent (spec/plan-format.md §6): promotion wraps
//! the current containers in a new Phase, Wave or Epic; demotion collapses
//! them, retiring their ids, and refuses a multi-child collapse without force.

use super::contract;
use super::error::PlanError;
use super::frontmatter::Tier;
use super::ids::Kind;
use super::model::{EpicIntent, Phase, Plan, Wave};
use super::op::{OpOutcome, PromoteTexts};

const PHASE_TITLE_TODO: &str = "TODO: Phase title";
const PHASE_INTENT_TODO: &str = "TODO: Phase intent paragraph required.";
const WAVE_TITLE_TODO: &str = "TODO: Wave title";
const WAVE_INTENT_TODO: &str = "TODO: Wave intent paragraph required.";
const EPIC_TODO: &str = "TODO: Epic intent paragraph required.";

impl Plan {
    pub(crate) fn epic_edit(&mut self, text: &str) -> Result<OpOutcome, PlanError> {
        if self.tier() != Tier::L4 {
            return Err(PlanError::WrongTier {
                verb: "epic intent edit",
                tier: self.tier(),
                hint: "only L4 plans carry an Epic intent; promote the plan with `--target L4`"
                    .into(),
            });
        }
        let text = contract::intent("text", text)?;
        match &mut self.epic {
            Some(e) => e.text = text,
            None => self.epic = Some(EpicIntent { text, line: 0 }),
        }
        Ok(OpOutcome::new("Edited Epic intent.".into(), None))
    }

    pub(crate) fn tier_promote(
        &mut self,
        target: Option<Tier>,
        texts: &PromoteTexts,
    ) -> Result<OpOutcome, PlanError> {
        let from = self.tier();
        let to = match target {
            Some(t) => t,
            None => from.up().ok_or_else(|| {
                PlanError::Usage("the plan is already L4; nothing to promote to".into())
            })?,
        };
        if to <= from {
            return Err(PlanError::Usage(format!(
                "promote target {to} must be above the current tier {from}"
            )));
        }
        let crosses = |t: Tier| from < t && to >= t;
        let mut missing = Vec::new();
        if crosses(Tier::L2) {
            if texts.phase_title.is_none() {
                missing.push("--phase-title".to_string());
            }
            if texts.phase_intent.is_none() {
                missing.push("--phase-intent".to_string());
            }
        }
        if crosses(Tier::L3) {
            if texts.wave_title.is_none() {
                missing.push("--wave-title".to_string());
            }
            if texts.wave_intent.is_none() {
                missing.push("--wave-intent".to_string());
            }
        }
        if crosses(Tier::L4) && texts.epic_intent.is_none() {
            missing.push("--epic-intent".to_string());
        }
        if crosses(Tier::L4) && !crosses(Tier::L3) && self.waves.is_empty() {
            // Beyond the reference: an L4 plan needs a Wave and, once it has an
            // Epic, no verb may add the first one (spec §6 "scaffold dead end").
            return Err(PlanError::Usage(
                "the plan has no Wave yet; add one with `wave add` before promoting to L4".into(),
            ));
        }
        if texts.require_all && !missing.is_empty() {
            return Err(PlanError::PromoteNeedsFlags {
                from,
                to,
                flags: missing,
            });
        }
        let pick = |v: &Option<String>, todo: &str| v.clone().unwrap_or_else(|| todo.to_string());
        if crosses(Tier::L2) {
            let title = contract::title(&pick(&texts.phase_title, PHASE_TITLE_TODO))?;
            let intent = contract::intent("intent", &pick(&texts.phase_intent, PHASE_INTENT_TODO))?;
            let key = self.new_key();
            let id = self.next_id(Kind::Phase);
            self.phases.push(Phase {
                key,
                id,
                written_path: String::new(),
                title,
                intent,
                line: 0,
                wave: None,
            });
            for s in &mut self.steps {
                s.phase = Some(key);
            }
        }
        if crosses(Tier::L3) {
            let title = contract::title(&pick(&texts.wave_title, WAVE_TITLE_TODO))?;
            let intent = contract::intent("intent", &pick(&texts.wave_intent, WAVE_INTENT_TODO))?;
            let key = self.new_key();
            let id = self.next_id(Kind::Wave);
            self.waves.push(Wave {
                key,
                id,
                title,
                intent,
                line: 0,
            });
            for p in &mut self.phases {
                p.wave = Some(key);
            }
        }
        if crosses(Tier::L4) {
            let text = contract::intent("epic intent", &pick(&texts.epic_intent, EPIC_TODO))?;
            self.epic = Some(EpicIntent { text, line: 0 });
        }
        self.frontmatter.tier = to;
        self.frontmatter.legacy_tier_default = false;
        Ok(OpOutcome::new(
            format!("Tier promoted to {to}."),
            Some(to.to_string()),
        ))
    }

    pub(crate) fn tier_demote(
        &mut self,
        target: Option<Tier>,
        force: bool,
    ) -> Result<OpOutcome, PlanError> {
        let from = self.tier();
        let to = match target {
            Some(t) => t,
            None => from.down().ok_or_else(|| {
                PlanError::Usage("the plan is already L1; nothing to demote to".into())
            })?,
        };
        if to >= from {
            return Err(PlanError::Usage(format!(
                "demote target {to} must be below the current tier {from}"
            )));
        }
        let mut out = OpOutcome::new(format!("Tier demoted to {to}."), Some(to.to_string()));
        let mut tier = from;
        while tier > to {
            match tier {
                Tier::L4 => self.epic = None,
                Tier::L3 => {
                    if self.waves.len() > 1 && !force {
                        return Err(PlanError::DemoteNeedsForce {
                            tier: from,
                            target: Tier::L2,
                            count: self.waves.len(),
                            kind: Kind::Wave,
                        });
                    }
                    let ids: Vec<String> = self.waves.iter().map(|w| w.id.clone()).collect();
                    for id in ids {
                        self.retire(Kind::Wave, &id, &mut out);
                    }
                    self.waves.clear();
                    for p in &mut self.phases {
                        p.wave = None;
                    }
                }
                Tier::L2 => {
                    if self.phases.len() > 1 && !force {
                        return Err(PlanError::DemoteNeedsForce {
                            tier: from,
                            target: Tier::L1,
                            count: self.phases.len(),
                            kind: Kind::Phase,
                        });
                    }
                    let ids: Vec<String> = self.phases.iter().map(|p| p.id.clone()).collect();
                    for id in ids {
                        self.retire(Kind::Phase, &id, &mut out);
                    }
                    self.phases.clear();
                    for s in &mut self.steps {
                        s.phase = None;
                    }
                }
                Tier::L1 => {}
            }
            tier = tier.down().unwrap_or(Tier::L1);
            self.frontmatter.tier = tier;
            self.renormalise();
        }
        self.frontmatter.legacy_tier_default = false;
        Ok(out)
    }
}

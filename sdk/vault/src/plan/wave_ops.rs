//! Wave verbs (spec/plan-format.md §6), L3 and L4 only: add, insert
//! (suffixed ids), edit, move and remove (cascade retirement).

use super::contract;
use super::error::PlanError;
use super::frontmatter::Tier;
use super::ids::{self, Kind};
use super::model::{Plan, Wave};
use super::op::{Anchor, OpOutcome};

impl Plan {
    fn wave_verb_tier(&self, verb: &'static str) -> Result<(), PlanError> {
        if matches!(self.tier(), Tier::L1 | Tier::L2) {
            return Err(PlanError::WrongTier {
                verb,
                tier: self.tier(),
                hint:
                    "Waves exist at L3 and L4; promote the plan first (`tier promote --target L3`)"
                        .into(),
            });
        }
        Ok(())
    }

    fn new_wave(&mut self, id: String, title: &str, intent: &str) -> Result<Wave, PlanError> {
        let title = contract::title(title)?;
        let intent = contract::intent("intent", intent)?;
        Ok(Wave {
            key: self.new_key(),
            id,
            title,
            intent,
            line: 0,
        })
    }

    pub(crate) fn wave_add(&mut self, title: &str, intent: &str) -> Result<OpOutcome, PlanError> {
        self.wave_verb_tier("wave add")?;
        let id = self.next_id(Kind::Wave);
        let wave = self.new_wave(id.clone(), title, intent)?;
        self.waves.push(wave);
        Ok(OpOutcome::new(format!("Added Wave `{id}`."), Some(id)))
    }

    pub(crate) fn wave_insert(
        &mut self,
        anchor: &Anchor,
        title: &str,
        intent: &str,
    ) -> Result<OpOutcome, PlanError> {
        self.wave_verb_tier("wave insert")?;
        let a = self.find_wave(anchor.id())?;
        let base_from = match anchor {
            Anchor::Before(_) if a > 0 => a - 1,
            _ => a,
        };
        let base = ids::base_of(&self.waves[base_from].id).to_string();
        let id = ids::suffixed_id(&base, self.used_ids(Kind::Wave)).ok_or_else(|| {
            PlanError::Usage(format!(
                "every suffix of wave `{base}` is taken; use `wave add`"
            ))
        })?;
        let wave = self.new_wave(id.clone(), title, intent)?;
        let at = if matches!(anchor, Anchor::Before(_)) {
            a
        } else {
            a + 1
        };
        self.waves.insert(at, wave);
        Ok(OpOutcome::new(format!("Inserted Wave `{id}`."), Some(id)))
    }

    pub(crate) fn wave_edit(
        &mut self,
        id: &str,
        title: Option<&str>,
        intent: Option<&str>,
    ) -> Result<OpOutcome, PlanError> {
        self.wave_verb_tier("wave edit")?;
        if title.is_none() && intent.is_none() {
            return Err(PlanError::Usage(
                "`wave edit` needs `--title` or `--intent`".into(),
            ));
        }
        let i = self.find_wave(id)?;
        if let Some(t) = title {
            self.waves[i].title = contract::title(t)?;
        }
        if let Some(t) = intent {
            self.waves[i].intent = contract::intent("intent", t)?;
        }
        let id = self.waves[i].id.clone();
        Ok(OpOutcome::new(format!("Edited Wave `{id}`."), Some(id)))
    }

    pub(crate) fn wave_move(&mut self, id: &str, anchor: &Anchor) -> Result<OpOutcome, PlanError> {
        self.wave_verb_tier("wave move")?;
        let i = self.find_wave(id)?;
        let ai = self.find_wave(anchor.id())?;
        if ai == i {
            return Err(PlanError::Usage(format!(
                "wave `{id}` cannot be moved next to itself"
            )));
        }
        let wave = self.waves.remove(i);
        let ai = if ai > i { ai - 1 } else { ai };
        let at = if matches!(anchor, Anchor::Before(_)) {
            ai
        } else {
            ai + 1
        };
        let wid = wave.id.clone();
        self.waves.insert(at, wave);
        Ok(OpOutcome::new(format!("Moved Wave `{wid}`."), Some(wid)))
    }

    pub(crate) fn wave_remove(&mut self, id: &str) -> Result<OpOutcome, PlanError> {
        self.wave_verb_tier("wave remove")?;
        let i = self.find_wave(id)?;
        // Removing an L4 plan's only Wave is allowed, as in the reference:
        // the Wave, its Phases and Steps are retired, and `plan check` then
        // reports the Wave the tier needs (PLAN010).
        let wave = self.waves.remove(i);
        let mut out = OpOutcome::new(String::new(), Some(wave.id.clone()));
        if !self.waves.iter().any(|w| w.id == wave.id) {
            self.retire(Kind::Wave, &wave.id, &mut out);
        }
        let mut phases = Vec::new();
        let mut steps = Vec::new();
        while let Some(pi) = self.phases.iter().position(|p| p.wave == Some(wave.key)) {
            phases.push(self.phases[pi].id.clone());
            steps.extend(self.drop_phase(pi, &mut out));
        }
        let mut message = format!("Retired Wave `{}`", wave.id);
        if !phases.is_empty() {
            message.push_str(&format!("; cascaded Phases: {}", phases.join(", ")));
        }
        if !steps.is_empty() {
            message.push_str(&format!("; cascaded Steps: {}", steps.join(", ")));
        }
        message.push('.');
        out.message = message;
        Ok(out)
    }
}

//! Phase verbs (spec/plan-format.md §6): add, insert (suffixed ids), edit,
//! move, remove (cascade retirement) and renumber.

use super::contract;
use super::error::PlanError;
use super::frontmatter::Tier;
use super::ids::{self, Kind};
use super::model::{Key, Phase, Plan};
use super::op::{Anchor, OpOutcome};

impl Plan {
    fn phase_verb_tier(&self, verb: &'static str) -> Result<(), PlanError> {
        if self.tier() == Tier::L1 {
            return Err(PlanError::WrongTier {
                verb,
                tier: Tier::L1,
                hint: "an L1 plan has no Phases; promote the plan first (`tier promote`)".into(),
            });
        }
        Ok(())
    }

    /// Resolves `--wave`/`--to-wave`: refused at L2, a canonical Wave id above.
    fn wave_flag(
        &self,
        verb: &'static str,
        wave: Option<&str>,
        required: bool,
    ) -> Result<Option<Key>, PlanError> {
        match (self.tier(), wave) {
            (Tier::L1 | Tier::L2, Some(_)) => Err(PlanError::WrongTier {
                verb,
                tier: self.tier(),
                hint: "Phases of an L1/L2 plan have no Wave; drop the Wave flag or promote the plan first".into(),
            }),
            (Tier::L3 | Tier::L4, None) if required => Err(PlanError::WrongTier {
                verb,
                tier: self.tier(),
                hint: "pass `--wave W##` to say which Wave gets the Phase".into(),
            }),
            (_, None) => Ok(None),
            (_, Some(w)) => Ok(Some(self.waves[self.find_wave(w)?].key)),
        }
    }

    /// Where a Phase appended to `wave` goes in `phases`.
    fn wave_tail_index(&self, wave: Option<Key>) -> usize {
        let Some(wave) = wave else {
            return self.phases.len();
        };
        let Some(rank) = self.waves.iter().position(|w| w.key == wave) else {
            return self.phases.len();
        };
        let before: Vec<Key> = self.waves[..=rank].iter().map(|w| w.key).collect();
        self.phases
            .iter()
            .rposition(|p| p.wave.is_some_and(|w| before.contains(&w)))
            .map_or(0, |i| i + 1)
    }

    fn new_phase(
        &mut self,
        id: String,
        title: &str,
        intent: &str,
        wave: Option<Key>,
    ) -> Result<Phase, PlanError> {
        let title = contract::title(title)?;
        let intent = contract::intent("intent", intent)?;
        Ok(Phase {
            key: self.new_key(),
            id,
            written_path: String::new(),
            title,
            intent,
            line: 0,
            wave,
        })
    }

    fn phase_subject(&self, id: &str) -> String {
        self.phases
            .iter()
            .find(|p| p.id == id)
            .map_or_else(|| id.to_string(), |p| self.phase_path(p))
    }

    pub(crate) fn phase_add(
        &mut self,
        title: &str,
        intent: &str,
        wave: Option<&str>,
    ) -> Result<OpOutcome, PlanError> {
        self.phase_verb_tier("phase add")?;
        let wave = self.wave_flag("phase add", wave, true)?;
        let id = self.next_id(Kind::Phase);
        let phase = self.new_phase(id.clone(), title, intent, wave)?;
        let at = self.wave_tail_index(wave);
        self.phases.insert(at, phase);
        let path = self.phase_subject(&id);
        Ok(OpOutcome::new(format!("Added Phase `{path}`."), Some(path)))
    }

    pub(crate) fn phase_insert(
        &mut self,
        anchor: &Anchor,
        title: &str,
        intent: &str,
    ) -> Result<OpOutcome, PlanError> {
        self.phase_verb_tier("phase insert")?;
        let a = self.find_phase(anchor.id())?;
        let wave = self.phases[a].wave;
        let siblings: Vec<usize> = (0..self.phases.len())
            .filter(|&i| self.phases[i].wave == wave)
            .collect();
        let pos = siblings.iter().position(|&i| i == a).unwrap_or(0);
        let base_from = match anchor {
            Anchor::Before(_) if pos > 0 => siblings[pos - 1],
            _ => a,
        };
        let base = ids::base_of(&self.phases[base_from].id).to_string();
        let id = ids::suffixed_id(&base, self.used_ids(Kind::Phase)).ok_or_else(|| {
            PlanError::Usage(format!(
                "every suffix of phase `{base}` is taken; use `phase add`"
            ))
        })?;
        let phase = self.new_phase(id.clone(), title, intent, wave)?;
        let at = if matches!(anchor, Anchor::Before(_)) {
            a
        } else {
            a + 1
        };
        self.phases.insert(at, phase);
        let path = self.phase_subject(&id);
        Ok(OpOutcome::new(
            format!("Inserted Phase `{path}`."),
            Some(path),
        ))
    }

    pub(crate) fn phase_edit(
        &mut self,
        id: &str,
        title: Option<&str>,
        intent: Option<&str>,
    ) -> Result<OpOutcome, PlanError> {
        self.phase_verb_tier("phase edit")?;
        if title.is_none() && intent.is_none() {
            return Err(PlanError::Usage(
                "`phase edit` needs `--title` or `--intent`".into(),
            ));
        }
        let i = self.find_phase(id)?;
        if let Some(t) = title {
            self.phases[i].title = contract::title(t)?;
        }
        if let Some(t) = intent {
            self.phases[i].intent = contract::intent("intent", t)?;
        }
        let path = self.phase_path(&self.phases[i]);
        Ok(OpOutcome::new(
            format!("Edited Phase `{path}`."),
            Some(path),
        ))
    }

    pub(crate) fn phase_move(
        &mut self,
        id: &str,
        to_wave: Option<&str>,
        anchor: Option<&Anchor>,
    ) -> Result<OpOutcome, PlanError> {
        self.phase_verb_tier("phase move")?;
        if to_wave.is_none() && anchor.is_none() {
            return Err(PlanError::Usage(
                "`phase move` needs `--to-wave`, `--before` or `--after`".into(),
            ));
        }
        let i = self.find_phase(id)?;
        let dest = self.wave_flag("phase move", to_wave, false)?;
        let anchor_idx = match anchor {
            Some(a) => {
                let ai = self.find_phase(a.id())?;
                if ai == i {
                    return Err(PlanError::Usage(format!(
                        "phase `{id}` cannot be moved next to itself"
                    )));
                }
                if to_wave.is_some() && self.phases[ai].wave != dest {
                    return Err(PlanError::Usage(format!(
                        "anchor phase `{}` is not in wave `{}`; pick an anchor inside the destination wave",
                        a.id(),
                        to_wave.unwrap_or_default()
                    )));
                }
                Some(ai)
            }
            None => None,
        };
        let mut phase = self.phases.remove(i);
        let moving = phase.id.clone();
        match (anchor, anchor_idx) {
            (Some(a), Some(ai)) => {
                let ai = if ai > i { ai - 1 } else { ai };
                phase.wave = self.phases[ai].wave;
                let at = if matches!(a, Anchor::Before(_)) {
                    ai
                } else {
                    ai + 1
                };
                self.phases.insert(at, phase);
            }
            _ => {
                phase.wave = dest;
                let at = self.wave_tail_index(dest);
                self.phases.insert(at, phase);
            }
        }
        self.renormalise();
        let path = self.phase_subject(&moving);
        Ok(OpOutcome::new(format!("Moved Phase `{path}`."), Some(path)))
    }

    /// Removes the Phase at `i` with its Steps, retiring their ids.
    pub(crate) fn drop_phase(&mut self, i: usize, out: &mut OpOutcome) -> Vec<String> {
        let phase = self.phases.remove(i);
        let mut cascaded = Vec::new();
        let removed: Vec<String> = self
            .steps
            .iter()
            .filter(|s| s.phase == Some(phase.key))
            .map(|s| s.id.clone())
            .collect();
        self.steps.retain(|s| s.phase != Some(phase.key));
        if !self.phases.iter().any(|p| p.id == phase.id) {
            self.retire(Kind::Phase, &phase.id, out);
        }
        for id in removed {
            if !self.steps.iter().any(|s| s.id == id) {
                self.retire(Kind::Step, &id, out);
            }
            cascaded.push(id);
        }
        cascaded
    }

    pub(crate) fn phase_remove(&mut self, id: &str) -> Result<OpOutcome, PlanError> {
        self.phase_verb_tier("phase remove")?;
        let i = self.find_phase(id)?;
        let pid = self.phases[i].id.clone();
        let mut out = OpOutcome::new(String::new(), Some(pid.clone()));
        let steps = self.drop_phase(i, &mut out);
        out.message = if steps.is_empty() {
            format!("Retired Phase `{pid}`.")
        } else {
            format!(
                "Retired Phase `{pid}`; cascaded Steps: {}.",
                steps.join(", ")
            )
        };
        Ok(out)
    }

    pub(crate) fn phase_renumber(&mut self, id: &str, to: &str) -> Result<OpOutcome, PlanError> {
        self.phase_verb_tier("phase renumber")?;
        let to = to.trim();
        if !ids::is_canonical(to, Kind::Phase) {
            return Err(PlanError::Usage(format!(
                "new phase id `{to}` is not valid; use `P##` with an optional lowercase suffix"
            )));
        }
        if self.phases.iter().any(|p| p.id == to) || self.retired.phases.contains(to) {
            return Err(PlanError::Usage(format!(
                "phase id `{to}` is live or retired; pick an unused id"
            )));
        }
        // A duplicated id is remediated by renumbering its last occurrence.
        let i = match self.find_phase(id) {
            Ok(i) => i,
            Err(PlanError::Ambiguous { .. }) => self
                .phases
                .iter()
                .rposition(|p| p.id == id.trim())
                .unwrap_or_default(),
            Err(e) => return Err(e),
        };
        let old = std::mem::replace(&mut self.phases[i].id, to.to_string());
        let mut out = OpOutcome::new(
            format!("Renumbered Phase `{old}` to `{to}`."),
            Some(self.phase_subject(to)),
        );
        if !self.phases.iter().any(|p| p.id == old) {
            self.retire(Kind::Phase, &old, &mut out);
        }
        Ok(out)
    }
}

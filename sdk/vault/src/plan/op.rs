//! Plan operations as data: every step, phase, wave, epic and tier verb is a
//! [`PlanOp`], applied to a [`Plan`] in memory by [`Plan::apply`]. Nothing
//! here touches storage; [`super::store`] loads, applies, guards and writes.

use serde::Serialize;

use super::error::PlanError;
use super::frontmatter::Tier;
use super::model::{Key, Plan};

/// Where an inserted or moved container goes relative to a sibling.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "side", content = "id")]
pub enum Anchor {
    /// Just before the sibling.
    Before(String),
    /// Just after the sibling.
    After(String),
}

impl Anchor {
    /// The anchor id.
    pub fn id(&self) -> &str {
        match self {
            Anchor::Before(id) | Anchor::After(id) => id,
        }
    }

    /// Builds an anchor from optional `--before` / `--after` flags: at most
    /// one may be set.
    pub fn from_flags(
        before: Option<&str>,
        after: Option<&str>,
    ) -> Result<Option<Anchor>, PlanError> {
        match (before, after) {
            (Some(_), Some(_)) => Err(PlanError::Usage(
                "pass either `--before` or `--after`, not both".into(),
            )),
            (Some(b), None) => Ok(Some(Anchor::Before(b.to_string()))),
            (None, Some(a)) => Ok(Some(Anchor::After(a.to_string()))),
            (None, None) => Ok(None),
        }
    }
}

/// The titles and intents a promotion may need for the containers it creates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromoteTexts {
    /// Title of the Phase created when crossing L2.
    pub phase_title: Option<String>,
    /// Intent of that Phase.
    pub phase_intent: Option<String>,
    /// Title of the Wave created when crossing L3.
    pub wave_title: Option<String>,
    /// Intent of that Wave.
    pub wave_intent: Option<String>,
    /// The Epic intent added when crossing L4.
    pub epic_intent: Option<String>,
    /// Refuse (like the CLI) when a needed text is missing, instead of
    /// writing `TODO:` placeholders.
    pub require_all: bool,
}

/// One plan mutation. The fields are the verb's flags and operands: ids are
/// canonical (`S03`, `P02`, `W01`) except Step addresses, which may also be
/// full display paths.
#[expect(
    missing_docs,
    reason = "the fields are the verb's flags, documented on the variant"
)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanOp {
    /// `step add`: a new open Step at the end of a Phase (L2+) or the list (L1).
    StepAdd {
        action: String,
        scope: String,
        phase: Option<String>,
    },
    /// `step insert`: a new open Step next to another.
    StepInsert {
        anchor: Anchor,
        action: String,
        scope: String,
    },
    /// `step check`.
    StepCheck { step: String },
    /// `step uncheck`.
    StepUncheck { step: String },
    /// `step toggle`.
    StepToggle { step: String },
    /// `step edit`.
    StepEdit {
        step: String,
        action: Option<String>,
        scope: Option<String>,
    },
    /// `step remove` (the id is retired).
    StepRemove { step: String },
    /// `step move`.
    StepMove {
        step: String,
        to_phase: Option<String>,
        anchor: Option<Anchor>,
    },
    /// `phase add`.
    PhaseAdd {
        title: String,
        intent: String,
        wave: Option<String>,
    },
    /// `phase insert` (suffixed id).
    PhaseInsert {
        anchor: Anchor,
        title: String,
        intent: String,
    },
    /// `phase edit`.
    PhaseEdit {
        phase: String,
        title: Option<String>,
        intent: Option<String>,
    },
    /// `phase move`.
    PhaseMove {
        phase: String,
        to_wave: Option<String>,
        anchor: Option<Anchor>,
    },
    /// `phase remove` (cascade retirement).
    PhaseRemove { phase: String },
    /// `phase renumber`.
    PhaseRenumber { phase: String, to: String },
    /// `wave add`.
    WaveAdd { title: String, intent: String },
    /// `wave insert` (suffixed id).
    WaveInsert {
        anchor: Anchor,
        title: String,
        intent: String,
    },
    /// `wave edit`.
    WaveEdit {
        wave: String,
        title: Option<String>,
        intent: Option<String>,
    },
    /// `wave move`.
    WaveMove { wave: String, anchor: Anchor },
    /// `wave remove` (cascade retirement).
    WaveRemove { wave: String },
    /// `epic intent edit` (creates the block when missing).
    EpicIntentEdit { text: String },
    /// `tier promote`.
    TierPromote {
        target: Option<Tier>,
        texts: PromoteTexts,
    },
    /// `tier demote`.
    TierDemote { target: Option<Tier>, force: bool },
}

impl PlanOp {
    /// The verb path words after `vault plan` (`step add`, `tier promote`).
    pub fn verb(&self) -> &'static str {
        match self {
            PlanOp::StepAdd { .. } => "step add",
            PlanOp::StepInsert { .. } => "step insert",
            PlanOp::StepCheck { .. } => "step check",
            PlanOp::StepUncheck { .. } => "step uncheck",
            PlanOp::StepToggle { .. } => "step toggle",
            PlanOp::StepEdit { .. } => "step edit",
            PlanOp::StepRemove { .. } => "step remove",
            PlanOp::StepMove { .. } => "step move",
            PlanOp::PhaseAdd { .. } => "phase add",
            PlanOp::PhaseInsert { .. } => "phase insert",
            PlanOp::PhaseEdit { .. } => "phase edit",
            PlanOp::PhaseMove { .. } => "phase move",
            PlanOp::PhaseRemove { .. } => "phase remove",
            PlanOp::PhaseRenumber { .. } => "phase renumber",
            PlanOp::WaveAdd { .. } => "wave add",
            PlanOp::WaveInsert { .. } => "wave insert",
            PlanOp::WaveEdit { .. } => "wave edit",
            PlanOp::WaveMove { .. } => "wave move",
            PlanOp::WaveRemove { .. } => "wave remove",
            PlanOp::EpicIntentEdit { .. } => "epic intent edit",
            PlanOp::TierPromote { .. } => "tier promote",
            PlanOp::TierDemote { .. } => "tier demote",
        }
    }
}

/// What one operation did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct OpOutcome {
    /// A one-line summary (``Added Step `P01.S04`.``).
    pub message: String,
    /// The display path (or id) of the container the operation touched.
    pub subject: Option<String>,
    /// Every id the operation retired.
    pub retired: Vec<String>,
}

impl OpOutcome {
    pub(crate) fn new(message: String, subject: Option<String>) -> Self {
        OpOutcome {
            message,
            subject,
            retired: Vec::new(),
        }
    }
}

impl Plan {
    /// Applies one operation in memory. On error the plan may be partly
    /// changed: callers apply to a clone and keep it only on success.
    pub fn apply(&mut self, op: &PlanOp) -> Result<OpOutcome, PlanError> {
        let out = match op {
            PlanOp::StepAdd {
                action,
                scope,
                phase,
            } => self.step_add(action, scope, phase.as_deref()),
            PlanOp::StepInsert {
                anchor,
                action,
                scope,
            } => self.step_insert(anchor, action, scope),
            PlanOp::StepCheck { step } => self.step_set(step, Some(true)),
            PlanOp::StepUncheck { step } => self.step_set(step, Some(false)),
            PlanOp::StepToggle { step } => self.step_set(step, None),
            PlanOp::StepEdit {
                step,
                action,
                scope,
            } => self.step_edit(step, action.as_deref(), scope.as_deref()),
            PlanOp::StepRemove { step } => self.step_remove(step),
            PlanOp::StepMove {
                step,
                to_phase,
                anchor,
            } => self.step_move(step, to_phase.as_deref(), anchor.as_ref()),
            PlanOp::PhaseAdd {
                title,
                intent,
                wave,
            } => self.phase_add(title, intent, wave.as_deref()),
            PlanOp::PhaseInsert {
                anchor,
                title,
                intent,
            } => self.phase_insert(anchor, title, intent),
            PlanOp::PhaseEdit {
                phase,
                title,
                intent,
            } => self.phase_edit(phase, title.as_deref(), intent.as_deref()),
            PlanOp::PhaseMove {
                phase,
                to_wave,
                anchor,
            } => self.phase_move(phase, to_wave.as_deref(), anchor.as_ref()),
            PlanOp::PhaseRemove { phase } => self.phase_remove(phase),
            PlanOp::PhaseRenumber { phase, to } => self.phase_renumber(phase, to),
            PlanOp::WaveAdd { title, intent } => self.wave_add(title, intent),
            PlanOp::WaveInsert {
                anchor,
                title,
                intent,
            } => self.wave_insert(anchor, title, intent),
            PlanOp::WaveEdit {
                wave,
                title,
                intent,
            } => self.wave_edit(wave, title.as_deref(), intent.as_deref()),
            PlanOp::WaveMove { wave, anchor } => self.wave_move(wave, anchor),
            PlanOp::WaveRemove { wave } => self.wave_remove(wave),
            PlanOp::EpicIntentEdit { text } => self.epic_edit(text),
            PlanOp::TierPromote { target, texts } => self.tier_promote(*target, texts),
            PlanOp::TierDemote { target, force } => self.tier_demote(*target, *force),
        }?;
        self.renormalise();
        Ok(out)
    }

    /// The Phases in the order the serialiser visits them at the plan's tier
    /// (Phases outside any Wave last at L3/L4).
    pub(crate) fn phase_order(&self) -> Vec<Key> {
        match self.tier() {
            Tier::L1 | Tier::L2 => self.phases.iter().map(|p| p.key).collect(),
            Tier::L3 | Tier::L4 => {
                let mut order: Vec<Key> = self
                    .waves
                    .iter()
                    .flat_map(|w| self.phases_of(w.key).map(|p| p.key))
                    .collect();
                for p in &self.phases {
                    if !order.contains(&p.key) {
                        order.push(p.key);
                    }
                }
                order
            }
        }
    }

    /// Re-sorts `phases` and `steps` (stably) into the order the serialiser
    /// emits them, so document order and the flat lists agree after an edit.
    pub(crate) fn renormalise(&mut self) {
        if self.tier() == Tier::L1 {
            return;
        }
        let order = self.phase_order();
        let rank = |k: Option<Key>| {
            k.and_then(|k| order.iter().position(|o| *o == k))
                .unwrap_or(usize::MAX)
        };
        let keys: Vec<Key> = order.clone();
        self.phases
            .sort_by_key(|p| keys.iter().position(|k| *k == p.key).unwrap_or(usize::MAX));
        self.steps.sort_by_key(|s| rank(s.phase));
    }

    /// Marks `id` of `kind` retired and records it in `out`.
    pub(crate) fn retire(&mut self, kind: super::ids::Kind, id: &str, out: &mut OpOutcome) {
        if self.retired.of_mut(kind).insert(id.to_string()) {
            out.retired.push(id.to_string());
        }
    }
}

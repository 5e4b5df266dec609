//! The plan model: the containers (Waves, Phases, Steps) of a parsed plan,
//! its retirement ledger and the authored prose kept around them.
//!
//! Containers are stored flat, in document order, the way the reference keeps
//! them: `steps` holds every Step, `phases` every Phase, `waves` every Wave.
//! A Step points at its Phase and a Phase at its Wave through a [`Key`] that
//! never changes while the plan is edited, so reordering and re-parenting are
//! plain vector moves. The serialiser walks the tree that the keys describe.

use std::collections::BTreeSet;

use super::frontmatter::{PlanFrontmatter, Tier};
use super::ids::{self, Kind};

/// A stable handle on a Wave or Phase inside one [`Plan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub u32);

/// One Step row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Canonical id, the leaf of the path (`S03`).
    pub id: String,
    /// The path as written in the source (`P02.S03`); recomputed on write.
    pub written_path: String,
    /// Whether the box is `[x]`.
    pub checked: bool,
    /// The action text, without the scope.
    pub action: String,
    /// The scope, without backticks.
    pub scope: String,
    /// 1-based line in the source file (0 for rows added since).
    pub line: usize,
    /// The Phase holding the Step, if any.
    pub phase: Option<Key>,
}

/// One Phase block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phase {
    /// Stable handle.
    pub key: Key,
    /// Canonical id (`P02`, `P01a`).
    pub id: String,
    /// The heading path as written (`W01.P02`).
    pub written_path: String,
    /// Heading title.
    pub title: String,
    /// Intent paragraph (empty when missing).
    pub intent: String,
    /// 1-based heading line (0 for Phases added since).
    pub line: usize,
    /// The Wave holding the Phase, if any.
    pub wave: Option<Key>,
}

/// One Wave block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wave {
    /// Stable handle.
    pub key: Key,
    /// Canonical id (`W01`, `W01a`).
    pub id: String,
    /// Heading title.
    pub title: String,
    /// Intent paragraph (empty when missing).
    pub intent: String,
    /// 1-based heading line (0 for Waves added since).
    pub line: usize,
}

/// The `## Epic intent` block of an L4 plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpicIntent {
    /// The paragraph(s), trimmed.
    pub text: String,
    /// 1-based heading line (0 when added since).
    pub line: usize,
}

/// Authored prose the model does not interpret, kept at an anchor
/// (`before_title`, `before_steps`, `before_phase_P02`, `after_all`, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownBlock {
    /// Where the block is re-emitted.
    pub anchor: String,
    /// The block text, trimmed.
    pub content: String,
}

/// The retirement ledger: ids that were used once and may never be reused.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Retired {
    /// Retired Wave ids.
    pub waves: BTreeSet<String>,
    /// Retired Phase ids.
    pub phases: BTreeSet<String>,
    /// Retired Step ids.
    pub steps: BTreeSet<String>,
}

impl Retired {
    /// The set for `kind`.
    pub fn of(&self, kind: Kind) -> &BTreeSet<String> {
        match kind {
            Kind::Wave => &self.waves,
            Kind::Phase => &self.phases,
            Kind::Step => &self.steps,
        }
    }

    /// The set for `kind`, mutably.
    pub fn of_mut(&mut self, kind: Kind) -> &mut BTreeSet<String> {
        match kind {
            Kind::Wave => &mut self.waves,
            Kind::Phase => &mut self.phases,
            Kind::Step => &mut self.steps,
        }
    }

    /// Whether nothing is retired.
    pub fn is_empty(&self) -> bool {
        self.waves.is_empty() && self.phases.is_empty() && self.steps.is_empty()
    }

    /// Every token in emission order: Waves, Phases, Steps, each by number.
    pub fn tokens(&self) -> Vec<String> {
        let mut out = Vec::new();
        for set in [&self.waves, &self.phases, &self.steps] {
            let mut v: Vec<&String> = set.iter().collect();
            v.sort_by_key(|id| ids::sort_key(id));
            out.extend(v.into_iter().cloned());
        }
        out
    }
}

/// The structure of a plan without its prose: what must survive a write.
///
/// Intents and unknown blocks are left out on purpose: prose kept before a
/// container that follows a Phase without Steps (or a Wave without Phases)
/// reads back as that container's intent, in the reference as here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    /// Tier.
    pub tier: Tier,
    /// Waves: id, title.
    pub waves: Vec<(String, String)>,
    /// Phases: id, title, Wave id.
    pub phases: Vec<(String, String, Option<String>)>,
    /// Steps: id, checked, action, scope, Phase id.
    pub steps: Vec<(String, bool, String, String, Option<String>)>,
    /// Retired ids in emission order.
    pub retired: Vec<String>,
    /// Whether an Epic intent is present.
    pub has_epic: bool,
}

/// A parsed plan document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The frontmatter, with the declared tier.
    pub frontmatter: PlanFrontmatter,
    /// The first H1 text (empty when missing).
    pub title: String,
    /// The Epic intent block, if present.
    pub epic: Option<EpicIntent>,
    /// Every Wave in document order.
    pub waves: Vec<Wave>,
    /// Every Phase in document order.
    pub phases: Vec<Phase>,
    /// Every Step in document order.
    pub steps: Vec<Step>,
    /// The retirement ledger.
    pub retired: Retired,
    /// Prose kept at anchors, in document order.
    pub unknown: Vec<UnknownBlock>,
    /// Whether the source carried the `<!-- LINK RULES:` comment.
    pub has_link_rules: bool,
    /// The next free [`Key`].
    pub next_key: u32,
}

impl Plan {
    /// The declared tier.
    pub fn tier(&self) -> Tier {
        self.frontmatter.tier
    }

    /// A fresh [`Key`].
    pub fn new_key(&mut self) -> Key {
        self.next_key += 1;
        Key(self.next_key)
    }

    /// The Wave with `key`.
    pub fn wave_by_key(&self, key: Key) -> Option<&Wave> {
        self.waves.iter().find(|w| w.key == key)
    }

    /// The Phase with `key`.
    pub fn phase_by_key(&self, key: Key) -> Option<&Phase> {
        self.phases.iter().find(|p| p.key == key)
    }

    /// The Phases of a Wave, in order.
    pub fn phases_of(&self, wave: Key) -> impl Iterator<Item = &Phase> {
        self.phases.iter().filter(move |p| p.wave == Some(wave))
    }

    /// The Steps of a Phase, in order.
    pub fn steps_of(&self, phase: Key) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(move |s| s.phase == Some(phase))
    }

    /// The live ids of `kind`, in document order (duplicates kept).
    pub fn live_ids(&self, kind: Kind) -> Vec<&str> {
        match kind {
            Kind::Wave => self.waves.iter().map(|w| w.id.as_str()).collect(),
            Kind::Phase => self.phases.iter().map(|p| p.id.as_str()).collect(),
            Kind::Step => self.steps.iter().map(|s| s.id.as_str()).collect(),
        }
    }

    /// Every id of `kind` ever used: live and retired.
    pub fn used_ids(&self, kind: Kind) -> Vec<&str> {
        let mut v = self.live_ids(kind);
        v.extend(self.retired.of(kind).iter().map(String::as_str));
        v
    }

    /// The next free id of `kind`.
    pub fn next_id(&self, kind: Kind) -> String {
        ids::next_id(kind, self.used_ids(kind))
    }

    /// The Wave id above a Phase, as used in display paths at L3/L4.
    fn wave_id_for(&self, phase: &Phase) -> Option<&str> {
        if !matches!(self.tier(), Tier::L3 | Tier::L4) {
            return None;
        }
        phase
            .wave
            .and_then(|k| self.wave_by_key(k))
            .map(|w| w.id.as_str())
    }

    /// The display path of a Phase computed from its current ancestry.
    pub fn phase_path(&self, phase: &Phase) -> String {
        match self.wave_id_for(phase) {
            Some(w) => format!("{w}.{}", phase.id),
            None => phase.id.clone(),
        }
    }

    /// The display path of a Step computed from its current ancestry and the
    /// tier (at L1 a Step is addressed by its bare id).
    pub fn step_path(&self, step: &Step) -> String {
        if self.tier() == Tier::L1 {
            return step.id.clone();
        }
        match step.phase.and_then(|k| self.phase_by_key(k)) {
            Some(p) => format!("{}.{}", self.phase_path(p), step.id),
            None => step.id.clone(),
        }
    }

    /// The display path a reader is shown: the row's own text, as the
    /// reference reports it (it differs from [`Plan::step_path`] when the
    /// `tier:` disagrees with the headings), computed for a row added since.
    pub fn shown_path(&self, step: &Step) -> String {
        if step.written_path.is_empty() {
            self.step_path(step)
        } else {
            step.written_path.clone()
        }
    }

    /// Number of checked Steps.
    pub fn steps_completed(&self) -> usize {
        self.steps.iter().filter(|s| s.checked).count()
    }

    /// The display path of the first open Step in document order.
    pub fn next_open_step(&self) -> Option<String> {
        self.emitted_steps()
            .into_iter()
            .find(|s| !s.checked)
            .map(|s| self.step_path(s))
    }

    /// The plan's [`Outline`] as the serialiser writes it for the tier.
    pub fn outline(&self) -> Outline {
        let wave_id = |k: Option<Key>| k.and_then(|k| self.wave_by_key(k)).map(|w| w.id.clone());
        let phase_id = |k: Option<Key>| k.and_then(|k| self.phase_by_key(k)).map(|p| p.id.clone());
        let (waves, phases) = match self.tier() {
            Tier::L1 => (Vec::new(), Vec::new()),
            Tier::L2 => (Vec::new(), self.phases.iter().collect::<Vec<_>>()),
            Tier::L3 | Tier::L4 => (
                self.waves
                    .iter()
                    .map(|w| (w.id.clone(), w.title.clone()))
                    .collect(),
                self.waves
                    .iter()
                    .flat_map(|w| self.phases_of(w.key))
                    .collect(),
            ),
        };
        let nested = matches!(self.tier(), Tier::L3 | Tier::L4);
        Outline {
            tier: self.tier(),
            waves,
            phases: phases
                .into_iter()
                .map(|p| {
                    (
                        p.id.clone(),
                        p.title.clone(),
                        if nested { wave_id(p.wave) } else { None },
                    )
                })
                .collect(),
            steps: self
                .emitted_steps()
                .into_iter()
                .map(|s| {
                    let phase = if self.tier() == Tier::L1 {
                        None
                    } else {
                        phase_id(s.phase)
                    };
                    (
                        s.id.clone(),
                        s.checked,
                        s.action.clone(),
                        s.scope.clone(),
                        phase,
                    )
                })
                .collect(),
            retired: self.retired.tokens(),
            has_epic: self.tier() == Tier::L4 && self.epic.is_some(),
        }
    }

    /// The Steps in the order the serialiser writes them for the tier.
    pub fn emitted_steps(&self) -> Vec<&Step> {
        match self.tier() {
            Tier::L1 => self.steps.iter().collect(),
            Tier::L2 => self
                .phases
                .iter()
                .flat_map(|p| self.steps_of(p.key))
                .collect(),
            Tier::L3 | Tier::L4 => self
                .waves
                .iter()
                .flat_map(|w| self.phases_of(w.key))
                .flat_map(|p| self.steps_of(p.key))
                .collect(),
        }
    }
}

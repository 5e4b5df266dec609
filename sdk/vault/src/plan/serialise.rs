//! The plan serialiser: the whole document re-emitted in the reference's fixed
//! layout (spec/plan-format.md §4), with display paths recomputed from the
//! current ancestry and authored prose put back at its anchors.

use std::collections::{BTreeMap, VecDeque};

use super::frontmatter::Tier;
use super::model::{Phase, Plan, Step, Wave};

/// The canonical LINK RULES comment, emitted when the source had one.
pub const LINK_RULES: &str = "<!-- LINK RULES:
     - [[wiki-links]] are ONLY for .vault/ documents in the
       related: field above.
     - The related: field carries governing ADRs, if any.
       Steps inherit their evidence transitively. Direct supporting
       evidence links are optional; per-row footers do not exist.
     - NEVER use [[wiki-links]] or markdown links in the
       document body. -->";

const PHASE_TODO: &str = "TODO: Phase intent paragraph required by the convention ADR.";
const WAVE_TODO: &str = "TODO: Wave intent paragraph required by the convention ADR.";

/// Hands out each unknown block once, per anchor, in document order.
struct Blocks<'p> {
    pending: BTreeMap<&'p str, VecDeque<usize>>,
    contents: Vec<&'p str>,
    used: Vec<bool>,
}

impl<'p> Blocks<'p> {
    fn new(plan: &'p Plan, enabled: bool) -> Self {
        let mut pending: BTreeMap<&str, VecDeque<usize>> = BTreeMap::new();
        let contents: Vec<&str> = plan.unknown.iter().map(|b| b.content.as_str()).collect();
        if enabled {
            for (i, b) in plan.unknown.iter().enumerate() {
                pending.entry(b.anchor.as_str()).or_default().push_back(i);
            }
        }
        let used = vec![!enabled; contents.len()];
        Blocks {
            pending,
            contents,
            used,
        }
    }

    fn take(&mut self, anchor: &str) -> Option<&'p str> {
        let i = self.pending.get_mut(anchor)?.pop_front()?;
        self.used[i] = true;
        Some(self.contents[i])
    }

    fn leftovers(&self) -> Vec<&'p str> {
        self.contents
            .iter()
            .zip(&self.used)
            .filter(|(_, u)| !**u)
            .map(|(c, _)| *c)
            .collect()
    }
}

fn emit(parts: &mut Vec<String>, block: Option<&str>) {
    if let Some(b) = block {
        parts.push(b.to_string());
        parts.push(String::new());
    }
}

/// Emits the whole plan (frontmatter included) in canonical form; the text
/// ends with exactly one `\n`. With `canonicalise` unknown blocks are dropped.
/// The `modified`/`body_hash` stamp is applied by the caller.
pub fn serialise_plan(plan: &Plan, canonicalise: bool) -> String {
    let mut blocks = Blocks::new(plan, !canonicalise);
    let mut parts: Vec<String> = vec![plan.frontmatter.render(), String::new()];
    if plan.has_link_rules {
        parts.push(LINK_RULES.to_string());
        parts.push(String::new());
    }
    if !plan.retired.is_empty() {
        parts.push(format!(
            "<!-- RETIRED: {} -->",
            plan.retired.tokens().join(", ")
        ));
        parts.push(String::new());
    }
    emit(&mut parts, blocks.take("before_title"));
    let title = if plan.title.is_empty() {
        "(untitled plan)"
    } else {
        plan.title.as_str()
    };
    parts.push(format!("# {title}"));
    parts.push(String::new());
    emit(&mut parts, blocks.take("before_steps"));
    parts.push("## Steps".into());
    parts.push(String::new());
    emit(&mut parts, blocks.take("before_epic_intent"));
    if plan.tier() == Tier::L4
        && let Some(epic) = &plan.epic
    {
        parts.push("## Epic intent".into());
        parts.push(String::new());
        parts.push(epic.text.clone());
        parts.push(String::new());
    }
    match plan.tier() {
        Tier::L1 => {
            for step in &plan.steps {
                emit(&mut parts, blocks.take(&format!("before_step_{}", step.id)));
                parts.push(row(step, &step.id));
            }
            if !plan.steps.is_empty() {
                parts.push(String::new());
            }
        }
        Tier::L2 => {
            for phase in &plan.phases {
                phase_block(plan, phase, None, &mut blocks, &mut parts);
            }
        }
        Tier::L3 | Tier::L4 => {
            for wave in &plan.waves {
                wave_block(plan, wave, &mut blocks, &mut parts);
            }
        }
    }
    emit(&mut parts, blocks.take("after_all"));
    for b in blocks.leftovers() {
        emit(&mut parts, Some(b));
    }
    let mut out = parts.join("\n").trim_end().to_string();
    out.push('\n');
    out
}

/// One Step row: ``- [x] `P01.S02` - action; `scope`.``
pub fn row(step: &Step, path: &str) -> String {
    let state = if step.checked { 'x' } else { ' ' };
    format!("- [{state}] `{path}` - {}; `{}`.", step.action, step.scope)
}

fn phase_block(
    plan: &Plan,
    phase: &Phase,
    wave_id: Option<&str>,
    blocks: &mut Blocks<'_>,
    parts: &mut Vec<String>,
) {
    emit(parts, blocks.take(&format!("before_phase_{}", phase.id)));
    let path = match wave_id {
        Some(w) => format!("{w}.{}", phase.id),
        None => phase.id.clone(),
    };
    parts.push(format!("### Phase `{path}` - {}", phase.title));
    parts.push(String::new());
    parts.push(if phase.intent.is_empty() {
        PHASE_TODO.to_string()
    } else {
        phase.intent.clone()
    });
    parts.push(String::new());
    for step in plan.steps_of(phase.key) {
        emit(parts, blocks.take(&format!("before_step_{}", step.id)));
        parts.push(row(step, &format!("{path}.{}", step.id)));
    }
    parts.push(String::new());
}

fn wave_block(plan: &Plan, wave: &Wave, blocks: &mut Blocks<'_>, parts: &mut Vec<String>) {
    emit(parts, blocks.take(&format!("before_wave_{}", wave.id)));
    parts.push(format!("## Wave `{}` - {}", wave.id, wave.title));
    parts.push(String::new());
    parts.push(if wave.intent.is_empty() {
        WAVE_TODO.to_string()
    } else {
        wave.intent.clone()
    });
    parts.push(String::new());
    for phase in plan.phases_of(wave.key) {
        phase_block(plan, phase, Some(&wave.id), blocks, parts);
    }
}

//! The plan serialiser: the whole document re-emitted in the reference's fixed
//! layout (spec/plan-format.md §4), with display paths recomputed from the
//! current ancestry and authored prose put back at its anchors.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::{self, Write as _};

use super::frontmatter::Tier;
use super::model::{Key, Phase, Plan, Step, Wave};

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
    /// The anchor being looked up, formatted into a reused buffer.
    key: String,
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
            key: String::new(),
        }
    }

    /// The next block kept at `anchor` (formatted only when some block is
    /// still pending: every row has an anchor, few have prose).
    fn take(&mut self, anchor: fmt::Arguments<'_>) -> Option<&'p str> {
        if self.pending.is_empty() {
            return None;
        }
        self.key.clear();
        let _ = self.key.write_fmt(anchor);
        let queue = self.pending.get_mut(self.key.as_str())?;
        let i = queue.pop_front()?;
        if queue.is_empty() {
            self.pending.remove(self.key.as_str());
        }
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

/// The document being written: parts joined by `\n`, the way the reference
/// joins its list of lines, written straight into one buffer.
struct Out {
    text: String,
}

impl Out {
    /// Starts with the first part.
    fn new(first: String) -> Self {
        Out { text: first }
    }

    /// Appends a part.
    fn part(&mut self, part: &str) {
        self.text.push('\n');
        self.text.push_str(part);
    }

    /// Appends a formatted part.
    fn part_fmt(&mut self, part: fmt::Arguments<'_>) {
        self.text.push('\n');
        let _ = self.text.write_fmt(part);
    }

    /// Appends a block of prose and the blank part after it, if any.
    fn block(&mut self, block: Option<&str>) {
        if let Some(b) = block {
            self.part(b);
            self.part("");
        }
    }

    /// Appends one Step row: ``- [x] `P01.S02` - action; `scope`.``; `path`
    /// is the id path without the Step id.
    /// (Pushed piece by piece: the formatting machinery costs more than the
    /// copying on a plan of a thousand rows.)
    fn row(&mut self, step: &Step, path: Option<&str>) {
        let t = &mut self.text;
        t.push_str(if step.checked {
            "\n- [x] `"
        } else {
            "\n- [ ] `"
        });
        if let Some(p) = path {
            t.push_str(p);
            t.push('.');
        }
        for piece in [&step.id, "` - ", &step.action, "; `", &step.scope, "`."] {
            t.push_str(piece);
        }
    }

    /// The text, trailing whitespace trimmed and one `\n` added.
    fn finish(mut self) -> String {
        self.text.truncate(self.text.trim_end().len());
        self.text.push('\n');
        self.text
    }
}

/// Emits the whole plan (frontmatter included) in canonical form; the text
/// ends with exactly one `\n`. With `canonicalise` unknown blocks are dropped.
/// The `modified`/`body_hash` stamp is applied by the caller.
pub fn serialise_plan(plan: &Plan, canonicalise: bool) -> String {
    let mut blocks = Blocks::new(plan, !canonicalise);
    let mut out = Out::new(plan.frontmatter.render());
    out.part("");
    if plan.has_link_rules {
        out.part(LINK_RULES);
        out.part("");
    }
    if !plan.retired.is_empty() {
        out.part_fmt(format_args!(
            "<!-- RETIRED: {} -->",
            plan.retired.tokens().join(", ")
        ));
        out.part("");
    }
    out.block(blocks.take(format_args!("before_title")));
    let title = if plan.title.is_empty() {
        "(untitled plan)"
    } else {
        plan.title.as_str()
    };
    out.part_fmt(format_args!("# {title}"));
    out.part("");
    out.block(blocks.take(format_args!("before_steps")));
    out.part("## Steps");
    out.part("");
    out.block(blocks.take(format_args!("before_epic_intent")));
    if plan.tier() == Tier::L4
        && let Some(epic) = &plan.epic
    {
        out.part("## Epic intent");
        out.part("");
        out.part(&epic.text);
        out.part("");
    }
    let steps = steps_by_phase(plan);
    match plan.tier() {
        Tier::L1 => {
            for step in &plan.steps {
                step_row(step, None, &mut blocks, &mut out);
            }
            // Always, as the reference does: with no rows left, a block
            // after them still gets its own blank line.
            out.part("");
        }
        Tier::L2 => {
            for phase in &plan.phases {
                phase_block(&steps, phase, None, &mut blocks, &mut out);
            }
        }
        Tier::L3 | Tier::L4 => {
            for wave in &plan.waves {
                wave_block(plan, &steps, wave, &mut blocks, &mut out);
            }
        }
    }
    out.block(blocks.take(format_args!("after_all")));
    for b in blocks.leftovers() {
        out.block(Some(b));
    }
    out.finish()
}

/// The Steps of each Phase in order ([`Plan::steps_of`] for every Phase at
/// once, instead of one scan of all Steps per Phase).
fn steps_by_phase(plan: &Plan) -> HashMap<Key, Vec<&Step>> {
    let mut by: HashMap<Key, Vec<&Step>> = HashMap::new();
    for step in &plan.steps {
        if let Some(k) = step.phase {
            by.entry(k).or_default().push(step);
        }
    }
    by
}

fn step_row(step: &Step, path: Option<&str>, blocks: &mut Blocks<'_>, out: &mut Out) {
    out.block(blocks.take(format_args!("before_step_{}", step.id)));
    out.row(step, path);
}

fn phase_block(
    steps: &HashMap<Key, Vec<&Step>>,
    phase: &Phase,
    wave_id: Option<&str>,
    blocks: &mut Blocks<'_>,
    out: &mut Out,
) {
    out.block(blocks.take(format_args!("before_phase_{}", phase.id)));
    let path = match wave_id {
        Some(w) => format!("{w}.{}", phase.id),
        None => phase.id.clone(),
    };
    out.part_fmt(format_args!("### Phase `{path}` - {}", phase.title));
    out.part("");
    out.part(if phase.intent.is_empty() {
        PHASE_TODO
    } else {
        &phase.intent
    });
    out.part("");
    for step in steps.get(&phase.key).into_iter().flatten() {
        step_row(step, Some(&path), blocks, out);
    }
    out.part("");
}

fn wave_block(
    plan: &Plan,
    steps: &HashMap<Key, Vec<&Step>>,
    wave: &Wave,
    blocks: &mut Blocks<'_>,
    out: &mut Out,
) {
    out.block(blocks.take(format_args!("before_wave_{}", wave.id)));
    out.part_fmt(format_args!("## Wave `{}` - {}", wave.id, wave.title));
    out.part("");
    out.part(if wave.intent.is_empty() {
        WAVE_TODO
    } else {
        &wave.intent
    });
    out.part("");
    for phase in plan.phases_of(wave.key) {
        phase_block(steps, phase, Some(&wave.id), blocks, out);
    }
}

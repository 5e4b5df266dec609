//! The plan parser: frontmatter plus the body walk of spec/plan-format.md §3,
//! which turns headings and checkbox rows into the [`Plan`] model and keeps
//! every other block of prose at an anchor for the serialiser.

use std::borrow::Cow;
use std::fmt;

use crate::frontmatter;
use crate::pattern::Pattern;
use crate::text;

use super::error::PlanError;
use super::frontmatter::PlanFrontmatter;
use super::ids::{self, Kind};
use super::markdown::{self, MdLine};
use super::model::{EpicIntent, Key, Phase, Plan, Retired, Step, UnknownBlock, Wave};
use super::row;

pub(crate) static WAVE_HEADING: Pattern = Pattern::new(r"^Wave +`(W\d{2,}[a-z]?)` *- *(.+)$");
pub(crate) static PHASE_HEADING: Pattern =
    Pattern::new(r"^Phase +`((?:W\d{2,}[a-z]?\.)?P\d{2,}[a-z]?)` *- *(.+)$");
pub(crate) static RETIRED: Pattern = Pattern::new(r"<!--\s*RETIRED:\s*([^>]*?)\s*-->");

/// A plan text split into the parts the parser and the checks share.
pub(crate) struct Source<'t> {
    /// The YAML between the fences.
    pub yaml: &'t str,
    /// The body (from the first non-blank line after the closing fence).
    pub body: &'t str,
    /// How many lines precede the body in the file.
    pub body_offset: usize,
}

/// Normalises line ends and drops a BOM, the way readers see a document
/// (borrowed when there is nothing to change, as for any plan this crate
/// wrote).
pub(crate) fn normalise(text: &str) -> Cow<'_, str> {
    text::normalize_newlines(text::strip_bom(text))
}

/// Finds the frontmatter and body of an already-normalised text.
pub(crate) fn source(text: &str) -> Result<Source<'_>, PlanError> {
    let split = frontmatter::split(text).ok_or(PlanError::NoFrontmatter)?;
    let body_offset = text[..split.body].matches('\n').count();
    Ok(Source {
        yaml: split.yaml(text),
        body: split.body(text),
        body_offset,
    })
}

/// Parses a plan document (any line ends, optional BOM).
pub fn parse_plan(text: &str) -> Result<Plan, PlanError> {
    let text = normalise(text);
    let src = source(&text)?;
    parse_source(&src, &markdown::md_lines(src.body))
}

/// Parses a split plan whose body lines are already read (`plan check` reads
/// them once for its own rules and the parse).
pub(crate) fn parse_source(src: &Source<'_>, lines: &[MdLine<'_>]) -> Result<Plan, PlanError> {
    let fm = PlanFrontmatter::parse(src.yaml)?;
    let mut walker = Walker::new(src.body_offset);
    for (i, line) in lines.iter().enumerate() {
        walker.feed(i, line)?;
    }
    walker.flush_intent();
    walker.flush_unknown(format_args!("after_all"));
    Ok(Plan {
        frontmatter: fm,
        title: walker.title.unwrap_or_default(),
        epic: extract_epic(lines, src.body_offset),
        waves: walker.waves,
        phases: walker.phases,
        steps: walker.steps,
        retired: retired_ledger(src.body),
        unknown: walker.unknown,
        has_link_rules: walker.has_link_rules,
        next_key: walker.next_key,
    })
}

/// Reads every `<!-- RETIRED: ... -->` comment of a body, unioned.
pub(crate) fn retired_ledger(body: &str) -> Retired {
    let mut r = Retired::default();
    for cap in RETIRED.captures_iter(body) {
        for token in cap[1].split(',').map(str::trim) {
            let Some(p) = ids::parse_id(token) else {
                continue;
            };
            if p.kind == Kind::Step && p.suffix.is_some() {
                continue;
            }
            r.of_mut(p.kind).insert(token.to_string());
        }
    }
    r
}

fn extract_epic(lines: &[MdLine<'_>], offset: usize) -> Option<EpicIntent> {
    let start = lines.iter().position(|l| {
        markdown::atx_heading(&l.masked).is_some_and(|(lv, t)| lv == 2 && t == "Epic intent")
    })?;
    let mut text = Vec::new();
    for l in &lines[start + 1..] {
        // A Step row ends the Epic too (the walk reads it as a Step); the
        // reference kept it in the Epic text as well, duplicating it.
        if markdown::atx_heading(&l.masked).is_some_and(|(lv, _)| lv <= 3)
            || row::step_row(&l.masked).is_some()
        {
            break;
        }
        if RETIRED.is_match(l.raw) {
            continue;
        }
        text.push(l.raw);
    }
    Some(EpicIntent {
        text: trim_block(&text.join("\n")),
        line: offset + start + 1,
    })
}

/// Trims a block of prose the way the reference does (Python `strip()`),
/// except that the first line keeps its indentation when stripping it would
/// turn the line into a heading, a row or a fence (an indented `    ## x` is
/// code, a `\x0b### Phase` is text; stripped, both would be structure).
pub(crate) fn trim_block(s: &str) -> String {
    let stripped = text::py_strip(s);
    let first = stripped.lines().next().unwrap_or("");
    let becomes_token = markdown::atx_heading(first).is_some_and(|(level, _)| level <= 3)
        || first.starts_with("- [")
        || first.starts_with("```")
        || first.starts_with("~~~");
    let lead = s.len() - s.trim_start_matches(text::is_py_space).len();
    let line_start = s[..lead].rfind('\n').map_or(0, |i| i + 1);
    if becomes_token && line_start < lead {
        return s[line_start..]
            .trim_end_matches(text::is_py_space)
            .to_string();
    }
    stripped.to_string()
}

/// Whether `raw` opens an HTML comment that does not close on the same line.
fn opens_comment(raw: &str) -> bool {
    raw.rfind("<!--")
        .is_some_and(|i| !raw[i + 4..].contains("-->"))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum IntentTarget {
    None,
    Wave(usize),
    Phase(usize),
}

struct Walker<'t> {
    offset: usize,
    title: Option<String>,
    waves: Vec<Wave>,
    phases: Vec<Phase>,
    steps: Vec<Step>,
    unknown: Vec<UnknownBlock>,
    current_wave: Option<Key>,
    current_phase: Option<Key>,
    intent_target: IntentTarget,
    intent_buf: Vec<&'t str>,
    unknown_buf: Vec<&'t str>,
    in_epic: bool,
    in_link_rules: bool,
    has_link_rules: bool,
    next_key: u32,
}

impl<'t> Walker<'t> {
    fn new(offset: usize) -> Self {
        Walker {
            offset,
            title: None,
            waves: Vec::new(),
            phases: Vec::new(),
            steps: Vec::new(),
            unknown: Vec::new(),
            current_wave: None,
            current_phase: None,
            intent_target: IntentTarget::None,
            intent_buf: Vec::new(),
            unknown_buf: Vec::new(),
            in_epic: false,
            in_link_rules: false,
            has_link_rules: false,
            next_key: 0,
        }
    }

    fn key(&mut self) -> Key {
        self.next_key += 1;
        Key(self.next_key)
    }

    fn flush_intent(&mut self) {
        if !self.intent_buf.is_empty() {
            let text = trim_block(&self.intent_buf.join("\n"));
            match self.intent_target {
                IntentTarget::Wave(i) => self.waves[i].intent = text,
                IntentTarget::Phase(i) => self.phases[i].intent = text,
                IntentTarget::None => {}
            }
        }
        self.intent_buf.clear();
    }

    /// Keeps the pending prose at `anchor` (formatted only when there is
    /// prose: most anchors, one per row, have none).
    fn flush_unknown(&mut self, anchor: fmt::Arguments<'_>) {
        if !self.unknown_buf.is_empty() {
            let content = trim_block(&self.unknown_buf.join("\n"));
            if !content.is_empty() {
                self.unknown.push(UnknownBlock {
                    anchor: anchor.to_string(),
                    content,
                });
            }
            self.unknown_buf.clear();
        }
    }

    fn feed(&mut self, index: usize, line: &MdLine<'t>) -> Result<(), PlanError> {
        let lineno = self.offset + index + 1;
        // A line that opens a comment running past its end, or closes one
        // opened earlier, is prose: were it a token, the serialiser would
        // re-emit it without the `<!--` or `-->` and expose (or hide) the
        // lines around it. (The reference reads tokens there.)
        // Every comment test here needs a `<!--`; few lines hold one.
        let commented = line.raw.contains("<!--");
        let opens = commented && opens_comment(line.raw);
        let structural = !line.starts_in_comment && !opens;
        let heading = if structural {
            markdown::atx_heading(&line.masked)
        } else {
            None
        };
        let is_title = heading
            .as_ref()
            .is_some_and(|(lv, t)| *lv == 1 && !t.is_empty());
        let wave = heading
            .as_ref()
            .filter(|(lv, _)| *lv == 2)
            .and_then(|(_, t)| WAVE_HEADING.captures(t));
        let wave = wave.map(|c| (c[1].to_string(), c[2].trim().to_string()));
        let phase = heading
            .as_ref()
            .filter(|(lv, _)| *lv == 3)
            .and_then(|(_, t)| PHASE_HEADING.captures(t));
        let phase = phase.map(|c| (c[1].to_string(), c[2].trim().to_string()));
        let step = if structural {
            row::step_row(&line.masked)
        } else {
            None
        };
        let steps_heading = heading
            .as_ref()
            .is_some_and(|(lv, t)| *lv == 2 && t == "Steps");
        let epic_heading = heading
            .as_ref()
            .is_some_and(|(lv, t)| *lv == 2 && t == "Epic intent");

        // Only the first H1 is the title. The reference also consumed later
        // ones, dropping them and moving the prose above them before the
        // title; here they stay where they are as prose.
        if is_title && self.title.is_none() {
            self.flush_unknown(format_args!("before_title"));
            self.title = heading.clone().map(|(_, t)| t);
            return Ok(());
        }
        if commented && line.raw.contains("<!-- LINK RULES:") && !line.starts_in_comment {
            self.has_link_rules = true;
            self.in_link_rules = true;
        }
        if self.in_link_rules {
            if line.raw.contains("-->") {
                self.in_link_rules = false;
            }
            return Ok(());
        }
        // (Inside another comment the line is kept as text, so the comment
        // still closes where it did.)
        if commented && RETIRED.is_match(line.raw) && !line.starts_in_comment {
            return Ok(());
        }
        if epic_heading {
            self.flush_intent();
            self.intent_target = IntentTarget::None;
            self.flush_unknown(format_args!("before_epic_intent"));
            self.in_epic = true;
            return Ok(());
        }
        if self.in_epic {
            // The reference ends the Epic block only at a structural token, so
            // a heading such as `## Verification` after the Epic of a Wave-less
            // L4 plan was swallowed (and lost on the next write). The Epic text
            // itself ends at any level 1-3 heading; the walk now agrees.
            let any_heading = heading.as_ref().is_some_and(|(lv, _)| *lv <= 3);
            if wave.is_some() || phase.is_some() || step.is_some() || steps_heading || any_heading {
                self.in_epic = false;
            } else {
                return Ok(());
            }
        }
        if steps_heading {
            self.flush_intent();
            self.intent_target = IntentTarget::None;
            self.flush_unknown(format_args!("before_steps"));
            return Ok(());
        }
        if let Some((id, title)) = wave {
            self.flush_intent();
            let key = self.key();
            self.flush_unknown(format_args!("before_wave_{id}"));
            self.waves.push(Wave {
                key,
                id,
                title,
                intent: String::new(),
                line: lineno,
            });
            self.current_wave = Some(key);
            self.current_phase = None;
            self.intent_target = IntentTarget::Wave(self.waves.len() - 1);
            return Ok(());
        }
        if let Some((path, title)) = phase {
            self.flush_intent();
            let key = self.key();
            let id = path.rsplit('.').next().unwrap_or(&path).to_string();
            self.flush_unknown(format_args!("before_phase_{id}"));
            self.phases.push(Phase {
                key,
                id,
                written_path: path,
                title,
                intent: String::new(),
                line: lineno,
                wave: self.current_wave,
            });
            self.current_phase = Some(key);
            self.intent_target = IntentTarget::Phase(self.phases.len() - 1);
            return Ok(());
        }
        if let Some(parts) = step {
            self.flush_intent();
            self.intent_target = IntentTarget::None;
            let id = parts
                .path
                .rsplit('.')
                .next()
                .unwrap_or(parts.path)
                .to_string();
            let (action, scope) =
                row::split_action_scope(parts.rest).ok_or_else(|| PlanError::MalformedRow {
                    line: lineno,
                    row: line.raw.to_string(),
                })?;
            self.flush_unknown(format_args!("before_step_{id}"));
            self.steps.push(Step {
                id,
                written_path: parts.path.to_string(),
                checked: parts.checked,
                action,
                scope,
                line: lineno,
                phase: self.current_phase,
            });
            return Ok(());
        }
        if self.intent_target != IntentTarget::None {
            if heading.as_ref().is_some_and(|(lv, _)| *lv <= 3) {
                self.flush_intent();
                self.intent_target = IntentTarget::None;
            } else {
                self.intent_buf.push(line.raw);
                return Ok(());
            }
        }
        self.unknown_buf.push(line.raw);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retired_tokens_are_unioned() {
        let r = retired_ledger("<!-- RETIRED: S04, P02a -->\nx\n<!-- RETIRED: W01, s05, S07 -->");
        assert_eq!(r.tokens(), vec!["W01", "P02a", "S04", "S07"]);
    }
}

//! `vault plan check`: the PLAN001-PLAN070 rules of spec/plan-format.md §8,
//! run in the reference's order over one plan text.
//!
//! Structural rules read the comment-masked body (fenced lines carry no
//! tokens); PLAN060 reads the raw text. Rules that need the model run only
//! when the plan parses; the line-based rules always run.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use serde::Serialize;

use super::error::PlanError;
use super::frontmatter::Tier;
use super::ids;
use super::markdown;
use super::model::Plan;
use super::parse;
use super::row;

use crate::pattern::Pattern;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Informational.
    Info,
    /// Worth fixing; the plan stays usable.
    Warning,
    /// The plan breaks the grammar; verbs refuse to rewrite it.
    Error,
}

/// One finding of `plan check`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// `PLAN001`..`PLAN070`.
    pub code: &'static str,
    /// Severity.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// 1-based line in the file (0 for the whole document).
    pub line: usize,
    /// How to fix it.
    pub fix_hint: String,
    /// Whether `plan check --fix` repairs it.
    pub autofixable: bool,
}

fn finding(
    code: &'static str,
    severity: Severity,
    line: usize,
    message: String,
    fix_hint: &str,
    autofixable: bool,
) -> Finding {
    Finding {
        code,
        severity,
        message,
        line,
        fix_hint: fix_hint.to_string(),
        autofixable,
    }
}

static UNDERPADDED_HEADING: Pattern = Pattern::new(r"^#{2,3} +(?:Wave|Phase) +`([WP]\d[A-Za-z]?)`");
static SUFFIXED_CONTAINER: Pattern = Pattern::new(r"[WP]\d{2,}[A-Za-z]");
/// A backticked suffixed Step id (the id is the match without its backticks:
/// a plain `find` spares the capture machinery on every row).
static SUFFIXED_STEP: Pattern = Pattern::new(r"`S\d{2,}[A-Za-z]`");
static ROW_HEAD: Pattern = Pattern::new(r"^- +\[[ x]\] +`[SPW][\w.]*`");
static NOUN_HEADING: Pattern = Pattern::new(r"^(\w+) +`[^`]*`");
static NOUN_INTENT: Pattern = Pattern::new(r"^(\w+) intent$");

/// Runs every rule over a plan text (any line ends) and returns the findings
/// in rule order.
pub fn check_plan(raw: &str) -> Vec<Finding> {
    check_and_parse(raw).0
}

/// [`check_plan`] that also hands back its parse of the text, the same as
/// [`parse::parse_plan`]'s (the write guard needs both for one text).
pub(crate) fn check_and_parse(raw: &str) -> (Vec<Finding>, Result<Plan, PlanError>) {
    let text = parse::normalise(raw);
    let mut out = Vec::new();
    let src = match parse::source(&text) {
        Ok(s) => s,
        Err(e) => {
            out.push(finding(
                "PLAN010",
                Severity::Error,
                1,
                e.to_string(),
                "Give the plan a `---` frontmatter block with `tier:`.",
                false,
            ));
            dashes(&text, &mut out);
            return (out, Err(e));
        }
    };
    let lines = markdown::md_lines(src.body);
    let off = src.body_offset;
    let plan = parse::parse_source(&src, &lines);
    if let Ok(plan) = &plan {
        if plan.frontmatter.legacy_tier_default {
            out.push(finding(
                "PLAN001",
                Severity::Warning,
                1,
                "frontmatter has no `tier:`; the plan reads as L2".into(),
                "Add `tier: L1`..`L4` (plan check --fix writes `tier: L2`).",
                true,
            ));
        }
        if plan.tier() == Tier::L4 && plan.epic.as_ref().is_some_and(|e| e.text.contains("TODO:")) {
            let line = plan.epic.as_ref().map_or(0, |e| e.line);
            out.push(finding(
                "PLAN003",
                Severity::Warning,
                line,
                "the Epic intent still holds a `TODO:` placeholder".into(),
                "Write the Epic intent with `epic intent edit`.",
                false,
            ));
        }
    }
    for (i, l) in lines.iter().enumerate() {
        if let Some((level, t)) = markdown::atx_heading(&l.masked) {
            let wave = t.starts_with("Wave `") && level != 2;
            let phase = t.starts_with("Phase `") && level != 3;
            if wave || phase {
                out.push(finding(
                    "PLAN070",
                    Severity::Error,
                    off + i + 1,
                    format!(
                        "heading `{}` is at level {level}; Waves are level 2 and Phases level 3",
                        l.raw.trim()
                    ),
                    "Use `## Wave ...` and `### Phase ...`.",
                    false,
                ));
            }
        }
    }
    match &plan {
        Ok(plan) => {
            hierarchy(plan, &mut out);
            identifiers(plan, &lines, off, &mut out);
            display_paths(plan, &mut out);
        }
        Err(e) => {
            if !matches!(e, PlanError::MalformedRow { .. }) {
                out.push(finding(
                    "PLAN010",
                    Severity::Error,
                    1,
                    e.to_string(),
                    "Fix the frontmatter so the plan parses.",
                    false,
                ));
            }
        }
    }
    rows(&lines, off, &mut out);
    vocabulary(&lines, off, &mut out);
    dashes(&text, &mut out);
    (out, plan)
}

fn hierarchy(plan: &Plan, out: &mut Vec<Finding>) {
    let hint = "Reconcile the `tier:` frontmatter field with the heading structure, or change tier with `tier promote`/`tier demote`.";
    let (w, p, e) = (
        !plan.waves.is_empty(),
        !plan.phases.is_empty(),
        plan.epic.is_some(),
    );
    let t = plan.tier();
    let mut problems = Vec::new();
    match t {
        Tier::L1 => {
            if w || p || e {
                problems.push("L1 plan must not contain Wave, Phase or Epic intent headings");
            }
        }
        Tier::L2 => {
            if w || e {
                problems.push("L2 plan must not contain Wave or Epic intent headings");
            }
            if !p {
                problems.push("L2 plan must contain at least one Phase heading");
            }
        }
        Tier::L3 => {
            if e {
                problems.push("L3 plan must not contain an Epic intent");
            }
            if !w {
                problems.push("L3 plan must contain at least one Wave heading");
            }
        }
        Tier::L4 => {
            if !e {
                problems.push("L4 plan must contain an Epic intent block");
            }
            if !w {
                problems.push("L4 plan must contain at least one Wave heading");
            }
        }
    }
    if t != Tier::L1 && plan.steps.iter().any(|s| s.phase.is_none()) {
        problems.push("Steps must sit inside a Phase above L1");
    }
    if matches!(t, Tier::L3 | Tier::L4) && plan.phases.iter().any(|p| p.wave.is_none()) {
        problems.push("Phases must sit inside a Wave at L3 and L4");
    }
    for p in problems {
        out.push(finding(
            "PLAN010",
            Severity::Error,
            0,
            p.to_string(),
            hint,
            false,
        ));
    }
}

fn identifiers(plan: &Plan, lines: &[markdown::MdLine<'_>], off: usize, out: &mut Vec<Finding>) {
    for (i, l) in lines.iter().enumerate() {
        // (The `starts_with` only spares the regex lines it cannot match.)
        if l.masked.starts_with("##")
            && let Some(c) = UNDERPADDED_HEADING.captures(&l.masked)
        {
            out.push(finding(
                "PLAN020",
                Severity::Error,
                off + i + 1,
                format!("heading id `{}` has fewer than two digits", &c[1]),
                "Pad ids to two digits by re-creating the container with its verb.",
                false,
            ));
        }
        if l.masked.starts_with("- [")
            && let Some(m) = SUFFIXED_STEP.find(&l.masked)
        {
            out.push(finding(
                "PLAN020",
                Severity::Error,
                off + i + 1,
                format!(
                    "step id `{}` has a suffix; only Phases and Waves take suffixes",
                    m.as_str().trim_matches('`')
                ),
                "Use `step insert`, which allocates a plain id.",
                false,
            ));
        }
    }
    for token in plan.retired.tokens() {
        if ids::parse_id(&token).is_some_and(|p| p.digits < 2) {
            out.push(finding(
                "PLAN020",
                Severity::Error,
                0,
                format!("retired id `{token}` has fewer than two digits"),
                "Widen the token in the RETIRED comment.",
                false,
            ));
        }
    }
    let kinds: [(&str, Vec<(&str, usize)>); 3] = [
        (
            "Step",
            plan.steps.iter().map(|s| (s.id.as_str(), s.line)).collect(),
        ),
        (
            "Phase",
            plan.phases
                .iter()
                .map(|p| (p.id.as_str(), p.line))
                .collect(),
        ),
        (
            "Wave",
            plan.waves.iter().map(|w| (w.id.as_str(), w.line)).collect(),
        ),
    ];
    for (kind, list) in &kinds {
        for (id, n, line) in tally(list) {
            if n > 1 {
                out.push(finding(
                    "PLAN021",
                    Severity::Error,
                    line,
                    format!("{kind} id `{id}` appears {n} times"),
                    "Remove the duplicates or `phase renumber` one of them.",
                    false,
                ));
            }
        }
    }
    for (kind, list) in &kinds {
        let nums: Vec<u64> = list
            .iter()
            .filter_map(|(id, _)| ids::parse_id(id).map(|p| p.number))
            .collect();
        if nums.windows(2).any(|w| w[0] > w[1]) {
            out.push(finding(
                "PLAN022",
                Severity::Warning,
                0,
                format!("{kind} ids are not in increasing order"),
                "Document order may differ from id order after inserts; check it is intended.",
                false,
            ));
        }
    }
    let mut seen = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !(l.masked.starts_with("## Wave ") || l.masked.starts_with("### Phase ")) {
            continue;
        }
        for m in SUFFIXED_CONTAINER.find_iter(&l.masked) {
            let token = m.as_str().to_string();
            if seen.contains(&token) {
                continue;
            }
            seen.push(token.clone());
            out.push(finding(
                "PLAN023",
                Severity::Warning,
                off + i + 1,
                format!("id `{token}` uses a suffix"),
                "Keep suffixes lowercase; they are for Phases and Waves only.",
                false,
            ));
        }
    }
}

/// Each distinct id with how often it occurs and the line of its first
/// occurrence, in order of first occurrence.
fn tally<'p>(list: &[(&'p str, usize)]) -> Vec<(&'p str, usize, usize)> {
    let mut at: HashMap<&str, usize> = HashMap::with_capacity(list.len());
    let mut out: Vec<(&str, usize, usize)> = Vec::new();
    for &(id, line) in list {
        match at.entry(id) {
            Entry::Occupied(e) => out[*e.get()].1 += 1,
            Entry::Vacant(e) => {
                e.insert(out.len());
                out.push((id, 1, line));
            }
        }
    }
    out
}

fn display_paths(plan: &Plan, out: &mut Vec<Finding>) {
    for p in &plan.phases {
        let want = plan.phase_path(p);
        if p.written_path != want {
            out.push(finding(
                "PLAN030",
                Severity::Warning,
                p.line,
                format!(
                    "phase heading says `{}` but its path is `{want}`",
                    p.written_path
                ),
                "Run `plan check --fix`.",
                true,
            ));
        }
    }
    for s in &plan.steps {
        let want = plan.step_path(s);
        if s.written_path != want {
            out.push(finding(
                "PLAN030",
                Severity::Warning,
                s.line,
                format!(
                    "step row says `{}` but its path is `{want}`",
                    s.written_path
                ),
                "Run `plan check --fix`.",
                true,
            ));
        }
    }
}

fn rows(lines: &[markdown::MdLine<'_>], off: usize, out: &mut Vec<Finding>) {
    for (i, l) in lines.iter().enumerate() {
        let m = &l.masked;
        if l.in_fence || !m.starts_with("- [") {
            continue;
        }
        let problem = if !ROW_HEAD.is_match(m) {
            Some("row does not start with `- [ ]` or `- [x]` and a backticked id")
        } else if !m.contains(';') {
            Some("row has no `;` between action and scope")
        } else if !row::ends_with_scope(m) {
            Some("row does not end with a backticked scope")
        } else {
            None
        };
        if let Some(p) = problem {
            out.push(finding(
                "PLAN040",
                Severity::Error,
                off + i + 1,
                format!("{p}: `{}`", l.raw.trim()),
                "Write rows as ``- [ ] `S01` - action; `scope`.``",
                false,
            ));
        }
    }
}

fn vocabulary(lines: &[markdown::MdLine<'_>], off: usize, out: &mut Vec<Finding>) {
    for (i, l) in lines.iter().enumerate() {
        let Some((level, t)) = markdown::atx_heading(&l.masked) else {
            continue;
        };
        if !(level == 2 || level == 3) {
            continue;
        }
        let noun = NOUN_HEADING
            .captures(&t)
            .map(|c| c[1].to_string())
            .or_else(|| {
                (level == 2)
                    .then(|| NOUN_INTENT.captures(&t).map(|c| c[1].to_string()))
                    .flatten()
            });
        if let Some(noun) = noun
            && !matches!(noun.as_str(), "Epic" | "Wave" | "Phase" | "Step")
        {
            out.push(finding(
                "PLAN050",
                Severity::Error,
                off + i + 1,
                format!(
                    "heading noun `{noun}` is not a plan container; use Epic, Wave, Phase or Step"
                ),
                "Rename the heading or drop the backticked id.",
                false,
            ));
        }
    }
}

fn dashes(text: &str, out: &mut Vec<Finding>) {
    // One scan of the whole text spares the per-line scans of a clean plan.
    if !(text.contains('\u{2014}') || text.contains('\u{2013}')) {
        return;
    }
    for (i, line) in text.split('\n').enumerate() {
        for (dash, name) in [('\u{2014}', "em dash"), ('\u{2013}', "en dash")] {
            if line.contains(dash) {
                out.push(finding(
                    "PLAN060",
                    Severity::Error,
                    i + 1,
                    format!("line holds an {name} (U+{:04X})", dash as u32),
                    "Use ` - ` (plan check --fix replaces it).",
                    true,
                ));
            }
        }
    }
}

/// Whether any finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

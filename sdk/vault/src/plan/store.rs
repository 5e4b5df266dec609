//! Plan writes over a [`Storage`]: load, apply one operation or a batch,
//! guard, stamp and write atomically (spec/plan-format.md §4 "Write path").
//!
//! Everything is computed before the one write: a refused operation, a stale
//! `expected_blob_hash` or a guard failure leaves the file byte-identical.

use std::collections::HashSet;

use serde::Serialize;

use crate::date::Date;
use crate::hash;
use crate::storage::Storage;

use super::check::{self, Severity};
use super::error::PlanError;
use super::ids::Kind;
use super::model::Plan;
use super::op::{OpOutcome, PlanOp};
use super::parse;
use super::serialise::serialise_plan;

/// A plan read from storage.
#[derive(Debug, Clone)]
pub struct PlanDoc {
    /// Workspace-relative path.
    pub path: String,
    /// The raw bytes.
    pub bytes: Vec<u8>,
    /// Git blob OID of the bytes.
    pub blob_hash: String,
    /// The parsed plan.
    pub plan: Plan,
}

/// Reads and parses the plan at `path`.
pub fn load_plan(storage: &dyn Storage, path: &str) -> Result<PlanDoc, PlanError> {
    let bytes = storage.read(path)?;
    let text = std::str::from_utf8(&bytes).map_err(|_| PlanError::NotUtf8 {
        path: path.to_string(),
    })?;
    let plan = parse::parse_plan(text)?;
    Ok(PlanDoc {
        path: path.to_string(),
        blob_hash: hash::blob_oid(&bytes),
        bytes,
        plan,
    })
}

/// How a plan mutation is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOptions {
    /// The date stamped into `modified:` (never read from the clock here).
    pub today: Date,
    /// Refuse, changing nothing, unless the file's blob OID is this one.
    pub expected_blob_hash: Option<String>,
    /// Compute everything, write nothing.
    pub dry_run: bool,
    /// Drop the authored prose around the containers (`--canonicalise`).
    pub canonicalise: bool,
}

impl WriteOptions {
    /// Options for a real write on `today` with no concurrency check.
    pub fn new(today: Date) -> Self {
        WriteOptions {
            today,
            expected_blob_hash: None,
            dry_run: false,
            canonicalise: false,
        }
    }
}

/// What a plan write did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanWrite {
    /// Workspace-relative path.
    pub path: String,
    /// Whether the plan text changed (and, unless a dry run, was written).
    pub changed: bool,
    /// Whether this was a dry run.
    pub dry_run: bool,
    /// Blob OID of the file now (the would-be file on a dry run).
    pub blob_hash: String,
    /// Blob OID before the call.
    pub previous_blob_hash: String,
    /// Authored prose blocks kept around the containers.
    pub preserved_blocks: usize,
}

/// One operation applied and written.
#[derive(Debug, Clone)]
pub struct PlanMutation {
    /// The write.
    pub write: PlanWrite,
    /// What the operation did.
    pub outcome: OpOutcome,
    /// The plan after the operation.
    pub plan: Plan,
}

/// A batch applied item by item and written once.
#[derive(Debug)]
pub struct PlanBatch {
    /// The write.
    pub write: PlanWrite,
    /// One result per operation, in order; a failed item changed nothing.
    pub items: Vec<Result<OpOutcome, PlanError>>,
    /// The plan after the batch.
    pub plan: Plan,
}

/// Applies one operation to the plan at `path` and writes it.
pub fn mutate_plan(
    storage: &dyn Storage,
    path: &str,
    op: &PlanOp,
    opts: &WriteOptions,
) -> Result<PlanMutation, PlanError> {
    let opened = open_for_write(storage, path, opts)?;
    let mut plan = opened.doc.plan.clone();
    let outcome = plan.apply(op)?;
    let write = commit(
        storage,
        &opened,
        &plan,
        &outcome.retired,
        opts,
        Rewrite::Always,
    )?;
    Ok(PlanMutation {
        write,
        outcome,
        plan,
    })
}

/// Applies several operations in order (a failed one is skipped and
/// reported) and writes the plan once when anything changed.
pub fn mutate_plan_batch(
    storage: &dyn Storage,
    path: &str,
    ops: &[PlanOp],
    opts: &WriteOptions,
) -> Result<PlanBatch, PlanError> {
    let (write, items, plan) = edit_plan(storage, path, opts, |session| {
        ops.iter().map(|op| session.apply(op)).collect::<Vec<_>>()
    })?;
    Ok(PlanBatch { write, items, plan })
}

/// A plan being edited in memory by [`edit_plan`]: every applied operation
/// either changes it completely or not at all.
#[derive(Debug)]
pub struct PlanSession {
    plan: Plan,
    retired: Vec<String>,
}

impl PlanSession {
    /// The plan as edited so far.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Applies one operation; on error the plan is left as it was.
    pub fn apply(&mut self, op: &PlanOp) -> Result<OpOutcome, PlanError> {
        let mut next = self.plan.clone();
        let out = next.apply(op)?;
        self.retired.extend(out.retired.iter().cloned());
        self.plan = next;
        Ok(out)
    }
}

/// Loads the plan at `path` (checking `expected_blob_hash` and refusing a
/// plan with structural errors), lets `f` edit it, then guards, stamps and
/// writes it once if it changed. Returns the write, `f`'s value and the plan.
pub fn edit_plan<T>(
    storage: &dyn Storage,
    path: &str,
    opts: &WriteOptions,
    f: impl FnOnce(&mut PlanSession) -> T,
) -> Result<(PlanWrite, T, Plan), PlanError> {
    let opened = open_for_write(storage, path, opts)?;
    let mut session = PlanSession {
        plan: opened.doc.plan.clone(),
        retired: Vec::new(),
    };
    let value = f(&mut session);
    let write = commit(
        storage,
        &opened,
        &session.plan,
        &session.retired,
        opts,
        Rewrite::WhenModelChanged,
    )?;
    Ok((write, value, session.plan))
}

/// A plan loaded for a write and found safe to rewrite.
struct Opened {
    doc: PlanDoc,
}

fn open_for_write(
    storage: &dyn Storage,
    path: &str,
    opts: &WriteOptions,
) -> Result<Opened, PlanError> {
    // A write first rolls back a batch a killed operation left half-applied,
    // so the roll-back can never later undo this write.
    if !opts.dry_run {
        crate::ops::recover(storage).map_err(|e| PlanError::Interrupted(Box::new(e)))?;
    }
    // One parse serves the plan and `plan check` (a plan of a thousand
    // Steps costs a verb a millisecond per parse).
    let bytes = storage.read(path)?;
    let text = std::str::from_utf8(&bytes).map_err(|_| PlanError::NotUtf8 {
        path: path.to_string(),
    })?;
    let (findings, plan) = check::check_and_parse(text);
    let doc = PlanDoc {
        path: path.to_string(),
        blob_hash: hash::blob_oid(&bytes),
        plan: plan?,
        bytes,
    };
    if let Some(expected) = &opts.expected_blob_hash
        && !expected.eq_ignore_ascii_case(&doc.blob_hash)
    {
        return Err(PlanError::Stale {
            path: path.to_string(),
            expected: expected.clone(),
            actual: doc.blob_hash,
        });
    }
    let text = String::from_utf8_lossy(&doc.bytes);
    // Beyond the reference: an unterminated `<!--` hides everything after it,
    // including what the serialiser would write there.
    if let Some(at) = text
        .rfind("<!--")
        .filter(|&at| !text[at + 4..].contains("-->"))
    {
        let line = text[..at].matches('\n').count() + 1;
        return Err(PlanError::Unsafe {
            findings: format!("line {line}: `<!--` is never closed by `-->`"),
        });
    }
    if let Some(line) = crate::ledger::unclosed_fence(&text) {
        return Err(PlanError::Unsafe {
            findings: format!("line {line}: the code fence is never closed"),
        });
    }
    let errors: Vec<_> = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    // Only the errors that make a rewrite destructive stop it, as in the
    // reference: a Wave or Phase the tier cannot hold (PLAN010) and rows the
    // parser cannot see (PLAN070). A dash, padding or row-contract finding
    // is the author's to fix and does not block the verbs.
    let destructive: Vec<_> = errors
        .iter()
        .filter(|f| DESTRUCTIVE_CODES.contains(&f.code))
        .collect();
    if !destructive.is_empty() && !scaffold_only(&doc.plan, &errors) {
        let findings = destructive
            .iter()
            .map(|f| format!("{} line {}: {}", f.code, f.line, f.message))
            .collect::<Vec<_>>()
            .join("; ");
        return Err(PlanError::Unsafe { findings });
    }
    Ok(Opened { doc })
}

/// The `plan check` codes that make a plan unsafe to rewrite.
const DESTRUCTIVE_CODES: [&str; 2] = ["PLAN010", "PLAN070"];

/// Whether the re-read plan is the plan meant: same modelled frontmatter,
/// same [`Outline`](super::model::Outline), and every block of authored prose
/// still in the text. (Prose may move into an intent; see `Outline`.)
fn same_plan(reread: &Plan, meant: &Plan, text: &str, canonicalise: bool) -> bool {
    let (fa, fb) = (&reread.frontmatter, &meant.frontmatter);
    let prose_kept = canonicalise || meant.unknown.iter().all(|b| text.contains(&b.content));
    fa.tier == fb.tier
        && fa.tags == fb.tags
        && fa.related == fb.related
        && fa.date == fb.date
        && reread.outline() == meant.outline()
        && prose_kept
}

/// A freshly scaffolded plan: no Wave, Phase, Step or Epic intent. Its only
/// errors (PLAN010) do not stop the verbs that populate it.
fn is_scaffold(p: &Plan) -> bool {
    p.waves.is_empty() && p.phases.is_empty() && p.steps.is_empty() && p.epic.is_none()
}

/// Whether `errors` are only the PLAN010 findings a scaffold may carry.
fn scaffold_only(p: &Plan, errors: &[impl std::borrow::Borrow<check::Finding>]) -> bool {
    is_scaffold(p) && errors.iter().all(|f| f.borrow().code == "PLAN010")
}

/// When a plan operation rewrites the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rewrite {
    /// Whenever the serialised, `modified:`-stamped plan differs from the
    /// bytes on disk, as the reference's CLI verbs do: a Step checked
    /// twice, a move to the same place, still re-stamps `modified:` and
    /// re-serialises a hand-written plan.
    Always,
    /// Only when the operations changed the plan's model (the MCP batch
    /// tools: a progress call that changes no checkbox writes nothing).
    WhenModelChanged,
}

/// Serialises, stamps, guards and writes `plan` over the opened plan.
fn commit(
    storage: &dyn Storage,
    opened: &Opened,
    plan: &Plan,
    retired: &[String],
    opts: &WriteOptions,
    rewrite: Rewrite,
) -> Result<PlanWrite, PlanError> {
    let doc = &opened.doc;
    let original = String::from_utf8_lossy(&doc.bytes).into_owned();
    // Canonicalising is a change even when the model is not.
    let before = if opts.canonicalise || rewrite == Rewrite::Always {
        original.clone()
    } else {
        serialise_plan(&doc.plan, false)
    };
    let after = serialise_plan(plan, opts.canonicalise);
    let mut write = PlanWrite {
        path: doc.path.clone(),
        changed: false,
        dry_run: opts.dry_run,
        blob_hash: doc.blob_hash.clone(),
        previous_blob_hash: doc.blob_hash.clone(),
        preserved_blocks: if opts.canonicalise {
            0
        } else {
            plan.unknown.len()
        },
    };
    let stamped = hash::refresh_modified_stamp(&after, opts.today);
    let unchanged = match rewrite {
        Rewrite::Always => stamped == before,
        Rewrite::WhenModelChanged => before == after,
    };
    if unchanged {
        return Ok(write);
    }
    guard(opened, plan, retired, &stamped, opts)?;
    let bytes = stamped.into_bytes();
    write.changed = true;
    write.blob_hash = hash::blob_oid(&bytes);
    if opts.dry_run {
        return Ok(write);
    }
    storage.write(&doc.path, &bytes)?;
    if storage.read(&doc.path).ok().as_deref() != Some(&bytes[..]) {
        storage.write(&doc.path, &doc.bytes)?;
        return Err(PlanError::VerifyFailed {
            path: doc.path.clone(),
        });
    }
    Ok(write)
}

/// The write guard: bounded size, no live id lost unless retired on purpose,
/// no clean plan turned into one the verbs refuse, and the output re-parses
/// to the same plan.
fn guard(
    opened: &Opened,
    plan: &Plan,
    retired: &[String],
    stamped: &str,
    opts: &WriteOptions,
) -> Result<(), PlanError> {
    let doc = &opened.doc;
    let limit = (4 * doc.bytes.len()).max(65536);
    if stamped.len() > limit {
        return Err(PlanError::Guard(format!(
            "the new plan is {} bytes, over the {limit}-byte limit",
            stamped.len()
        )));
    }
    let reparsed = parse::parse_plan(stamped)
        .map_err(|e| PlanError::Guard(format!("the new plan does not parse: {e}")))?;
    for kind in [Kind::Wave, Kind::Phase, Kind::Step] {
        // A set: with a list, a plan of a thousand Steps costs a million
        // comparisons here.
        let after_live: HashSet<&str> = reparsed.live_ids(kind).into_iter().collect();
        for id in doc.plan.live_ids(kind) {
            if !after_live.contains(id) && !reparsed.retired.of(kind).contains(id) {
                return Err(PlanError::Guard(format!(
                    "{} `{id}` would disappear without being retired",
                    kind.noun().to_lowercase()
                )));
            }
        }
        for id in reparsed.retired.of(kind) {
            if !doc.plan.retired.of(kind).contains(id) && !retired.contains(id) {
                return Err(PlanError::Guard(format!(
                    "{} `{id}` would be retired unintentionally",
                    kind.noun().to_lowercase()
                )));
            }
        }
    }
    if reparsed.emitted_steps().len() != plan.emitted_steps().len() {
        return Err(PlanError::Guard(
            "the new plan does not re-read with the same steps".into(),
        ));
    }
    // A rewrite may leave findings the next verb refuses (removing an L4
    // plan's only Wave leaves PLAN010), as the reference allows: the verb
    // did what was asked, and `plan check` names what is left to fix.
    if !same_plan(&reparsed, plan, stamped, opts.canonicalise) {
        return Err(PlanError::Guard(
            "the new plan does not re-read to the same plan".into(),
        ));
    }
    Ok(())
}

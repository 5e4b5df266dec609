//! `vault exec log` / MCP `log` (spec/exec-ledger.md §4): the single writer of
//! ledgers. Every input is validated and the new text computed before the one
//! atomic write; identical re-logs change nothing.

use serde::Serialize;

use crate::date::Date;
use crate::doc::DocType;
use crate::hash;
use crate::plan::{self, PlanError};
use crate::storage::Storage;
use crate::template::{self, Fill};

use super::error::LedgerError;
use super::row::{LedgerRow, Op, render_note};
use super::section::{append_notes, append_rows, malformed_rows, unclosed_fence};

/// One `log` call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogRequest {
    /// The feature handle (`#` optional).
    pub feature: String,
    /// The parent plan's stem (must exist in `.vault/plan/`).
    pub plan_stem: String,
    /// The Step: leaf `S##` or its full display path.
    pub step: String,
    /// Change rows `OP:path` (`A M D`, `R:old->new`).
    pub rows: Vec<String>,
    /// Verification results `<command>=pass|fail`.
    pub verify: Vec<String>,
    /// Attribution persona.
    pub by: Option<String>,
    /// Exception notes (blank ones ignored).
    pub notes: Vec<String>,
}

/// How a log call writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogOptions {
    /// The date stamped into `modified:`.
    pub today: Date,
    /// Resolve and render without writing.
    pub dry_run: bool,
    /// Refuse, changing nothing, unless the ledger's blob OID is this one.
    pub expected_blob_hash: Option<String>,
}

impl LogOptions {
    /// A real write on `today`.
    pub fn new(today: Date) -> Self {
        LogOptions {
            today,
            dry_run: false,
            expected_blob_hash: None,
        }
    }
}

/// What a log call did (the MCP `log` result plus hashes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogResult {
    /// Workspace-relative ledger path.
    pub path: String,
    /// The canonical Step id written.
    pub step: String,
    /// Rows offered (change + verify + by), duplicates included.
    pub rows: usize,
    /// Notes offered (non-blank).
    pub notes: usize,
    /// Whether the ledger text changed.
    pub changed: bool,
    /// Whether the ledger was created by this call.
    pub created: bool,
    /// Rows actually appended.
    pub appended_rows: usize,
    /// Notes actually appended.
    pub appended_notes: usize,
    /// Blob OID of the ledger now (empty when it does not exist).
    pub blob_hash: String,
}

/// Parses `OP:path` (or `R:old->new`) into a change row for `step`.
pub fn parse_row_spec(step: &str, spec: &str) -> Result<LedgerRow, LedgerError> {
    let bad = |reason| LedgerError::BadRow {
        spec: spec.to_string(),
        reason,
    };
    let (op, path) = spec
        .split_once(':')
        .ok_or_else(|| bad("use `OP:path` with OP one of `A`, `M`, `D`, `R`"))?;
    let op = match op.trim().to_ascii_uppercase().as_str() {
        "A" => Op::A,
        "M" => Op::M,
        "D" => Op::D,
        "R" => Op::R,
        "T" => {
            return Err(bad(
                "`T` rows are written only by the fold; use `A`, `M`, `D` or `R`",
            ));
        }
        _ => return Err(bad("OP must be one of `A`, `M`, `D`, `R`")),
    };
    let path = path.trim();
    if path.contains('`') {
        return Err(bad("a path may not contain a backtick"));
    }
    let cells = if op == Op::R {
        let (old, new) = path
            .split_once("->")
            .ok_or_else(|| bad("a rename needs `R:old->new`"))?;
        let (old, new) = (old.trim(), new.trim());
        if old.is_empty() || new.is_empty() {
            return Err(bad("a rename needs both `old` and `new` paths"));
        }
        vec![old.to_string(), new.to_string()]
    } else {
        if path.is_empty() {
            return Err(bad("the path must not be empty"));
        }
        vec![path.to_string()]
    };
    Ok(LedgerRow::change(step, op, cells))
}

/// Parses `<command>=pass|fail` (split on the last `=`) into a `verify:` row.
pub fn parse_verify_spec(step: &str, spec: &str) -> Result<LedgerRow, LedgerError> {
    let bad = |reason| LedgerError::BadVerify {
        spec: spec.to_string(),
        reason,
    };
    let (command, result) = spec
        .rsplit_once('=')
        .ok_or_else(|| bad("use `<command>=pass` or `<command>=fail`"))?;
    let result = result.trim().to_ascii_lowercase();
    if result != "pass" && result != "fail" {
        return Err(bad(
            "the result after the last `=` must be `pass` or `fail`",
        ));
    }
    let command = command.trim();
    if command.is_empty() || command.contains('`') {
        return Err(bad("the command must be non-empty and hold no backtick"));
    }
    Ok(LedgerRow::verify(step, command, &result))
}

/// The ledger path of a plan: `.vault/exec/<date>-<feature>/<date>-<feature>-ledger.md`.
pub fn ledger_path(plan_date: Date, feature: &str) -> String {
    format!(".vault/exec/{plan_date}-{feature}/{plan_date}-{feature}-ledger.md")
}

/// Whether a stem names a ledger.
pub fn is_ledger_stem(stem: &str) -> bool {
    stem.ends_with("-ledger")
}

fn normalise_feature(feature: &str) -> Result<String, LedgerError> {
    let f = crate::doc::feature_arg(feature).to_string();
    if f.is_empty()
        || !f
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(LedgerError::BadFeature {
            feature: feature.to_string(),
        });
    }
    Ok(f)
}

/// Logs rows and notes for one Step of a plan into its ledger.
pub fn log(
    storage: &dyn Storage,
    req: &LogRequest,
    opts: &LogOptions,
) -> Result<LogResult, LedgerError> {
    crate::ops::begin(storage, opts.dry_run)?;
    let feature = normalise_feature(&req.feature)?;
    // The plan by its stem or by its feature, as every plan verb takes it;
    // none named: the feature's own plan.
    let given = req.plan_stem.trim().trim_end_matches(".md");
    let target = if given.is_empty() {
        feature.as_str()
    } else {
        given
    };
    let plan_path = plan::resolve_plan(storage, target, false).map_err(|err| match err {
        PlanError::PlanNotFound { near, .. } => LedgerError::PlanNotFound {
            feature: feature.clone(),
            stem: given.to_owned(),
            near,
        },
        other => other.into(),
    })?;
    let stem = crate::doc::stem_of(&plan_path).to_owned();
    let doc = plan::load_plan(storage, &plan_path)?;
    let step = doc.plan.steps[doc.plan.find_step(&req.step)?].id.clone();

    let mut rows = Vec::new();
    for spec in &req.rows {
        rows.push(parse_row_spec(&step, spec)?);
    }
    for spec in &req.verify {
        rows.push(parse_verify_spec(&step, spec)?);
    }
    if let Some(by) = &req.by {
        let b = by.trim();
        if b.is_empty() || b.contains('`') {
            return Err(LedgerError::BadBy {
                persona: by.clone(),
            });
        }
        rows.push(LedgerRow::by(&step, b));
    }
    let notes: Vec<String> = req
        .notes
        .iter()
        .filter(|n| !n.trim().is_empty())
        .map(|n| render_note(&step, n))
        .collect();

    let plan_date = Date::parse_lenient(&doc.plan.frontmatter.date)
        .ok()
        .or_else(|| stem.get(..10).and_then(|d| Date::parse_lenient(d).ok()))
        .ok_or_else(|| LedgerError::NoPlanDate { stem: stem.clone() })?;
    let path = ledger_path(plan_date, &feature);
    let (current, created) = if storage.exists(&path)? {
        let bytes = storage.read(&path)?;
        (Some(bytes), false)
    } else {
        (None, true)
    };
    let old_hash = current.as_deref().map(hash::blob_oid).unwrap_or_default();
    if let Some(expected) = &opts.expected_blob_hash
        && !expected.eq_ignore_ascii_case(&old_hash)
    {
        return Err(LedgerError::Stale {
            path,
            expected: expected.clone(),
            actual: old_hash,
        });
    }
    let text = match &current {
        Some(bytes) => String::from_utf8(bytes.clone())
            .map_err(|_| LedgerError::NotUtf8 { path: path.clone() })?,
        None => {
            let tpl = template::load(storage, DocType::Exec)?;
            let related = vec![format!("[[{stem}]]")];
            template::hydrate(
                &tpl,
                &Fill {
                    feature: &feature,
                    date: plan_date,
                    title: None,
                    tier: None,
                    plan_stem: Some(&stem),
                    related: &related,
                },
            )
        }
    };
    if let Some(line) = unclosed_fence(&text) {
        return Err(LedgerError::Malformed {
            path,
            line,
            row: "an unclosed code fence".into(),
        });
    }
    if let Some((line, row)) = malformed_rows(&text).into_iter().next() {
        return Err(LedgerError::Malformed { path, line, row });
    }
    let (with_rows, appended) = append_rows(&text, &rows)?;
    let (with_notes, appended_notes) = append_notes(&with_rows, &notes);
    let mut result = LogResult {
        path: path.clone(),
        step,
        rows: rows.len(),
        notes: notes.len(),
        changed: false,
        created: false,
        appended_rows: appended.len(),
        appended_notes,
        blob_hash: old_hash,
    };
    if with_notes == text {
        // Nothing new to log. A ledger that did not exist is still laid
        // down as its scaffold (unstamped), as the reference does, so the
        // Step has its ledger from the first call; `changed` stays false.
        if created && !opts.dry_run {
            storage.write(&path, text.as_bytes())?;
            result.created = true;
            result.blob_hash = hash::blob_oid(text.as_bytes());
        }
        return Ok(result);
    }
    let stamped = hash::refresh_modified_stamp(&with_notes, opts.today);
    result.changed = true;
    result.created = created;
    result.blob_hash = hash::blob_oid(stamped.as_bytes());
    if !opts.dry_run {
        storage.write(&path, stamped.as_bytes())?;
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_specs_follow_the_reference() {
        assert_eq!(
            parse_row_spec("S01", "m: src/lib.rs ").unwrap().render(),
            "- `S01` `M` `src/lib.rs`"
        );
        assert_eq!(
            parse_row_spec("S02", "R:src/old.rs -> src/new.rs")
                .unwrap()
                .render(),
            "- `S02` `R` `src/old.rs` -> `src/new.rs`"
        );
        assert!(parse_row_spec("S01", "T:x").is_err());
        assert!(parse_row_spec("S01", "R:x").is_err());
        assert_eq!(
            parse_verify_spec("S01", "x = y=FAIL").unwrap().render(),
            "- `S01` `verify:` `x = y` -> `fail`"
        );
        assert!(parse_verify_spec("S01", "cargo test").is_err());
    }

    const PLAN: &str = "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-01'\ntier: L2\n---\n\n# p\n\n## Steps\n\n### Phase `P01` - a\n\nI.\n\n- [ ] `P01.S01` - a; `x`.\n";
    const LEDGER: &str = ".vault/exec/2026-03-01-f/2026-03-01-f-ledger.md";

    fn request(rows: &[&str]) -> LogRequest {
        LogRequest {
            feature: "#f".into(),
            plan_stem: "2026-03-01-f-plan".into(),
            step: "P01.S01".into(),
            rows: rows.iter().map(|r| r.to_string()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_bad_row_refuses_the_whole_call_and_a_malformed_ledger_is_never_rewritten() {
        let s = crate::MemStorage::new();
        s.insert(".vault/plan/2026-03-01-f-plan.md", PLAN);
        let today = Date::new(2026, 3, 2).unwrap();
        assert!(matches!(
            log(&s, &request(&["A:a.rs", "T:b.rs"]), &LogOptions::new(today)),
            Err(LedgerError::BadRow { .. })
        ));
        assert!(!s.exists(LEDGER).unwrap());
        let done = log(&s, &request(&["A:a.rs"]), &LogOptions::new(today)).unwrap();
        assert!(done.created && done.changed && done.step == "S01");
        let broken = format!(
            "{}- stray line\n",
            String::from_utf8(s.read(LEDGER).unwrap()).unwrap()
        );
        s.insert(LEDGER, broken.clone());
        let e = log(&s, &request(&["M:a.rs"]), &LogOptions::new(today)).unwrap_err();
        assert!(
            matches!(&e, LedgerError::Malformed { row, .. } if row == "- stray line"),
            "{e}"
        );
        assert_eq!(s.read(LEDGER).unwrap(), broken.as_bytes());
    }
}

//! Plan resolution by stem or feature handle (spec/plan-format.md §9,
//! spec/mcp-tools.md §8): an exact stem wins, else the one plan whose feature
//! matches; several matches are refused with the candidate stems.

use crate::frontmatter;
use crate::storage::{Storage, StorageError};

use super::error::PlanError;
use super::frontmatter::PlanFrontmatter;

/// The folder of live plans.
pub const PLAN_DIR: &str = ".vault/plan";

/// One plan found in `.vault/plan/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanEntry {
    /// Workspace-relative path.
    pub path: String,
    /// File stem.
    pub stem: String,
    /// Feature from the tags (without `#`), if readable.
    pub feature: Option<String>,
}

/// Every `*.md` directly inside `.vault/plan/`, sorted by path, with its feature.
pub fn list_plans(storage: &dyn Storage) -> Result<Vec<PlanEntry>, PlanError> {
    Ok(read_plans(storage)?
        .into_iter()
        .map(|(entry, _)| entry)
        .collect())
}

/// A listed plan with its bytes (`None` when it could not be read).
pub type PlanWithBytes = (PlanEntry, Option<Vec<u8>>);

/// The paths of the live plans: the markdown files directly in the plan
/// folder, in listing order. Nothing is read.
pub fn live_plan_paths(storage: &dyn Storage) -> Result<Vec<String>, StorageError> {
    Ok(storage
        .list(PLAN_DIR)?
        .into_iter()
        .map(|entry| entry.path)
        .filter(|path| {
            path.strip_prefix(".vault/plan/")
                .is_some_and(|name| !name.contains('/') && name.ends_with(".md"))
        })
        .collect())
}

/// [`list_plans`], with the bytes of each plan (`None` when it could not be
/// read): one read of every plan, in batches, for callers that go on to
/// parse them.
pub fn read_plans(storage: &dyn Storage) -> Result<Vec<PlanWithBytes>, PlanError> {
    let paths = live_plan_paths(storage)?;
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut out = Vec::with_capacity(paths.len());
    storage.read_batches(&refs, &mut |offset, reads| {
        for (path, read) in paths[offset..].iter().zip(reads) {
            let bytes = read.ok();
            out.push((plan_entry(path, bytes.as_deref()), bytes));
        }
    });
    Ok(out)
}

/// The entry of the live plan at `path` (in `.vault/plan/`) read as
/// `bytes` (`None`: unreadable).
pub fn plan_entry(path: &str, bytes: Option<&[u8]>) -> PlanEntry {
    PlanEntry {
        path: path.to_owned(),
        stem: path[PLAN_DIR.len() + 1..]
            .trim_end_matches(".md")
            .to_owned(),
        feature: bytes.and_then(plan_feature),
    }
}

/// The feature a plan's frontmatter tags name, if it can be read.
fn plan_feature(bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    let split = frontmatter::split(text)?;
    let fm = PlanFrontmatter::parse(split.yaml(text)).ok()?;
    fm.feature().map(str::to_string)
}

/// Resolves a plan target to its path. With `allow_path` (the CLI outside
/// the gateway) an existing workspace-relative path is accepted first;
/// otherwise a target holding `/ \ :` or NUL is refused.
pub fn resolve_plan(
    storage: &dyn Storage,
    target: &str,
    allow_path: bool,
) -> Result<String, PlanError> {
    let t = target.trim();
    if allow_path && t.contains('/') && t.ends_with(".md") && storage.exists(t).unwrap_or(false) {
        return Ok(t.to_string());
    }
    if t.is_empty() || t == "." || t == ".." || t.contains(['/', '\\', ':', '\0']) {
        return Err(PlanError::InvalidTarget {
            target: target.to_string(),
        });
    }
    let plans = list_plans(storage)?;
    let stem = t.strip_suffix(".md").unwrap_or(t);
    if let Some(p) = plans.iter().find(|p| p.stem == stem) {
        return Ok(p.path.clone());
    }
    let feature = crate::doc::feature_arg(t);
    let hits: Vec<&PlanEntry> = plans
        .iter()
        .filter(|p| p.feature.as_deref() == Some(feature))
        .collect();
    match hits.as_slice() {
        [one] => Ok(one.path.clone()),
        [] => Err(PlanError::PlanNotFound {
            target: target.to_string(),
            near: plans
                .iter()
                .filter(|p| {
                    p.stem.contains(feature)
                        || p.feature
                            .as_deref()
                            .is_some_and(|f| f.contains(feature) || feature.contains(f))
                })
                .take(5)
                .map(|p| p.stem.clone())
                .collect(),
        }),
        many => Err(PlanError::AmbiguousPlan {
            target: target.to_string(),
            stems: many.iter().map(|p| p.stem.clone()).collect(),
        }),
    }
}

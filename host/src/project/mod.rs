//! `project context OBJECTIVE`: what work is in hand across the
//! repository and the vault, in the order a coordinator should look at it,
//! in the reference's `vaultspec.project.context.v1` shape.
//!
//! Sources, each reported with its status and count: the local branches
//! and worktrees ([`git`]), with `--repo` the open issues and pull requests
//! of a github.com repository ([`github`]), and, beyond the reference, the
//! vault's live plans and stale `related:` links ([`vault`]). A source that
//! cannot be read says why and the others stand. The order is written down
//! in [`rank::ORDERING`] and is deterministic for the same observations.
//!
//! No hosted ranker is ever asked: `hosted.status` is `disabled` with
//! `--no-hosted` and `not_configured` otherwise, and the fit is the local
//! word overlap. `--previous` is checked as the reference checks it; with
//! no hosted judgment ever made, it has none to reuse.

mod git;
mod github;
mod rank;
mod vault;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::report::Printed;

/// The envelope's schema.
pub const SCHEMA: &str = "vaultspec.project.context.v1";
/// The most items one answer returns.
pub const MAX_LIMIT: u32 = 10;
/// How long collecting may take, all sources together.
pub const COLLECTION: Duration = Duration::from_secs(10);
/// The largest `--previous` file read.
const MAX_PREVIOUS_BYTES: u64 = 64_000;

/// What the caller asked.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The work to be assigned (1 to 1,000 bytes).
    pub objective: String,
    /// A github.com repository, `OWNER/REPO`, whose open issues and pull
    /// requests to read.
    pub repo: Option<String>,
    /// A prior `--json` answer.
    pub previous: Option<PathBuf>,
    /// How many items to return (default 5).
    pub limit: Option<u32>,
    /// Ask no hosted ranker (none is ever asked).
    pub no_hosted: bool,
}

/// Who is asking: a person at a terminal, or a tool call, which may name
/// only a `--previous` file inside the workspace and only a `--repo` the
/// workspace's repository has as a remote (so no client can have the
/// person's GitHub login read another repository for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caller {
    /// The command line.
    Person,
    /// `invoke` through the gateway.
    Tool,
}

/// Run it on the repository and vault at `root`.
pub fn run(root: &Path, request: &Request, caller: Caller, json: bool) -> Printed {
    Printed::answer(answer(root, request, caller), SCHEMA, json, text)
}

fn answer(root: &Path, request: &Request, caller: Caller) -> Result<Value, String> {
    let objective = request.objective.trim();
    if objective.is_empty() || objective.len() > 1000 {
        return Err("objective must contain 1..1000 UTF-8 bytes".into());
    }
    let limit = request.limit.unwrap_or(5);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(format!("limit must be 1..{MAX_LIMIT}"));
    }
    if let Some(repo) = &request.repo {
        if !github::valid_repo(repo) {
            return Err("repo must be OWNER/REPO on github.com".into());
        }
        if caller == Caller::Tool {
            let remotes = git::github_remotes(root);
            if !remotes.iter().any(|r| r.eq_ignore_ascii_case(repo)) {
                return Err(format!(
                    "through a tool call, --repo must name a github.com remote of this repository ({}), not `{repo}`",
                    if remotes.is_empty() {
                        "it has none".to_owned()
                    } else {
                        remotes.join(", ")
                    }
                ));
            }
        }
    }
    if let Some(previous) = &request.previous {
        let within = (caller == Caller::Tool).then_some(root);
        check_previous(previous, within)?;
    }
    let started = Instant::now();
    let deadline = started + COLLECTION;
    let observed_from = now_iso();

    let mut items = Vec::new();
    let mut sources = Vec::new();
    match git::collect(root, deadline) {
        Ok((found, read)) => {
            items.extend(found);
            sources.extend(read);
        }
        Err(reason) => sources.push(json!({"name": "git", "status": "unavailable", "count": 0,
                                           "truncated": false, "reason": reason})),
    }
    let mut spent = github::Spent::default();
    let (found, read) = github::collect(root, request.repo.as_deref(), deadline, &mut spent);
    items.extend(found);
    sources.extend(read);
    let (found, read) = vault::collect(root);
    items.extend(found);
    sources.extend(read);

    let observed = items.len();
    let ranked = rank::order(objective, items);
    let shortlisted = ranked.len();
    let returned: Vec<Value> = ranked
        .iter()
        .take(limit as usize)
        .map(|(item, fit)| rank::render(item, *fit))
        .collect();
    let count = returned.len();
    let hosted = if request.no_hosted {
        "disabled"
    } else {
        "not_configured"
    };
    Ok(json!({
        "objective": rank::compact(objective, 1000),
        "observed_from": observed_from,
        "observed_to": now_iso(),
        "items": returned,
        "sources": sources,
        "observed_items": observed,
        "shortlisted": shortlisted,
        "returned": count,
        "truncated": observed > count,
        "uncollected": ["boards", "milestones", "dependency_edges", "untracked_files"],
        "ordering": rank::ORDERING,
        "hosted": {"status": hosted, "requests": 0, "cache_hits": 0, "input_tokens": 0,
                   "output_tokens": 0, "request_estimate_bytes": 0, "elapsed_ms": 0,
                   "reason": null},
        "judgments": {},
        "collection": {"commands": spent.commands, "bytes_read": spent.bytes_read},
        "bounds": {"collection_seconds": COLLECTION.as_secs_f64(), "hosted_seconds": 5.0,
                   "shortlist": rank::SHORTLIST},
        "elapsed_ms": (started.elapsed().as_secs_f64() * 100_000.0).round() / 100.0,
    }))
}

/// Check a `--previous` answer as the reference does: a readable file of
/// at most 64,000 bytes holding a project context answer with a judgment
/// map. Inside `within` alone, when given, and never through a link.
fn check_previous(path: &Path, within: Option<&Path>) -> Result<(), String> {
    let shown = path.display();
    let path = match within {
        Some(root) => {
            let joined = root.join(path);
            let resolved = joined
                .canonicalize()
                .map_err(|_| format!("file '{shown}' does not exist."))?;
            let root = root.canonicalize().map_err(|e| e.to_string())?;
            if !resolved.starts_with(&root) {
                return Err(format!(
                    "--previous must name a file inside the workspace, not '{shown}'"
                ));
            }
            joined
        }
        None => path.to_path_buf(),
    };
    if path.is_dir() {
        return Err(format!("file '{shown}' is a directory."));
    }
    let bytes = match crate::checked_file::read(
        &path,
        MAX_PREVIOUS_BYTES + 1,
        crate::checked_file::Owner::Anyone,
    ) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Err(format!("file '{shown}' does not exist.")),
        Err(refused) => return Err(format!("reading '{shown}': {refused}")),
    };
    if bytes.len() as u64 > MAX_PREVIOUS_BYTES {
        return Err(format!(
            "previous result exceeds {MAX_PREVIOUS_BYTES} bytes"
        ));
    }
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
    if value.get("schema").and_then(Value::as_str) != Some(SCHEMA) {
        return Err("previous must be a project context JSON result".into());
    }
    if !value["data"]["judgments"].is_object() {
        return Err("previous result has no judgment map".into());
    }
    Ok(())
}

/// Now, as `YYYY-MM-DDTHH:MM:SS[.ffffff]+00:00`.
fn now_iso() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let stamp = git::iso_strict(now.as_secs() as i64, 0);
    let stamp = stamp.trim_end_matches('Z');
    match now.subsec_micros() {
        0 => format!("{stamp}+00:00"),
        micros => format!("{stamp}.{micros:06}+00:00"),
    }
}

/// The text report.
fn text(data: &Value) -> String {
    let str_of = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let mut out = format!("Where attention goes for: {}\n", str_of(&data["objective"]));
    out.push_str(&format!("{}\n", str_of(&data["ordering"])));
    for (n, item) in data["items"].as_array().into_iter().flatten().enumerate() {
        out.push_str(&format!(
            "\n{}. {}: {}\n   {}\n",
            n + 1,
            str_of(&item["kind"]),
            str_of(&item["title"]),
            str_of(&item["id"])
        ));
        let signals: Vec<String> = item["signals"]
            .as_array()
            .into_iter()
            .flatten()
            .map(str_of)
            .collect();
        if !signals.is_empty() {
            out.push_str(&format!("   signals: {}\n", signals.join(", ")));
        }
        if let Some(error) = item["facts"]["status_error"].as_str() {
            out.push_str(&format!("   working tree not read: {error}\n"));
        }
        out.push_str(&format!("   next: {}\n", str_of(&item["next_action"])));
    }
    out.push_str(&format!(
        "\n{} of {} items shown ({} shortlisted).\n",
        data["returned"], data["observed_items"], data["shortlisted"]
    ));
    for source in data["sources"].as_array().into_iter().flatten() {
        let mut line = format!(
            "{}: {}, {} item(s)",
            str_of(&source["name"]),
            str_of(&source["status"]),
            source["count"]
        );
        if source["truncated"] == true {
            line.push_str(", more not listed");
        }
        if let Some(reason) = source["reason"].as_str() {
            line.push_str(&format!(" ({reason})"));
        }
        out.push_str(&line);
        out.push('\n');
    }
    let uncollected: Vec<String> = data["uncollected"]
        .as_array()
        .into_iter()
        .flatten()
        .map(str_of)
        .collect();
    out.push_str(&format!("Not collected: {}.\n", uncollected.join(", ")));
    out.push_str(&format!(
        "Hosted ranking: {}; observed until {}.\n",
        str_of(&data["hosted"]["status"]),
        str_of(&data["observed_to"])
    ));
    out
}

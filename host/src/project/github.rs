//! The open issues and pull requests of a github.com repository for
//! `project context --repo OWNER/REPO`, read through the `gh` tool with
//! its own authentication (`GH_TOKEN`, `GITHUB_TOKEN` or `gh auth login`).
//! Where there is no `gh` but a token is set (`GH_TOKEN`, else
//! `GITHUB_TOKEN`), GitHub's REST API is asked through `curl`, the token
//! handed on its stdin (never in an argument); the REST listing has no
//! review decision, mergeability or checks, so those facts are `null` and
//! `ci` is `unknown`.
//!
//! Programs run without a shell, with prompts off, under the collection's
//! deadline and an output cap. Whatever fails (neither way available, a
//! failing call, a reply that is not the expected listing) makes that one
//! source `unavailable` with a reason; the rest of the answer stands.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::rank::{Item, compact};

/// The most issues, and the most pull requests, listed.
pub const MAX_ITEMS: usize = 20;
/// The most bytes of one `gh` reply read.
const MAX_REPLY_BYTES: u64 = 1_000_000;

/// What running `gh` cost.
#[derive(Debug, Default)]
pub struct Spent {
    /// Programs started (or tried).
    pub commands: u64,
    /// Bytes of their output read.
    pub bytes_read: u64,
}

/// Whether `repo` names a github.com repository as `OWNER/REPO`.
pub fn valid_repo(repo: &str) -> bool {
    let part = |p: &str| {
        !p.is_empty()
            && p.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    };
    repo.len() <= 160
        && repo
            .split_once('/')
            .is_some_and(|(o, r)| part(o) && part(r))
}

/// The items and the sources `github_issue` and `github_pr`.
pub fn collect(
    root: &Path,
    repo: Option<&str>,
    deadline: Instant,
    spent: &mut Spent,
) -> (Vec<Item>, Vec<Value>) {
    let mut items = Vec::new();
    let mut sources = Vec::new();
    for kind in ["issue", "pr"] {
        let name = format!("github_{kind}");
        let Some(repo) = repo else {
            sources.push(json!({"name": name, "status": "not_requested", "count": 0,
                                "truncated": false, "reason": null}));
            continue;
        };
        match listing(root, repo, kind, deadline, spent) {
            Ok(mut found) => {
                sources.push(json!({"name": name, "status": "ok",
                                    "count": found.len().min(MAX_ITEMS),
                                    "truncated": found.len() > MAX_ITEMS, "reason": null}));
                found.truncate(MAX_ITEMS);
                items.extend(found);
            }
            Err(reason) => sources.push(json!({"name": name, "status": "unavailable", "count": 0,
                                               "truncated": false, "reason": reason})),
        }
    }
    (items, sources)
}

fn listing(
    root: &Path,
    repo: &str,
    kind: &'static str,
    deadline: Instant,
    spent: &mut Spent,
) -> Result<Vec<Item>, &'static str> {
    let mut fields = "number,title,updatedAt,assignees,labels".to_owned();
    if kind == "pr" {
        fields
            .push_str(",headRefOid,headRefName,isDraft,reviewDecision,mergeable,statusCheckRollup");
    }
    spent.commands += 1;
    if Instant::now() >= deadline {
        return Err("collection_deadline");
    }
    let mut command = Command::new("gh");
    command
        .args([kind, "list", "--repo", &format!("github.com/{repo}")])
        .args(["--state", "open", "--limit", &(MAX_ITEMS + 1).to_string()])
        .args(["--json", &fields])
        .current_dir(root)
        .env("GH_PROMPT_DISABLED", "1")
        .env("GH_NO_UPDATE_NOTIFIER", "1");
    let reply = match crate::bounded_command::run(command, deadline, MAX_REPLY_BYTES) {
        Ok(ran) => checked(ran, spent)?,
        Err(_) => match token() {
            Some(token) => rest(root, repo, kind, &token, deadline, spent)?,
            None => return Err("command_unavailable"),
        },
    };
    items(&reply, repo, kind).ok_or("invalid_response")
}

/// The output of a finished run, or the reason it is not a reply.
fn checked(ran: crate::bounded_command::Ran, spent: &mut Spent) -> Result<Vec<u8>, &'static str> {
    spent.bytes_read += ran.stdout.len() as u64;
    match ran.status {
        None => Err("collection_deadline"),
        Some(status) if !status.success() => Err("command_failed"),
        Some(_) if ran.stdout_over_cap => Err("output_limit"),
        Some(_) => Ok(ran.stdout),
    }
}

/// The token `gh` itself would use, when one is set.
fn token() -> Option<String> {
    ["GH_TOKEN", "GITHUB_TOKEN"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|t| !t.trim().is_empty() && t.bytes().all(|b| b.is_ascii_graphic()))
}

/// The listing from GitHub's REST API through `curl`, in `gh`'s shape.
fn rest(
    root: &Path,
    repo: &str,
    kind: &'static str,
    token: &str,
    deadline: Instant,
    spent: &mut Spent,
) -> Result<Vec<u8>, &'static str> {
    spent.commands += 1;
    let what = if kind == "pr" { "pulls" } else { "issues" };
    let url = format!(
        "https://api.github.com/repos/{repo}/{what}?state=open&per_page={}",
        MAX_ITEMS + 1
    );
    let seconds = deadline
        .saturating_duration_since(Instant::now())
        .as_secs()
        .max(1);
    let mut command = Command::new("curl");
    command
        .args(["--silent", "--show-error", "--fail", "--proto", "=https"])
        .args(["--max-time", &seconds.to_string(), "--header", "@-", &url])
        .current_dir(root);
    let headers = format!(
        "Authorization: Bearer {token}\nAccept: application/vnd.github+json\nX-GitHub-Api-Version: 2022-11-28\nUser-Agent: vaultspec\n"
    );
    let ran = crate::bounded_command::run_with_input(
        command,
        Some(headers.into_bytes()),
        deadline,
        MAX_REPLY_BYTES,
    )
    .map_err(|_| "command_unavailable")?;
    let reply = checked(ran, spent)?;
    let rows: Vec<Value> = serde_json::from_slice(&reply).map_err(|_| "invalid_response")?;
    let rows: Vec<Value> = rows
        .into_iter()
        // The issues listing holds the pull requests too.
        .filter(|row| kind == "pr" || row.get("pull_request").is_none())
        .map(|row| gh_shape(&row, kind))
        .collect();
    serde_json::to_vec(&rows).map_err(|_| "invalid_response")
}

/// A REST row in the shape `gh … list --json` prints.
fn gh_shape(row: &Value, kind: &str) -> Value {
    let names = |key: &str, field: &str| -> Value {
        row[key]
            .as_array()
            .into_iter()
            .flatten()
            .map(|item| json!({ "name": item[field] }))
            .collect()
    };
    let mut shaped = json!({
        "number": row["number"],
        "title": row["title"],
        "updatedAt": row["updated_at"],
        "assignees": names("assignees", "login"),
        "labels": names("labels", "name"),
    });
    if kind == "pr" {
        let text = |v: &Value| json!(v.as_str().unwrap_or_default());
        shaped["headRefOid"] = text(&row["head"]["sha"]);
        shaped["headRefName"] = text(&row["head"]["ref"]);
        shaped["isDraft"] = json!(row["draft"].as_bool().unwrap_or(false));
    }
    shaped
}

#[derive(Deserialize)]
struct Named {
    #[serde(alias = "login", alias = "name")]
    name: String,
}

#[derive(Deserialize, Default)]
struct Check {
    conclusion: Option<String>,
    state: Option<String>,
    status: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Row {
    number: u64,
    title: String,
    updated_at: String,
    #[serde(default)]
    assignees: Vec<Named>,
    #[serde(default)]
    labels: Vec<Named>,
    #[serde(default)]
    head_ref_oid: String,
    #[serde(default)]
    head_ref_name: String,
    #[serde(default)]
    is_draft: bool,
    review_decision: Option<String>,
    mergeable: Option<String>,
    status_check_rollup: Option<Vec<Check>>,
}

impl Row {
    fn valid(&self) -> bool {
        (1..=1_000_000_000).contains(&self.number)
            && self.updated_at.chars().count() <= 40
            && self.head_ref_oid.chars().count() <= 64
            && [&self.review_decision, &self.mergeable]
                .iter()
                .all(|v| v.as_ref().is_none_or(|v| v.chars().count() <= 64))
    }
}

/// The items of one `gh … list --json` reply; `None` when it is not a
/// listing of valid rows. The last row with a number wins.
fn items(reply: &[u8], repo: &str, kind: &'static str) -> Option<Vec<Item>> {
    let rows: Vec<Value> = serde_json::from_slice(reply).ok()?;
    let mut items: Vec<Item> = Vec::new();
    for value in rows.into_iter().take(MAX_ITEMS + 1) {
        let row: Row = serde_json::from_value(value).ok()?;
        if !row.valid() {
            return None;
        }
        let item = item(&row, repo, kind);
        match items.iter_mut().find(|i| i.id == item.id) {
            Some(same) => *same = item,
            None => items.push(item),
        }
    }
    Some(items)
}

fn item(row: &Row, repo: &str, kind: &'static str) -> Item {
    let first_four = |list: &[Named]| -> Vec<String> {
        list.iter().take(4).map(|n| compact(&n.name, 64)).collect()
    };
    let mut facts = Map::new();
    facts.insert("repo".into(), json!(repo));
    facts.insert("number".into(), json!(row.number));
    facts.insert("owners".into(), json!(first_four(&row.assignees)));
    facts.insert("labels".into(), json!(first_four(&row.labels)));
    facts.insert(
        "metadata_truncated".into(),
        json!(row.assignees.len() > 4 || row.labels.len() > 4),
    );
    let mut signals = Vec::new();
    if row.assignees.len() > 1 {
        signals.push("multiple_assignees");
    }
    if row
        .labels
        .iter()
        .any(|l| l.name.to_lowercase() == "blocked")
    {
        signals.push("labelled_blocked");
    }
    if kind == "pr" {
        let ci = ci(row.status_check_rollup.as_deref());
        facts.insert("head".into(), json!(row.head_ref_oid));
        facts.insert("branch".into(), json!(compact(&row.head_ref_name, 240)));
        facts.insert("draft".into(), json!(row.is_draft));
        facts.insert("review".into(), json!(row.review_decision));
        facts.insert("mergeable".into(), json!(row.mergeable));
        facts.insert("ci".into(), json!(ci));
        for (on, name) in [
            (row.is_draft, "draft"),
            (
                row.mergeable.as_deref() == Some("CONFLICTING"),
                "merge_conflict",
            ),
            (
                row.review_decision.as_deref() == Some("CHANGES_REQUESTED"),
                "changes_requested",
            ),
            (ci == "failed", "ci_failed"),
        ] {
            if on {
                signals.push(name);
            }
        }
    }
    Item {
        id: format!("github:{repo}:{kind}:{}", row.number),
        kind,
        title: compact(&row.title, 240),
        updated: row.updated_at.clone(),
        facts,
        signals,
        unknowns: vec!["dependencies", "developer_availability"],
    }
}

/// A pull request's checks in one word: `failed`, `pending`, `reported`
/// or `unknown`.
fn ci(checks: Option<&[Check]>) -> &'static str {
    let list = checks.unwrap_or_default();
    let is = |v: &Option<String>, set: &[&str]| v.as_deref().is_some_and(|v| set.contains(&v));
    if list.iter().any(|c| {
        is(
            &c.conclusion,
            &["FAILURE", "TIMED_OUT", "CANCELLED", "ACTION_REQUIRED"],
        ) || is(&c.state, &["FAILURE", "ERROR"])
    }) {
        "failed"
    } else if list.iter().any(|c| {
        is(
            &c.status,
            &["QUEUED", "IN_PROGRESS", "WAITING", "PENDING", "REQUESTED"],
        ) || is(&c.state, &["PENDING", "EXPECTED"])
    }) {
        "pending"
    } else if list.is_empty() {
        "unknown"
    } else {
        "reported"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repos_are_owner_slash_name() {
        assert!(valid_repo("owner/repo.rs"));
        for bad in ["owner", "/repo", "owner/", "a/b/c", "o w/r", "owner/repo\n"] {
            assert!(!valid_repo(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_pull_request_row_gives_its_facts_and_signals() {
        let reply = br#"[{"number":7,"title":"Fix\tlogin","updatedAt":"2026-12-01T10:00:00Z",
            "assignees":[{"login":"ann"},{"login":"bob"}],"labels":[{"name":"Blocked"}],
            "headRefOid":"abc","headRefName":"fix/login","isDraft":true,
            "reviewDecision":"CHANGES_REQUESTED","mergeable":"CONFLICTING",
            "statusCheckRollup":[{"conclusion":"SUCCESS"},{"status":"QUEUED"}]}]"#;
        let items = items(reply, "o/r", "pr").unwrap();
        let item = &items[0];
        assert_eq!(item.id, "github:o/r:pr:7");
        assert_eq!(item.title, "Fix login");
        assert_eq!(
            item.signals,
            [
                "multiple_assignees",
                "labelled_blocked",
                "draft",
                "merge_conflict",
                "changes_requested"
            ]
        );
        assert_eq!(item.facts["ci"], "pending");
        let keys: Vec<&str> = item.facts.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "repo",
                "number",
                "owners",
                "labels",
                "metadata_truncated",
                "head",
                "branch",
                "draft",
                "review",
                "mergeable",
                "ci"
            ]
        );
    }

    #[test]
    fn a_rest_row_reads_as_gh_would_print_it() {
        let row = json!({"number": 9, "title": "Fix it", "updated_at": "2026-01-01T00:00:00Z",
                         "assignees": [{"login": "ann"}], "labels": [{"name": "bug"}],
                         "head": {"sha": "abc", "ref": "fix"}, "draft": true});
        let shaped = serde_json::to_vec(&[gh_shape(&row, "pr")]).unwrap();
        let item = &items(&shaped, "o/r", "pr").unwrap()[0];
        assert_eq!(item.facts["owners"], json!(["ann"]));
        assert_eq!(item.facts["branch"], "fix");
        assert_eq!(item.facts["review"], Value::Null);
        assert_eq!(item.facts["ci"], "unknown");
        assert_eq!(item.signals, ["draft"]);
    }

    #[test]
    fn a_reply_that_is_not_a_listing_of_valid_rows_is_refused() {
        assert!(items(b"{}", "o/r", "issue").is_none());
        assert!(
            items(
                br#"[{"number":0,"title":"x","updatedAt":""}]"#,
                "o/r",
                "issue"
            )
            .is_none()
        );
        assert!(items(br#"[{"title":"x","updatedAt":""}]"#, "o/r", "issue").is_none());
        assert_eq!(ci(None), "unknown");
        assert_eq!(ci(Some(&[Check::default()])), "reported");
    }
}

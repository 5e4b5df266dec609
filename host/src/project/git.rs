//! The repository's own sources for `project context`: its branches, most
//! recently committed first, and its worktrees with what each has in hand
//! (tracked changes, an unfinished merge, a branch checked out twice).
//!
//! Everything is read in process with gitoxide, opened isolated: no `git`
//! runs and nothing the repository configures executes. The workspace's
//! `.git` must be reached through no link and lie inside it
//! ([`crate::git_history::contained_git_dir`]). A worktree's files are
//! compared with its index through a capability-confined folder (no link
//! leaves it), file by file, within the collection's deadline and a byte
//! budget.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use gix::bstr::ByteSlice;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::rank::{Item, compact};
use crate::git_history::{HistoryError, contained_git_dir};

/// The most branches listed.
pub const MAX_BRANCHES: usize = 30;
/// The most worktrees looked into.
pub const MAX_WORKTREES: usize = 8;
/// The most bytes of working files hashed in one run.
const MAX_HASHED_BYTES: u64 = 256 << 20;

const UNKNOWNS: [&str; 2] = ["dependencies", "developer_availability"];

/// The `OWNER/REPO` of each github.com remote of the repository at
/// `root` (none when it is not one read here).
pub fn github_remotes(root: &Path) -> Vec<String> {
    if contained_git_dir(root).is_err() {
        return Vec::new();
    }
    let Ok(repo) = gix::open_opts(root, gix::open::Options::isolated()) else {
        return Vec::new();
    };
    let config = repo.config_snapshot();
    let mut found: Vec<String> = repo
        .remote_names()
        .iter()
        .filter_map(|name| config.string(format!("remote.{name}.url").as_str()))
        .filter_map(|url| github_repo(&url.to_str_lossy()))
        .collect();
    found.sort();
    found.dedup();
    found
}

/// `OWNER/REPO` of a github.com URL (`https://github.com/o/r.git`,
/// `git@github.com:o/r`, `ssh://git@github.com/o/r`).
fn github_repo(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("github.com")?;
    let rest = rest.strip_prefix([':', '/'])?;
    let rest = rest.trim_end_matches('/');
    let rest = rest.strip_suffix(".git").unwrap_or(rest);
    let (owner, name) = rest.split_once('/')?;
    let repo = format!("{owner}/{name}");
    super::github::valid_repo(&repo).then_some(repo)
}

/// The items and the two sources (`branches`, `worktrees`) read, or the
/// reason the repository was not read at all.
pub fn collect(root: &Path, deadline: Instant) -> Result<(Vec<Item>, Vec<Value>), &'static str> {
    match contained_git_dir(root) {
        Ok(_) => {}
        Err(HistoryError::NoRepository) => return Err("no_repository"),
        Err(HistoryError::Linked) => return Err("linked_git_dir"),
        Err(HistoryError::Outside(_)) => return Err("git_dir_outside_workspace"),
        Err(_) => return Err("invalid_response"),
    }
    let repo =
        gix::open_opts(root, gix::open::Options::isolated()).map_err(|_| "invalid_response")?;
    let common = repo
        .common_dir()
        .canonicalize()
        .map_err(|_| "invalid_response")?
        .display()
        .to_string();
    let (mut branches, truncated) = branches(&repo, &common).map_err(|_| "invalid_response")?;
    let branch_count = branches.len();
    let mut sources = vec![source("branches", branch_count, truncated)];
    let mut items = Vec::new();
    match worktrees(&repo, root) {
        Ok(rows) => {
            let mut budget = Budget {
                deadline,
                bytes: MAX_HASHED_BYTES,
            };
            let mut checked_out: HashMap<&str, usize> = HashMap::new();
            for row in &rows {
                if !row.branch.is_empty() {
                    *checked_out.entry(row.branch.as_str()).or_default() += 1;
                }
            }
            for row in rows.iter().take(MAX_WORKTREES) {
                let shared = checked_out.get(row.branch.as_str()).is_some_and(|n| *n > 1);
                let consumed = branches.iter().position(|b| b.facts["branch"] == row.branch);
                let consumed = consumed.map(|at| branches.remove(at));
                items.push(worktree_item(row, &common, consumed, shared, &mut budget));
            }
            sources.push(source("worktrees", rows.len().min(MAX_WORKTREES), rows.len() > MAX_WORKTREES));
        }
        Err(reason) => sources.push(json!({
            "name": "worktrees", "status": "unavailable", "count": 0, "truncated": false, "reason": reason,
        })),
    }
    items.extend(branches);
    Ok((items, sources))
}

fn source(name: &str, count: usize, truncated: bool) -> Value {
    json!({"name": name, "status": "ok", "count": count, "truncated": truncated, "reason": null})
}

/// `git:` and the SHA-256 of the repository's folder and a name in it.
fn id(common: &str, name: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(common.as_bytes());
    hasher.update([0]);
    hasher.update(name.as_bytes());
    format!("git:{}", hex::encode(hasher.finalize()))
}

/// The local branches, most recently committed first (then by name), and
/// whether there were more than [`MAX_BRANCHES`].
fn branches(repo: &gix::Repository, common: &str) -> Result<(Vec<Item>, bool), String> {
    let refs = repo.references().map_err(|e| e.to_string())?;
    let mut found = Vec::new();
    for reference in refs.local_branches().map_err(|e| e.to_string())? {
        let mut reference = reference.map_err(|e| e.to_string())?;
        let name = reference.name().as_bstr().to_str_lossy().into_owned();
        let Ok(commit) = reference.peel_to_commit() else {
            continue;
        };
        let time = commit.time().map_err(|e| e.to_string())?;
        let subject = commit
            .message()
            .map(|m| m.summary().to_str_lossy().into_owned())
            .unwrap_or_default();
        found.push((time, name, commit.id.to_hex().to_string(), subject));
    }
    found.sort_by(|a, b| b.0.seconds.cmp(&a.0.seconds).then_with(|| a.1.cmp(&b.1)));
    let truncated = found.len() > MAX_BRANCHES;
    found.truncate(MAX_BRANCHES);
    let items = found
        .into_iter()
        .map(|(time, name, head, subject)| {
            let short = name.strip_prefix("refs/heads/").unwrap_or(&name);
            let mut facts = Map::new();
            facts.insert("branch".into(), json!(compact(&name, 240)));
            facts.insert("head".into(), json!(head));
            Item {
                id: id(common, &name),
                kind: "branch",
                title: compact(&format!("{short}: {subject}"), 240),
                updated: iso_strict(time.seconds, time.offset),
                facts,
                signals: Vec::new(),
                unknowns: UNKNOWNS.to_vec(),
            }
        })
        .collect();
    Ok((items, truncated))
}

/// A time as `YYYY-MM-DDTHH:MM:SS` in its own offset, `Z` for UTC.
pub fn iso_strict(seconds: i64, offset: i32) -> String {
    let local = seconds + i64::from(offset);
    let day = vaultspec_vault::date::Date::from_days(local.div_euclid(86_400))
        .map_or_else(|| "1970-01-01".to_owned(), |d| d.to_string());
    let clock = local.rem_euclid(86_400);
    let zone = if offset == 0 {
        "Z".to_owned()
    } else {
        let sign = if offset < 0 { '-' } else { '+' };
        let abs = offset.unsigned_abs();
        format!("{sign}{:02}:{:02}", abs / 3600, abs % 3600 / 60)
    };
    format!(
        "{day}T{:02}:{:02}:{:02}{zone}",
        clock / 3600,
        clock % 3600 / 60,
        clock % 60
    )
}

/// One worktree as `git worktree list` shows it.
struct Row {
    path: String,
    head: String,
    branch: String,
    locked: bool,
    prunable: bool,
    bare: bool,
    /// The opened repository of a worktree whose folder exists.
    repo: Option<gix::Repository>,
    workdir: Option<PathBuf>,
}

/// The main worktree and the linked ones: the workspace's own first, the
/// rest by path.
fn worktrees(repo: &gix::Repository, root: &Path) -> Result<Vec<Row>, &'static str> {
    let mut rows = Vec::new();
    let main = repo.main_repo().map_err(|_| "invalid_response")?;
    rows.push(row(main, false, false));
    for proxy in repo.worktrees().map_err(|_| "invalid_response")? {
        let locked = proxy.is_locked();
        let prunable = proxy.is_prunable();
        let Ok(linked) = proxy.into_repo_with_possibly_inaccessible_worktree() else {
            continue;
        };
        rows.push(row(linked, locked, prunable));
    }
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    rows.sort_by_cached_key(|r| {
        let own = Path::new(&r.path).canonicalize().is_ok_and(|p| p == root);
        (!own, r.path.clone())
    });
    Ok(rows)
}

fn row(repo: gix::Repository, locked: bool, prunable: bool) -> Row {
    let bare = repo.is_bare();
    let workdir = repo.workdir().map(Path::to_path_buf);
    let path = match &workdir {
        Some(dir) => dir.canonicalize().unwrap_or_else(|_| dir.clone()),
        None => repo
            .git_dir()
            .canonicalize()
            .unwrap_or_else(|_| repo.git_dir().to_path_buf()),
    };
    let (head, branch) = match repo.head() {
        Ok(head) => (
            head.id()
                .map(|id| id.to_hex().to_string())
                .unwrap_or_default(),
            head.referent_name()
                .map(|n| n.as_bstr().to_str_lossy().into_owned())
                .unwrap_or_default(),
        ),
        Err(_) => (String::new(), String::new()),
    };
    let exists = workdir.as_ref().is_some_and(|d| d.is_dir());
    Row {
        path: path.display().to_string(),
        head,
        branch,
        locked,
        prunable,
        bare,
        workdir: workdir.filter(|_| exists),
        repo: exists.then_some(repo),
    }
}

fn worktree_item(
    row: &Row,
    common: &str,
    branch: Option<Item>,
    shared: bool,
    budget: &mut Budget,
) -> Item {
    let short = row
        .branch
        .strip_prefix("refs/heads/")
        .unwrap_or(&row.branch);
    let (title, updated, mut facts) = match branch {
        Some(branch) => (branch.title, branch.updated, branch.facts),
        None => {
            let named = if short.is_empty() { &row.path } else { short };
            (compact(named, 240), String::new(), Map::new())
        }
    };
    facts.insert("path".into(), json!(compact(&row.path, 320)));
    facts.insert("head".into(), json!(row.head));
    facts.insert("branch".into(), json!(compact(&row.branch, 240)));
    let mut signals = Vec::new();
    for (on, name) in [
        (row.locked, "locked"),
        (row.prunable, "prunable"),
        (row.bare, "bare"),
        (row.branch.is_empty() && !row.head.is_empty(), "detached"),
    ] {
        if on {
            signals.push(name);
        }
    }
    if shared {
        signals.push("shared_branch");
    }
    let mut unknowns = UNKNOWNS.to_vec();
    let status = match (&row.repo, &row.workdir) {
        (Some(repo), Some(workdir)) => tracked_status(repo, workdir, budget),
        _ => Err("no_working_tree"),
    };
    match status {
        Ok(status) => {
            facts.insert("tracked_changes".into(), json!(status.changed));
            if status.changed {
                signals.push("tracked_changes");
            }
            if status.unmerged {
                signals.push("unmerged_changes");
            }
        }
        Err(reason) => {
            facts.insert("status_error".into(), json!(reason));
            unknowns.push("working_tree_status");
        }
    }
    unknowns.push("untracked_files");
    Item {
        id: id(common, &row.path),
        kind: "worktree",
        title,
        updated,
        facts,
        signals,
        unknowns,
    }
}

/// What a worktree holds that its `HEAD` does not.
struct Status {
    /// A tracked file differs (staged or not), or the index has conflicts.
    changed: bool,
    /// The index holds an unfinished merge.
    unmerged: bool,
}

/// What one run may still spend on hashing working files.
struct Budget {
    deadline: Instant,
    bytes: u64,
}

/// Compare `HEAD`, the index and the tracked files of one worktree.
fn tracked_status(
    repo: &gix::Repository,
    workdir: &Path,
    budget: &mut Budget,
) -> Result<Status, &'static str> {
    use gix::index::entry::{Flags, Mode, Stage};
    let index = repo.index_or_empty().map_err(|_| "invalid_response")?;
    let mut at_head: HashMap<Vec<u8>, gix::ObjectId> = HashMap::new();
    if let Ok(commit) = repo.head_commit() {
        let tree = commit.tree_id().map_err(|_| "invalid_response")?;
        flatten(
            repo,
            tree.detach(),
            &mut Vec::new(),
            &mut at_head,
            budget.deadline,
        )?;
    }
    let mut status = Status {
        changed: false,
        unmerged: false,
    };
    let mut staged = 0;
    for entry in index.entries() {
        if entry.stage() != Stage::Unconflicted {
            status.unmerged = true;
            continue;
        }
        staged += 1;
        if at_head.get(entry.path(&index).as_bytes()) != Some(&entry.id) {
            status.changed = true;
        }
    }
    if status.unmerged || status.changed || staged != at_head.len() {
        status.changed = true;
        return Ok(status);
    }
    let dir = cap_std::fs::Dir::open_ambient_dir(workdir, cap_std::ambient_authority())
        .map_err(|_| "no_working_tree")?;
    let racy_from = index.timestamp().unix_seconds();
    for entry in index.entries() {
        if Instant::now() > budget.deadline {
            return Err("collection_deadline");
        }
        if entry.mode == Mode::COMMIT || entry.flags.contains(Flags::SKIP_WORKTREE) {
            continue;
        }
        let path = entry.path(&index).to_str_lossy();
        if worktree_differs(&dir, &path, entry, racy_from, budget)? {
            status.changed = true;
            break;
        }
    }
    Ok(status)
}

/// Whether the working file of one index entry differs from it.
fn worktree_differs(
    dir: &cap_std::fs::Dir,
    path: &str,
    entry: &gix::index::Entry,
    racy_from: i64,
    budget: &mut Budget,
) -> Result<bool, &'static str> {
    use cap_std::fs::{MetadataExt, OpenOptionsExt};
    use gix::index::entry::Mode;
    let Ok(meta) = dir.symlink_metadata(path) else {
        return Ok(true);
    };
    let bytes = if entry.mode == Mode::SYMLINK {
        if !meta.file_type().is_symlink() {
            return Ok(true);
        }
        let target = dir
            .read_link_contents(path)
            .map_err(|_| "read_unavailable")?;
        target.into_os_string().into_encoded_bytes()
    } else {
        if !meta.is_file() {
            return Ok(true);
        }
        let executable = meta.mode() & 0o111 != 0;
        if executable != (entry.mode == Mode::FILE_EXECUTABLE) {
            return Ok(true);
        }
        let same_stat = meta.size() as u32 == entry.stat.size
            && meta.mtime() == i64::from(entry.stat.mtime.secs)
            && meta.mtime_nsec() as u32 == entry.stat.mtime.nsecs;
        if same_stat && meta.mtime() < racy_from {
            return Ok(false);
        }
        if meta.size() > budget.bytes {
            return Err("collection_deadline");
        }
        budget.bytes -= meta.size();
        let mut file = dir
            .open_with(
                path,
                cap_std::fs::OpenOptions::new()
                    .read(true)
                    .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK),
            )
            .map_err(|_| "read_unavailable")?;
        let mut bytes = Vec::with_capacity(meta.size() as usize);
        std::io::Read::read_to_end(&mut file, &mut bytes).map_err(|_| "read_unavailable")?;
        bytes
    };
    let oid = gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, &bytes)
        .map_err(|_| "invalid_response")?;
    Ok(oid != entry.id)
}

/// Every non-tree entry beneath `tree`, by its path.
fn flatten(
    repo: &gix::Repository,
    tree: gix::ObjectId,
    prefix: &mut Vec<u8>,
    out: &mut HashMap<Vec<u8>, gix::ObjectId>,
    deadline: Instant,
) -> Result<(), &'static str> {
    if Instant::now() > deadline {
        return Err("collection_deadline");
    }
    let tree = repo.find_tree(tree).map_err(|_| "invalid_response")?;
    let decoded = tree.decode().map_err(|_| "invalid_response")?;
    for entry in &decoded.entries {
        let len = prefix.len();
        if !prefix.is_empty() {
            prefix.push(b'/');
        }
        prefix.extend_from_slice(entry.filename);
        if entry.mode.is_tree() {
            flatten(repo, entry.oid.to_owned(), prefix, out, deadline)?;
        } else {
            out.insert(prefix.clone(), entry.oid.to_owned());
        }
        prefix.truncate(len);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_remotes_are_read_in_their_three_spellings() {
        for url in [
            "https://github.com/acme/app.git",
            "git@github.com:acme/app",
            "ssh://git@github.com/acme/app/",
        ] {
            assert_eq!(github_repo(url).as_deref(), Some("acme/app"), "{url}");
        }
        assert_eq!(github_repo("https://gitlab.com/acme/app"), None);
        assert_eq!(github_repo("https://github.com/acme"), None);
    }

    #[test]
    fn times_print_in_their_own_offset() {
        assert_eq!(iso_strict(0, 0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_strict(90_061, 3600), "1970-01-02T02:01:01+01:00");
        assert_eq!(iso_strict(0, -5400), "1969-12-31T22:30:00-01:30");
    }
}

//! When each file under one folder of the workspace (`.vault`) last had
//! its content changed, read from the repository's history in process.
//!
//! gitoxide opens the repository isolated: no `git` runs, no configuration
//! outside the repository is read, and nothing a repository configures (a
//! hook, an fsmonitor, a filter) executes. Before it opens anything, the
//! same containment as every other read holds: a `.git` that is a link is
//! refused, and so is a `gitdir:` file pointing outside the workspace;
//! packs past [`MAX_PACK_BYTES`] are not read at all; the walk stops after
//! [`MAX_COMMITS`] commits or [`TIME_BUDGET`] and says so.
//!
//! History is walked newest first. A commit counts for a file when the
//! file's blob differs from the commit's first parent's; a file moved
//! without a change of content (a rename git recorded as one delete and
//! one add of the same blob) carries its history over to its new name.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use gix::ObjectId;

/// Packs larger than this, together, are not read.
pub const MAX_PACK_BYTES: u64 = 512 << 20;

/// The most commits one read walks.
pub const MAX_COMMITS: usize = 20_000;

/// The longest one read walks.
pub const TIME_BUDGET: Duration = Duration::from_secs(2);

pub use vaultspec_vault::coherence::{Changed, History};

/// Why no history was read.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The workspace is not a repository.
    #[error("the workspace is not a git repository")]
    NoRepository,
    /// `.git` is a link.
    #[error("`.git` is a symbolic link; vaultspec never follows a link inside the workspace")]
    Linked,
    /// `.git` is a `gitdir:` file naming a folder outside the workspace.
    #[error("`.git` points at `{0}`, outside the workspace")]
    Outside(String),
    /// The packs are past the budget.
    #[error(
        "the repository's packs hold {bytes} bytes, past the {budget}-byte budget for reading history"
    )]
    TooLarge {
        /// Their size.
        bytes: u64,
        /// [`MAX_PACK_BYTES`].
        budget: u64,
    },
    /// gitoxide could not read it.
    #[error("reading the repository's history: {0}")]
    Git(String),
}

fn git(err: impl std::fmt::Display) -> HistoryError {
    HistoryError::Git(err.to_string())
}

/// The history of `folder` (a top-level folder, `.vault`) of the workspace
/// at `root`.
pub fn read(root: &Path, folder: &str) -> Result<History, HistoryError> {
    let git_dir = contained_git_dir(root)?;
    let packs = pack_bytes(&git_dir);
    if packs > MAX_PACK_BYTES {
        return Err(HistoryError::TooLarge {
            bytes: packs,
            budget: MAX_PACK_BYTES,
        });
    }
    let repo = gix::open_opts(root, gix::open::Options::isolated()).map_err(git)?;
    let head = match repo.head_id() {
        Ok(id) => id.detach(),
        Err(err) => {
            // An unborn branch has no history yet; anything else (a ref
            // cycle, a broken HEAD) is reported.
            let head = repo.head().map_err(git)?;
            if head.is_unborn() {
                return Ok(History {
                    complete: true,
                    ..History::default()
                });
            }
            return Err(git(err));
        }
    };
    let mut history = History::default();
    let head_tree = folder_tree(&repo, head, folder)?;
    let mut at_head = Vec::new();
    if let Some(tree) = head_tree {
        list(&repo, tree, folder, &mut at_head)?;
    }
    history.at_head = at_head
        .into_iter()
        .map(|(path, id)| (path, id.to_hex().to_string()))
        .collect();
    // Older names of files at HEAD, to their name at HEAD.
    let mut renamed: HashMap<String, String> = HashMap::new();
    let started = Instant::now();
    let walk = repo
        .rev_walk([head])
        .sorting(gix::revision::walk::Sorting::ByCommitTime(
            Default::default(),
        ))
        .all()
        .map_err(git)?;
    let mut walked = 0;
    history.complete = true;
    for info in walk {
        let info = info.map_err(git)?;
        walked += 1;
        if walked > MAX_COMMITS || started.elapsed() > TIME_BUDGET {
            history.complete = false;
            break;
        }
        if history.changed.len() == history.at_head.len() {
            break;
        }
        let id = info.id;
        let time = info.commit_time.unwrap_or_else(|| {
            repo.find_commit(id)
                .ok()
                .and_then(|c| c.time().ok())
                .map_or(0, |t| t.seconds)
        });
        let now = folder_tree(&repo, id, folder)?;
        let before = match info.parent_ids.first() {
            Some(parent) => folder_tree(&repo, *parent, folder)?,
            None => None,
        };
        if now == before {
            continue;
        }
        let mut new_files = Vec::new();
        let mut old_files = Vec::new();
        if let Some(tree) = now {
            list(&repo, tree, folder, &mut new_files)?;
        }
        if let Some(tree) = before {
            list(&repo, tree, folder, &mut old_files)?;
        }
        let old: HashMap<&str, ObjectId> =
            old_files.iter().map(|(p, id)| (p.as_str(), *id)).collect();
        let new: HashMap<&str, ObjectId> =
            new_files.iter().map(|(p, id)| (p.as_str(), *id)).collect();
        // Content that only moved: its old name takes on the new one's.
        let gone: HashMap<ObjectId, &str> = old_files
            .iter()
            .filter(|(p, _)| !new.contains_key(p.as_str()))
            .map(|(p, id)| (*id, p.as_str()))
            .collect();
        for (path, blob) in &new_files {
            if old.get(path.as_str()) == Some(blob) {
                continue;
            }
            let name = renamed.get(path).cloned().unwrap_or_else(|| path.clone());
            if !old.contains_key(path.as_str())
                && let Some(from) = gone.get(blob)
            {
                renamed.insert((*from).to_owned(), name);
                continue;
            }
            if history.at_head.contains_key(&name) {
                history.changed.entry(name).or_insert_with(|| Changed {
                    time,
                    commit: id.to_hex().to_string(),
                });
            }
        }
    }
    Ok(history)
}

/// Where the repository of the workspace at `root` stands: `HEAD`'s
/// commit, `unborn`, or why it is not read (`refused: …`). Two reads of
/// the history under the same state give the same history.
pub fn head_state(root: &Path) -> String {
    let refused = |err: HistoryError| format!("refused: {err}");
    if let Err(err) = contained_git_dir(root) {
        return refused(err);
    }
    let repo = match gix::open_opts(root, gix::open::Options::isolated()) {
        Ok(repo) => repo,
        Err(err) => return refused(git(err)),
    };
    match repo.head_id() {
        Ok(id) => format!("commit:{}", id.detach()),
        Err(_) => match repo.head() {
            Ok(head) if head.is_unborn() => "unborn".into(),
            Ok(_) => "refused: HEAD does not name a commit".into(),
            Err(err) => refused(git(err)),
        },
    }
}

/// The last history read, by repository folder and `HEAD` state.
type Kept = Option<(
    std::path::PathBuf,
    String,
    std::sync::Arc<Result<History, String>>,
)>;
static KEPT: std::sync::Mutex<Kept> = std::sync::Mutex::new(None);

/// [`read`] of `.vault`, kept for as long as `HEAD` stays where it is (a
/// commit's history never changes), with the state it was read under.
/// The error is why there is none, as a sentence.
pub fn read_vault_cached(root: &Path) -> (String, std::sync::Arc<Result<History, String>>) {
    let state = head_state(root);
    let key = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((at, was, history)) = kept.as_ref()
        && *at == key
        && *was == state
        && !state.starts_with("refused")
    {
        return (state, history.clone());
    }
    let history = std::sync::Arc::new(read(root, ".vault").map_err(|e| e.to_string()));
    // `HEAD` moved during the walk: which commit it read is not known, so
    // it is neither kept nor vouched for (no state matches this one).
    if head_state(root) != state {
        return ("moving".into(), history);
    }
    *kept = Some((key, state.clone(), history.clone()));
    (state, history)
}

/// The repository folder of the workspace at `root`, when it is inside it
/// and reached through no link.
pub fn contained_git_dir(root: &Path) -> Result<std::path::PathBuf, HistoryError> {
    let dot_git = root.join(".git");
    let meta = std::fs::symlink_metadata(&dot_git).map_err(|_| HistoryError::NoRepository)?;
    if meta.file_type().is_symlink() {
        return Err(HistoryError::Linked);
    }
    if meta.is_dir() {
        return Ok(dot_git);
    }
    // A `gitdir:` file (a linked worktree, a submodule).
    let text = crate::checked_file::read_text(&dot_git, 4096, crate::checked_file::Owner::Anyone)
        .map_err(git)?
        .unwrap_or_default();
    let target = text
        .lines()
        .find_map(|l| l.strip_prefix("gitdir:"))
        .map(str::trim)
        .ok_or_else(|| git("`.git` is neither a folder nor a `gitdir:` file"))?;
    let target = root.join(target);
    let resolved = target.canonicalize().map_err(git)?;
    let root = root.canonicalize().map_err(git)?;
    if !resolved.starts_with(&root) {
        return Err(HistoryError::Outside(resolved.display().to_string()));
    }
    Ok(resolved)
}

/// The bytes of the repository's packs.
fn pack_bytes(git_dir: &Path) -> u64 {
    std::fs::read_dir(git_dir.join("objects/pack"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "pack"))
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum()
}

/// The tree of `folder` in commit `commit`, if it has one.
fn folder_tree(
    repo: &gix::Repository,
    commit: ObjectId,
    folder: &str,
) -> Result<Option<ObjectId>, HistoryError> {
    let commit = repo.find_commit(commit).map_err(git)?;
    let tree = commit.tree().map_err(git)?;
    let entry = tree.lookup_entry_by_path(folder).map_err(git)?;
    Ok(entry.filter(|e| e.mode().is_tree()).map(|e| e.object_id()))
}

/// Every blob beneath `tree`, by its workspace path (`prefix/...`).
fn list(
    repo: &gix::Repository,
    tree: ObjectId,
    prefix: &str,
    out: &mut Vec<(String, ObjectId)>,
) -> Result<(), HistoryError> {
    let tree = repo.find_tree(tree).map_err(git)?;
    let decoded = tree.decode().map_err(git)?;
    for entry in &decoded.entries {
        let Ok(name) = std::str::from_utf8(entry.filename) else {
            continue;
        };
        let path = format!("{prefix}/{name}");
        if entry.mode.is_tree() {
            list(repo, entry.oid.to_owned(), &path, out)?;
        } else if entry.mode.is_blob() {
            out.push((path, entry.oid.to_owned()));
        }
    }
    Ok(())
}

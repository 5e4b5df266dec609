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
    read_within(root, folder, TIME_BUDGET)
}

/// [`read`], walking for at most `budget` (never past [`TIME_BUDGET`]).
pub fn read_within(root: &Path, folder: &str, budget: Duration) -> Result<History, HistoryError> {
    let budget = budget.min(TIME_BUDGET);
    let git_dir = contained_git_dir(root)?;
    let packs = pack_bytes(&git_dir);
    if packs > MAX_PACK_BYTES {
        return Err(HistoryError::TooLarge {
            bytes: packs,
            budget: MAX_PACK_BYTES,
        });
    }
    let mut repo = gix::open_opts(root, gix::open::Options::isolated()).map_err(git)?;
    // Each commit's trees are read again as the next commit's parent's.
    repo.object_cache_size_if_unset(16 << 20);
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
        if walked > MAX_COMMITS || started.elapsed() > budget {
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
        // Only the subtrees that differ are read: a commit costs what it
        // changed, not the size of the vault.
        let mut changes = Vec::new();
        diff(&repo, now, before, folder, &mut changes)?;
        // Content that only moved: its old name takes on the new one's.
        let gone: HashMap<ObjectId, &str> = changes
            .iter()
            .filter_map(|(path, new, old)| match (new, old) {
                (None, Some(old)) => Some((*old, path.as_str())),
                _ => None,
            })
            .collect();
        for (path, new, old) in &changes {
            let Some(blob) = new else { continue };
            let name = renamed.get(path).cloned().unwrap_or_else(|| path.clone());
            if old.is_none()
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
    if let Some(commit) = plain_head(root) {
        return format!("commit:{commit}");
    }
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

/// `HEAD`'s commit read from the files of a plain `.git` folder: `HEAD`,
/// then the loose ref it names or `packed-refs` (a few small reads, no
/// link followed); `None` for anything else (a linked worktree, a
/// symbolic ref to a symbolic ref, reftable), which gitoxide resolves.
fn plain_head(root: &Path) -> Option<String> {
    use crate::checked_file::{Owner, read_text};
    let git = root.join(".git");
    if !std::fs::symlink_metadata(&git).ok()?.is_dir() {
        return None;
    }
    let read = |path: &Path| read_text(path, 64 << 10, Owner::Anyone).ok().flatten();
    let is_commit = |s: &str| s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit());
    let head = read(&git.join("HEAD"))?;
    let head = head.trim();
    let Some(name) = head.strip_prefix("ref: ") else {
        return is_commit(head).then(|| head.to_owned());
    };
    let name = name.trim();
    let plain = name.starts_with("refs/")
        && name
            .split('/')
            .all(|p| !p.is_empty() && p != "." && p != "..");
    if !plain {
        return None;
    }
    let loose = git.join(name);
    if std::fs::symlink_metadata(&loose).is_ok() {
        // There, but a link or unreadable: gitoxide decides.
        let loose = read(&loose)?;
        let loose = loose.trim();
        return is_commit(loose).then(|| loose.to_owned());
    }
    // Only a small `packed-refs` is searched here; gitoxide reads a big one.
    let packed = read(&git.join("packed-refs"))?;
    packed.lines().find_map(|line| {
        let (id, named) = line.split_once(' ')?;
        (named == name && is_commit(id)).then(|| id.to_owned())
    })
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
pub fn read_vault_cached(
    root: &Path,
    budget: Duration,
) -> (String, std::sync::Arc<Result<History, String>>) {
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
    let history =
        std::sync::Arc::new(read_within(root, ".vault", budget).map_err(|e| e.to_string()));
    // `HEAD` moved during the walk: which commit it read is not known, so
    // it is neither kept nor vouched for (no state matches this one).
    if head_state(root) != state {
        return ("moving".into(), history);
    }
    // A walk cut short by a caller's nearer deadline is not kept for
    // callers with more time.
    if budget < TIME_BUDGET && history.as_ref().as_ref().is_ok_and(|h| !h.complete) {
        return (state, history);
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

/// A file that differs between two trees: its path, and its blob in the
/// new tree and in the old one (`None`: not there).
type Difference = (String, Option<ObjectId>, Option<ObjectId>);

/// The files that differ between the trees `new` and `old` (either absent)
/// beneath `prefix`, reading only the subtrees whose ids differ.
fn diff(
    repo: &gix::Repository,
    new: Option<ObjectId>,
    old: Option<ObjectId>,
    prefix: &str,
    out: &mut Vec<Difference>,
) -> Result<(), HistoryError> {
    if new == old {
        return Ok(());
    }
    let find = |tree: Option<ObjectId>| tree.map(|id| repo.find_tree(id)).transpose().map_err(git);
    let (new_tree, old_tree) = (find(new)?, find(old)?);
    let hash = repo.object_hash();
    let (new, old) = (
        entries(new_tree.as_ref(), hash)?,
        entries(old_tree.as_ref(), hash)?,
    );
    // Both lists are in git's tree order: walk them side by side.
    let (mut n, mut o) = (0, 0);
    while n < new.len() || o < old.len() {
        let order = match (new.get(n), old.get(o)) {
            (Some(a), Some(b)) => a.git_order(b),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        let (a, b) = match order {
            std::cmp::Ordering::Less => (new.get(n), None),
            std::cmp::Ordering::Greater => (None, old.get(o)),
            std::cmp::Ordering::Equal => (new.get(n), old.get(o)),
        };
        n += usize::from(a.is_some());
        o += usize::from(b.is_some());
        if a.map(|e| e.id) == b.map(|e| e.id) {
            continue;
        }
        let Ok(name) = std::str::from_utf8(a.or(b).expect("one side").name) else {
            continue;
        };
        let path = format!("{prefix}/{name}");
        let tree = |side: Option<&Entry>| side.filter(|e| e.tree).map(|e| e.id);
        let blob = |side: Option<&Entry>| side.filter(|e| !e.tree).map(|e| e.id);
        if tree(a).is_some() || tree(b).is_some() {
            diff(repo, tree(a), tree(b), &path, out)?;
        } else {
            out.push((path, blob(a), blob(b)));
        }
    }
    Ok(())
}

/// The file and folder entries of `tree` (none without one), their names
/// borrowed from the tree's data: nothing copied.
fn entries<'t>(
    tree: Option<&'t gix::Tree<'_>>,
    hash: gix::hash::Kind,
) -> Result<Vec<Entry<'t>>, HistoryError> {
    let Some(tree) = tree else {
        return Ok(Vec::new());
    };
    let decoded = gix::objs::TreeRef::from_bytes(&tree.data, hash).map_err(git)?;
    Ok(decoded
        .entries
        .into_iter()
        .filter(|e| e.mode.is_tree() || e.mode.is_blob())
        .map(|e| Entry {
            name: e.filename,
            tree: e.mode.is_tree(),
            id: e.oid.to_owned(),
        })
        .collect())
}

/// One entry of a tree, as [`diff`] compares them.
struct Entry<'t> {
    name: &'t [u8],
    tree: bool,
    id: ObjectId,
}

impl Entry<'_> {
    /// Git's order of tree entries: by name, a tree's name compared as if
    /// it ended in `/`.
    fn git_order(&self, other: &Entry<'_>) -> std::cmp::Ordering {
        let end = |e: &Entry| if e.tree { b'/' } else { 0 };
        let a = self.name.iter().copied().chain(std::iter::once(end(self)));
        let b = other
            .name
            .iter()
            .copied()
            .chain(std::iter::once(end(other)));
        a.cmp(b)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn git(root: &Path, args: &[&str]) -> String {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(root)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}");
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    }

    #[test]
    fn the_state_read_from_files_is_the_commit_git_names() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q"]);
        assert_eq!(head_state(root), "unborn");
        std::fs::write(root.join("a"), "a").unwrap();
        git(root, &["add", "a"]);
        git(root, &["commit", "-q", "-m", "a"]);
        let first = git(root, &["rev-parse", "HEAD"]);
        assert_eq!(plain_head(root).as_deref(), Some(first.as_str()));
        assert_eq!(head_state(root), format!("commit:{first}"));
        // Packed refs, then a detached HEAD, then a second commit.
        git(root, &["pack-refs", "--all"]);
        assert_eq!(plain_head(root).as_deref(), Some(first.as_str()));
        git(root, &["checkout", "-q", "--detach"]);
        assert_eq!(plain_head(root).as_deref(), Some(first.as_str()));
        git(root, &["commit", "-q", "--allow-empty", "-m", "b"]);
        let second = git(root, &["rev-parse", "HEAD"]);
        assert_ne!(first, second);
        assert_eq!(head_state(root), format!("commit:{second}"));
    }
}

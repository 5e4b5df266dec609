//! Finding the workspace root a command works on, and saying where we looked
//! when there is none.
//!
//! The order follows `spec/mcp-tools.md` §9.2: `--target`, then
//! `VAULTSPEC_TARGET_DIR`, then discovery from the current folder. Discovery
//! first asks the reference's question (a `.gt/` container, else the git
//! repository or the main checkout of a linked worktree, else the folder
//! itself), so every workspace the reference finds is found the same way.
//! When that folder holds no `.vaultspec/`, it walks up from the current
//! folder to the nearest folder holding `.vaultspec/` or `.vault/`: running
//! from `.vault/plan`, or from a workspace nested inside a repository, finds
//! it. The home folder's own `.vaultspec/` (the user's verbs and trust) does
//! not make it a workspace; a home folder with a `.vault/` too does.

use crate::checked_file::{self, Owner};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::env;

/// The folder that makes a folder a workspace.
const MARKER: &str = ".vaultspec";
/// The vault folder: a folder with only this one is a workspace missing its
/// `.vaultspec/`.
const VAULT: &str = ".vault";

/// The workspace root for `target`, the environment and `cwd`: a folder
/// holding `.vaultspec/`, or an error naming the folders looked at and how
/// to make one.
pub fn resolve_root(target: Option<&Path>, cwd: &Path) -> anyhow::Result<PathBuf> {
    if let Some(target) = target {
        let root = cwd.join(target);
        check_named(&root, "`--target`")?;
        return Ok(root);
    }
    if let Some(value) =
        std::env::var_os(env::TARGET_DIR).filter(|v| !v.to_string_lossy().trim().is_empty())
    {
        let root = cwd.join(expand_home(&PathBuf::from(value)));
        check_named(&root, &format!("`{}`", env::TARGET_DIR))?;
        return Ok(root);
    }
    let home = std::env::home_dir();
    discover(cwd, home.as_deref())
}

/// The folder `vaultspec install` sets up: `--target`, else
/// `VAULTSPEC_TARGET_DIR`, else the folder discovery would look in first
/// (the git repository of `cwd`, or `cwd` itself). It must exist; it need
/// not be a workspace yet.
pub fn setup_root(target: Option<&Path>, cwd: &Path) -> anyhow::Result<PathBuf> {
    let (root, origin) = if let Some(target) = target {
        (cwd.join(target), "`--target`".to_owned())
    } else if let Some(value) =
        std::env::var_os(env::TARGET_DIR).filter(|v| !v.to_string_lossy().trim().is_empty())
    {
        (
            cwd.join(expand_home(&PathBuf::from(value))),
            format!("`{}`", env::TARGET_DIR),
        )
    } else {
        return Ok(conventional_root(cwd));
    };
    if !root.is_dir() {
        bail!(
            "{origin} names `{}`, which is not an existing folder",
            root.display()
        );
    }
    Ok(root)
}

/// What to do when no workspace is found, for a folder `root` that should
/// be one.
fn make_one(root: &Path) -> String {
    format!(
        "set `{}` up with `vaultspec install --target {}`",
        root.display(),
        shell_words::quote(&root.to_string_lossy())
    )
}

/// A folder named by `--target` or the environment must be a workspace.
fn check_named(root: &Path, origin: &str) -> anyhow::Result<()> {
    if !root.is_dir() {
        bail!(
            "{origin} names `{}`, which is not an existing folder",
            root.display()
        );
    }
    if !root.join(MARKER).is_dir() {
        bail!(
            "{origin} names `{}`, which is not a workspace: it has no `.vaultspec/` folder; \
             name a folder that has one, or {}",
            root.display(),
            make_one(root)
        );
    }
    Ok(())
}

fn expand_home(path: &Path) -> PathBuf {
    let Ok(rest) = path.strip_prefix("~") else {
        return path.to_owned();
    };
    match std::env::home_dir() {
        Some(home) => home.join(rest),
        None => path.to_owned(),
    }
}

/// Discovery from `cwd` (see the module docs); `home` is the user's home
/// folder, whose `.vaultspec/` alone does not make a workspace.
fn discover(cwd: &Path, home: Option<&Path>) -> anyhow::Result<PathBuf> {
    let conventional = conventional_root(cwd);
    if conventional.join(MARKER).is_dir() {
        return Ok(conventional);
    }
    let mut looked = Vec::new();
    for dir in cwd.ancestors() {
        let is_home = home.is_some_and(|h| h == dir);
        let has_vault = dir.join(VAULT).is_dir();
        if dir.join(MARKER).is_dir() && (!is_home || has_vault) {
            return Ok(dir.to_owned());
        }
        if has_vault {
            bail!(
                "`{}` has a `.vault/` but no `.vaultspec/` folder, so it is not a workspace yet: \
                 run `vaultspec install --target {}` to add it, or name another workspace with `--target`",
                dir.display(),
                shell_words::quote(&dir.to_string_lossy())
            );
        }
        looked.push(dir.to_owned());
    }
    if !looked.contains(&conventional) {
        looked.insert(0, conventional.clone());
    }
    let mut message = format!(
        "no workspace found from `{}`: none of these folders has a `.vaultspec/` folder:",
        cwd.display()
    );
    for dir in &looked {
        let _ = write!(message, "\n  {}", dir.display());
        if home.is_some_and(|h| h == dir) && dir.join(MARKER).is_dir() {
            message.push_str(
                "  (your home folder: its `.vaultspec/` keeps your own verbs, it is no workspace)",
            );
        }
    }
    let _ = write!(
        message,
        "\nrun from inside a workspace, name one with `--target <folder>` or `{}`, or {}",
        env::TARGET_DIR,
        make_one(&conventional)
    );
    bail!(message)
}

/// The reference's root for `cwd`: a `.gt/` container, else the nearest
/// `.git` (a linked worktree's main checkout), else `cwd` itself.
fn conventional_root(cwd: &Path) -> PathBuf {
    if let Some(container) = cwd.ancestors().find(|d| d.join(".gt").is_dir()) {
        return container.to_owned();
    }
    for dir in cwd.ancestors() {
        let git = dir.join(".git");
        if git.is_dir() {
            return dir.to_owned();
        }
        if git.is_file() {
            return worktree_root(dir, &git);
        }
    }
    cwd.to_owned()
}

/// The root for a linked worktree whose `.git` is a `gitdir:` pointer.
fn worktree_root(dir: &Path, git_file: &Path) -> PathBuf {
    // A `.git` file holds one line; a planted link, FIFO or giant is read
    // as no pointer at all.
    let Ok(Some(text)) = checked_file::read_text(git_file, 4096, Owner::Anyone) else {
        return dir.to_owned();
    };
    let Some(pointer) = text.lines().find_map(|l| l.strip_prefix("gitdir:")) else {
        return dir.to_owned();
    };
    let gitdir = dir.join(pointer.trim());
    if let Some(container) = gitdir
        .ancestors()
        .find(|d| d.file_name().is_some_and(|n| n == ".gt"))
    {
        return container.parent().unwrap_or(dir).to_owned();
    }
    // `<repo>/.git/worktrees/<name>` → `<repo>`.
    let parts: Vec<_> = gitdir.components().collect();
    if parts.len() >= 3 {
        let n = parts.len();
        let is_worktrees =
            parts[n - 2].as_os_str() == "worktrees" && parts[n - 3].as_os_str() == ".git";
        if is_worktrees {
            return gitdir.ancestors().nth(3).unwrap_or(dir).to_owned();
        }
    }
    dir.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mkdirs(root: &Path, dirs: &[&str]) {
        for dir in dirs {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
    }

    #[test]
    fn discovery_finds_the_repository_root_above_the_current_folder() {
        let tmp = tempfile::tempdir().unwrap();
        mkdirs(tmp.path(), &[".git", ".vaultspec", "src/deep"]);
        assert_eq!(conventional_root(&tmp.path().join("src/deep")), tmp.path());
        assert_eq!(
            discover(&tmp.path().join("src/deep"), None).unwrap(),
            tmp.path()
        );
    }

    #[test]
    fn a_linked_worktree_resolves_to_the_main_repository() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        mkdirs(&repo, &[".git/worktrees/feature", ".vaultspec"]);
        let worktree = tmp.path().join("feature");
        // The worktree carries its own committed `.vaultspec/`: the main
        // checkout still wins, as in the reference.
        mkdirs(&worktree, &[".vaultspec"]);
        let pointer = format!(
            "gitdir: {}\n",
            repo.join(".git/worktrees/feature").display()
        );
        std::fs::write(worktree.join(".git"), pointer).unwrap();
        assert_eq!(discover(&worktree, None).unwrap(), repo);
    }

    #[test]
    fn from_inside_the_vault_the_workspace_above_is_found() {
        let tmp = tempfile::tempdir().unwrap();
        mkdirs(tmp.path(), &[".vaultspec", ".vault/plan"]);
        let cwd = tmp.path().join(".vault/plan");
        assert_eq!(discover(&cwd, None).unwrap(), tmp.path());
    }

    #[test]
    fn a_workspace_nested_in_a_repository_is_found_from_its_subfolders() {
        let tmp = tempfile::tempdir().unwrap();
        mkdirs(
            tmp.path(),
            &[
                ".git",
                "examples/vault/.vaultspec",
                "examples/vault/.vault/adr",
            ],
        );
        let cwd = tmp.path().join("examples/vault/.vault/adr");
        assert_eq!(
            discover(&cwd, None).unwrap(),
            tmp.path().join("examples/vault")
        );
    }

    #[test]
    fn the_home_folders_own_vaultspec_is_no_workspace() {
        let tmp = tempfile::tempdir().unwrap();
        mkdirs(tmp.path(), &[".vaultspec/verbs", "notes/deep"]);
        let err = discover(&tmp.path().join("notes/deep"), Some(tmp.path()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("your home folder"), "{err}");
        mkdirs(tmp.path(), &[".vault"]);
        assert_eq!(
            discover(&tmp.path().join("notes/deep"), Some(tmp.path())).unwrap(),
            tmp.path()
        );
    }

    #[test]
    fn a_vault_without_vaultspec_stops_the_walk_and_says_what_to_create() {
        let tmp = tempfile::tempdir().unwrap();
        mkdirs(tmp.path(), &[".vaultspec", "inner/.vault/plan"]);
        let err = discover(&tmp.path().join("inner/.vault/plan"), None)
            .unwrap_err()
            .to_string();
        let inner = tmp.path().join("inner");
        assert!(
            err.contains(&format!("`{}` has a `.vault/`", inner.display()))
                && err.contains(&format!("vaultspec install --target {}", inner.display())),
            "{err}"
        );
    }

    #[test]
    fn no_workspace_names_every_folder_looked_at_and_how_to_make_one() {
        let tmp = tempfile::tempdir().unwrap();
        mkdirs(tmp.path(), &[".git", "a/b"]);
        let cwd = tmp.path().join("a/b");
        let err = discover(&cwd, None).unwrap_err().to_string();
        for dir in [&cwd, &tmp.path().join("a"), &tmp.path().to_owned()] {
            assert!(err.contains(&format!("\n  {}", dir.display())), "{err}");
        }
        let install = format!("vaultspec install --target {}", tmp.path().display());
        assert!(err.contains(&install), "{err}");
        assert!(err.contains("--target"), "{err}");
    }

    #[test]
    fn a_named_folder_without_vaultspec_is_refused_naming_its_origin() {
        let tmp = tempfile::tempdir().unwrap();
        let err = resolve_root(Some(tmp.path()), Path::new("/"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("`--target` names") && err.contains("no `.vaultspec/` folder"),
            "{err}"
        );
    }
}

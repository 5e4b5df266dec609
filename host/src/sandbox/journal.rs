//! What a call looked at in the workspace outside `.vault/`, noted so the
//! command line's answer cache can tell whether the call's answer still
//! holds.
//!
//! Everything under `.vault/` is covered by a survey of the whole folder
//! (`crate::workspace::survey`); the journal names the other folders a
//! call listed (each is surveyed as a whole too, and covers the files
//! beneath it) and the other files it read or asked about
//! (`.vaultspec/workspace.json`, a template), each stamped on its own. A
//! call that named a path that is not plain, looked at more than
//! [`MAX_NOTED`] other paths, or tried to write is *unbounded*: what it
//! depends on cannot be named (whether a write succeeds depends on locks
//! and other processes too), and its answer is never kept.

use std::collections::BTreeSet;

/// Paths outside `.vault/` a call may look at and still be bounded.
pub const MAX_NOTED: usize = 256;

/// The workspace paths a call depends on beyond `.vault/`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Journal {
    outside: BTreeSet<String>,
    listed: BTreeSet<String>,
    unbounded: bool,
    history: Option<String>,
}

/// Whether `path` is `.vault` or a plain path beneath it (no empty, `.` or
/// `..` component), which the survey of `.vault/` covers.
fn in_vault(path: &str) -> bool {
    path == ".vault"
        || path
            .strip_prefix(".vault/")
            .is_some_and(|rest| rest.split('/').all(plain))
}

fn plain(component: &str) -> bool {
    !matches!(component, "" | "." | "..")
}

/// Whether `path` lies beneath the folder `dir` (`""`: the workspace).
fn beneath(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

impl Journal {
    /// A file the call read, or asked whether it exists.
    pub fn note_file(&mut self, path: &str) {
        if self.unbounded || in_vault(path) || self.is_listed(path) {
            return;
        }
        if !path.split('/').all(plain) || self.outside.len() >= MAX_NOTED {
            self.unbounded = true;
            return;
        }
        self.outside.insert(path.to_owned());
    }

    /// A folder the call listed.
    pub fn note_listing(&mut self, dir: &str) {
        if self.unbounded || in_vault(dir) || self.is_listed(dir) {
            return;
        }
        if !(dir.is_empty() || dir.split('/').all(plain)) || self.listed.len() >= MAX_NOTED {
            self.unbounded = true;
            return;
        }
        self.listed.insert(dir.to_owned());
    }

    fn is_listed(&self, path: &str) -> bool {
        self.listed.iter().any(|dir| beneath(path, dir))
    }

    /// The repository's state when the call read the vault's history
    /// ([`crate::git_history::head_state`]); a second read under another
    /// state leaves the call unbounded.
    pub fn note_history(&mut self, state: String) {
        match &self.history {
            Some(seen) if *seen != state => self.unbounded = true,
            _ => self.history = Some(state),
        }
    }

    /// The repository state the call's history read depended on, if it
    /// read any.
    pub fn history(&self) -> Option<&str> {
        self.history.as_deref()
    }

    /// A write, rename or removal the call tried.
    pub fn note_write(&mut self) {
        self.unbounded = true;
    }

    /// Whether everything the call depends on can be named: `.vault/`,
    /// [`Journal::listed`] and [`Journal::outside`].
    pub fn bounded(&self) -> bool {
        !self.unbounded
    }

    /// The plain paths outside `.vault/` and the listed folders that the
    /// call read or asked about, sorted.
    pub fn outside(&self) -> impl Iterator<Item = &str> {
        self.outside
            .iter()
            .filter(|path| !self.is_listed(path))
            .map(String::as_str)
    }

    /// The folders outside `.vault/` the call listed (`""`: the whole
    /// workspace), sorted.
    pub fn listed(&self) -> impl Iterator<Item = &str> {
        self.listed.iter().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vault_is_covered_and_other_files_are_named() {
        let mut journal = Journal::default();
        journal.note_file(".vault/adr/a.md");
        journal.note_listing(".vault");
        journal.note_listing(".vault/plan");
        journal.note_file(".vaultspec/workspace.json");
        journal.note_file(".vaultspec/workspace.json");
        assert!(journal.bounded());
        assert_eq!(
            journal.outside().collect::<Vec<_>>(),
            [".vaultspec/workspace.json"]
        );
    }

    #[test]
    fn a_listed_folder_covers_the_files_beneath_it() {
        let mut journal = Journal::default();
        journal.note_file(".vaultspec/templates/adr.md");
        journal.note_file(".vaultspec-old/x.md");
        journal.note_listing(".vaultspec");
        journal.note_file(".vaultspec/workspace.json");
        journal.note_listing(".vaultspec/templates");
        assert!(journal.bounded());
        assert_eq!(journal.listed().collect::<Vec<_>>(), [".vaultspec"]);
        assert_eq!(
            journal.outside().collect::<Vec<_>>(),
            [".vaultspec-old/x.md"]
        );
        journal.note_listing("");
        journal.note_file("src/main.rs");
        assert_eq!(journal.outside().count(), 0);
        assert_eq!(journal.listed().collect::<Vec<_>>(), ["", ".vaultspec"]);
    }

    #[test]
    fn an_odd_path_or_too_many_paths_are_unbounded() {
        for (file, listing) in [
            (None, Some("./src")),
            (None, Some("src/")),
            (Some(".vault/../src/main.rs"), None),
            (Some("./.vault/a.md"), None),
            (Some(".vault//a.md"), None),
        ] {
            let mut journal = Journal::default();
            if let Some(path) = file {
                journal.note_file(path);
            }
            if let Some(dir) = listing {
                journal.note_listing(dir);
            }
            assert!(!journal.bounded(), "{file:?} {listing:?}");
        }
        let mut writer = Journal::default();
        writer.note_write();
        assert!(!writer.bounded());
        let mut many = Journal::default();
        for n in 0..=MAX_NOTED {
            many.note_file(&format!("notes/{n}.md"));
        }
        assert!(!many.bounded());
    }
}

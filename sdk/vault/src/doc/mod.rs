//! Documents: their types and places in the vault (spec/vault-format.md §2),
//! the filename grammar (§4), the parsed [`Document`] and the corpus loader.
//!
//! A [`Document`] is read once from its bytes; everything the operations and
//! listings need (type, feature, dates, tags, related, title, body range) is
//! derived in that one pass and kept next to the original text, so writers
//! can edit the exact bytes that were read.

mod corpus;
mod document;
pub mod name;
mod problem;
mod tag;

pub use corpus::{Corpus, Skipped};
pub use document::{Document, first_h1, wiki_target};
pub use problem::{DocProblem, frontmatter_problem, yaml_problem};
pub use tag::{feature_arg, tag_name};

use std::fmt;
use std::str::FromStr;

/// The vault root folder, relative to the workspace root.
pub const VAULT_DIR: &str = ".vault";
/// The archive folder, relative to the workspace root.
pub const ARCHIVE_DIR: &str = ".vault/_archive";
/// The feature index folder, relative to the workspace root.
pub const INDEX_DIR: &str = ".vault/index";
/// The templates folder, relative to the workspace root.
pub const TEMPLATES_DIR: &str = ".vaultspec/templates";
/// Path components that take a subtree out of the corpus.
pub const EXCLUDED_COMPONENTS: [&str; 3] = [".obsidian", ".trash", "_archive"];

/// The seven document types; each is also a folder of `.vault/` and a
/// directory tag (`#adr`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DocType {
    /// Architecture decision record.
    Adr,
    /// Audit.
    Audit,
    /// Execution ledger (and legacy exec records).
    Exec,
    /// Generated feature index.
    Index,
    /// Plan.
    Plan,
    /// Reference sheet.
    Reference,
    /// Research note.
    Research,
}

impl DocType {
    /// Every type, in alphabetical order.
    pub const ALL: [DocType; 7] = [
        DocType::Adr,
        DocType::Audit,
        DocType::Exec,
        DocType::Index,
        DocType::Plan,
        DocType::Reference,
        DocType::Research,
    ];

    /// Every type's name, in [`DocType::ALL`]'s order: the one list of
    /// type names.
    pub const NAMES: [&'static str; 7] = {
        let mut names = [""; 7];
        let mut i = 0;
        while i < names.len() {
            names[i] = DocType::ALL[i].as_str();
            i += 1;
        }
        names
    };

    /// The lowercase name, which is also the folder name.
    pub const fn as_str(self) -> &'static str {
        match self {
            DocType::Adr => "adr",
            DocType::Audit => "audit",
            DocType::Exec => "exec",
            DocType::Index => "index",
            DocType::Plan => "plan",
            DocType::Reference => "reference",
            DocType::Research => "research",
        }
    }

    /// The directory tag, `#` included.
    pub fn tag(self) -> String {
        format!("#{}", self.as_str())
    }

    /// The folder of this type, relative to the workspace root.
    pub fn dir(self) -> String {
        format!("{VAULT_DIR}/{}", self.as_str())
    }

    /// Whether a topic infix is admitted in filenames of this type.
    pub fn takes_topic(self) -> bool {
        matches!(
            self,
            DocType::Adr | DocType::Audit | DocType::Reference | DocType::Research
        )
    }

    /// The type whose directory tag `tag` is (with or without `#`).
    pub fn from_tag(tag: &str) -> Option<DocType> {
        tag.strip_prefix('#').unwrap_or(tag).parse().ok()
    }

    /// The type whose directory tag is exactly `tag`, `#` included (`#adr`;
    /// not `adr`), as the reference's `DocType.from_tag` matches it.
    pub fn from_exact_tag(tag: &str) -> Option<DocType> {
        tag.strip_prefix('#')?.parse().ok()
    }

    /// The type of a workspace-relative path: the first folder under `.vault/`.
    pub fn of_path(path: &str) -> Option<DocType> {
        let rest = path.strip_prefix(VAULT_DIR)?.strip_prefix('/')?;
        let (first, _) = rest.split_once('/')?;
        first.parse().ok()
    }
}

impl fmt::Display for DocType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for DocType {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<DocType, crate::Error> {
        DocType::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| crate::Error::UnknownDocType { raw: s.to_string() })
    }
}

/// Whether a workspace-relative path lies in a subtree no reader looks at
/// (`.obsidian`, `.trash`, `_archive`).
pub fn is_excluded(path: &str) -> bool {
    path.split('/').any(|c| EXCLUDED_COMPONENTS.contains(&c))
}

/// Where a listed file stands in the vault: the one rule both corpus
/// readers ([`Corpus::load`] and [`crate::graph::read_vault`]) follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place<'p> {
    /// A corpus document: `*.md` under `.vault/`, outside the excluded
    /// subtrees.
    Corpus,
    /// An archived document: `*.md` under `.vault/_archive/` and outside
    /// `.obsidian/` and `.trash/`, with its archive-relative path
    /// (`adr/x.md`). Listed so links to it resolve, never read.
    Archived(&'p str),
    /// Anything else: not markdown, outside `.vault/`, or excluded.
    Other,
}

/// Where the workspace-relative `path` stands in the vault.
pub fn place(path: &str) -> Place<'_> {
    let Some(rel) = path.strip_prefix(".vault/") else {
        return Place::Other;
    };
    if !rel.ends_with(".md") {
        return Place::Other;
    }
    let dirs = rel.rsplit_once('/').map_or("", |(dirs, _)| dirs);
    if !dirs.split('/').any(|d| EXCLUDED_COMPONENTS.contains(&d)) {
        return Place::Corpus;
    }
    match rel.strip_prefix("_archive/") {
        Some(archived) if !dirs.split('/').any(|d| d == ".obsidian" || d == ".trash") => {
            Place::Archived(archived)
        }
        _ => Place::Other,
    }
}

/// The filename stem of a path (`x` for `.vault/adr/x.md`).
pub fn stem_of(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".md").unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_file_is_corpus_archived_or_neither() {
        assert_eq!(place(".vault/adr/x.md"), Place::Corpus);
        assert_eq!(place(".vault/x.md"), Place::Corpus);
        assert_eq!(place(".vault/adr/_archive.md"), Place::Corpus);
        assert_eq!(
            place(".vault/_archive/adr/x.md"),
            Place::Archived("adr/x.md")
        );
        assert_eq!(place(".vault/_archive/.trash/x.md"), Place::Other);
        assert_eq!(place(".vault/adr/.obsidian/x.md"), Place::Other);
        assert_eq!(place(".vault/adr/_archive/x.md"), Place::Other);
        assert_eq!(place(".vault/adr/x.txt"), Place::Other);
        assert_eq!(place(".vaultspec/x.md"), Place::Other);
    }
}

//! The corpus loader: every `*.md` under `.vault/` outside the excluded
//! subtrees, parsed once, with a stem index for resolution.

use std::collections::HashMap;

use super::{Document, Place, VAULT_DIR, place};
use crate::error::Result;
use crate::storage::Storage;

/// A file under `.vault/` that could not be read as a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Workspace-relative path.
    pub path: String,
    /// Why it was skipped (not UTF-8, too large ...).
    pub reason: String,
}

/// The documents of a vault, sorted by path, with a lowercase-stem index.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// Every readable document, sorted by path.
    pub docs: Vec<Document>,
    /// Files that are corpus by name but could not be read.
    pub skipped: Vec<Skipped>,
    by_stem: HashMap<String, Vec<usize>>,
}

impl Corpus {
    /// Loads the corpus of `storage`: `.vault/**/*.md` minus `.obsidian/`,
    /// `.trash/` and `_archive/`. Unreadable files are listed in `skipped`,
    /// never fatal; a failing listing is.
    pub fn load(storage: &dyn Storage) -> Result<Corpus> {
        let mut docs = Vec::new();
        let mut skipped = Vec::new();
        for entry in storage.list(VAULT_DIR)? {
            if place(&entry.path) != Place::Corpus {
                continue;
            }
            match storage
                .read(&entry.path)
                .map_err(crate::Error::from)
                .and_then(|b| Document::from_bytes(&entry.path, b))
            {
                Ok(doc) => docs.push(doc),
                Err(e) => skipped.push(Skipped {
                    path: entry.path.clone(),
                    reason: e.to_string(),
                }),
            }
        }
        Ok(Corpus::from_docs(docs, skipped))
    }

    /// Builds a corpus from already parsed documents.
    pub fn from_docs(mut docs: Vec<Document>, skipped: Vec<Skipped>) -> Corpus {
        docs.sort_by(|a, b| a.path.cmp(&b.path));
        let mut by_stem: HashMap<String, Vec<usize>> = HashMap::with_capacity(docs.len());
        for (i, d) in docs.iter().enumerate() {
            by_stem.entry(d.stem().to_lowercase()).or_default().push(i);
        }
        Corpus {
            docs,
            skipped,
            by_stem,
        }
    }

    /// The documents whose stem equals `stem` case-insensitively.
    pub fn by_stem(&self, stem: &str) -> Vec<&Document> {
        self.by_stem
            .get(&stem.to_lowercase())
            .map(|ix| ix.iter().map(|&i| &self.docs[i]).collect())
            .unwrap_or_default()
    }

    /// The stem of a corpus file that could not be read whose stem equals
    /// `stem` case-insensitively: still a document, so links to it resolve.
    pub fn skipped_stem(&self, stem: &str) -> Option<&str> {
        self.skipped
            .iter()
            .map(|s| super::stem_of(&s.path))
            .find(|s| s.eq_ignore_ascii_case(stem))
    }

    /// The document at `path`, if it is in the corpus.
    pub fn by_path(&self, path: &str) -> Option<&Document> {
        self.docs
            .binary_search_by(|d| d.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.docs[i])
    }

    /// Every stem of the corpus (original case).
    pub fn stems(&self) -> impl Iterator<Item = &str> {
        self.docs.iter().map(|d| d.stem())
    }

    /// The documents tagged `#<feature>`.
    pub fn feature_docs<'c>(&'c self, feature: &str) -> impl Iterator<Item = &'c Document> + 'c {
        let feature = feature.to_string();
        self.docs
            .iter()
            .filter(move |d| d.has_feature_tag(&feature))
    }

    /// Every feature tag in the corpus, sorted and unique.
    pub fn features(&self) -> Vec<String> {
        let mut f: Vec<String> = self.docs.iter().filter_map(Document::feature).collect();
        f.sort();
        f.dedup();
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;

    #[test]
    fn load_skips_excluded_subtrees_and_reports_unreadable_files() {
        let s = MemStorage::new();
        s.insert(".vault/adr/2026-01-01-x-adr.md", "---\ntags: []\n---\n");
        s.insert(".vault/_archive/adr/2026-01-01-y-adr.md", "x");
        s.insert(".vault/.obsidian/a.md", "x");
        s.insert(".vault/research/bad.md", vec![0xffu8]);
        s.insert(".vault/data/x.json", "{}");
        let c = Corpus::load(&s).unwrap();
        assert_eq!(c.docs.len(), 1);
        assert_eq!(c.skipped.len(), 1);
        assert_eq!(c.by_stem("2026-01-01-X-ADR").len(), 1);
    }
}

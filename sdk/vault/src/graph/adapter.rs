//! The bridge from the document layer ([`Document`], [`Corpus`]) to the
//! graph's input ([`GraphDoc`]), so a caller that already loaded the corpus
//! builds the graph without reading or scanning the files again.

use crate::doc::{Corpus, Document};
use crate::storage::Storage;

use super::{Graph, GraphDoc, LoadError};

impl From<&Document> for GraphDoc {
    /// The document itself when its text needs no normalisation; otherwise
    /// it is read again from its text with the BOM dropped and `\r\n` and
    /// `\r` turned into `\n`, which moves byte offsets.
    fn from(doc: &Document) -> GraphDoc {
        if doc.text.starts_with('\u{feff}') || crate::text::contains(&doc.text, "\r") {
            GraphDoc::from_text(&doc.path, &doc.text)
        } else {
            GraphDoc::unchanged(doc.clone())
        }
    }
}

impl Graph {
    /// Build the graph of an already loaded corpus. `archived` lists the
    /// archive-relative paths of `.vault/_archive/` (see [`archived_paths`]).
    /// Files the corpus skipped (not UTF-8, too large) get no node.
    pub fn from_corpus(corpus: &Corpus, archived: &[String]) -> Graph {
        Graph::build(corpus.docs.iter().map(GraphDoc::from).collect(), archived)
    }
}

/// The archive-relative paths (`adr/2026-01-01-x-adr.md`) of the markdown
/// files under `.vault/_archive/`, for link resolution. Nothing is read.
pub fn archived_paths(storage: &dyn Storage) -> Result<Vec<String>, LoadError> {
    Ok(storage
        .list(".vault/_archive")?
        .iter()
        .filter_map(|e| match crate::doc::place(&e.path) {
            crate::doc::Place::Archived(rel) => Some(rel.to_owned()),
            _ => None,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;

    #[test]
    fn a_corpus_document_becomes_the_same_graph_input_as_a_direct_read() {
        for text in [
            "---\ntags:\n  - '#adr'\n  - '#f'\ndate: '2026-01-01'\nrelated:\n  - '[[b]]'\n---\n\n# T\n[[c]]\n",
            "\u{feff}---\r\ntags: ['#adr', '#f']\r\ngenerated: true\r\n---\r\n\r\nbody [[x]]\r\n",
            "no frontmatter [[y]]\n",
        ] {
            let doc = Document::from_text(".vault/adr/a.md", text.to_owned());
            assert_eq!(
                GraphDoc::from(&doc),
                GraphDoc::from_text(".vault/adr/a.md", text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_graph_from_a_corpus_resolves_archived_links() {
        let s = MemStorage::new();
        s.insert(
            ".vault/adr/a.md",
            "---\ntags: ['#adr', '#f']\n---\n[[old]]\n",
        );
        s.insert(".vault/_archive/adr/old.md", "x");
        let corpus = Corpus::load(&s).unwrap();
        let g = Graph::from_corpus(&corpus, &archived_paths(&s).unwrap());
        assert!(g.dangling_links().is_empty());
        assert!(g.node(g.node_id("adr/old").unwrap()).archived);
    }
}

//! The rows of `vault list` from the documents' kept rows: each corpus
//! document's row is recalled while its file is unchanged, and only the
//! files without one are read, parsed and kept.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::kept;
use vaultspec_sdk::vault::doc::{Place, place};
use vaultspec_sdk::vault::graph::{DocRow, LoadError, default_threads, read_docs};
use vaultspec_sdk::vault::{FileEntry, Storage};

/// The kind a document's row is kept under.
const ROW: &str = "vault-list-row";

/// The row of every corpus document, in corpus order (each row's node is
/// its place there, as in a load).
pub fn corpus_rows(workspace: &Workspace) -> Result<Vec<DocRow>, LoadError> {
    let listing = workspace.list(".vault")?;
    let corpus: Vec<&FileEntry> = listing
        .iter()
        .filter(|e| matches!(place(&e.path), Place::Corpus))
        .collect();
    let paths: Vec<&str> = corpus.iter().map(|e| e.path.as_str()).collect();
    let recalled: Vec<Option<DocRow>> = kept::recall(ROW, &paths)
        .into_iter()
        .zip(corpus.iter().enumerate())
        .map(|(bytes, (node, e))| DocRow::from_kept(&e.path, node, &bytes?))
        .collect();
    let missing: Vec<&FileEntry> = corpus
        .iter()
        .zip(&recalled)
        .filter(|(_, row)| row.is_none())
        .map(|(e, _)| *e)
        .collect();
    let mut read = read_docs(workspace, &missing, default_threads())?.into_iter();
    Ok(recalled
        .into_iter()
        .enumerate()
        .map(|(node, row)| {
            row.unwrap_or_else(|| {
                let doc = read.next().expect("one read per missing row");
                let row = DocRow::of(node, &doc);
                kept::keep(ROW, &row.path, &row.kept_form());
                row
            })
        })
        .collect())
}

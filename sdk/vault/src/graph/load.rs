//! Reading the corpus from a [`Storage`] and building the graph from it.
//!
//! The corpus is every `*.md` under `.vault/` outside `.obsidian/`, `.trash/`
//! and `_archive/` (spec/vault-format.md §2); the archive is listed (never
//! read) so links to archived documents resolve. Natively the files are read
//! and parsed on several threads; on `wasm32` (no threads) in one pass.

use crate::doc::{Place, place};
use crate::parallel;
use crate::storage::{FileEntry, Storage, StorageError};

use super::{Graph, GraphDoc};

/// Why the vault could not be loaded: the listing failed, or the call's read
/// budget ran out (the error names the file whose read crossed it). A file
/// that cannot be read on its own never fails the load: it is a document
/// with a [`DocProblem`](crate::doc::DocProblem).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Listing the vault failed, or reading the named file would exceed the
    /// call's read budget.
    #[error("cannot load the vault: {0}")]
    Storage(#[from] StorageError),
}

pub use crate::parallel::default_threads;

/// The vault as read from storage: every corpus document in path order (a
/// file that could not be read or decoded is a document with a problem),
/// the archive-relative paths of archived files, and the listing of
/// `.vault/` the corpus was taken from.
#[derive(Debug, Default)]
pub struct VaultRead {
    /// The corpus, in path order.
    pub docs: Vec<GraphDoc>,
    /// Files under `.vault/_archive/`, archive-relative (`adr/x.md`).
    pub archived: Vec<String>,
    /// Every file under `.vault/`, as listed.
    pub listing: Vec<FileEntry>,
}

/// The corpus documents and the archive-relative paths of archived files.
pub fn read_corpus(storage: &dyn Storage) -> Result<(Vec<GraphDoc>, Vec<String>), LoadError> {
    read_corpus_with(storage, default_threads())
}

/// [`read_corpus`] on `threads` threads (1: on the calling thread).
pub fn read_corpus_with(
    storage: &dyn Storage,
    threads: usize,
) -> Result<(Vec<GraphDoc>, Vec<String>), LoadError> {
    let read = read_vault(storage, threads)?;
    Ok((read.docs, read.archived))
}

/// Lists `.vault/` once and reads every corpus file (one read per file, on
/// `threads` threads natively).
pub fn read_vault(storage: &dyn Storage, threads: usize) -> Result<VaultRead, LoadError> {
    read_vault_keeping(storage, threads, &mut |_| None)
}

/// [`read_vault`], taking the documents `kept` already has instead of
/// reading them again: a corpus file for which `kept(path)` gives a
/// document is not read. The caller answers only for files it knows
/// unchanged since their document was read (a long-lived server keeps the
/// last load and the times of its files).
pub fn read_vault_keeping(
    storage: &dyn Storage,
    threads: usize,
    kept: &mut dyn FnMut(&str) -> Option<GraphDoc>,
) -> Result<VaultRead, LoadError> {
    let listing = storage.list(".vault")?;
    read_vault_listed(storage, threads, listing, kept)
}

/// [`read_vault_keeping`] over a `listing` of `.vault/` the caller already
/// holds (one it knows is current), instead of listing the vault again.
pub fn read_vault_listed(
    storage: &dyn Storage,
    threads: usize,
    listing: Vec<FileEntry>,
    kept: &mut dyn FnMut(&str) -> Option<GraphDoc>,
) -> Result<VaultRead, LoadError> {
    let mut corpus: Vec<&FileEntry> = Vec::with_capacity(listing.len());
    let mut archived = Vec::new();
    for entry in &listing {
        match place(&entry.path) {
            Place::Corpus => corpus.push(entry),
            Place::Archived(rel) => archived.push(rel.to_owned()),
            Place::Other => {}
        }
    }
    // The documents kept, by their place in the corpus, and the files to
    // read; then both merged in corpus order. A first load keeps nothing,
    // and what was read is the result as it stands.
    let mut held = Vec::new();
    let mut missing = Vec::new();
    for (i, entry) in corpus.iter().enumerate() {
        match kept(&entry.path) {
            Some(doc) => held.push((i, doc)),
            None => missing.push(*entry),
        }
    }
    let read = read_docs(storage, &missing, threads)?;
    let docs = if held.is_empty() {
        read
    } else {
        let mut held = held.into_iter().peekable();
        let mut read = read.into_iter();
        (0..corpus.len())
            .map(|i| match held.next_if(|(at, _)| *at == i) {
                Some((_, doc)) => doc,
                None => read.next().expect("one read per missing document"),
            })
            .collect()
    };
    Ok(VaultRead {
        docs,
        archived,
        listing,
    })
}

/// Load the vault of `storage` and build its graph. Files that cannot be
/// read are nodes with a problem ([`Graph::problems`]); only a failing
/// listing or an exhausted read budget fails the load.
pub fn load_graph(storage: &dyn Storage) -> Result<Graph, LoadError> {
    let (docs, archived) = read_corpus(storage)?;
    Ok(Graph::build(docs, &archived))
}

/// [`load_graph`], keeping the listing of `.vault/` the graph was read
/// from: a [`SnapshotStorage`](crate::checks::SnapshotStorage) over the two
/// then serves later reads of plans and ledgers from memory, as the same
/// call saw them, instead of reading them again.
pub fn load_graph_listed(storage: &dyn Storage) -> Result<(Graph, Vec<FileEntry>), LoadError> {
    let read = read_vault(storage, default_threads())?;
    Ok((Graph::build(read.docs, &read.archived), read.listing))
}

/// The document of the corpus file at `path`, read again on its own: a
/// file that cannot be read is a document with its problem, as in a whole
/// load.
pub fn read_doc(storage: &dyn Storage, path: &str) -> Result<GraphDoc, LoadError> {
    Ok(to_doc(path, storage.read(path))?)
}

/// One read made a document: its bytes parsed, or its failure kept as the
/// document's problem. Only the call's read budget running out is an error:
/// the files after it could not be read either.
fn to_doc(path: &str, read: Result<Vec<u8>, StorageError>) -> Result<GraphDoc, StorageError> {
    match read {
        Ok(bytes) => Ok(GraphDoc::from_vec(path, bytes)),
        Err(e @ StorageError::BudgetExceeded { .. }) => Err(e),
        Err(e) => Ok(GraphDoc::unreadable(path, &e)),
    }
}

/// Reads every entry (in parallel where the storage can, on `threads`
/// threads natively) and parses each file on the thread that read it.
/// Results come back in the order of `entries`; only the call's read
/// budget running out fails the read.
///
/// In a verb (`wasm32`, one thread) the storage reads batches of files on
/// the host, the next batch while the verb parses this one.
pub fn read_docs(
    storage: &dyn Storage,
    entries: &[&FileEntry],
    threads: usize,
) -> Result<Vec<GraphDoc>, StorageError> {
    if cfg!(target_arch = "wasm32") {
        let paths: Vec<&str> = entries.iter().map(|e| e.path.as_str()).collect();
        let mut docs = Vec::with_capacity(entries.len());
        let mut failed = None;
        storage.read_batches(&paths, &mut |offset, reads| {
            for (path, read) in paths[offset..].iter().zip(reads) {
                match to_doc(path, read) {
                    Ok(doc) => docs.push(doc),
                    Err(e) => {
                        failed.get_or_insert(e);
                    }
                }
            }
        });
        return failed.map_or(Ok(docs), Err);
    }
    // The documents themselves, not a result per document: a vault's worth
    // of them is large, and only an exhausted read budget fails the load.
    let failed = std::sync::Mutex::new(None);
    let docs = parallel::map(entries, threads, |e| {
        to_doc(&e.path, storage.read(&e.path)).unwrap_or_else(|err| {
            let doc = GraphDoc::unreadable(&e.path, &err);
            failed
                .lock()
                .expect("read failure lock poisoned")
                .get_or_insert(err);
            doc
        })
    });
    match failed.into_inner().expect("read failure lock poisoned") {
        Some(err) => Err(err),
        None => Ok(docs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;

    #[test]
    fn loads_the_corpus_and_lists_the_archive_without_reading_it() {
        let s = MemStorage::new();
        s.insert(
            ".vault/adr/a.md",
            "---\ntags: ['#adr', '#f']\n---\n[[old]] [[b]]\n",
        );
        s.insert(".vault/_archive/adr/old.md", "never read");
        s.insert(".vault/.obsidian/x.md", "ignored");
        s.insert(".vault/research/.trash/y.md", "ignored");
        s.insert(".vault/adr/notes.txt", "not markdown");
        s.insert(
            ".vault/exec/2026-01-01-f/2026-01-01-f-ledger.md",
            "---\ntags: ['#exec', '#f']\n---\n",
        );
        s.insert("src/lib.md", "outside the vault");
        let g = load_graph(&s).unwrap();
        let keys: Vec<&str> = g.nodes().iter().map(|n| n.key.as_str()).collect();
        assert_eq!(keys, ["a", "2026-01-01-f-ledger", "adr/old", "b"]);
        assert_eq!(g.docs()[1].type_name(), "exec");
        assert_eq!(g.dangling_links().len(), 1, "only [[b]] dangles");
    }

    #[test]
    fn many_files_load_in_path_order_and_an_unreadable_one_is_a_document_with_its_problem() {
        let s = MemStorage::new();
        for i in 0..200 {
            s.insert(
                &format!(".vault/adr/{i:03}.md"),
                "---\ntags: ['#adr', '#f']\n---\n[[big]]\n",
            );
        }
        let g = load_graph(&s).unwrap();
        assert!(g.docs().windows(2).all(|w| w[0].path < w[1].path));
        assert_eq!(g.dangling_links().len(), 200);
        s.insert(".vault/adr/big.md", vec![b'x'; 2 * 1024 * 1024]);
        let g = load_graph(&s).unwrap();
        assert_eq!(g.docs().len(), 201);
        assert!(
            g.dangling_links().is_empty(),
            "links to an unreadable document resolve"
        );
        let problems: Vec<_> = g.problems().map(|d| d.path.as_str()).collect();
        assert_eq!(problems, [".vault/adr/big.md"]);
        let reason = g.docs()[200].problem.as_ref().unwrap().to_string();
        assert!(
            reason.contains("big.md") && reason.contains("limit"),
            "{reason}"
        );
    }

    #[test]
    fn a_kept_document_is_not_read_again() {
        let s = MemStorage::new();
        s.insert(".vault/adr/a.md", "---\ntags: ['#adr', '#f']\n---\nold a\n");
        s.insert(".vault/adr/b.md", "---\ntags: ['#adr', '#f']\n---\nold b\n");
        let first = read_vault(&s, 2).unwrap();
        s.insert(".vault/adr/a.md", "---\ntags: ['#adr', '#f']\n---\nnew a\n");
        s.insert(".vault/adr/b.md", "---\ntags: ['#adr', '#f']\n---\nnew b\n");
        s.insert(".vault/adr/c.md", "---\ntags: ['#adr', '#f']\n---\nc\n");
        // The caller vouches for b alone: a and the new c are read.
        let mut kept = |path: &str| {
            first
                .docs
                .iter()
                .find(|d| d.path == path && path.ends_with("b.md"))
                .cloned()
        };
        let again = read_vault_keeping(&s, 2, &mut kept).unwrap();
        let bodies: Vec<&str> = again
            .docs
            .iter()
            .map(|d| d.text.rsplit("---\n").next().unwrap())
            .collect();
        assert_eq!(bodies, ["new a\n", "old b\n", "c\n"]);
        assert_eq!(again.listing.len(), 3);
    }

    #[test]
    fn an_exhausted_read_budget_fails_the_load_naming_the_file() {
        let s = MemStorage::new().with_read_budget(100);
        s.insert(".vault/adr/a.md", vec![b'x'; 60]);
        s.insert(".vault/adr/b.md", vec![b'x'; 60]);
        let err = load_graph(&s).unwrap_err().to_string();
        assert!(
            err.contains(".vault/adr/b.md") && err.contains("budget"),
            "{err}"
        );
    }

    #[test]
    fn an_exhausted_read_budget_fails_a_load_on_threads() {
        let s = MemStorage::new().with_read_budget(6_000);
        for i in 0..300 {
            s.insert(&format!(".vault/adr/{i:03}.md"), vec![b'x'; 60]);
        }
        let Err(LoadError::Storage(err)) = read_vault(&s, 4) else {
            panic!("the load went past its read budget");
        };
        assert!(err.to_string().contains("budget"), "{err}");
    }
}

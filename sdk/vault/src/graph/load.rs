//! Reading the corpus from a [`Storage`] and building the graph from it.
//!
//! The corpus is every `*.md` under `.vault/` outside `.obsidian/`, `.trash/`
//! and `_archive/` (spec/vault-format.md §2); the archive is listed (never
//! read) so links to archived documents resolve. Natively the files are read
//! and parsed on several threads; on `wasm32` (no threads) in one pass.

use crate::parallel;
use crate::storage::{FileEntry, Storage, StorageError};

use super::{Graph, GraphDoc};

/// Why the vault could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Listing or reading a file failed (the error names the path).
    #[error("cannot load the vault: {0}")]
    Storage(#[from] StorageError),
}

const EXCLUDED: [&str; 3] = [".obsidian", ".trash", "_archive"];

pub use crate::parallel::default_threads;

/// The corpus documents and the archive-relative paths of archived files.
pub fn read_corpus(storage: &dyn Storage) -> Result<(Vec<GraphDoc>, Vec<String>), LoadError> {
    read_corpus_with(storage, default_threads())
}

/// [`read_corpus`] on `threads` threads (1: on the calling thread).
pub fn read_corpus_with(storage: &dyn Storage, threads: usize) -> Result<(Vec<GraphDoc>, Vec<String>), LoadError> {
    let (docs, archived) = read_entries(storage, threads)?;
    Ok((docs.into_iter().collect::<Result<_, _>>()?, archived))
}

/// Every corpus file read (in path order), each a document or the error
/// that refused it, and the archive-relative paths of archived files.
type Entries = (Vec<Result<GraphDoc, StorageError>>, Vec<String>);

fn read_entries(storage: &dyn Storage, threads: usize) -> Result<Entries, LoadError> {
    let entries = storage.list(".vault")?;
    let mut corpus: Vec<&FileEntry> = Vec::with_capacity(entries.len());
    let mut archived = Vec::new();
    for entry in &entries {
        let Some(rel) = entry.path.strip_prefix(".vault/") else { continue };
        if !rel.ends_with(".md") {
            continue;
        }
        let parts: Vec<&str> = rel.split('/').collect();
        let dirs = &parts[..parts.len() - 1];
        if dirs.iter().any(|d| EXCLUDED.contains(d)) {
            if dirs.first() == Some(&"_archive") && !dirs.iter().any(|d| *d == ".obsidian" || *d == ".trash") {
                archived.push(rel["_archive/".len()..].to_owned());
            }
            continue;
        }
        corpus.push(entry);
    }
    Ok((read_all(storage, &corpus, threads), archived))
}

/// Load the vault of `storage` and build its graph. Any file that cannot be
/// read (over the 1 MiB file limit or the call's read budget, I/O) fails the
/// load, as MCP `find` requires; the first such file in path order is named.
pub fn load_graph(storage: &dyn Storage) -> Result<Graph, LoadError> {
    let (docs, archived) = read_corpus(storage)?;
    Ok(Graph::build(docs, &archived))
}

/// Load the vault, leaving out files that cannot be read and returning their
/// errors (for verbs that report what they could, like `vault stats`). Only
/// a failing listing is fatal.
pub fn load_graph_lenient(storage: &dyn Storage) -> Result<(Graph, Vec<StorageError>), LoadError> {
    let (read, archived) = read_entries(storage, default_threads())?;
    let mut docs = Vec::with_capacity(read.len());
    let mut unreadable = Vec::new();
    for result in read {
        match result {
            Ok(doc) => docs.push(doc),
            Err(e) => unreadable.push(e),
        }
    }
    Ok((Graph::build(docs, &archived), unreadable))
}

fn read_one(storage: &dyn Storage, entry: &FileEntry) -> Result<GraphDoc, StorageError> {
    let bytes = storage.read(&entry.path)?;
    Ok(GraphDoc::from_vec(&entry.path, bytes))
}

/// Reads every entry (in parallel where the storage can) and parses each
/// file on the thread that read it. Results come back in path order.
///
/// In a verb (`wasm32`, one thread) the storage reads batches of files on
/// the host, the next batch while the verb parses this one.
fn read_all(storage: &dyn Storage, entries: &[&FileEntry], threads: usize) -> Vec<Result<GraphDoc, StorageError>> {
    if cfg!(target_arch = "wasm32") {
        let paths: Vec<&str> = entries.iter().map(|e| e.path.as_str()).collect();
        let mut docs = Vec::with_capacity(entries.len());
        storage.read_batches(&paths, &mut |offset, reads| {
            docs.extend(paths[offset..].iter().zip(reads).map(|(path, r)| r.map(|bytes| GraphDoc::from_vec(path, bytes))));
        });
        return docs;
    }
    parallel::map(entries, threads, |e| read_one(storage, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;

    #[test]
    fn loads_the_corpus_and_lists_the_archive_without_reading_it() {
        let s = MemStorage::new();
        s.insert(".vault/adr/a.md", "---\ntags: ['#adr', '#f']\n---\n[[old]] [[b]]\n");
        s.insert(".vault/_archive/adr/old.md", "never read");
        s.insert(".vault/.obsidian/x.md", "ignored");
        s.insert(".vault/research/.trash/y.md", "ignored");
        s.insert(".vault/adr/notes.txt", "not markdown");
        s.insert(".vault/exec/2026-01-01-f/2026-01-01-f-ledger.md", "---\ntags: ['#exec', '#f']\n---\n");
        s.insert("src/lib.md", "outside the vault");
        let g = load_graph(&s).unwrap();
        let keys: Vec<&str> = g.nodes().iter().map(|n| n.key.as_str()).collect();
        assert_eq!(keys, ["a", "2026-01-01-f-ledger", "adr/old", "b"]);
        assert_eq!(g.docs()[1].type_name(), "exec");
        assert_eq!(g.dangling_links().len(), 1, "only [[b]] dangles");
    }

    #[test]
    fn many_files_load_in_path_order_and_a_read_error_names_the_file() {
        let s = MemStorage::new();
        for i in 0..200 {
            s.insert(&format!(".vault/adr/{i:03}.md"), "---\ntags: ['#adr', '#f']\n---\n");
        }
        let g = load_graph(&s).unwrap();
        assert!(g.docs().windows(2).all(|w| w[0].path < w[1].path));
        s.insert(".vault/adr/big.md", vec![b'x'; 2 * 1024 * 1024]);
        let err = load_graph(&s).unwrap_err().to_string();
        assert!(err.contains("big.md"), "{err}");
        let (g, unreadable) = load_graph_lenient(&s).unwrap();
        assert_eq!(g.docs().len(), 200);
        assert_eq!(unreadable.len(), 1);
        assert_eq!(unreadable[0].path(), ".vault/adr/big.md");
    }
}

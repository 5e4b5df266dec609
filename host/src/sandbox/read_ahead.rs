//! Reads the host does on a thread of its own for a verb (`read-ahead`),
//! so the verb parses one batch of files while the next is being read.
//!
//! A verb has one thread; without this, the host's reads and the verb's
//! parsing take turns. A call may have [`MAX_IN_FLIGHT`] batches reading at
//! once; past that, `read-ahead` reads the batch before it returns, so a
//! verb cannot make the host start threads without bound. Dropping a handle
//! stops its thread after the file it is reading.
//!
//! The threads are the runtime's blocking pool where there is a runtime: a
//! thread that finished a batch waits there for the next one, where a thread
//! of its own per batch cost a start and an exit on every call. The pool
//! starts a thread whenever none is idle, so one call's batches never queue
//! behind another's.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};

use vaultspec_vault::{CapStorage, Storage, StorageError};

/// Batches a call may have reading in the background at once.
pub const MAX_IN_FLIGHT: usize = 4;

type Reads = Vec<Result<Vec<u8>, StorageError>>;

/// One `pending-reads` handle: a batch being read, or already read.
pub struct PendingReads {
    state: State,
}

enum State {
    Reading {
        done: Receiver<Reads>,
        paths: Arc<Vec<String>>,
        stop: Arc<AtomicBool>,
    },
    Read(Reads),
}

impl PendingReads {
    /// Start reading `paths` on a thread of its own; if no thread can be
    /// started, read them now.
    pub fn start(storage: &Arc<CapStorage>, paths: Vec<String>) -> Self {
        let paths = Arc::new(paths);
        let stop = Arc::new(AtomicBool::new(false));
        let (shared, list, flag) = (storage.clone(), paths.clone(), stop.clone());
        let (sender, done) = sync_channel(1);
        let read = move || {
            let reads: Reads = list
                .iter()
                .take_while(|_| !flag.load(Ordering::Relaxed))
                .map(|path| shared.read(path))
                .collect();
            // The handle may be gone already: nobody is left to tell.
            let _ = sender.send(reads);
        };
        let started = match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn_blocking(read);
                Ok(())
            }
            Err(_) => std::thread::Builder::new()
                .name("vaultspec-read-ahead".to_owned())
                .spawn(read)
                .map(drop),
        };
        match started {
            Ok(()) => Self {
                state: State::Reading { done, paths, stop },
            },
            Err(e) => {
                tracing::warn!("cannot start a read-ahead thread, reading in place: {e}");
                Self::now(storage, &paths)
            }
        }
    }

    /// Read `paths` now, on the caller's threads.
    pub fn now(storage: &CapStorage, paths: &[String]) -> Self {
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        Self {
            state: State::Read(storage.read_many(&paths)),
        }
    }

    /// Whether a thread is reading for this handle.
    pub fn in_flight(&self) -> bool {
        matches!(self.state, State::Reading { .. })
    }

    /// Wait for the reads and take their results, one per path in order.
    pub fn finish(mut self) -> Reads {
        match std::mem::replace(&mut self.state, State::Read(Vec::new())) {
            State::Read(reads) => reads,
            State::Reading { done, paths, .. } => done.recv().unwrap_or_else(|_| {
                let failed = |path: &String| StorageError::Io {
                    op: "reading",
                    path: path.clone(),
                    message: "the host's reading thread failed".to_owned(),
                };
                paths.iter().map(|p| Err(failed(p))).collect()
            }),
        }
    }
}

impl Drop for PendingReads {
    fn drop(&mut self) {
        if let State::Reading { stop, .. } = &self.state {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

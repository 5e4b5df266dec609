//! The host's own stdout and stderr, as a verb run at the command line
//! writes to them.
//!
//! Unlike WASI's inherited streams, a closed reader (`vaultspec vault list |
//! head`) is not an error for the verb: once the pipe is closed the rest of
//! its output is dropped and the verb finishes as it would have, the way a
//! command-line tool ends quietly on a broken pipe. Anything else that fails
//! a write is still the verb's error.
//!
//! Two limits hold as they do for a captured call (`invoke`):
//! - the output cap: stdout and stderr together may take [`OUTPUT_LIMIT`]
//!   bytes; the write that would pass it is refused with a trap, which stops
//!   the guest, and [`HostOutput::exceeded`] lets the host report
//!   `output_limit`;
//! - a stream that is a terminal gets the verb's bytes through a
//!   [`TerminalFilter`]: unless the host allowed a builtin verb colour
//!   ([`HostOutput::with_colour`]), every control
//!   character but line breaks and tabs (escape sequences included: OSC 52
//!   writes the clipboard, CSI redraws the screen) and every bidirectional
//!   character is written out as an escape. A pipe or a file gets the bytes
//!   as they are.
//!
//! A [`HostOutput::recording`] also keeps what the verb wrote, as it wrote
//! it (before any escaping), so the command line's answer cache can give
//! the same answer again through [`HostOutput::replay`]. One that holds its
//! stdout ([`HostOutput::holding_stdout`], for `--json`) keeps those bytes
//! back, under the same cap, for the host to print once the verb's exit
//! code is known ([`HostOutput::take_held`]).

use std::io::{self, Write};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use tokio::io::AsyncWrite;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError};

use super::output::OUTPUT_LIMIT;
use crate::display::TerminalFilter;

/// What a write past the cap stops the call with.
const LIMIT_MESSAGE: &str = "output_limit: the verb wrote more than 1 MiB to stdout and stderr together, the cap of one call";

/// Which of the host's streams a writer feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Stdout,
    Stderr,
}

/// One stream's state, shared by the clones WASI makes of it.
struct Stream {
    which: Which,
    /// Set once the reader went away (`EPIPE`).
    closed: AtomicBool,
    /// The escaping of a stream that is a terminal; `None` for a pipe.
    filter: Option<Mutex<TerminalFilter>>,
    /// Bytes kept back instead of written, when the stream holds them.
    held: Option<Mutex<Vec<u8>>>,
}

impl Stream {
    /// The host's stream `which`; `colour` lets colour sequences through
    /// its terminal filter.
    fn new(which: Which, colour: bool) -> Self {
        let terminal = match which {
            Which::Stdout => io::IsTerminal::is_terminal(&io::stdout()),
            Which::Stderr => io::IsTerminal::is_terminal(&io::stderr()),
        };
        let filter = match colour {
            true => TerminalFilter::colour(),
            false => TerminalFilter::default(),
        };
        Self {
            which,
            closed: AtomicBool::new(false),
            filter: terminal.then(|| Mutex::new(filter)),
            held: None,
        }
    }

    fn write_raw(&self, bytes: &[u8]) -> io::Result<()> {
        if self.closed.load(Ordering::Relaxed) || bytes.is_empty() {
            return Ok(());
        }
        let result = match self.which {
            Which::Stdout => {
                let mut out = io::stdout().lock();
                out.write_all(bytes).and_then(|()| out.flush())
            }
            Which::Stderr => io::stderr().lock().write_all(bytes),
        };
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed.store(true, Ordering::Relaxed);
                Ok(())
            }
            other => other,
        }
    }

    fn put(&self, bytes: &[u8]) -> io::Result<()> {
        if let Some(held) = &self.held {
            held.lock()
                .expect("held output poisoned")
                .extend_from_slice(bytes);
            return Ok(());
        }
        match &self.filter {
            Some(filter) => {
                let filtered = filter
                    .lock()
                    .expect("terminal filter lock poisoned")
                    .filter(bytes);
                self.write_raw(&filtered)
            }
            None => self.write_raw(bytes),
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        if let Some(filter) = &self.filter {
            let held = filter.lock().map(|mut f| f.finish()).unwrap_or_default();
            let _ = self.write_raw(&held);
        }
    }
}

/// The byte count of one call, over both streams.
struct Budget {
    used: AtomicUsize,
    limit: usize,
    exceeded: AtomicBool,
}

impl Budget {
    /// Take `n` bytes, or refuse them all (and remember it) past the cap.
    fn take(&self, n: usize) -> bool {
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            if used.saturating_add(n) > self.limit {
                self.exceeded.store(true, Ordering::Relaxed);
                return false;
            }
            match self.used.compare_exchange_weak(
                used,
                used + n,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(now) => used = now,
            }
        }
    }
}

/// A stretch of output the verb wrote to one stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Whether it went to stderr (else stdout).
    pub stderr: bool,
    /// The bytes, as the verb wrote them.
    pub bytes: Vec<u8>,
}

/// What a recording output keeps: the chunks in the order written, with
/// writes to the same stream in a row joined.
type Record = Arc<Mutex<Vec<Chunk>>>;

/// The host's stdout and stderr for one call, under one output cap.
#[derive(Clone)]
pub struct HostOutput {
    budget: Arc<Budget>,
    stdout: Arc<Stream>,
    stderr: Arc<Stream>,
    record: Option<Record>,
}

impl Default for HostOutput {
    fn default() -> Self {
        Self::new(OUTPUT_LIMIT)
    }
}

impl HostOutput {
    /// Both streams, allowing `limit` bytes in all.
    pub fn new(limit: usize) -> Self {
        Self {
            budget: Arc::new(Budget {
                used: AtomicUsize::new(0),
                limit,
                exceeded: AtomicBool::new(false),
            }),
            stdout: Arc::new(Stream::new(Which::Stdout, false)),
            stderr: Arc::new(Stream::new(Which::Stderr, false)),
            record: None,
        }
    }

    /// This output, letting the colour sequences of the SDK's `style`
    /// through to a terminal when `colour` (a builtin verb the host allowed
    /// colour).
    pub fn with_colour(self, colour: bool) -> Self {
        if !colour {
            return self;
        }
        Self {
            stdout: Arc::new(Stream::new(Which::Stdout, true)),
            stderr: Arc::new(Stream::new(Which::Stderr, true)),
            ..self
        }
    }

    /// [`HostOutput::new`] that also keeps what is written
    /// ([`HostOutput::take_record`]).
    pub fn recording(limit: usize) -> Self {
        Self {
            record: Some(Record::default()),
            ..Self::new(limit)
        }
    }

    /// This output, keeping stdout back (still counted against the cap and
    /// recorded) until [`HostOutput::take_held`]; stderr is written as usual.
    pub fn holding_stdout(self) -> Self {
        let mut stream = Stream::new(Which::Stdout, false);
        stream.held = Some(Mutex::default());
        Self {
            stdout: Arc::new(stream),
            ..self
        }
    }

    /// What a [`HostOutput::holding_stdout`] kept back of stdout (nothing
    /// for one that writes it).
    pub fn take_held(&self) -> Vec<u8> {
        self.stdout
            .held
            .as_ref()
            .map(|h| std::mem::take(&mut *h.lock().expect("held output poisoned")))
            .unwrap_or_default()
    }

    /// The stream to give the guest as stdout.
    pub fn stdout(&self) -> HostStdout {
        HostStdout {
            budget: self.budget.clone(),
            stream: self.stdout.clone(),
            record: self.record.clone(),
        }
    }

    /// The stream to give the guest as stderr.
    pub fn stderr(&self) -> HostStdout {
        HostStdout {
            budget: self.budget.clone(),
            stream: self.stderr.clone(),
            record: self.record.clone(),
        }
    }

    /// Whether stdout and stderr are terminals: what the verb is told.
    pub fn terminals(&self) -> (bool, bool) {
        (self.stdout.filter.is_some(), self.stderr.filter.is_some())
    }

    /// What a recording output kept, in the order written (nothing for an
    /// output that does not record).
    pub fn take_record(&self) -> Vec<Chunk> {
        self.record
            .as_ref()
            .map(|r| std::mem::take(&mut *r.lock().expect("output record poisoned")))
            .unwrap_or_default()
    }

    /// Write recorded chunks again as the verb's own writes would go: under
    /// the cap, escaped for a terminal, quiet on a closed pipe.
    pub fn replay(&self, chunks: &[Chunk]) -> io::Result<()> {
        for chunk in chunks {
            let stream = if chunk.stderr {
                self.stderr()
            } else {
                self.stdout()
            };
            stream.put(&chunk.bytes)?;
        }
        Ok(())
    }

    /// Whether the guest tried to write past the cap.
    pub fn exceeded(&self) -> bool {
        self.budget.exceeded.load(Ordering::Relaxed)
    }
}

/// One of the host's streams for one call; clones share its state.
#[derive(Clone)]
pub struct HostStdout {
    budget: Arc<Budget>,
    stream: Arc<Stream>,
    record: Option<Record>,
}

impl Default for HostStdout {
    fn default() -> Self {
        HostOutput::default().stdout()
    }
}

impl HostStdout {
    /// Write `bytes` under the cap.
    fn put(&self, bytes: &[u8]) -> io::Result<()> {
        if !self.budget.take(bytes.len()) {
            return Err(io::Error::other(LIMIT_MESSAGE));
        }
        self.pass(bytes)
    }

    /// Write `bytes` the cap has counted, keeping them when recording.
    fn pass(&self, bytes: &[u8]) -> io::Result<()> {
        if let Some(record) = &self.record
            && !bytes.is_empty()
        {
            let stderr = self.stream.which == Which::Stderr;
            let mut record = record.lock().expect("output record poisoned");
            match record.last_mut() {
                Some(last) if last.stderr == stderr => last.bytes.extend_from_slice(bytes),
                _ => record.push(Chunk {
                    stderr,
                    bytes: bytes.to_vec(),
                }),
            }
        }
        self.stream.put(bytes)
    }
}

impl IsTerminal for HostStdout {
    fn is_terminal(&self) -> bool {
        self.stream.filter.is_some()
    }
}

impl StdoutStream for HostStdout {
    fn async_stream(&self) -> Box<dyn AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }

    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for HostStdout {
    async fn ready(&mut self) {}
}

impl OutputStream for HostStdout {
    fn write(&mut self, bytes: Bytes) -> Result<(), StreamError> {
        if !self.budget.take(bytes.len()) {
            return Err(StreamError::trap(LIMIT_MESSAGE));
        }
        self.pass(&bytes)
            .map_err(|e| StreamError::LastOperationFailed(e.into()))
    }

    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }

    fn check_write(&mut self) -> Result<usize, StreamError> {
        if self.budget.exceeded.load(Ordering::Relaxed) {
            return Err(StreamError::trap(LIMIT_MESSAGE));
        }
        Ok(64 * 1024)
    }
}

impl AsyncWrite for HostStdout {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Poll::Ready(self.put(buf).map(|()| buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdout_and_stderr_share_one_cap() {
        let output = HostOutput::new(10);
        let (mut out, mut err) = (output.stdout(), output.stderr());
        out.write(Bytes::from_static(b"")).unwrap();
        assert!(out.budget.take(6));
        assert!(err.write(Bytes::from_static(b"12345")).is_err());
        assert!(output.exceeded());
        assert!(out.check_write().is_err());
    }

    #[test]
    fn a_recording_keeps_the_writes_in_order_with_runs_joined() {
        let output = HostOutput::recording(100);
        let (out, err) = (output.stdout(), output.stderr());
        out.put(b"a").unwrap();
        out.put(b"b").unwrap();
        err.put(b"!").unwrap();
        out.put(b"c").unwrap();
        let chunk = |stderr, bytes: &[u8]| Chunk {
            stderr,
            bytes: bytes.to_vec(),
        };
        assert_eq!(
            output.take_record(),
            [chunk(false, b"ab"), chunk(true, b"!"), chunk(false, b"c")]
        );
        assert!(HostOutput::new(100).take_record().is_empty());
    }
}

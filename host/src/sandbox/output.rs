//! Captured verb output: stdout and stderr counted together against one cap.
//!
//! Both streams of a call share one [`Capture`]; the write that would pass the
//! cap is refused with a trap, which stops the guest at once, and the
//! exceeded flag lets the host report `output_limit` instead of a generic
//! trap.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use tokio::io::AsyncWrite;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError};

/// The output cap of one call: 1 MiB for stdout and stderr together.
pub const OUTPUT_LIMIT: usize = 1024 * 1024;

#[derive(Debug, Default)]
struct Buffers {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

#[derive(Debug)]
struct Shared {
    buffers: Mutex<Buffers>,
    limit: usize,
    exceeded: AtomicBool,
}

/// The output of one call, shared by its stdout and stderr streams.
#[derive(Debug, Clone)]
pub struct Capture {
    shared: Arc<Shared>,
}

/// Which of the two streams a writer feeds.
#[derive(Debug, Clone, Copy)]
enum Which {
    Stdout,
    Stderr,
}

/// One stream of a [`Capture`], handed to WASI as stdout or stderr.
#[derive(Debug, Clone)]
pub struct CaptureStream {
    capture: Capture,
    which: Which,
}

impl Capture {
    /// An empty capture allowing `limit` bytes in all.
    pub fn new(limit: usize) -> Self {
        Self {
            shared: Arc::new(Shared {
                buffers: Mutex::default(),
                limit,
                exceeded: AtomicBool::new(false),
            }),
        }
    }

    /// The stream to give the guest as stdout.
    pub fn stdout(&self) -> CaptureStream {
        CaptureStream {
            capture: self.clone(),
            which: Which::Stdout,
        }
    }

    /// The stream to give the guest as stderr.
    pub fn stderr(&self) -> CaptureStream {
        CaptureStream {
            capture: self.clone(),
            which: Which::Stderr,
        }
    }

    /// Whether the guest tried to write past the cap.
    pub fn exceeded(&self) -> bool {
        self.shared.exceeded.load(Ordering::Relaxed)
    }

    /// What was written: `(stdout, stderr)`.
    pub fn take(&self) -> (Vec<u8>, Vec<u8>) {
        let mut buffers = self.shared.buffers.lock().expect("capture lock poisoned");
        let Buffers { stdout, stderr } = std::mem::take(&mut *buffers);
        (stdout, stderr)
    }

    /// Append `bytes` to one stream, or refuse them all if the cap would pass.
    fn push(&self, which: Which, bytes: &[u8]) -> bool {
        let mut buffers = self.shared.buffers.lock().expect("capture lock poisoned");
        let used = buffers.stdout.len() + buffers.stderr.len();
        if used + bytes.len() > self.shared.limit {
            self.shared.exceeded.store(true, Ordering::Relaxed);
            return false;
        }
        match which {
            Which::Stdout => buffers.stdout.extend_from_slice(bytes),
            Which::Stderr => buffers.stderr.extend_from_slice(bytes),
        }
        true
    }
}

impl IsTerminal for CaptureStream {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CaptureStream {
    fn async_stream(&self) -> Box<dyn AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }

    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for CaptureStream {
    async fn ready(&mut self) {}
}

impl OutputStream for CaptureStream {
    fn write(&mut self, bytes: Bytes) -> Result<(), StreamError> {
        if self.capture.push(self.which, &bytes) {
            Ok(())
        } else {
            Err(StreamError::trap("output_limit"))
        }
    }

    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }

    fn check_write(&mut self) -> Result<usize, StreamError> {
        if self.capture.exceeded() {
            return Err(StreamError::trap("output_limit"));
        }
        // Always writable: a write past the cap is refused in `write`, so a
        // guest that prints too much stops instead of waiting forever.
        Ok(64 * 1024)
    }
}

impl AsyncWrite for CaptureStream {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.capture.push(self.which, buf) {
            Poll::Ready(Ok(buf.len()))
        } else {
            Poll::Ready(Err(io::Error::other("output_limit")))
        }
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
        let capture = Capture::new(10);
        let (mut out, mut err) = (capture.stdout(), capture.stderr());
        out.write(Bytes::from_static(b"123456")).unwrap();
        assert!(err.write(Bytes::from_static(b"12345")).is_err());
        assert!(capture.exceeded());
        assert_eq!(capture.take(), (b"123456".to_vec(), Vec::new()));
    }
}

//! The host's own stdout, as a verb run at a terminal writes to it.
//!
//! Unlike WASI's inherited stdout, a closed reader (`vaultspec vault list |
//! head`) is not an error for the verb: once the pipe is closed the rest of
//! its output is dropped and the verb finishes as it would have, the way a
//! command-line tool ends quietly on a broken pipe. Anything else that fails
//! a write is still the verb's error.

use std::io::{self, Write};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use tokio::io::AsyncWrite;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError};

/// The host's stdout for one call; clones share whether the pipe closed.
#[derive(Clone, Default)]
pub struct HostStdout {
    closed: Arc<AtomicBool>,
}

impl HostStdout {
    fn put(&self, bytes: &[u8]) -> io::Result<()> {
        if self.closed.load(Ordering::Relaxed) {
            return Ok(());
        }
        let mut out = io::stdout().lock();
        match out.write_all(bytes).and_then(|()| out.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed.store(true, Ordering::Relaxed);
                Ok(())
            }
            other => other,
        }
    }
}

impl IsTerminal for HostStdout {
    fn is_terminal(&self) -> bool {
        io::IsTerminal::is_terminal(&io::stdout())
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
        self.put(&bytes).map_err(|e| StreamError::LastOperationFailed(e.into()))
    }

    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }

    fn check_write(&mut self) -> Result<usize, StreamError> {
        Ok(64 * 1024)
    }
}

impl AsyncWrite for HostStdout {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Poll::Ready(self.put(buf).map(|()| buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

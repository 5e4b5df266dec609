//! The server's stdio transport: rmcp's line transport, plus the JSON-RPC
//! parse error (`-32700`, no id) for every line that is not JSON.
//!
//! rmcp drops an unparsable line without a word (so that a peer echoing
//! errors back cannot start a storm); JSON-RPC 2.0 answers it with a parse
//! error, and a client whose line was lost should hear why. [`JsonLines`]
//! sits between stdin and rmcp: each line that parses as JSON (or is blank)
//! goes through unchanged, and each other line is held back and reported;
//! [`StdioTransport`] writes the reply through rmcp's own writer, so replies
//! never interleave with responses. rmcp still answers the rest as before
//! (JSON that is no JSON-RPC message: `-32600`; an oversized line: dropped).
//! That writer writes to stdout through a [`SpliceWriter`], which puts kept
//! payloads in place of their stand-ins.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use rmcp::RoleServer;
use rmcp::model::ErrorData;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::mpsc;

use super::splice::{Splice, SpliceWriter};

/// A line longer than this is handed to rmcp unjudged (it drops lines over
/// its own limit, which is this one).
const MAX_JUDGED_LINE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// The UTF-8 byte order mark, which rmcp tolerates at the start of a line.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The MCP transport over this process's stdin and stdout (or, in tests,
/// any reader and writer).
pub struct StdioTransport<R = tokio::io::Stdin, W = tokio::io::Stdout>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    inner: AsyncRwTransport<RoleServer, JsonLines<R>, SpliceWriter<W>>,
    problems: mpsc::UnboundedReceiver<String>,
    splice: Arc<Splice>,
}

impl StdioTransport {
    /// The transport over stdin and stdout, writing the payloads of
    /// `splice`'s stand-ins in their place.
    pub fn new(splice: Arc<Splice>) -> Self {
        Self::over(tokio::io::stdin(), tokio::io::stdout(), splice)
    }
}

impl<R, W> StdioTransport<R, W>
where
    R: AsyncRead + Send + Sync + Unpin + 'static,
    W: AsyncWrite + Send + Sync + Unpin + 'static,
{
    /// The transport over `reader` and `writer`.
    pub fn over(reader: R, writer: W, splice: Arc<Splice>) -> Self {
        let (sender, problems) = mpsc::unbounded_channel();
        Self {
            inner: AsyncRwTransport::new(
                JsonLines::new(reader, sender),
                SpliceWriter::new(writer, splice.clone()),
            ),
            problems,
            splice,
        }
    }

    /// Send the parse error for one refused line.
    async fn reply(&mut self, problem: String) -> Result<(), io::Error> {
        self.inner.send(parse_error(problem)).await
    }
}

/// The `-32700` reply for a line that is not JSON.
fn parse_error(problem: String) -> TxJsonRpcMessage<RoleServer> {
    TxJsonRpcMessage::<RoleServer>::error(
        ErrorData::parse_error("Parse error", Some(serde_json::Value::String(problem))),
        None,
    )
}

impl<R, W> Transport<RoleServer> for StdioTransport<R, W>
where
    R: AsyncRead + Send + Sync + Unpin + 'static,
    W: AsyncWrite + Send + Sync + Unpin + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        mut item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // Every message that will be written passes here; a reply rmcp
        // dropped never does, and its payload is let go.
        self.splice.claim(&mut item);
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            tokio::select! {
                biased;
                Some(problem) = self.problems.recv() => {
                    if self.reply(problem).await.is_err() {
                        return None;
                    }
                }
                message = self.inner.receive() => {
                    if message.is_none() {
                        // Input ended: still answer the lines refused last.
                        while let Ok(problem) = self.problems.try_recv() {
                            let _ = self.reply(problem).await;
                        }
                    }
                    return message;
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}

/// A reader that passes on the lines that are JSON and holds back the rest.
pub struct JsonLines<R> {
    inner: R,
    /// The current line, not judged yet.
    line: Vec<u8>,
    /// Judged bytes waiting to be read.
    ready: Vec<u8>,
    /// How much of `ready` was read already.
    handed: usize,
    /// The current line was too long to judge: it goes through as it is.
    unjudged: bool,
    eof: bool,
    problems: mpsc::UnboundedSender<String>,
}

impl<R: AsyncRead + Unpin> JsonLines<R> {
    /// `reader`, judged line by line; each refused line's problem is sent
    /// on `problems`.
    fn new(reader: R, problems: mpsc::UnboundedSender<String>) -> Self {
        Self {
            inner: reader,
            line: Vec::new(),
            ready: Vec::new(),
            handed: 0,
            unjudged: false,
            eof: false,
            problems,
        }
    }
}

impl<R> JsonLines<R> {
    /// Sort newly read bytes into judged lines.
    fn take(&mut self, mut bytes: &[u8]) {
        while let Some(end) = bytes.iter().position(|b| *b == b'\n') {
            let (head, rest) = bytes.split_at(end + 1);
            if self.unjudged {
                self.ready.extend_from_slice(head);
                self.unjudged = false;
            } else {
                self.line.extend_from_slice(head);
                self.judge();
            }
            bytes = rest;
        }
        if self.unjudged {
            self.ready.extend_from_slice(bytes);
        } else {
            self.line.extend_from_slice(bytes);
            if self.line.len() > MAX_JUDGED_LINE {
                self.unjudged = true;
                self.ready.append(&mut self.line);
            }
        }
    }

    /// Pass the complete current line on, or report it.
    fn judge(&mut self) {
        let line = std::mem::take(&mut self.line);
        match problem(&line) {
            None => self.ready.extend_from_slice(&line),
            Some(problem) => {
                tracing::info!("answered a line that is not JSON with a parse error: {problem}");
                let _ = self.problems.send(problem);
            }
        }
    }
}

/// Why a complete line (newline included) is not JSON, or `None` when it is
/// JSON or blank.
fn problem(line: &[u8]) -> Option<String> {
    let line = line.strip_prefix(BOM).unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    match serde_json::from_slice::<serde::de::IgnoredAny>(line) {
        Ok(_) => None,
        Err(err) => Some(format!("the line is not JSON: {err}")),
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for JsonLines<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.handed < this.ready.len() {
                let n = buf.remaining().min(this.ready.len() - this.handed);
                buf.put_slice(&this.ready[this.handed..this.handed + n]);
                this.handed += n;
                if this.handed == this.ready.len() {
                    this.ready.clear();
                    this.handed = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.eof {
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 8192];
            let mut read = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            if read.filled().is_empty() {
                // An unterminated last line goes on as it is; rmcp ignores it.
                this.eof = true;
                this.ready.append(&mut this.line);
            } else {
                this.take(read.filled());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    async fn filter(input: &[u8]) -> (Vec<u8>, Vec<String>) {
        let (sender, mut problems) = mpsc::unbounded_channel();
        let mut lines = JsonLines::new(input, sender);
        let mut out = Vec::new();
        lines.read_to_end(&mut out).await.unwrap();
        drop(lines);
        let mut reported = Vec::new();
        while let Some(p) = problems.recv().await {
            reported.push(p);
        }
        (out, reported)
    }

    #[tokio::test]
    async fn json_lines_pass_and_other_lines_are_reported() {
        let input = b"{\"a\":1}\r\nnot json\n\n\xEF\xBB\xBF[1]\n{\"broken\":\n{\"b\":2}";
        let (out, reported) = filter(input).await;
        assert_eq!(out, b"{\"a\":1}\r\n\n\xEF\xBB\xBF[1]\n{\"b\":2}");
        assert_eq!(reported.len(), 2, "{reported:?}");
        assert!(
            reported
                .iter()
                .all(|p| p.starts_with("the line is not JSON"))
        );
    }

    /// A client that sends every call twice under one id makes rmcp drop
    /// one of each pair of replies: their payloads are let go, never kept.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn payloads_of_replies_rmcp_drops_are_let_go() {
        use crate::catalog::Catalog;
        use crate::gateway::Gateway;
        use crate::mcp::context::ServerContext;
        use crate::mcp::server::VaultServer;
        use crate::mcp::splice::MAX_WAITING_BYTES;
        use crate::sandbox::{CompileCache, Sandbox};
        use rmcp::ServiceExt;
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

        // Documents without frontmatter: a finding each, so `check`'s
        // reply is over ten kilobytes.
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".vaultspec")).unwrap();
        let research = dir.path().join(".vault/research");
        std::fs::create_dir_all(&research).unwrap();
        for i in 0..300 {
            std::fs::write(
                research.join(format!("2026-01-01-note{i}-research.md")),
                "no frontmatter\n",
            )
            .unwrap();
        }
        let context = ServerContext {
            workspace: crate::workspace::Workspace::open(dir.path()).unwrap(),
            read_only: true,
            keep_replies: true,
            vault: crate::mcp::vault_cache::VaultCache::default(),
            gateway: Gateway::new(
                Catalog::new(),
                Sandbox::new(CompileCache::new(None)).unwrap(),
            ),
        };
        let splice = Splice::new();
        let (client, server) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server);
        let transport = StdioTransport::over(read, write, splice.clone());
        let packaging = splice.clone();
        let serving = tokio::spawn(async move {
            let service = VaultServer::new(context)
                .with_splice(packaging)
                .serve(transport)
                .await
                .unwrap();
            let _ = service.waiting().await;
        });
        let (from_server, mut to_server) = tokio::io::split(client);
        let mut lines = BufReader::new(from_server).lines();
        let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        to_server
            .write_all(format!("{init}\n").as_bytes())
            .await
            .unwrap();
        lines.next_line().await.unwrap().unwrap();
        to_server
            .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
            .await
            .unwrap();
        const CALLS: u64 = 3000;
        let reading = tokio::spawn(async move {
            let mut answered = std::collections::BTreeSet::new();
            let mut largest = 0;
            while answered.len() < CALLS as usize {
                let line = lines.next_line().await.unwrap().expect("a reply");
                assert!(!line.contains("vaultspec-payload"), "a stand-in was sent");
                largest = largest.max(line.len());
                let reply: serde_json::Value = serde_json::from_str(&line).unwrap();
                answered.insert(reply["id"].as_u64().unwrap());
            }
            (largest, lines)
        });
        for id in 1..=CALLS {
            let call = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"check","arguments":{{}}}}}}"#
            );
            to_server
                .write_all(format!("{call}\n{call}\n").as_bytes())
                .await
                .unwrap();
        }
        let (largest, mut lines) = reading.await.unwrap();
        assert!(largest > 10_000, "check's reply is {largest} bytes");
        // After the grace, one more call finds the dropped payloads let go.
        tokio::time::sleep(crate::mcp::splice::GRACE).await;
        let last = CALLS + 1;
        to_server
            .write_all(
                format!(
                    r#"{{"jsonrpc":"2.0","id":{last},"method":"tools/call","params":{{"name":"check","arguments":{{}}}}}}"#
                )
                .as_bytes(),
            )
            .await
            .unwrap();
        to_server.write_all(b"\n").await.unwrap();
        loop {
            let line = lines.next_line().await.unwrap().expect("the last reply");
            assert!(!line.contains("vaultspec-payload"), "a stand-in was sent");
            let reply: serde_json::Value = serde_json::from_str(&line).unwrap();
            if reply["id"] == last {
                break;
            }
        }
        // Past the point where the dropped payloads would hold more.
        assert!(CALLS as usize * largest > 2 * MAX_WAITING_BYTES);
        let held = splice.held_bytes();
        assert!(
            held <= MAX_WAITING_BYTES + largest,
            "{held} bytes of payloads held"
        );
        serving.abort();
    }
}

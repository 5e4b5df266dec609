//! Kept payloads sent as the JSON they were written as: the server puts a
//! stand-in where a kept reply's payload goes, and the writer under the
//! stdio transport writes the payload in its place.
//!
//! rmcp takes a tool's payload as a `serde_json::Value` it owns and writes
//! it anew for every message. For the rollup of a vault with thousands of
//! plans in flight, that copy and write cost a warm `status` most of its
//! time; spliced, a kept reply costs a lookup and a copy of its bytes.
//!
//! A stand-in is the object `{"\0vaultspec-payload:<nonce>": <n>}` (an
//! object, as rmcp sends only objects as structured content to clients of
//! older protocol versions), which the serializer writes as
//! `{"\u0000vaultspec-payload:<nonce>":<n>}`. The nonce is drawn when the
//! server starts, so no text a file or a client controls can name a
//! payload; a stand-in no payload waits for is written as it is.
//!
//! A payload is held from the moment its stand-in is made until the writer
//! writes it. rmcp drops some replies without sending them (the second reply
//! to a request id a client used twice, a reply to a cancelled request), so
//! a payload is *claimed* when the transport is handed its message
//! ([`Splice::claim`]): a claimed payload is written next, and one never
//! claimed is let go after [`MAX_WAIT`], or after [`GRACE`] when the
//! unclaimed ones pass [`MAX_WAITING_BYTES`]. A flood of such calls holds at
//! most that much, plus what arrives within the grace.
//! A message whose payload was let go is sent as a tool error telling the
//! client to call again, never with a stand-in in it.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use rmcp::RoleServer;
use rmcp::model::{CallToolResult, ContentBlock, JsonRpcMessage, ServerResult};
use rmcp::service::TxJsonRpcMessage;
use serde_json::Value;
use tokio::io::AsyncWrite;

/// How long a payload waits for its message to reach the transport before
/// it is let go: far past the moment it takes a reply to get there.
pub const MAX_WAIT: Duration = Duration::from_secs(10);

/// The most bytes of payloads waiting unclaimed; past it the oldest go,
/// once they waited [`GRACE`].
pub const MAX_WAITING_BYTES: usize = 16 * 1024 * 1024;

/// How long a payload waits before the byte cap may let it go: a burst of
/// large replies on their way to the transport is never cut short.
pub const GRACE: Duration = Duration::from_secs(1);

/// The payloads not yet handed to the transport, and those handed to it.
#[derive(Debug, Default)]
struct Held {
    /// By stand-in number (numbers rise with age): the payload and when it
    /// began to wait.
    waiting: std::collections::BTreeMap<u64, (Arc<str>, Instant)>,
    /// The bytes of `waiting`.
    waiting_bytes: usize,
    /// Claimed: the writer takes them as it meets their stand-ins.
    claimed: HashMap<u64, Arc<str>>,
}

impl Held {
    /// Let go of the unclaimed payloads that waited too long, and of the
    /// oldest while they hold too many bytes.
    fn expire(&mut self, now: Instant) {
        while let Some(entry) = self.waiting.first_entry() {
            let (json, since) = entry.get();
            let waited = now.saturating_duration_since(*since);
            let stale = waited > MAX_WAIT;
            let crowded = waited > GRACE && self.waiting_bytes > MAX_WAITING_BYTES;
            if !stale && !crowded {
                break;
            }
            self.waiting_bytes -= json.len();
            entry.remove();
        }
    }
}

/// The payloads packaged for sending, by stand-in number.
#[derive(Debug)]
pub struct Splice {
    /// A searcher for the serialized stand-in up to its number,
    /// `{"\u0000vaultspec-payload:<nonce>":`, built once: every write to
    /// stdout is searched with it.
    prefix: memchr::memmem::Finder<'static>,
    /// The stand-ins' key.
    key: String,
    next: AtomicU64,
    held: Mutex<Held>,
}

impl Splice {
    /// A splice with a nonce of its own.
    pub fn new() -> Arc<Self> {
        // `RandomState` draws its keys from the system's randomness.
        let nonce: String = (0..2)
            .map(|i: u64| format!("{:016x}", RandomState::new().hash_one(i)))
            .collect();
        Arc::new(Self {
            prefix: memchr::memmem::Finder::new(&format!(
                "{{\"\\u0000vaultspec-payload:{nonce}\":"
            ))
            .into_owned(),
            key: format!("\0vaultspec-payload:{nonce}"),
            next: AtomicU64::new(0),
            held: Mutex::new(Held::default()),
        })
    }

    /// The value to package in place of `json`, which waits to be written
    /// where its stand-in is.
    pub fn stand_in(&self, json: Arc<str>) -> Value {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let now = Instant::now();
        let mut held = self.lock();
        held.expire(now);
        held.waiting_bytes += json.len();
        held.waiting.insert(n, (json, now));
        drop(held);
        let mut stand_in = serde_json::Map::new();
        stand_in.insert(self.key.clone(), n.into());
        Value::Object(stand_in)
    }

    /// The transport was handed `message`: claim the payload of the
    /// stand-in in it, so the writer writes it. A stand-in whose payload was
    /// let go makes the message a tool error instead.
    pub fn claim(&self, message: &mut TxJsonRpcMessage<RoleServer>) {
        let JsonRpcMessage::Response(response) = message else {
            return;
        };
        let ServerResult::CallToolResult(result) = &mut response.result else {
            return;
        };
        let Some(n) = result
            .structured_content
            .as_ref()
            .and_then(|value| self.number(value))
        else {
            return;
        };
        let mut held = self.lock();
        if let Some((json, _)) = held.waiting.remove(&n) {
            held.waiting_bytes -= json.len();
            held.claimed.insert(n, json);
            return;
        }
        drop(held);
        *result = CallToolResult::error(vec![ContentBlock::text(
            "this reply waited too long to be sent and was let go; call the tool again",
        )]);
    }

    /// The bytes of the payloads held now, claimed or not.
    #[cfg(test)]
    pub fn held_bytes(&self) -> usize {
        let held = self.lock();
        held.waiting_bytes + held.claimed.values().map(|j| j.len()).sum::<usize>()
    }

    /// The number of `value` when it is one of this splice's stand-ins.
    fn number(&self, value: &Value) -> Option<u64> {
        let object = value.as_object().filter(|o| o.len() == 1)?;
        object.get(&self.key)?.as_u64()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The first stand-in in `bytes`: where it starts, how long it is, and
    /// its number when it is whole (a number and the closing brace).
    fn find(&self, bytes: &[u8]) -> Option<(usize, usize, Option<u64>)> {
        let start = self.prefix.find(bytes)?;
        let prefix = self.prefix.needle().len();
        let digits = &bytes[start + prefix..];
        let count = digits.iter().take_while(|b| b.is_ascii_digit()).count();
        let len = prefix + count;
        let number = std::str::from_utf8(&digits[..count])
            .ok()
            .and_then(|d| d.parse::<u64>().ok())
            .filter(|_| digits.get(count) == Some(&b'}'));
        Some(match number {
            Some(n) => (start, len + 1, Some(n)),
            None => (start, len, None),
        })
    }

    /// The claimed payload of stand-in `n`, taken: each is written once.
    fn take(&self, n: u64) -> Option<Arc<str>> {
        self.lock().claimed.remove(&n)
    }
}

/// A writer that writes each stand-in's payload in its place.
pub struct SpliceWriter<W> {
    inner: W,
    splice: Arc<Splice>,
    /// The payload being written, how much of it is out, and the length
    /// of the stand-in it replaces.
    current: Option<(Arc<str>, usize, usize)>,
}

impl<W> SpliceWriter<W> {
    /// `inner`, with the stand-ins of `splice` replaced.
    pub fn new(inner: W, splice: Arc<Splice>) -> Self {
        Self {
            inner,
            splice,
            current: None,
        }
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for SpliceWriter<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        loop {
            if let Some((json, written, stand_in)) = &mut this.current {
                // The writer above offers the same bytes again until it is
                // told they were taken: the stand-in counts as taken once
                // the whole payload is out.
                while *written < json.len() {
                    let out = &json.as_bytes()[*written..];
                    match ready!(Pin::new(&mut this.inner).poll_write(cx, out))? {
                        0 => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                        n => *written += n,
                    }
                }
                let taken = *stand_in;
                this.current = None;
                return Poll::Ready(Ok(taken));
            }
            let (start, len, number) = match this.splice.find(buf) {
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
                Some(found) => found,
            };
            if start > 0 {
                return Pin::new(&mut this.inner).poll_write(cx, &buf[..start]);
            }
            match number.and_then(|n| this.splice.take(n)) {
                Some(json) => this.current = Some((json, 0, len)),
                None => return Pin::new(&mut this.inner).poll_write(cx, &buf[..len]),
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tokio::io::AsyncWriteExt;

    /// What `lines` become through a splice writer that takes at most
    /// `chunk` bytes per write.
    async fn written(splice: &Arc<Splice>, lines: &[Value], chunk: usize) -> String {
        let (mut sink, mut out) = tokio::io::duplex(chunk);
        let splice = splice.clone();
        let lines: Vec<Vec<u8>> = lines
            .iter()
            .map(|l| serde_json::to_vec(l).unwrap())
            .collect();
        let writing = tokio::spawn(async move {
            let mut writer = SpliceWriter::new(&mut sink, splice);
            for line in lines {
                writer.write_all(&line).await.unwrap();
                writer.write_all(b"\n").await.unwrap();
            }
            writer.flush().await.unwrap();
        });
        let mut text = Vec::new();
        let reading = tokio::io::AsyncReadExt::read_to_end(&mut out, &mut text);
        let (done, read) = tokio::join!(writing, reading);
        done.unwrap();
        read.unwrap();
        String::from_utf8(text).unwrap()
    }

    /// The message of a reply to request `id` whose payload is `json`, as
    /// the transport is handed it (claimed).
    fn reply(splice: &Splice, id: i64, json: Arc<str>) -> Value {
        let mut result = CallToolResult::success(vec![]);
        result.structured_content = Some(splice.stand_in(json));
        let mut message = TxJsonRpcMessage::<RoleServer>::response(
            ServerResult::CallToolResult(result),
            rmcp::model::RequestId::Number(id),
        );
        splice.claim(&mut message);
        serde_json::to_value(&message).unwrap()
    }

    #[tokio::test]
    async fn a_stand_in_becomes_its_payload_however_the_bytes_are_cut() {
        let splice = Splice::new();
        for chunk in [1, 7, 64, 1 << 20] {
            let payload: Arc<str> = json!({"plans": ["é", 1, null], "x": "\u{0}"})
                .to_string()
                .into();
            let first = reply(&splice, 1, payload.clone());
            let second = reply(&splice, 2, payload.clone());
            let text = written(&splice, &[first, second], chunk).await;
            let lines: Vec<Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            let payload: Value = serde_json::from_str(&payload).unwrap();
            assert_eq!(lines[0]["result"]["structuredContent"], payload, "{chunk}");
            assert_eq!(lines[1]["result"]["structuredContent"], payload, "{chunk}");
            assert_eq!(lines[1]["id"], 2);
        }
        let held = splice.lock();
        assert!(
            held.claimed.is_empty() && held.waiting.is_empty(),
            "each payload is taken once"
        );
    }

    #[tokio::test]
    async fn text_that_only_looks_like_a_stand_in_is_written_as_it_is() {
        let splice = Splice::new();
        let waiting = splice.stand_in(Arc::from("{\"secret\":1}"));
        let mut message = TxJsonRpcMessage::<RoleServer>::response(
            ServerResult::CallToolResult(CallToolResult::success(vec![])),
            rmcp::model::RequestId::Number(1),
        );
        splice.claim(&mut message);
        let (key, number) = waiting.as_object().unwrap().iter().next().unwrap();
        // A guessed nonce; the real key with an unknown number or beside
        // another member; its text inside a string.
        let guessed = json!({format!("\0vaultspec-payload:{}", "0".repeat(32)): 0});
        let lines = [
            json!({"a": guessed}),
            json!({"a": {key: 99}}),
            json!({"a": {key: number, "b": 1}}),
            json!({"a": waiting.to_string()}),
        ];
        let text = written(&splice, &lines, 1 << 20).await;
        let back: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(back, lines);
        assert!(!text.contains("secret"));
        assert_eq!(
            splice.lock().waiting.len(),
            1,
            "the real payload still waits"
        );
    }

    #[test]
    fn payloads_never_claimed_are_let_go_by_age_and_by_bytes() {
        let splice = Splice::new();
        let megabyte: Arc<str> = Arc::from("x".repeat(1 << 20));
        for _ in 0..3 * MAX_WAITING_BYTES / (1 << 20) {
            splice.stand_in(megabyte.clone());
        }
        // A burst is kept whole through its grace, then cut to the cap.
        let burst = splice.lock().waiting_bytes;
        assert_eq!(burst, 3 * MAX_WAITING_BYTES);
        let after_grace = Instant::now() + GRACE + Duration::from_millis(10);
        splice.lock().expire(after_grace);
        let waiting = splice.lock().waiting_bytes;
        assert!(waiting <= MAX_WAITING_BYTES, "{waiting} bytes wait");
        let later = Instant::now() + MAX_WAIT + Duration::from_secs(1);
        splice.lock().expire(later);
        let held = splice.lock();
        assert!(held.waiting.is_empty() && held.waiting_bytes == 0);
    }

    #[test]
    fn a_reply_whose_payload_was_let_go_is_sent_as_an_error_not_a_stand_in() {
        let splice = Splice::new();
        let mut result = CallToolResult::success(vec![]);
        result.structured_content = Some(splice.stand_in(Arc::from("{\"a\":1}")));
        splice
            .lock()
            .expire(Instant::now() + MAX_WAIT + Duration::from_secs(1));
        let mut message = TxJsonRpcMessage::<RoleServer>::response(
            ServerResult::CallToolResult(result),
            rmcp::model::RequestId::Number(7),
        );
        splice.claim(&mut message);
        let sent = serde_json::to_value(&message).unwrap();
        assert_eq!(sent["result"]["isError"], true, "{sent}");
        assert!(sent["result"].get("structuredContent").is_none(), "{sent}");
        assert!(!sent.to_string().contains("vaultspec-payload"));
    }
}

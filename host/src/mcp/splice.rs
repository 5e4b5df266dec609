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

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};

use serde_json::Value;
use tokio::io::AsyncWrite;

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
    waiting: Mutex<HashMap<u64, Arc<str>>>,
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
            waiting: Mutex::new(HashMap::new()),
        })
    }

    /// The value to package in place of `json`, which waits to be written
    /// where its stand-in is.
    pub fn stand_in(&self, json: Arc<str>) -> Value {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        self.lock().insert(n, json);
        let mut stand_in = serde_json::Map::new();
        stand_in.insert(self.key.clone(), n.into());
        Value::Object(stand_in)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<str>>> {
        self.waiting
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

    /// The payload of stand-in `n`, taken: each is written once.
    fn take(&self, n: u64) -> Option<Arc<str>> {
        self.lock().remove(&n)
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

    #[tokio::test]
    async fn a_stand_in_becomes_its_payload_however_the_bytes_are_cut() {
        let splice = Splice::new();
        for chunk in [1, 7, 64, 1 << 20] {
            let payload: Arc<str> = json!({"plans": ["é", 1, null], "x": "\u{0}"})
                .to_string()
                .into();
            let first =
                json!({"id": 1, "result": {"structuredContent": splice.stand_in(payload.clone())}});
            let second =
                json!({"id": 2, "result": {"structuredContent": splice.stand_in(payload.clone())}});
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
        assert!(splice.lock().is_empty(), "each payload is taken once");
    }

    #[tokio::test]
    async fn text_that_only_looks_like_a_stand_in_is_written_as_it_is() {
        let splice = Splice::new();
        let waiting = splice.stand_in(Arc::from("{\"secret\":1}"));
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
        assert_eq!(splice.lock().len(), 1, "the real payload still waits");
    }
}

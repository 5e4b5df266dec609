//! The bounds of `vaultspec mcp --http`: how many connections and sessions
//! it holds, how long a request may take to arrive, and how the accept loop
//! waits out a process that ran out of file descriptors.
//!
//! Every bound is named in `vaultspec mcp --help` and the README; a client
//! past one is told which, with the status HTTP gives it.

use std::time::{Duration, Instant};

use bytes::Bytes;
use http::StatusCode;
use http_body_util::{BodyExt, LengthLimitError, Limited};

/// Connections served at once; more wait in the kernel's queue until one
/// closes.
pub const MAX_CONNECTIONS: usize = 256;

/// Live sessions (protocol 2025-11-25); an `initialize` past it is answered
/// 503 until one ends.
pub const MAX_SESSIONS: usize = 64;

/// A session nobody used for this long is ended.
pub const SESSION_IDLE: Duration = Duration::from_secs(120);

/// How long a client may take to send a request's headers; a connection
/// idle between requests for this long is closed too.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a client may take to send a request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(15);

/// The largest request body: a document at the 1 MiB file limit, escaped
/// into JSON, fits.
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// The first and the longest pause of the accept loop after a failure.
const FIRST_PAUSE: Duration = Duration::from_millis(20);
const LONGEST_PAUSE: Duration = Duration::from_secs(1);

/// How often a run of accept failures is logged.
const LOG_EVERY: Duration = Duration::from_secs(10);

/// Why a request's body was not taken.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BodyRefusal {
    /// It did not arrive within [`BODY_TIMEOUT`].
    #[error("the request body did not arrive within {} s", BODY_TIMEOUT.as_secs())]
    Slow,
    /// It is larger than [`MAX_BODY_BYTES`].
    #[error("the request body is over the {MAX_BODY_BYTES}-byte limit")]
    TooLarge,
    /// The connection failed while it was read.
    #[error("the request body could not be read: {0}")]
    Broken(String),
}

impl BodyRefusal {
    /// The status a client is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::Slow => StatusCode::REQUEST_TIMEOUT,
            Self::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Broken(_) => StatusCode::BAD_REQUEST,
        }
    }
}

/// The whole body of a request, within [`BODY_TIMEOUT`] and
/// [`MAX_BODY_BYTES`].
pub async fn read_body<B>(body: B) -> Result<Bytes, BodyRefusal>
where
    B: hyper::body::Body<Data = Bytes>,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    let limited = Limited::new(body, MAX_BODY_BYTES);
    match tokio::time::timeout(BODY_TIMEOUT, limited.collect()).await {
        Err(_) => Err(BodyRefusal::Slow),
        Ok(Err(err)) if err.downcast_ref::<LengthLimitError>().is_some() => {
            Err(BodyRefusal::TooLarge)
        }
        Ok(Err(err)) => Err(BodyRefusal::Broken(err.to_string())),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
    }
}

/// Whether `body` is (or, as a batch, holds) a JSON-RPC `initialize`
/// request, the one that makes a session.
pub fn is_initialize(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Method<'a> {
        #[serde(borrow)]
        method: Option<&'a str>,
    }
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Message<'a> {
        #[serde(borrow)]
        One(Method<'a>),
        #[serde(borrow)]
        Batch(Vec<Method<'a>>),
    }
    let initialize = |m: &Method| m.method == Some("initialize");
    match serde_json::from_slice::<Message>(body) {
        Ok(Message::One(m)) => initialize(&m),
        Ok(Message::Batch(all)) => all.iter().any(initialize),
        Err(_) => false,
    }
}

/// The accept loop's pause after failures: doubling from 20 ms to 1 s, so
/// a process out of file descriptors (`EMFILE`, `ENFILE`) waits for one to
/// close instead of spinning, and a log line per ten seconds, not per
/// failure.
#[derive(Debug)]
pub struct AcceptBackoff {
    pause: Duration,
    failures: u64,
    logged: Option<Instant>,
}

impl Default for AcceptBackoff {
    fn default() -> Self {
        Self {
            pause: FIRST_PAUSE,
            failures: 0,
            logged: None,
        }
    }
}

impl AcceptBackoff {
    /// A connection was accepted: the next failure pauses briefly again.
    pub fn accepted(&mut self) {
        self.pause = FIRST_PAUSE;
    }

    /// Accepting failed with `err`: log it (at most once per ten seconds,
    /// with the count since) and say how long to pause.
    pub fn failed(&mut self, err: &std::io::Error, now: Instant) -> Duration {
        self.failures += 1;
        if self
            .logged
            .is_none_or(|at| now.duration_since(at) >= LOG_EVERY)
        {
            let out_of_files = matches!(err.raw_os_error(), Some(libc::EMFILE | libc::ENFILE));
            let hint = if out_of_files {
                " (out of file descriptors: waiting for connections to close)"
            } else {
                ""
            };
            tracing::warn!(
                failures = self.failures,
                "accepting connections failed: {err}{hint}"
            );
            self.logged = Some(now);
            self.failures = 0;
        }
        let pause = self.pause;
        self.pause = (self.pause * 2).min(LONGEST_PAUSE);
        pause
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::Full;

    /// A body that neither ends nor fails: its client sent the headers and
    /// then nothing.
    struct Never;

    impl hyper::body::Body for Never {
        type Data = Bytes;
        type Error = std::io::Error;

        fn poll_frame(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, std::io::Error>>> {
            std::task::Poll::Pending
        }
    }

    #[test]
    fn failures_pause_longer_each_time_and_log_once_per_ten_seconds() {
        let mut backoff = AcceptBackoff::default();
        let err = std::io::Error::from_raw_os_error(libc::EMFILE);
        let start = Instant::now();
        let pauses: Vec<Duration> = (0..10).map(|_| backoff.failed(&err, start)).collect();
        assert_eq!(pauses[0], FIRST_PAUSE);
        assert!(pauses.windows(2).all(|w| w[1] >= w[0]));
        assert_eq!(*pauses.last().unwrap(), LONGEST_PAUSE);
        assert_eq!(backoff.failures, 9, "one line logged, nine counted since");
        backoff.failed(&err, start + LOG_EVERY);
        assert_eq!(backoff.failures, 0, "logged again after ten seconds");
        backoff.accepted();
        assert_eq!(backoff.failed(&err, start), FIRST_PAUSE);
    }

    #[tokio::test]
    async fn a_body_is_taken_whole_or_refused_by_size() {
        let small = Full::new(Bytes::from_static(b"{\"method\":\"initialize\"}"));
        let taken = read_body(small).await.unwrap();
        assert!(is_initialize(&taken));
        let big = Full::new(Bytes::from(vec![b' '; MAX_BODY_BYTES + 1]));
        assert_eq!(read_body(big).await, Err(BodyRefusal::TooLarge));
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_never_ends_is_refused_after_the_timeout() {
        assert_eq!(read_body(Never).await, Err(BodyRefusal::Slow));
    }

    #[test]
    fn only_an_initialize_request_makes_a_session() {
        assert!(is_initialize(
            br#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#
        ));
        assert!(!is_initialize(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#
        ));
        assert!(!is_initialize(b"not json"));
        assert!(is_initialize(
            br#"[{"method":"ping"},{"method":"initialize"}]"#
        ));
    }

    /// A body sent as `chunks`, each a frame of its own.
    struct Chunks(std::collections::VecDeque<Bytes>);

    impl hyper::body::Body for Chunks {
        type Data = Bytes;
        type Error = std::io::Error;

        fn poll_frame(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, std::io::Error>>> {
            std::task::Poll::Ready(self.0.pop_front().map(|b| Ok(hyper::body::Frame::data(b))))
        }
    }

    proptest::proptest! {
        /// However a body is cut into frames, it is taken whole exactly
        /// when it fits the cap; any bytes are judged as an `initialize`
        /// or not without a panic.
        #[test]
        fn a_body_is_taken_whole_exactly_when_it_fits(
            sizes in proptest::collection::vec(0usize..(3 * MAX_BODY_BYTES / 8), 0..6),
            junk in proptest::collection::vec(proptest::num::u8::ANY, 0..256),
        ) {
            let _ = is_initialize(&junk);
            let total: usize = sizes.iter().sum();
            let chunks = sizes.iter().map(|n| Bytes::from(vec![b'x'; *n])).collect();
            let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
            let taken = runtime.block_on(read_body(Chunks(chunks)));
            match taken {
                Ok(body) => {
                    proptest::prop_assert!(total <= MAX_BODY_BYTES);
                    proptest::prop_assert_eq!(body.len(), total);
                }
                Err(refusal) => {
                    proptest::prop_assert_eq!(refusal, BodyRefusal::TooLarge);
                    proptest::prop_assert!(total > MAX_BODY_BYTES);
                }
            }
        }
    }
}

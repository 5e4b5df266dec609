//! `vaultspec mcp --http`: the same server over MCP's streamable HTTP
//! transport at `/mcp`, for clients that connect to it instead of starting
//! it (remote IDEs, containers, several agents on one vault).
//!
//! Safe by default:
//! - it binds a loopback address unless `--allow-remote` says otherwise;
//! - every request carries the bearer token (`Authorization: Bearer …`,
//!   compared in constant time) or is answered 401; the token is generated
//!   on first start into the user's config folder (mode 0600, printed once)
//!   unless `--token-file` names one;
//! - rmcp checks `Host` against the bound address and a browser's `Origin`
//!   against the server's own, so a page that rebinds a name to loopback
//!   gets 403;
//! - it holds bounded work ([`http_bounds`](super::http_bounds)): at most
//!   256 connections and 64 sessions, idle sessions ended after two
//!   minutes, 10 s for a request's headers and 15 s for its body, 8 MiB per
//!   body, and an accept loop that waits out a lack of file descriptors.
//!
//! Every client shares one [`VaultServer`]: one vault cache, one gateway,
//! one watcher and the workspace's write lock, as two calls of one stdio
//! client do; each session keeps its own resource subscriptions. Both
//! protocol revisions are served: 2025-11-25 with sessions, 2026-07-28
//! statelessly (rmcp picks by the negotiated version).

use std::convert::Infallible;
use std::io::Write;
use std::net::SocketAddr;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context as _, bail};
use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::sync::Semaphore;

use super::VaultServer;
use super::http_bounds::{
    AcceptBackoff, HEADER_TIMEOUT, MAX_CONNECTIONS, MAX_SESSIONS, SESSION_IDLE, is_initialize,
    read_body,
};
use crate::checked_file::{self, Owner};

/// Where `--http` without an address listens.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8756";

/// The path the MCP endpoint is served at.
pub const ENDPOINT: &str = "/mcp";

/// The token file in the user's config folder.
const TOKEN_FILE: &str = "mcp-http-token";

/// How the HTTP transport was asked to run.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The address to listen on.
    pub addr: String,
    /// A file holding the bearer token, instead of the generated one.
    pub token_file: Option<PathBuf>,
    /// Whether a non-loopback address is meant.
    pub allow_remote: bool,
}

type Body = BoxBody<Bytes, Infallible>;

/// The streamable HTTP service and its sessions, shared by every connection.
struct Endpoint {
    service: StreamableHttpService<VaultServer, LocalSessionManager>,
    sessions: Arc<LocalSessionManager>,
    token: Arc<str>,
}

/// Serve `server` over streamable HTTP until the process is stopped.
pub async fn serve(server: VaultServer, options: &HttpOptions) -> anyhow::Result<()> {
    let addr = resolve(&options.addr)?;
    if !addr.ip().is_loopback() && !options.allow_remote {
        bail!(
            "refusing to serve MCP on `{addr}`, which is not a loopback address: anyone who can reach it and holds the token could read and change this vault; pass --allow-remote to mean it"
        );
    }
    let token = match &options.token_file {
        Some(file) => read_token(file, Owner::Anyone)?
            .with_context(|| format!("the token file `{}` does not exist", file.display()))?,
        None => user_token()?,
    };
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("listening on `{addr}`"))?;
    let bound = listener.local_addr()?;
    // The one line a person or a test reads to find the server.
    eprintln!("vaultspec MCP server at http://{bound}{ENDPOINT}");
    tracing::info!(%bound, "serving MCP over streamable HTTP");
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(allowed_hosts(bound))
        .with_allowed_origins(allowed_origins(bound))
        .enforce_origin_validation();
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(SESSION_IDLE);
    let sessions = Arc::new(sessions);
    let endpoint = Arc::new(Endpoint {
        service: StreamableHttpService::new(
            move || Ok(server.for_session()),
            sessions.clone(),
            config,
        ),
        sessions,
        token: token.into(),
    });
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut backoff = AcceptBackoff::default();
    loop {
        // At the cap, the next connection waits in the kernel's queue.
        let permit = connections
            .clone()
            .acquire_owned()
            .await
            .expect("the connection semaphore is never closed");
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => {
                backoff.accepted();
                accepted
            }
            Err(err) => {
                let pause = backoff.failed(&err, std::time::Instant::now());
                tokio::time::sleep(pause).await;
                continue;
            }
        };
        // A reply goes out in more than one write (headers, then the
        // stream's events): without this, Nagle's algorithm holds the last
        // one until the client's delayed ACK, ~40 ms a call.
        if let Err(err) = stream.set_nodelay(true) {
            tracing::debug!(%peer, "cannot turn Nagle's algorithm off: {err}");
        }
        let endpoint = endpoint.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let answer = hyper::service::service_fn(move |request| {
                let endpoint = endpoint.clone();
                async move { Ok::<_, Infallible>(route(&endpoint, request).await) }
            });
            // A client that never finishes its headers, or idles between
            // requests, is dropped.
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), answer);
            if let Err(err) = connection.await {
                tracing::debug!(%peer, "an HTTP connection ended: {err}");
            }
        });
    }
}

/// Answer one request: the endpoint only, only with the token, and only a
/// body that arrives whole and in time.
async fn route(endpoint: &Endpoint, request: Request<Incoming>) -> Response<Body> {
    if request.uri().path() != ENDPOINT {
        return closing(plain(StatusCode::NOT_FOUND, "the MCP endpoint is /mcp"));
    }
    if !authorized(request.headers(), &endpoint.token) {
        let mut response = plain(
            StatusCode::UNAUTHORIZED,
            "this server needs `Authorization: Bearer <token>`; the token is in the file its operator gave",
        );
        response.headers_mut().insert(
            http::header::WWW_AUTHENTICATE,
            http::HeaderValue::from_static("Bearer realm=\"vaultspec\""),
        );
        return closing(response);
    }
    let (parts, body) = request.into_parts();
    let body = match read_body(body).await {
        Ok(body) => body,
        Err(refusal) => return closing(plain(refusal.status(), refusal.to_string())),
    };
    if !parts.headers.contains_key("mcp-session-id")
        && is_initialize(&body)
        && endpoint.sessions.sessions.read().await.len() >= MAX_SESSIONS
    {
        let mut response = plain(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "this server holds its most sessions ({MAX_SESSIONS}); one ends after {} s unused, \
                 or when its client deletes it",
                SESSION_IDLE.as_secs()
            ),
        );
        response.headers_mut().insert(
            http::header::RETRY_AFTER,
            http::HeaderValue::from_static("10"),
        );
        return response;
    }
    let deleting = parts.method == http::Method::DELETE;
    let mut response = endpoint
        .service
        .handle(Request::from_parts(parts, Full::new(body)))
        .await;
    // A session ended is answered 204 No Content, as clients expect (the
    // official Python SDK logs an error on rmcp's 202).
    if deleting && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    response
}

/// `response`, closing its connection after it: a client refused keeps no
/// connection open.
fn closing(mut response: Response<Body>) -> Response<Body> {
    response.headers_mut().insert(
        http::header::CONNECTION,
        http::HeaderValue::from_static("close"),
    );
    response
}

fn plain(status: StatusCode, text: impl Into<String>) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(text.into())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// Whether `headers` carry `Authorization: Bearer <token>`, compared in time
/// that does not depend on where the two first differ.
fn authorized(headers: &http::HeaderMap, token: &str) -> bool {
    let Some(given) = headers
        .get(http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    else {
        return false;
    };
    let (given, token) = (given.trim().as_bytes(), token.as_bytes());
    given.len() == token.len() && given.iter().zip(token).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0
}

/// The `Host` values a client of `bound` sends: the loopback names when it
/// is loopback, else its own address.
fn allowed_hosts(bound: SocketAddr) -> Vec<String> {
    if bound.ip().is_loopback() {
        vec!["localhost".into(), "127.0.0.1".into(), "::1".into()]
    } else {
        vec![bound.ip().to_string()]
    }
}

/// The browser origins of `bound` itself; any other page is refused.
fn allowed_origins(bound: SocketAddr) -> Vec<String> {
    let port = bound.port();
    allowed_hosts(bound)
        .into_iter()
        .map(|host| match host.contains(':') {
            true => format!("http://[{host}]:{port}"),
            false => format!("http://{host}:{port}"),
        })
        .collect()
}

/// `--http`'s value, checked when the command line is read, so that an
/// address that names nothing is a usage error (exit 2) like any bad value.
pub fn listen_address(addr: &str) -> Result<String, String> {
    resolve(addr)
        .map(|_| addr.to_owned())
        .map_err(|err| format!("{err:#}"))
}

/// The socket address `addr` names (`127.0.0.1:8756`, `localhost:0`).
fn resolve(addr: &str) -> anyhow::Result<SocketAddr> {
    use std::net::ToSocketAddrs;
    addr.to_socket_addrs()
        .with_context(|| format!("`{addr}` is not an address to listen on (expected HOST:PORT, such as {DEFAULT_ADDR})"))?
        .next()
        .with_context(|| format!("`{addr}` names no address"))
}

/// The largest token file read.
const MAX_TOKEN_BYTES: u64 = 4096;

/// A token from `file`, which must be readable by `owner`: its text,
/// trimmed; refused when empty or missing.
fn read_token(file: &Path, owner: Owner) -> anyhow::Result<Option<String>> {
    let text = checked_file::read_text(file, MAX_TOKEN_BYTES, owner)
        .with_context(|| format!("reading the token file `{}`", file.display()))?;
    let Some(text) = text else {
        return Ok(None);
    };
    let token = text.trim();
    if token.is_empty() || token.contains(char::is_whitespace) {
        bail!(
            "the token file `{}` must hold one token without spaces",
            file.display()
        );
    }
    Ok(Some(token.to_owned()))
}

/// The user's token, generated on first use and printed then (only then).
/// The file must be a regular file of this user that only they can read:
/// one that is a link, another user's, or readable by others is refused
/// rather than trusted.
fn user_token() -> anyhow::Result<String> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = crate::env::config_base()
        .context("no home folder to keep the HTTP token in; pass --token-file")?;
    let file = dir.join(TOKEN_FILE);
    let kept = read_token(&file, Owner::MeAlone).with_context(|| {
        format!(
            "`{}` must be a regular file of yours that only you can read (mode 0600); remove it to have a new token made",
            file.display()
        )
    })?;
    if let Some(token) = kept {
        return Ok(token);
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)
        .with_context(|| format!("creating `{}`", dir.display()))?;
    let token = hex::encode(random_bytes()?);
    // `create_new` never follows a link planted at the path.
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&file)
        .with_context(|| format!("creating `{}`", file.display()))?;
    out.write_all(token.as_bytes())
        .with_context(|| format!("writing `{}`", file.display()))?;
    eprintln!(
        "made a token for MCP over HTTP, kept in `{}` (shown this once): {token}",
        file.display()
    );
    Ok(token)
}

/// 32 bytes from the kernel's random source.
fn random_bytes() -> anyhow::Result<[u8; 32]> {
    let mut bytes = [0u8; 32];
    let mut source = std::fs::File::open("/dev/urandom").context("opening /dev/urandom")?;
    std::io::Read::read_exact(&mut source, &mut bytes).context("reading /dev/urandom")?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_bearer_token_is_let_in() {
        let with = |value: &str| {
            let mut headers = http::HeaderMap::new();
            headers.insert(http::header::AUTHORIZATION, value.parse().unwrap());
            headers
        };
        assert!(authorized(&with("Bearer s3cret"), "s3cret"));
        assert!(!authorized(&with("Bearer s3cre"), "s3cret"));
        assert!(!authorized(&with("Bearer s3creT"), "s3cret"));
        assert!(!authorized(&with("Basic s3cret"), "s3cret"));
        assert!(!authorized(&http::HeaderMap::new(), "s3cret"));
    }

    #[test]
    fn a_loopback_server_accepts_its_own_names_and_origins_only() {
        let bound: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        assert_eq!(allowed_hosts(bound), ["localhost", "127.0.0.1", "::1"]);
        assert_eq!(
            allowed_origins(bound),
            [
                "http://localhost:4000",
                "http://127.0.0.1:4000",
                "http://[::1]:4000"
            ]
        );
    }
}

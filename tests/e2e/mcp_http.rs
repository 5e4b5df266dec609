//! `vaultspec mcp --http`: the server over streamable HTTP, as a client and
//! an attacker see it: the token, the `Host` and `Origin` checks, the
//! loopback default, the token made on first start, and tool calls from
//! several clients at once on one vault.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use vaultspec_test_support::{TestVault, cache_dir};

const TOKEN: &str = "test-token-0123456789";

/// A server on `vault` over HTTP, on a free loopback port.
struct Http {
    child: Child,
    addr: SocketAddr,
    /// What the server said on stderr before it was ready.
    said: String,
}

impl Http {
    /// Start with `args` after `mcp`, as the user whose home is `home`.
    // The child is waited for on every path: here when it exits early, by
    // `Drop` once it is inside an `Http`.
    #[allow(clippy::zombie_processes)]
    fn start(vault: &TestVault, home: &Path, args: &[&str]) -> Result<Self, String> {
        Self::start_with(vault, home, args, None)
    }

    /// As [`Http::start`], with the server's file descriptors limited to
    /// `files` when given.
    #[allow(clippy::zombie_processes)]
    fn start_with(
        vault: &TestVault,
        home: &Path,
        args: &[&str],
        files: Option<u64>,
    ) -> Result<Self, String> {
        let mut command = Command::new(env!("CARGO_BIN_EXE_vaultspec"));
        if let Some(files) = files {
            use std::os::unix::process::CommandExt;
            // SAFETY: only `setrlimit`, async-signal-safe, runs in the child.
            unsafe {
                command.pre_exec(move || {
                    let limit = libc::rlimit {
                        rlim_cur: files,
                        rlim_max: files,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = command
            .arg("mcp")
            .args(args)
            .arg("--target")
            .arg(vault.root())
            .env("HOME", home)
            .env_remove("XDG_CONFIG_HOME")
            .env("VAULTSPEC_CACHE_DIR", cache_dir())
            .env("VAULTSPEC_LOG_LEVEL", "error")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting vaultspec mcp --http");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut said = String::new();
        loop {
            let mut line = String::new();
            if stderr.read_line(&mut line).unwrap_or(0) == 0 {
                let _ = child.wait();
                return Err(said);
            }
            said.push_str(&line);
            if let Some(url) = line.trim().strip_prefix("vaultspec MCP server at http://") {
                let addr = url.trim_end_matches("/mcp").parse().unwrap();
                // Keep draining stderr so the server never blocks on it.
                std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
                return Ok(Self { child, addr, said });
            }
        }
    }

    fn with_token(vault: &TestVault, home: &Path) -> Self {
        Self::with_token_and_files(vault, home, None)
    }

    fn with_token_and_files(vault: &TestVault, home: &Path, files: Option<u64>) -> Self {
        let file = home.join("token");
        std::fs::write(&file, format!("{TOKEN}\n")).unwrap();
        let file = file.to_str().unwrap().to_owned();
        Self::start_with(
            vault,
            home,
            &["--http", "127.0.0.1:0", "--token-file", &file],
            files,
        )
        .unwrap()
    }

    /// POST `body` to `/mcp` with `headers` (the Host header is the bound
    /// address unless given).
    fn post(&self, headers: &[(&str, &str)], body: &Value) -> Reply {
        self.send("POST", headers, &body.to_string())
    }

    /// `method` `/mcp` with `headers` and `body`.
    fn send(&self, method: &str, headers: &[(&str, &str)], body: &str) -> Reply {
        let mut request = format!(
            "{method} /mcp HTTP/1.1\r\nContent-Length: {}\r\n",
            body.len()
        );
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            request.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("Content-Type: application/json\r\n");
        request.push_str("Accept: application/json, text/event-stream\r\n");
        request.push_str("Connection: close\r\n\r\n");
        request.push_str(body);
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        Reply::parse(&String::from_utf8_lossy(&raw))
    }
}

impl Drop for Http {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP reply: its status, headers (names lowercased) and body.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn parse(raw: &str) -> Self {
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw, ""));
        let mut lines = head.lines();
        let status = lines
            .next()
            .unwrap_or_default()
            .split(' ')
            .nth(1)
            .unwrap_or("0");
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_owned()))
            .collect();
        let chunked = headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
        Self {
            status: status.parse().unwrap_or(0),
            body: if chunked {
                dechunk(body)
            } else {
                body.to_owned()
            },
            headers,
        }
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC message of the body: the body itself, or the last
    /// `data:` event of a stream that holds one.
    fn message(&self) -> Value {
        if let Ok(value) = serde_json::from_str(&self.body) {
            return value;
        }
        self.body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .rfind(|v| v.get("id").is_some())
            .unwrap_or_else(|| panic!("no JSON-RPC reply in {:?}", self.body))
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// What a 2026-07-28 request says in `_meta`: its version, the client and
/// what the client can do.
fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "e2e", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

fn bearer() -> (&'static str, String) {
    ("Authorization", format!("Bearer {TOKEN}"))
}

fn initialize(version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "e2e", "version": "1"}}})
}

#[test]
fn without_the_token_every_request_is_refused() {
    let vault = TestVault::new();
    let home = tempfile::tempdir().unwrap();
    let server = Http::with_token(&vault, home.path());
    let none = server.post(&[], &initialize("2025-11-25"));
    assert_eq!(none.status, 401, "{}", none.body);
    assert!(
        none.header("www-authenticate")
            .is_some_and(|v| v.starts_with("Bearer"))
    );
    let wrong = server.post(
        &[("Authorization", "Bearer not-the-token")],
        &initialize("2025-11-25"),
    );
    assert_eq!(wrong.status, 401);
    let (name, value) = bearer();
    let right = server.post(&[(name, &value)], &initialize("2025-11-25"));
    assert_eq!(right.status, 200, "{}", right.body);
    assert_eq!(
        right.message()["result"]["serverInfo"]["name"],
        "vaultspec-core-mcp"
    );
}

#[test]
fn a_foreign_host_or_origin_is_refused_even_with_the_token() {
    let vault = TestVault::new();
    let home = tempfile::tempdir().unwrap();
    let server = Http::with_token(&vault, home.path());
    let (name, value) = bearer();
    // A page on another name, rebound to loopback, sends its own Host.
    let host = server.post(
        &[(name, &value), ("Host", "attacker.example:80")],
        &initialize("2025-11-25"),
    );
    assert_eq!(host.status, 403, "{}", host.body);
    let origin = server.post(
        &[(name, &value), ("Origin", "http://attacker.example")],
        &initialize("2025-11-25"),
    );
    assert_eq!(origin.status, 403, "{}", origin.body);
    let own = format!("http://127.0.0.1:{}", server.addr.port());
    let same = server.post(
        &[(name, &value), ("Origin", &own)],
        &initialize("2025-11-25"),
    );
    assert_eq!(same.status, 200, "{}", same.body);
}

#[test]
fn a_public_address_needs_allow_remote() {
    let vault = TestVault::new();
    let home = tempfile::tempdir().unwrap();
    let said = Http::start(&vault, home.path(), &["--http", "0.0.0.0:0"])
        .err()
        .expect("the server refused to start");
    assert!(said.contains("--allow-remote"), "{said}");
    assert!(said.contains("0.0.0.0"), "{said}");
}

#[test]
fn the_token_is_made_once_private_and_shown_once() {
    let vault = TestVault::new();
    let home = tempfile::tempdir().unwrap();
    let first = Http::start(&vault, home.path(), &["--http", "127.0.0.1:0"]).unwrap();
    let file = home.path().join(".config/vaultspec/mcp-http-token");
    let token = std::fs::read_to_string(&file).unwrap();
    assert_eq!(token.len(), 64, "{token:?}");
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    assert!(first.said.contains(&token), "{}", first.said);
    let auth = format!("Bearer {token}");
    let reply = first.post(&[("Authorization", &auth)], &initialize("2025-11-25"));
    assert_eq!(reply.status, 200, "{}", reply.body);
    drop(first);
    let second = Http::start(&vault, home.path(), &["--http", "127.0.0.1:0"]).unwrap();
    assert!(!second.said.contains(&token), "{}", second.said);

    // A token file others can read is not trusted.
    drop(second);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let said = Http::start(&vault, home.path(), &["--http", "127.0.0.1:0"])
        .err()
        .expect("the server refused the token file");
    assert!(said.contains("0600"), "{said}");
}

#[test]
fn clients_of_both_revisions_call_tools_on_one_vault() {
    let vault = TestVault::new();
    vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    let home = tempfile::tempdir().unwrap();
    let server = Http::with_token(&vault, home.path());
    let (name, value) = bearer();

    // 2025-11-25: a session, named by the header the server hands out.
    let init = server.post(&[(name, &value)], &initialize("2025-11-25"));
    assert_eq!(init.status, 200, "{}", init.body);
    let session = init
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    let headers = [
        (name, value.as_str()),
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let done = server.post(
        &headers,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    assert!(done.status == 202 || done.status == 200, "{}", done.body);
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "find", "arguments": {}}});
    let found = server.post(&headers, &call).message();
    assert_eq!(found["id"], 2, "{found}");
    let documents = &found["result"]["structuredContent"];
    assert!(documents.to_string().contains("cache-layer"), "{found}");

    // 2026-07-28: no session and no handshake; each request says its
    // version, the client and what it can do, in headers and `_meta`.
    let stateless = |method: &str, tool: Option<&str>, id: u32, params: Value| {
        let mut headers = vec![
            (name, value.as_str()),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", method),
        ];
        if let Some(tool) = tool {
            headers.push(("Mcp-Name", tool));
        }
        let mut params = params;
        params["_meta"] = modern_meta();
        let reply = server.post(
            &headers,
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        );
        assert_eq!(reply.status, 200, "{method}: {}", reply.body);
        assert!(reply.header("mcp-session-id").is_none(), "no session");
        reply.message()
    };
    let discovered = stateless("server/discover", None, 3, json!({}));
    let versions = discovered["result"]["supportedVersions"].to_string();
    assert!(versions.contains("2026-07-28"), "{discovered}");
    let found = stateless(
        "tools/call",
        Some("find"),
        4,
        json!({"name": "find", "arguments": {}}),
    );
    assert!(
        found["result"]["structuredContent"]
            .to_string()
            .contains("cache-layer"),
        "{found}"
    );
}

#[test]
fn two_clients_checking_steps_at_once_lose_no_update() {
    let vault = TestVault::new();
    let setup = crate::mcp::Session::start(&vault, &[]).unwrap();
    setup
        .call(
            "create",
            json!({"documents": [{"feature": "race", "type": "plan", "date": "2026-03-01"}]}),
        )
        .unwrap();
    let steps: Vec<Value> = (0..16)
        .map(|i| json!({"operation": "add", "action": format!("step {i}"), "scope": "src/x.rs"}))
        .collect();
    setup
        .call("plan_edit", json!({"plan": "race", "operations": steps}))
        .unwrap();
    drop(setup);

    let home = tempfile::tempdir().unwrap();
    let server = Http::with_token(&vault, home.path());
    let (name, value) = bearer();
    // Two clients, one of each revision, each checking every other step,
    // all sixteen calls in flight at once.
    let init = server.post(&[(name, &value)], &initialize("2025-11-25"));
    let session = init.header("mcp-session-id").unwrap().to_owned();
    let replies: Vec<Value> = std::thread::scope(|scope| {
        let calls: Vec<_> = (0..16)
            .map(|i| {
                let (server, value, session) = (&server, &value, &session);
                scope.spawn(move || {
                    let arguments = json!({"plan": "race",
                        "steps": [{"step_id": format!("S{:02}", i + 1), "state": "checked"}]});
                    let mut body = json!({"jsonrpc": "2.0", "id": i + 10, "method": "tools/call",
                        "params": {"name": "plan_progress", "arguments": arguments}});
                    let mut headers = vec![(name, value.as_str())];
                    if i % 2 == 0 {
                        headers.push(("Mcp-Session-Id", session.as_str()));
                        headers.push(("MCP-Protocol-Version", "2025-11-25"));
                    } else {
                        headers.push(("MCP-Protocol-Version", "2026-07-28"));
                        headers.push(("Mcp-Method", "tools/call"));
                        headers.push(("Mcp-Name", "plan_progress"));
                        body["params"]["_meta"] = modern_meta();
                    }
                    server.post(&headers, &body).message()
                })
            })
            .collect();
        calls.into_iter().map(|c| c.join().unwrap()).collect()
    });
    for reply in &replies {
        assert!(reply["result"]["isError"] != true, "{reply}");
    }
    let plan =
        std::fs::read_to_string(vault.root().join(".vault/plan/2026-03-01-race-plan.md")).unwrap();
    assert_eq!(plan.matches("- [x]").count(), 16, "{plan}");
}

/// The Python with the official MCP SDK (`mcp`): `VAULTSPEC_MCP_SDK_PYTHON`,
/// else the venv `.ci/run` makes (`target/mcp-sdk`), else `mcp-sdk-python`
/// on `PATH` (as `shared/tools/reference/setup.sh` installs it).
fn sdk_python() -> Option<std::path::PathBuf> {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/mcp-sdk/bin/python");
    std::env::var_os("VAULTSPEC_MCP_SDK_PYTHON")
        .map(std::path::PathBuf::from)
        .or_else(|| venv.is_file().then_some(venv))
        .or_else(|| {
            std::env::var_os("PATH").and_then(|path| {
                std::env::split_paths(&path)
                    .map(|dir| dir.join("mcp-sdk-python"))
                    .find(|p| p.is_file())
            })
        })
}

/// [`sdk_python`], or `None` after saying the test is skipped.
fn sdk_python_or_skip() -> Option<std::path::PathBuf> {
    let python = sdk_python();
    if python.is_none() {
        eprintln!(
            "skipped: no Python with the MCP SDK (make one with `python3 -m venv target/mcp-sdk && target/mcp-sdk/bin/pip install mcp==2.3.0`, as .ci/run does)"
        );
    }
    python
}

/// Run `script` of `tests/interop/` with `args` and read the JSON line it
/// prints (the test fails when it fails or prints no JSON).
fn sdk_script(python: &Path, script: &str, args: &[&std::ffi::OsStr], mode: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/interop")
        .join(script);
    let out = Command::new(python)
        .arg(&script)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{mode}: {stderr}");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{mode}: not JSON ({e}): {stderr}"))
}

#[test]
fn the_python_sdk_calls_every_tool_in_both_revisions() {
    let Some(python) = sdk_python_or_skip() else {
        return;
    };
    let vault = TestVault::new();
    let setup = crate::mcp::Session::start(&vault, &[]).unwrap();
    setup
        .call(
            "create",
            json!({"documents": [{"feature": "interop", "type": "plan", "date": "2026-03-01"}]}),
        )
        .unwrap();
    setup
        .call(
            "plan_edit",
            json!({"plan": "interop", "operations": [
                {"operation": "add", "action": "try the SDK", "scope": "docs/x.md"}]}),
        )
        .unwrap();
    drop(setup);
    let home = tempfile::tempdir().unwrap();
    let server = Http::with_token(&vault, home.path());
    let url = format!("http://{}/mcp", server.addr);
    for (mode, version) in [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")] {
        let args = [url.as_str(), TOKEN, mode].map(std::ffi::OsStr::new);
        let said = sdk_script(&python, "python_sdk_http.py", &args, mode);
        assert_eq!(said["protocol"], version, "{said}");
        assert_eq!(
            said["tools"].as_array().unwrap().len(),
            crate::mcp::TOOL_NAMES.len(),
            "{said}"
        );
        for tool in crate::mcp::TOOL_NAMES {
            assert!(
                said["errors"].get(tool).is_some(),
                "{mode}: {tool} was not called: {said}"
            );
        }
        for tool in ["find", "status", "check", "search", "discover", "invoke"] {
            assert_eq!(said["errors"][tool], false, "{mode}: {tool} failed: {said}");
        }
    }
}

#[test]
fn the_python_sdk_reads_resources_gets_prompts_and_hears_changes_in_both_revisions() {
    let Some(python) = sdk_python_or_skip() else {
        return;
    };
    let vault = TestVault::new();
    let note = vault.doc("research", "2026-03-02", "interop", Some("python"));
    vault.write(
        ".vaultspec/skills/vaultspec-adr/SKILL.md",
        "---\nname: vaultspec-adr\ndescription: Record a decision.\n---\n# Record a decision\n",
    );
    let home = tempfile::tempdir().unwrap();
    let server = Http::with_token(&vault, home.path());
    let url = format!("http://{}/mcp", server.addr);
    let stem = note.rsplit('/').next().unwrap().trim_end_matches(".md");
    for (mode, version) in [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")] {
        let mut args = [url.as_str(), TOKEN, mode]
            .map(std::ffi::OsStr::new)
            .to_vec();
        args.push(vault.root().as_os_str());
        let said = sdk_script(&python, "python_sdk_resources.py", &args, mode);
        assert_eq!(said["protocol"], version, "{said}");
        assert_eq!(said["listed"], 1, "{said}");
        for exact in [
            "read_exact",
            "by_stem_exact",
            "prompt_has_task",
            "prompt_attaches",
        ] {
            assert_eq!(said[exact], true, "{mode}: {exact}: {said}");
        }
        assert_eq!(said["prompts"], json!(["vaultspec-adr"]), "{said}");
        assert_eq!(said["completed"], json!([stem]), "{said}");
        assert_eq!(said["features"], json!(["interop"]), "{said}");
        let heard = said["heard"].as_str().unwrap_or("");
        assert!(
            heard.starts_with("file:///") && heard.ends_with(&note),
            "{mode}: heard {heard}"
        );
    }
}

// ---- bounds -------------------------------------------------------------

/// The CPU time the process `pid` has used so far.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command's closing parenthesis; utime and stime
    // are the 14th and 15th of the whole line.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: `sysconf` has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    Duration::from_millis(ticks * 1000 / per_second)
}

#[test]
fn a_flood_of_idle_connections_neither_spins_the_server_nor_locks_it_out() {
    let vault = TestVault::new();
    let home = tempfile::tempdir().unwrap();
    // Few file descriptors, so the flood runs the server out of them.
    let server = Http::with_token_and_files(&vault, home.path(), Some(64));
    let flood: Vec<TcpStream> = (0..300)
        .filter_map(|_| TcpStream::connect(server.addr).ok())
        .collect();
    assert!(
        flood.len() > 100,
        "the flood opened {} connections",
        flood.len()
    );
    std::thread::sleep(Duration::from_millis(500));
    let before = cpu_time(server.child.id());
    std::thread::sleep(Duration::from_secs(3));
    let used = cpu_time(server.child.id()) - before;
    assert!(
        used < Duration::from_millis(600),
        "the server used {used:?} of CPU in 3 s while out of file descriptors"
    );
    drop(flood);
    let (name, value) = bearer();
    let reply = server.post(&[(name, &value)], &initialize("2025-11-25"));
    assert_eq!(reply.status, 200, "{}", reply.body);
}

#[test]
fn a_token_holder_opening_sessions_in_a_loop_meets_the_cap() {
    let vault = TestVault::new();
    let home = tempfile::tempdir().unwrap();
    let server = Http::with_token(&vault, home.path());
    let (name, value) = bearer();
    let mut sessions = Vec::new();
    let mut refused = None;
    for _ in 0..80 {
        let reply = server.post(&[(name, &value)], &initialize("2025-11-25"));
        match reply.status {
            200 => sessions.push(reply.header("mcp-session-id").unwrap().to_owned()),
            _ => {
                refused = Some(reply);
                break;
            }
        }
    }
    let refused = refused.expect("a session past the cap is refused");
    assert_eq!(sessions.len(), 64);
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert!(
        refused.body.contains("64 sessions") || refused.body.contains("(64)"),
        "{}",
        refused.body
    );
    assert!(refused.header("retry-after").is_some());
    // A session already open still answers; one ended makes room.
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let first = sessions[0].as_str();
    let listed = server.post(
        &[
            (name, &value),
            ("Mcp-Session-Id", first),
            ("Mcp-Protocol-Version", "2025-11-25"),
        ],
        &list,
    );
    assert_eq!(listed.status, 200, "{}", listed.body);
    let ended = server.send("DELETE", &[(name, &value), ("Mcp-Session-Id", first)], "");
    assert_eq!(ended.status, 204, "{}", ended.body);
    let again = server.post(&[(name, &value)], &initialize("2025-11-25"));
    assert_eq!(again.status, 200, "{}", again.body);
}

#[test]
fn a_body_that_never_arrives_is_answered_in_time() {
    let vault = TestVault::new();
    let home = tempfile::tempdir().unwrap();
    let server = Http::with_token(&vault, home.path());
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(40)))
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: 1000\r\n\r\n{{\"jsonrpc\":",
        server.addr
    );
    stream.write_all(head.as_bytes()).unwrap();
    let started = std::time::Instant::now();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let reply = Reply::parse(&String::from_utf8_lossy(&raw));
    assert_eq!(reply.status, 408, "{:?}", reply.body);
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(reply.body.contains("did not arrive"), "{}", reply.body);
}

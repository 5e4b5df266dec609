//! The MCP server's protocol edges over stdio, as a client sees them: a line
//! that is not JSON, arguments a tool does not take, what `find` hands out,
//! what the server logs by default, progress and cancellation.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use vaultspec_test_support::{TestVault, cache_dir, guests};

use crate::mcp::{Session, text};
use crate::support::install_trusted;

/// The server on `vault` over raw pipes, initialized; stderr piped.
struct Raw {
    child: Child,
    stdin: ChildStdin,
    /// Lines of stdout, read on a thread of their own.
    lines: mpsc::Receiver<String>,
}

/// How long a reply may take before the test calls it missing (a guard
/// against hanging on a server that never answers, not a speed check).
const NO_REPLY: Duration = Duration::from_secs(60);

impl Raw {
    fn start(vault: &TestVault, log_level: Option<&str>) -> Self {
        Self::start_as(vault, log_level, None)
    }

    /// [`Raw::start`] for the user whose home folder is `home`.
    fn start_as(vault: &TestVault, log_level: Option<&str>, home: Option<&Path>) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_vaultspec"));
        if let Some(home) = home {
            command.env("HOME", home).env_remove("VAULTSPEC_TARGET_DIR");
        }
        command
            .arg("mcp")
            .arg("--target")
            .arg(vault.root())
            .env("VAULTSPEC_CACHE_DIR", cache_dir())
            .env("VAULTSPEC_STDIO_WATCHDOG", "0")
            .env_remove("VAULTSPEC_LOG_LEVEL")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(level) = log_level {
            command.env("VAULTSPEC_LOG_LEVEL", level);
        }
        let mut child = command.spawn().expect("starting vaultspec mcp");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut raw = Self {
            child,
            stdin,
            lines,
        };
        raw.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#);
        assert_eq!(raw.reply()["id"], 0);
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        raw
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn reply(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(NO_REPLY)
            .expect("the server answered");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"))
    }

    /// Close stdin, wait for the exit, and return what went to stderr.
    fn finish(self) -> String {
        drop(self.stdin);
        let out = self.child.wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
}

#[test]
fn a_line_that_is_not_json_gets_a_parse_error_and_the_session_goes_on() {
    let vault = TestVault::new();
    let mut raw = Raw::start(&vault, Some("error"));
    raw.send("this is {not json");
    raw.send(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#);
    // The two replies may come in either order.
    let replies = [raw.reply(), raw.reply()];
    let error = replies
        .iter()
        .find(|r| r.get("error").is_some())
        .unwrap_or_else(|| panic!("no error reply: {replies:?}"));
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(error["jsonrpc"], "2.0");
    assert!(error.get("id").is_none_or(Value::is_null), "{error}");
    let listed = replies
        .iter()
        .find(|r| r["id"] == 7)
        .unwrap_or_else(|| panic!("no tools/list reply: {replies:?}"));
    assert!(listed["result"]["tools"].is_array());
    raw.finish();
}

#[test]
fn unknown_arguments_are_refused_naming_each_one() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let session = Session::start(&vault, &[])?;
    let result = session.call("find", json!({"feature": "x", "limt": 3, "zzz": true}))?;
    assert_eq!(result.is_error, Some(true));
    let said = text(&result);
    assert!(
        said.starts_with(
            "Error executing tool find: unknown arguments `limt` (did you mean `limit`?), `zzz`"
        ),
        "{said}"
    );
    let result = session.call("status", json!({"traget": "x"}))?;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).contains("`traget` (did you mean `target`?)"),
        "{}",
        text(&result)
    );
    let tools = session.runtime.block_on(session.client.list_all_tools())?;
    for tool in tools {
        assert_eq!(
            tool.input_schema.get("additionalProperties"),
            Some(&Value::Bool(false)),
            "{}",
            tool.name
        );
    }
    Ok(())
}

#[test]
fn find_hands_out_resource_uris_the_server_reads_back_byte_for_byte() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let path = vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    // Bytes a reader could normalise: a carriage return and a non-ASCII letter.
    let text = vault.read(&path).unwrap().replace("\n\n", "\r\n\n") + "Größe\n";
    vault.write(&path, &text);
    let session = Session::start(&vault, &[])?;
    let info = session
        .client
        .peer_info()
        .expect("the server introduced itself");
    let resources = info
        .capabilities
        .resources
        .clone()
        .expect("resources served");
    assert_eq!(resources.subscribe, Some(true));
    let found = session.call("find", json!({"feature": "cache-layer", "type": ["adr"]}))?;
    let rows = found.structured_content.clone().unwrap_or_default();
    let row = &rows["result"][0];
    let uri = row["resource_uri"].as_str().expect("a resource URI");
    assert!(uri.starts_with("file:///") && uri.ends_with(&path), "{row}");
    let read = session.runtime.block_on(
        session
            .client
            .read_resource(rmcp::model::ReadResourceRequestParams::new(uri)),
    )?;
    let rmcp::model::ResourceContents::TextResourceContents {
        text: served, meta, ..
    } = &read.contents[0]
    else {
        panic!("not text: {read:?}");
    };
    assert_eq!(*served, text, "the exact text");
    assert_eq!(
        meta.as_ref().unwrap().0["blob_hash"],
        row["blob_hash"],
        "the same blob hash find gave"
    );
    Ok(())
}

#[test]
fn by_default_the_server_logs_at_info_as_the_readme_says() {
    let vault = TestVault::new();
    let mut raw = Raw::start(&vault, None);
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"status","arguments":{}}}"#);
    assert_eq!(raw.reply()["id"], 1);
    let stderr = raw.finish();
    assert!(stderr.contains("vaultspec MCP server starting"), "{stderr}");
    assert!(stderr.contains("tool call"), "{stderr}");
}

/// The CPU time the process `pid` has used so far (Linux).
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command name (which may hold spaces): utime and
    // stime are the 14th and 15th of the line, in clock ticks of 10 ms.
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

#[test]
fn a_long_invoke_reports_progress_and_a_cancelled_one_stops_at_once() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let home = tempfile::tempdir()?;
    install_trusted(&vault, home.path(), "probe", guests::PROBE)?;
    let mut raw = Raw::start_as(&vault, Some("error"), Some(home.path()));
    raw.send(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"invoke","arguments":{"verb":"probe spin","timeout":60},"_meta":{"progressToken":"spin-1"}}}"#,
    );
    let mut progress = Vec::new();
    while progress.len() < 2 {
        let message = raw.reply();
        assert_eq!(message["method"], "notifications/progress", "{message}");
        assert_eq!(message["params"]["progressToken"], "spin-1");
        progress.push(message["params"]["progress"].as_f64().unwrap());
    }
    assert!(progress[1] > progress[0], "progress grows: {progress:?}");

    raw.send(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"enough"}}"#,
    );
    // A spinning verb keeps a core busy; once cancelled, the server idles.
    std::thread::sleep(Duration::from_millis(300));
    let pid = raw.child.id();
    let before = cpu_time(pid);
    std::thread::sleep(Duration::from_millis(1000));
    let spent = cpu_time(pid) - before;
    assert!(
        spent < Duration::from_millis(300),
        "the server used {spent:?} of CPU in the second after the cancel"
    );

    // No reply to the cancelled call ever comes; the next call is served.
    raw.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
    let reply = loop {
        let message = raw.reply();
        if message["method"] != "notifications/progress" {
            break message;
        }
    };
    assert_eq!(reply["id"], 2, "{reply}");
    raw.finish();
    Ok(())
}

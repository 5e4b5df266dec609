//! The MCP server over stdio, driven by rmcp's client against the real binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use vaultspec_test_support::{TestVault, cache_dir};

/// Every tool the server lists, in the reference's order.
pub const TOOL_NAMES: [&str; 12] = [
    "find",
    "create",
    "edit",
    "status",
    "check",
    "search",
    "crossref",
    "plan_progress",
    "plan_edit",
    "log",
    "discover",
    "invoke",
];

/// `vaultspec mcp EXTRA --target VAULT`, with the tests' cache and home,
/// logging at `level`.
pub fn session_command(vault: &TestVault, extra: &[&str], level: &str) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_vaultspec"));
    command
        .arg("mcp")
        .args(extra)
        .arg("--target")
        .arg(vault.root())
        .env("VAULTSPEC_CACHE_DIR", cache_dir())
        // The tests' own home, as at the CLI (`crate::binary`): the
        // server keeps the user's journal key under it.
        .env("HOME", cache_dir().parent().unwrap().join("test-home"))
        .env("VAULTSPEC_STDIO_WATCHDOG", "0")
        .env("VAULTSPEC_LOG_LEVEL", level);
    command
}

/// A client connected to `vaultspec mcp` on `vault`.
pub struct Session {
    pub client: RunningService<RoleClient, ()>,
    pub runtime: tokio::runtime::Runtime,
}

impl Session {
    pub fn start(vault: &TestVault, extra: &[&str]) -> anyhow::Result<Self> {
        Self::start_logging(vault, extra, "error", std::process::Stdio::inherit())
    }

    /// A session whose server logs at `level` to `stderr`.
    pub fn start_logging(
        vault: &TestVault,
        extra: &[&str],
        level: &str,
        stderr: impl Into<std::process::Stdio>,
    ) -> anyhow::Result<Self> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let command = session_command(vault, extra, level);
        let client = runtime.block_on(async {
            let (transport, _) = TokioChildProcess::builder(command).stderr(stderr).spawn()?;
            anyhow::Ok(().serve(transport).await?)
        })?;
        Ok(Self { client, runtime })
    }

    /// Call a tool; returns the whole result.
    pub fn call(&self, tool: &str, arguments: Value) -> anyhow::Result<CallToolResult> {
        let mut params = CallToolRequestParams::new(tool.to_owned());
        if let Value::Object(map) = arguments {
            params = params.with_arguments(map);
        }
        Ok(self.runtime.block_on(self.client.call_tool(params))?)
    }

    pub fn tool_names(&self) -> anyhow::Result<Vec<String>> {
        let tools = self.runtime.block_on(self.client.list_all_tools())?;
        Ok(tools.into_iter().map(|t| t.name.into_owned()).collect())
    }
}

/// The text of a result's one content block.
pub fn text(result: &CallToolResult) -> String {
    let value = serde_json::to_value(&result.content).unwrap();
    value[0]["text"].as_str().unwrap_or_default().to_owned()
}

#[test]
fn initialize_names_the_server_and_gives_instructions() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let session = Session::start(&vault, &[])?;
    let info = session
        .client
        .peer_info()
        .expect("the server introduced itself");
    let name = info.server_info.as_ref().map(|i| i.name.clone());
    assert_eq!(name.as_deref(), Some("vaultspec-core-mcp"));
    let instructions = info.instructions.clone().unwrap_or_default();
    assert!(
        instructions.contains("tool-schema version"),
        "{instructions}"
    );
    Ok(())
}

#[test]
fn tools_are_listed_in_order_in_both_modes() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let names = Session::start(&vault, &[])?.tool_names()?;
    assert_eq!(names, TOOL_NAMES);
    let names = Session::start(&vault, &["--read-only"])?.tool_names()?;
    assert_eq!(
        names,
        ["find", "status", "check", "search", "crossref", "discover"]
    );
    Ok(())
}

#[test]
fn an_unknown_tool_is_a_bare_tool_error() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let session = Session::start(&vault, &["--read-only"])?;
    let result = session.call("create", json!({"documents": []}))?;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(text(&result), "Unknown tool: create");
    Ok(())
}

#[test]
fn read_only_guards_refuse_fix_and_sweeps_before_validation() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let session = Session::start(&vault, &["--read-only"])?;
    let result = session.call("check", json!({"fix": false}))?;
    assert_eq!(
        text(&result),
        "read-only check does not accept the 'fix' argument"
    );
    let result = session.call("crossref", json!({"ref": "x", "apply": true}))?;
    assert_eq!(
        text(&result),
        "read-only crossref judges one 'ref' and writes nothing"
    );
    Ok(())
}

#[test]
fn arguments_outside_the_schema_are_a_prefixed_tool_error() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let session = Session::start(&vault, &[])?;
    let result = session.call("find", json!({"limit": 0}))?;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).starts_with("Error executing tool find: `limit`"),
        "{}",
        text(&result)
    );
    let result = session.call("search", json!({"query": ""}))?;
    assert!(
        text(&result).starts_with("Error executing tool search: `query`"),
        "{}",
        text(&result)
    );
    Ok(())
}

fn server_command(vault: &TestVault) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vaultspec"));
    command
        .arg("mcp")
        .arg("--target")
        .arg(vault.root())
        .env("VAULTSPEC_CACHE_DIR", cache_dir())
        .env("VAULTSPEC_LOG_LEVEL", "error");
    command
}

fn wait_for_exit(
    child: &mut std::process::Child,
    within: Duration,
) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < within {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    None
}

#[test]
fn the_server_exits_cleanly_when_stdin_closes() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let mut child = server_command(&vault)
        .env("VAULTSPEC_STDIO_WATCHDOG", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
    )?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line)?;
    let reply: Value = serde_json::from_str(&line)?;
    assert_eq!(reply["result"]["protocolVersion"], "2025-06-18");
    drop(stdin);
    let status =
        wait_for_exit(&mut child, Duration::from_secs(10)).expect("the server exited on EOF");
    assert!(status.success());
    Ok(())
}

#[test]
fn without_address_space_for_the_instance_pool_verbs_still_run() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.doc("adr", "2026-03-01", "cache-layer", None);
    // 16 GB of address space: room for a verb, not for the pool's slots.
    let server = server_command(&vault);
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 16000000 && exec "$0" "$@""#)
        .arg(server.get_program())
        .args(server.get_args())
        .envs(server.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .env("VAULTSPEC_LOG_LEVEL", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut reply = |request: &str| -> anyhow::Result<Value> {
        writeln!(stdin, "{request}")?;
        let mut line = String::new();
        stdout.read_line(&mut line)?;
        Ok(serde_json::from_str(&line)?)
    };
    reply(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    )?;
    // The notification has no reply; the call after it has.
    let stats = reply(concat!(
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"invoke","arguments":{"verb":"vault stats"}}}"#
    ))?;
    assert_eq!(
        stats["result"]["structuredContent"]["data"]["data"]["total_docs"], 1,
        "{stats}"
    );
    drop(stdin);
    let status =
        wait_for_exit(&mut child, Duration::from_secs(10)).expect("the server exited on EOF");
    assert!(status.success());
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr)?;
    assert!(
        stderr.contains("cannot reserve the verb instance pool"),
        "{stderr}"
    );
    Ok(())
}

#[test]
fn the_watchdog_exits_when_the_client_process_dies() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let mut client = Command::new("sleep").arg("30").spawn()?;
    let mut server = server_command(&vault)
        .arg("--parent-pid")
        .arg(client.id().to_string())
        .env("VAULTSPEC_WATCHDOG_POLL_MS", "50")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        server.try_wait()?.is_none(),
        "the server runs while its client lives"
    );
    client.kill()?;
    client.wait()?;
    let status =
        wait_for_exit(&mut server, Duration::from_secs(10)).expect("the watchdog ended the server");
    assert!(status.success());
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut server.stderr.take().unwrap(), &mut stderr)?;
    assert!(
        stderr.contains(r#""event":"stdio_watchdog_exit""#),
        "{stderr}"
    );
    Ok(())
}

/// The server never serves a document through a link: a linked document is
/// listed with its problem, so no change of its target can leave the
/// server's copy stale.
#[test]
fn the_server_serves_no_document_through_a_link() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    vault.write(
        "shared/real.md",
        "---\ntags: [\"#adr\", \"#cache-layer\"]\n---\n# old text\n",
    );
    std::os::unix::fs::symlink(
        "../../shared/real.md",
        vault
            .root()
            .join(".vault/adr/2026-03-05-cache-layer-linked-adr.md"),
    )?;
    let session = Session::start(&vault, &[])?;
    for round in 0..2 {
        let found = session.call("find", serde_json::json!({"feature": "cache-layer"}))?;
        let said = serde_json::to_string(&found.structured_content)?;
        assert!(said.contains("2026-03-05-cache-layer-linked-adr"), "{said}");
        assert!(said.contains("symbolic link"), "round {round}: {said}");
        assert!(!said.contains("old text"), "{said}");
        vault.write(
            "shared/real.md",
            "---\ntags: [\"#adr\", \"#cache-layer\"]\n---\n# new text\n",
        );
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    Ok(())
}

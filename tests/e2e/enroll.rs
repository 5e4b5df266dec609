//! MCP enrollment at the command line, in a temporary git repository with a
//! temporary home: `install`, approval at a pseudo-terminal, `spec mcps
//! sync`, `status`, hand edits, `uninstall`; a workspace the reference
//! enrolled is adopted byte for byte; and the enrolled command starts an
//! MCP server.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use vaultspec_test_support::cache_dir;

use crate::user::at_terminal;

/// A git repository and a home folder of its own (with `$CODEX_HOME` in it).
struct Setup {
    ws: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Setup {
    fn new() -> Self {
        let ws = tempfile::tempdir().unwrap();
        std::fs::create_dir(ws.path().join(".git")).unwrap();
        Self {
            ws,
            home: tempfile::tempdir().unwrap(),
        }
    }

    /// The workspace root, links resolved (as the records name it).
    fn root(&self) -> PathBuf {
        self.ws.path().canonicalize().unwrap()
    }

    fn env(&self) -> Vec<(&'static str, PathBuf)> {
        vec![
            ("HOME", self.home.path().to_owned()),
            ("CODEX_HOME", self.home.path().join(".codex")),
            (
                "VAULTSPEC_CACHE_DIR",
                cache_dir().parent().unwrap().join("test-cli-cache"),
            ),
        ]
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_vaultspec"));
        command
            .args(args)
            .current_dir(self.ws.path())
            .envs(self.env())
            .env_remove("VAULTSPEC_TARGET_DIR")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CI")
            .env_remove("VAULTSPEC_NON_INTERACTIVE")
            .stdin(Stdio::null());
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// Run and require exit code `code`.
    fn expect(&self, code: i32, args: &[&str]) -> Output {
        let out = self.run(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}\n{}", show(&out));
        out
    }

    fn json(&self, code: i32, args: &[&str]) -> Value {
        let mut args = args.to_vec();
        args.push("--json");
        let out = self.expect(code, &args);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("not JSON: {}", show(&out)))
    }

    /// `vaultspec ARGS` at a pseudo-terminal, typing `answer`.
    fn at_terminal(&self, args: &[&str], answer: &str) -> Output {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        at_terminal(env!("CARGO_BIN_EXE_vaultspec"), &args, answer, |command| {
            command
                .current_dir(self.ws.path())
                .envs(self.env())
                .env_remove("CI")
                .env_remove("VAULTSPEC_NON_INTERACTIVE");
        })
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.ws.path().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.ws.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn names(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect()
}

/// Another server and the user's comments, which vaultspec must keep.
const THEIR_MCP_JSON: &str = "{\n  \"mcpServers\": {\n    \"theirs\": {\"command\": \"their-server\", \"args\": [\"--port\", \"1\"]}\n  },\n  \"note\": \"kept\"\n}\n";
const THEIR_CODEX: &str = "# my codex settings\nmodel = \"o3\"  # the model I like\n\n[mcp_servers.theirs]\ncommand = \"their-server\"\n";

#[test]
fn install_approve_sync_edit_and_uninstall_keep_everything_not_ours() {
    let s = Setup::new();
    s.write(".mcp.json", THEIR_MCP_JSON);
    s.write(".codex/config.toml", THEIR_CODEX);

    // Install sets the workspace up and tries to enroll: nothing is
    // approved, so no agent file changes and status says why.
    let out = s.expect(0, &["install"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("MCP server vaultspec-core for claude: skipped")
            && said.contains("approve its launch at this terminal"),
        "{}",
        show(&out)
    );
    assert_eq!(s.read(".mcp.json"), THEIR_MCP_JSON);
    // The personas region goes in beside the person's lines, which stay.
    let codex = s.read(".codex/config.toml");
    assert!(codex.starts_with(THEIR_CODEX), "{codex}");
    assert!(codex.contains("# <vaultspec type=\"agents\">\n"), "{codex}");
    assert!(!codex.contains("mcps"), "{codex}");
    assert!(!s.ws.path().join(".agents/mcp_config.json").exists());
    let status = s.json(1, &["spec", "mcps", "status"]);
    assert_eq!(status["data"]["status"], "partial");
    assert_eq!(names(&status["data"]["unapproved"]), ["vaultspec-core"]);
    assert_eq!(names(&status["data"]["missing"]), ["vaultspec-core"]);
    assert_eq!(names(&status["data"]["external"]), ["theirs"]);

    // Approval only at a terminal: not with --json, not in CI, not piped.
    let refused = s.json(1, &["spec", "mcps", "trust"]);
    assert!(
        refused["data"]["message"]
            .as_str()
            .unwrap()
            .contains("interactive terminal")
    );
    let piped = s.expect(1, &["spec", "mcps", "trust"]);
    assert!(String::from_utf8_lossy(&piped.stderr).contains("interactive terminal"));
    let ci = s
        .command(&["spec", "mcps", "trust"])
        .env("CI", "true")
        .output()
        .unwrap();
    assert_eq!(ci.status.code(), Some(1), "{}", show(&ci));
    assert!(!s.home.path().join(".vaultspec/mcp-trust.json").exists());

    // A "no" at the terminal grants nothing; a "yes" grants each target.
    let no = s.at_terminal(&["spec", "mcps", "trust"], "n\n");
    assert!(
        String::from_utf8_lossy(&no.stdout).contains("not approved"),
        "{}",
        show(&no)
    );
    assert!(!s.home.path().join(".vaultspec/mcp-trust.json").exists());
    let yes = s.at_terminal(&["spec", "mcps", "trust"], "y\n");
    let shown = String::from_utf8_lossy(&yes.stdout);
    assert!(
        shown.contains("Approved 3 MCP enrollment(s)"),
        "{}",
        show(&yes)
    );
    assert!(
        shown.contains(env!("CARGO_BIN_EXE_vaultspec")),
        "the review shows the launch: {shown}"
    );

    // Sync writes our entry beside theirs, and status is ok.
    let synced = s.json(0, &["spec", "mcps", "sync"]);
    assert_eq!(synced["status"], "created", "{synced}");
    let mcp_json = s.read(".mcp.json");
    assert!(mcp_json.starts_with("{\n  \"mcpServers\": {\n    \"theirs\": {\"command\": \"their-server\", \"args\": [\"--port\", \"1\"]},\n    \"vaultspec-core\": {"), "{mcp_json}");
    assert!(
        mcp_json.ends_with("\n  },\n  \"note\": \"kept\"\n}\n"),
        "{mcp_json}"
    );
    assert!(s.read(".codex/config.toml").starts_with(THEIR_CODEX));
    assert!(s.read(".agents/mcp_config.json").contains("vaultspec-core"));
    let status = s.json(0, &["spec", "mcps", "status"]);
    assert_eq!(status["data"]["status"], "ok", "{status}");
    assert_eq!(s.json(0, &["spec", "mcps", "sync"])["status"], "unchanged");
    assert_eq!(s.json(0, &["install"])["status"], "unchanged");

    // A hand edit of our entry is left alone, with a warning; --force puts
    // ours back.
    let edited = mcp_json.replace("\"mcp\"", "\"mcp\", \"--read-only\"");
    s.write(".mcp.json", &edited);
    let skipped = s.json(0, &["spec", "mcps", "sync", "claude"]);
    assert_eq!(skipped["status"], "skipped", "{skipped}");
    assert!(
        skipped["data"]["warnings"][0]
            .as_str()
            .unwrap()
            .contains("differs from its definition")
    );
    assert_eq!(s.read(".mcp.json"), edited);
    assert_eq!(
        s.json(1, &["spec", "mcps", "status", "claude"])["data"]["providers"]["claude"]["drifted"],
        json!(["vaultspec-core"])
    );
    assert_eq!(
        s.json(0, &["spec", "mcps", "sync", "claude", "--force"])["status"],
        "updated"
    );
    assert_eq!(s.read(".mcp.json"), mcp_json);

    // A revoked approval stops the next sync from writing.
    let revoked = s.json(0, &["spec", "mcps", "trust", "--revoke"]);
    assert_eq!(revoked["data"]["revoked"], 3);
    std::fs::remove_file(s.ws.path().join(".agents/mcp_config.json")).unwrap();
    assert_eq!(
        s.json(0, &["spec", "mcps", "sync", "antigravity"])["status"],
        "skipped"
    );
    assert!(!s.ws.path().join(".agents/mcp_config.json").exists());

    // Uninstall takes out only what vaultspec wrote.
    let out = s.expect(0, &["uninstall", "--force"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("MCP server vaultspec-core (claude)"),
        "{}",
        show(&out)
    );
    assert_eq!(s.read(".mcp.json"), THEIR_MCP_JSON);
    assert_eq!(s.read(".codex/config.toml"), THEIR_CODEX);
    assert!(!s.ws.path().join(".vaultspec").exists());
    let records = s.home.path().join(".vaultspec/mcp-ownership");
    let left: Vec<_> = walk(&records)
        .into_iter()
        .filter(|p| p.ends_with("mcp-ownership.json"))
        .collect();
    assert!(left.is_empty(), "ownership records left: {left:?}");
}

#[test]
fn bad_definitions_and_broken_agent_files_lose_nothing() {
    let s = Setup::new();
    s.expect(0, &["install", "claude"]);
    // Not an object, an unsupported key, a non-string command.
    s.write(".vaultspec/mcps/list.json", "[1, 2]\n");
    s.write(
        ".vaultspec/mcps/remote.json",
        "{\"command\": \"x\", \"url\": \"https://example.com\"}\n",
    );
    s.write(".vaultspec/mcps/number.json", "{\"command\": 7}\n");
    let yes = s.at_terminal(&["spec", "mcps", "trust"], "y\n");
    assert!(
        String::from_utf8_lossy(&yes.stdout).contains("Approved 1 MCP"),
        "{}",
        show(&yes)
    );
    let synced = s.json(0, &["spec", "mcps", "sync"]);
    let warnings = synced["data"]["warnings"].to_string();
    assert!(warnings.contains("is not a JSON object"), "{warnings}");
    assert!(
        warnings.contains("fields unsupported by claude: ['url']"),
        "{warnings}"
    );
    assert!(warnings.contains("non-string command"), "{warnings}");
    let written: Value = serde_json::from_str(&s.read(".mcp.json")).unwrap();
    assert_eq!(
        written["mcpServers"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["vaultspec-core"]
    );

    // A file that does not parse is never rewritten; the failure names it.
    let broken = "{\n  \"mcpServers\": {\n    \"x\": \n";
    s.write(".mcp.json", broken);
    let failed = s.json(1, &["spec", "mcps", "sync"]);
    assert_eq!(failed["status"], "failed");
    let detail = failed["data"]["items"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains(".mcp.json") && detail.contains("line"),
        "{detail}"
    );
    assert_eq!(s.read(".mcp.json"), broken);
    assert_eq!(
        s.json(1, &["spec", "mcps", "status"])["data"]["status"],
        "invalid_config"
    );
    s.write(".codex/config.toml", "model = [\n");
    s.expect(0, &["install", "codex", "--skip", "mcp"]);
    let failed = s.json(1, &["spec", "mcps", "sync", "codex"]);
    assert!(
        failed["data"]["items"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("line 1"),
        "{failed}"
    );
    assert_eq!(s.read(".codex/config.toml"), "model = [\n");

    // A symlinked agent folder is refused, and nothing is written through it.
    let outside = tempfile::tempdir().unwrap();
    std::fs::remove_dir_all(s.ws.path().join(".codex")).unwrap();
    std::os::unix::fs::symlink(outside.path(), s.ws.path().join(".codex")).unwrap();
    let yes = s.at_terminal(&["spec", "mcps", "trust", "codex"], "y\n");
    assert!(yes.status.success(), "{}", show(&yes));
    let failed = s.json(1, &["spec", "mcps", "sync", "codex"]);
    let detail = failed["data"]["items"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("`.codex` is a symbolic link"), "{failed}");
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}

/// Put the fixture the reference enrolled at `s`, its paths rewritten to
/// this workspace, as the reference would have written them there.
fn reference_enrolled(s: &Setup) {
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/reference-enrolled");
    let root = s.root().display().to_string();
    let place = |from: &Path, to: &Path| {
        for file in walk(from) {
            let text = std::fs::read_to_string(&file)
                .unwrap()
                .replace("@@WS@@", &root);
            let dest = to.join(file.strip_prefix(from).unwrap());
            std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
            std::fs::write(dest, text).unwrap();
        }
    };
    place(&fixture.join("ws"), s.ws.path());
    place(&fixture.join("home"), s.home.path());
    let vs = s.home.path().join(".vaultspec");
    let dir = vs
        .join("mcp-ownership")
        .join(hex::encode(Sha256::digest(root.as_bytes())));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::rename(
        vs.join("mcp-ownership.json"),
        dir.join("mcp-ownership.json"),
    )
    .unwrap();
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn a_workspace_the_reference_enrolled_is_adopted_without_a_rewrite() {
    let s = Setup::new();
    reference_enrolled(&s);
    let snapshot = |s: &Setup| -> Vec<(PathBuf, Vec<u8>)> {
        let mut files: Vec<_> = [".mcp.json", ".codex/config.toml"]
            .iter()
            .map(|p| s.ws.path().join(p))
            .chain(
                walk(&s.home.path().join(".vaultspec"))
                    .into_iter()
                    .filter(|p| p.extension().is_some_and(|e| e == "json")),
            )
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                (p, bytes)
            })
            .collect();
        files.sort();
        files
    };
    let before = snapshot(&s);

    // The reference's grant of `echo` holds here; its grant of its own
    // launch does not cover ours, so that entry is left as the reference
    // wrote it.
    let status = s.json(1, &["spec", "mcps", "status", "claude"]);
    let claude = &status["data"]["providers"]["claude"];
    assert_eq!(
        names(&claude["managed"]),
        ["echo", "vaultspec-core"],
        "{status}"
    );
    assert_eq!(names(&claude["unapproved"]), ["vaultspec-core"], "{status}");
    let synced = s.json(0, &["spec", "mcps", "sync"]);
    let outcome = |name: &str, group: &str| {
        synced["data"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == name && i["group"] == group)
            .map(|i| i["outcome"].as_str().unwrap().to_owned())
    };
    assert_eq!(
        outcome("echo", "claude").as_deref(),
        Some("unchanged"),
        "{synced}"
    );
    assert_eq!(
        outcome("echo", "codex").as_deref(),
        Some("unchanged"),
        "{synced}"
    );
    assert_eq!(
        outcome("vaultspec-core", "codex").as_deref(),
        Some("skipped"),
        "{synced}"
    );
    s.expect(0, &["install"]);
    assert_eq!(
        snapshot(&s),
        before,
        "nothing the reference wrote was rewritten"
    );
}

/// Moving from `vaultspec-core`: the agents' entries that start its Python
/// server are named by `status`, `spec mcps status` and `spec doctor`, and
/// taken over once a person approves the new launch at a terminal; with
/// the reference's ownership records on this machine, and without them (a
/// clone on another machine).
#[test]
fn moving_from_the_reference_offers_the_takeover_and_takes_it_once_approved() {
    for with_records in [true, false] {
        let s = Setup::new();
        reference_enrolled(&s);
        if !with_records {
            std::fs::remove_dir_all(s.home.path().join(".vaultspec")).unwrap();
        }
        let case = if with_records {
            "with records"
        } else {
            "without records"
        };

        let status = s.json(0, &["status"]);
        let files = &status["data"]["legacy_server"]["files"];
        assert_eq!(
            names(files),
            [".mcp.json", ".codex/config.toml"],
            "{case}: {status}"
        );
        let text = String::from_utf8_lossy(&s.expect(0, &["status"]).stdout).into_owned();
        assert!(
            text.contains("vaultspec-core's Python MCP server")
                && text.contains("vaultspec spec mcps trust && vaultspec spec mcps sync"),
            "{case}: {text}"
        );
        let mcps = s.json(1, &["spec", "mcps", "status", "claude"]);
        let claude = &mcps["data"]["providers"]["claude"];
        assert_eq!(claude["status"], "partial", "{case}: {mcps}");
        assert_eq!(
            names(&claude["reference"]),
            ["vaultspec-core"],
            "{case}: {mcps}"
        );
        assert!(
            !names(&claude["external"]).contains(&"vaultspec-core"),
            "{case}: {mcps}"
        );
        let doctor = s.run(&["spec", "doctor"]);
        let said = show(&doctor);
        assert!(
            said.contains("still starts vaultspec-core's Python MCP server"),
            "{case}: {said}"
        );

        // Nothing changes before the person approves.
        let before = s.read(".mcp.json");
        s.json(0, &["spec", "mcps", "sync"]);
        assert_eq!(s.read(".mcp.json"), before, "{case}");

        let trust = s.at_terminal(&["spec", "mcps", "trust"], "y\n");
        let shown = show(&trust);
        assert!(trust.status.success(), "{case}: {shown}");
        assert!(
            shown.contains(
                "\"replaces\": \"vaultspec-core's Python server: uvx --from vaultspec-core"
            ),
            "the person sees what is replaced ({case}): {shown}"
        );
        let synced = s.json(0, &["spec", "mcps", "sync"]);
        let taken: Vec<&Value> = synced["data"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["name"] == "vaultspec-core")
            .collect();
        assert!(
            taken.iter().filter(|i| i["outcome"] == "updated").count() == 2,
            "claude's and codex's entries are taken over ({case}): {synced}"
        );
        let claude: Value = serde_json::from_str(&s.read(".mcp.json")).unwrap();
        let ours = &claude["mcpServers"]["vaultspec-core"];
        assert_eq!(names(&ours["args"]), ["mcp"], "{case}: {claude}");
        assert_eq!(claude["mcpServers"]["echo"]["command"], "echo", "{case}");
        let codex = s.read(".codex/config.toml");
        assert!(
            !codex.contains("vaultspec_core.mcp_server.app"),
            "{case}: {codex}"
        );

        let status = s.json(0, &["status"]);
        assert!(
            status["data"].get("legacy_server").is_none(),
            "{case}: {status}"
        );
        let mcps = s.json(0, &["spec", "mcps", "status", "claude"]);
        assert_eq!(
            mcps["data"]["providers"]["claude"]["status"], "ok",
            "{case}: {mcps}"
        );
    }
}

#[test]
fn each_enrolled_command_starts_an_mcp_server() {
    let s = Setup::new();
    s.expect(0, &["install"]);
    let yes = s.at_terminal(&["spec", "mcps", "trust"], "y\n");
    assert!(yes.status.success(), "{}", show(&yes));
    s.json(0, &["spec", "mcps", "sync"]);
    let from_json = |path: &str| {
        let doc: Value = serde_json::from_str(&s.read(path)).unwrap();
        let entry = &doc["mcpServers"]["vaultspec-core"];
        (
            entry["command"].as_str().unwrap().to_owned(),
            names(&entry["args"])
                .iter()
                .map(|a| (*a).to_owned())
                .collect::<Vec<_>>(),
        )
    };
    let codex: toml::Table = toml::from_str(&s.read(".codex/config.toml")).unwrap();
    let entry = &codex["mcp_servers"]["vaultspec-core"];
    let from_toml = (
        entry["command"].as_str().unwrap().to_owned(),
        entry["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_owned())
            .collect::<Vec<_>>(),
    );
    for (command, args) in [
        from_json(".mcp.json"),
        from_json(".agents/mcp_config.json"),
        from_toml,
    ] {
        let mut child = Command::new(&command)
            .args(&args)
            .current_dir(s.ws.path())
            .envs(s.env())
            .env("VAULTSPEC_STDIO_WATCHDOG", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {command} {args:?}: {e}"));
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "agent", "version": "1"}}});
        writeln!(child.stdin.as_mut().unwrap(), "{request}").unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let _ = child.kill();
        let _ = child.wait();
        let reply: Value =
            serde_json::from_str(&line).unwrap_or_else(|_| panic!("{command}: {line}"));
        assert_eq!(reply["id"], 1);
        assert!(reply["result"]["serverInfo"]["name"].is_string(), "{reply}");
    }
}

#[test]
fn an_untouched_entry_converges_and_the_users_own_file_keeps_its_bytes() {
    let s = Setup::new();
    s.expect(0, &["install", "claude", "--skip", "mcp"]);
    let add = |args: &str| {
        let config = format!("{{\"command\": \"echo\", \"args\": [\"{args}\"]}}");
        s.json(
            0,
            &[
                "spec", "mcps", "add", "--name", "echo", "--config", &config, "--force",
            ],
        );
    };
    let approve = |extra: &[&str]| {
        let mut args = vec!["spec", "mcps", "trust"];
        args.extend_from_slice(extra);
        let yes = s.at_terminal(&args, "y\n");
        assert!(yes.status.success(), "{}", show(&yes));
    };
    add("one");
    approve(&[]);
    assert_eq!(s.json(0, &["spec", "mcps", "sync"])["status"], "created");

    // A changed definition is a new launch: skipped until approved, then
    // refreshed in place, saying what changed.
    add("two");
    assert_eq!(
        s.json(0, &["spec", "mcps", "sync", "claude"])["data"]["items"][0]["outcome"],
        "skipped"
    );
    assert!(s.read(".mcp.json").contains("\"one\""));
    approve(&[]);
    let refreshed = s.json(0, &["spec", "mcps", "sync", "claude"]);
    let echo = refreshed["data"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "echo")
        .unwrap()
        .clone();
    assert_eq!(echo["outcome"], "updated", "{refreshed}");
    assert_eq!(echo["detail"], "echo one -> echo two");
    assert!(
        refreshed["data"]["warnings"]
            .to_string()
            .contains("launch refreshed"),
        "{refreshed}"
    );
    assert!(s.read(".mcp.json").contains("\"two\""));

    // The local scope edits the user's `~/.claude.json` in place: their keys
    // and layout stay, and uninstall gives the file back as it was.
    let root = s.root().display().to_string();
    let theirs =
        format!("{{\"numStartups\": 3, \"projects\": {{\"{root}\": {{\"allowedTools\": []}}}}}}\n");
    let claude_json = s.home.path().join(".claude.json");
    std::fs::write(&claude_json, &theirs).unwrap();
    approve(&["--scope", "local"]);
    assert_eq!(
        s.json(0, &["spec", "mcps", "sync", "--scope", "local"])["status"],
        "created"
    );
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&claude_json).unwrap()).unwrap();
    assert_eq!(written["numStartups"], 3);
    assert_eq!(written["projects"][&root]["allowedTools"], json!([]));
    assert_eq!(
        written["projects"][&root]["mcpServers"]["echo"]["args"],
        json!(["two"])
    );
    s.json(
        0,
        &["spec", "mcps", "uninstall", "--scope", "local", "--force"],
    );
    assert_eq!(std::fs::read_to_string(&claude_json).unwrap(), theirs);

    // The doctor agrees: all in line, then an error for a broken file.
    let doctor = s.json(0, &["spec", "doctor"]);
    assert_eq!(doctor["data"]["mcp"], "ok", "{doctor}");
    assert_eq!(doctor["data"]["mcp_enrollment"]["status"], "ok", "{doctor}");
    // `install` stamped the manifest with the version whose formats it
    // writes: no migration is pending.
    assert_eq!(doctor["data"]["pending_migrations"], json!([]), "{doctor}");
    s.expect(0, &["migrations", "status"]);
    s.write(".mcp.json", "{");
    // A warning, as the reference weighs an unreadable `.mcp.json`.
    let doctor = s.json(1, &["spec", "doctor"]);
    assert_eq!(doctor["status"], "failed");
    assert_eq!(doctor["data"]["mcp"], "unreadable", "{doctor}");
    assert!(
        doctor["data"]["signals"]
            .to_string()
            .contains("cannot be parsed"),
        "{doctor}"
    );
}

/// `install`'s first screen: no alarm about flags the person never gave,
/// the approval step once, and a next step that works at a terminal (not
/// `vaultspec mcp`, which an agent starts); run there anyway, `mcp` says
/// what it is for and ends quietly on Ctrl-D.
#[test]
fn installs_first_screen_points_only_where_a_person_can_go() {
    let s = Setup::new();
    let out = s.expect(0, &["install"]);
    let said = show(&out);
    assert!(!said.contains("--force"), "{said}");
    assert!(!said.contains("is not approved for"), "{said}");
    assert_eq!(
        said.matches("vaultspec spec mcps trust").count(),
        1,
        "{said}"
    );
    let next = said.split("Next:").nth(1).expect("a Next: block");
    assert!(!next.contains("vaultspec mcp\n"), "{next}");
    // Run by its path (not on PATH), the binary says so and names itself
    // by that path, so each printed step runs as printed.
    let me = env!("CARGO_BIN_EXE_vaultspec");
    assert!(next.contains(&format!("    {me} spec doctor")), "{next}");
    assert!(
        said.contains(&format!("{me} spec mcps trust && {me} spec mcps sync"))
            && said.contains("`vaultspec` on your PATH is not this binary"),
        "{said}"
    );

    // Each doctor names its scope and the other.
    let vault_doctor = show(&s.run(&["doctor"]));
    assert!(
        vault_doctor.contains("run `vaultspec spec doctor`"),
        "{vault_doctor}"
    );
    let agents_doctor = show(&s.run(&["spec", "doctor"]));
    assert!(
        agents_doctor.contains("run `vaultspec doctor`"),
        "{agents_doctor}"
    );

    let mcp = s.at_terminal(&["mcp"], "\u{4}");
    assert_eq!(mcp.status.code(), Some(0), "{}", show(&mcp));
    assert!(show(&mcp).contains("Ctrl-D ends it"), "{}", show(&mcp));
}

#[test]
fn the_companion_is_found_by_its_enrollment_its_definition_and_its_command() {
    let s = Setup::new();
    s.expect(0, &["install", "claude", "--skip", "mcp"]);
    let absent = s.json(0, &["status"]);
    assert_eq!(absent["data"]["companion"]["signal"], "absent");
    assert_eq!(absent["data"]["companion"].get("found"), None);

    s.write(
        ".vaultspec/mcps/vaultspec-rag.json",
        "{\"command\": \"uvx\", \"args\": []}\n",
    );
    let defined = s.json(0, &["status"]);
    assert_eq!(
        defined["data"]["companion"]["signal"], "absent",
        "a definition is not an enrollment"
    );
    assert_eq!(
        defined["data"]["companion"]["found"],
        json!([{"by": "definition", "at": ".vaultspec/mcps/vaultspec-rag.json"}])
    );

    s.write(
        ".mcp.json",
        "{\"mcpServers\": {\"vaultspec-rag\": {\"command\": \"uvx\", \"args\": [\"--from\", \"vaultspec-rag[mcp]\", \"python\", \"-m\", \"vaultspec_rag.mcp\"]}}}\n",
    );
    let bin = tempfile::tempdir().unwrap();
    let command = bin.path().join("vaultspec-rag");
    std::fs::write(&command, "#!/bin/sh\n").unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let doctor = s
        .command(&["spec", "doctor", "--json"])
        .env("PATH", &path)
        .output()
        .unwrap();
    let doctor: Value = serde_json::from_slice(&doctor.stdout).unwrap();
    let companion = &doctor["data"]["home"]["companion"];
    assert_eq!(companion["signal"], "declared");
    assert_eq!(companion["mode"], "tool");
    assert_eq!(
        companion["found"],
        json!([
            {"by": "enrollment", "at": ".mcp.json"},
            {"by": "definition", "at": ".vaultspec/mcps/vaultspec-rag.json"},
            {"by": "command", "at": command.display().to_string()},
        ])
    );
    let text = s.command(&["status"]).env("PATH", &path).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("vaultspec-rag provisioned (enrolled in .mcp.json, defined in .vaultspec/mcps/vaultspec-rag.json, tool mode)"),
        "{text}"
    );
}

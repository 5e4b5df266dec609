//! Hostile calls against the sandbox's limits: a verb asleep past its
//! deadline, writers stuck behind a held lock, a flood of sleepers taking
//! the pool, memories and tables past the per-call ceiling, `read-ahead`
//! handles hoarded by the thousand, results kept for files never read and
//! floods of keeps and recalls, and read-only calls that must leave the
//! workspace untouched. Each attack is contained and the next call on the
//! same host still succeeds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};
use vaultspec_host::catalog::{Origin, VerbComponent};
use vaultspec_host::gateway::invoke::{Request, Runners, invoke};
use vaultspec_host::invocation::{Invocation, arguments};
use vaultspec_host::sandbox::{
    Allocation, CallOptions, CompileCache, FailureKind, Outcome, Sandbox,
};
use vaultspec_host::sentinel;
use vaultspec_host::workspace::Workspace;
use vaultspec_test_support::{TestVault, cache_dir, guests};

use crate::mcp::{Session, text};
use crate::support::{
    assert_host_still_serves, call, install_trusted, load, quick, runnable, sandbox, stdout,
};

/// Tests that measure the process's resident memory run one at a time.
static MEASURED: Mutex<()> = Mutex::new(());

/// Run `f` on a thread of its own; fail if it has not answered within
/// `limit` (a hung call must fail the test, not hang the suite).
fn within<T: Send + 'static>(
    limit: Duration,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(limit)
        .unwrap_or_else(|_| panic!("{what}: no answer within {limit:?}"))
}

/// The process's resident memory, in bytes.
fn resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        * 1024
}

/// [`call`] on the workspace at `root`, for a call made on another thread.
fn call_at(
    component: &VerbComponent,
    verb: &str,
    operands: &[&str],
    root: &Path,
    options: CallOptions,
) -> Outcome {
    let spec = component
        .verbs
        .iter()
        .find(|v| v.path_string() == verb)
        .expect("the verb");
    let invocation = Invocation {
        operands: operands.iter().map(|s| s.to_string()).collect(),
        ..Invocation::default()
    };
    let workspace = Workspace::open(root).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime
        .block_on(sandbox().call(
            &runnable(component),
            &arguments(spec, &invocation).expect("the arguments fit"),
            &workspace,
            &options,
        ))
        .unwrap()
}

fn failure(outcome: &Outcome) -> Option<FailureKind> {
    outcome.failure.as_ref().map(|f| f.kind)
}

fn with_timeout(seconds: f64) -> CallOptions {
    CallOptions {
        timeout: Some(Duration::from_secs_f64(seconds)),
        ..CallOptions::default()
    }
}

// ---- one deadline per call, over guest code and host waits -------------

#[test]
fn a_verb_asleep_in_poll_is_stopped_by_its_deadline() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let hoarder = load(guests::HOARDER)?;
    let root = vault.root().to_owned();
    let outcome = within(
        Duration::from_secs(15),
        "a sleeping verb with a 1 s timeout",
        move || call_at(&hoarder, "hoarder sleep", &["60"], &root, with_timeout(1.0)),
    );
    assert_eq!(outcome.exit_code, None, "{}", stdout(&outcome));
    assert_eq!(failure(&outcome), Some(FailureKind::Timeout));
    assert_host_still_serves(&vault)
}

#[test]
fn a_writer_waiting_for_the_workspace_lock_is_stopped_by_its_deadline() -> anyhow::Result<()> {
    let vault = TestVault::new();
    // Another writer (another process, as far as flock knows) holds the lock.
    let held = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let lock = runtime.block_on(held.lock_writes())?;
    let probe = load(guests::PROBE)?;
    let root = vault.root().to_owned();
    let outcome = within(
        Duration::from_secs(15),
        "a writer behind a held lock",
        move || {
            call_at(
                &probe,
                "probe write",
                &[".vault/x.md", "x"],
                &root,
                with_timeout(1.0),
            )
        },
    );
    assert_eq!(failure(&outcome), Some(FailureKind::Timeout), "{outcome:?}");
    assert!(
        vault.read(".vault/x.md").is_none(),
        "the write went ahead under another writer's lock"
    );
    drop(lock);
    let probe = load(guests::PROBE)?;
    let outcome = call(
        &probe,
        "probe write",
        &[".vault/x.md", "x"],
        &vault,
        quick(),
    )?;
    assert_eq!(outcome.exit_code, Some(0), "{}", stdout(&outcome));
    assert_host_still_serves(&vault)
}

#[test]
fn a_writer_waiting_for_a_held_sentinel_is_stopped_by_its_deadline() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let path = vault.root().join(sentinel::DOCS_DOMAIN);
    std::fs::create_dir_all(path.parent().unwrap())?;
    let held = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)?;
    held.lock()?;
    let probe = load(guests::PROBE)?;
    let root = vault.root().to_owned();
    let outcome = within(
        Duration::from_secs(15),
        "a writer behind a held sentinel",
        move || {
            call_at(
                &probe,
                "probe write",
                &[".vault/x.md", "x"],
                &root,
                with_timeout(1.0),
            )
        },
    );
    assert_eq!(failure(&outcome), Some(FailureKind::Timeout), "{outcome:?}");
    assert!(vault.read(".vault/x.md").is_none());
    drop(held);
    assert_host_still_serves(&vault)
}

#[test]
fn a_flood_of_one_sleeping_verb_leaves_pool_slots_for_other_verbs() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.write(".vault/ok.md", "fine");
    let pooled = std::sync::Arc::new(Sandbox::with_allocation(
        CompileCache::new(Some(cache_dir())),
        Allocation::Pooled { slots: 4 },
    )?);
    let hoarder = std::sync::Arc::new(load(guests::HOARDER)?);
    let probe = load(guests::PROBE)?;
    let workspace = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    // Eight sleepers, twice the pool: without a fair share they take every
    // slot until their 20 s deadline, and the read below waits for them.
    let mut sleepers = Vec::new();
    for _ in 0..8 {
        let (pooled, hoarder, workspace) = (pooled.clone(), hoarder.clone(), workspace.clone());
        sleepers.push(runtime.spawn(async move {
            let spec = hoarder
                .verbs
                .iter()
                .find(|v| v.path_string() == "hoarder sleep")
                .unwrap();
            let invocation = Invocation {
                operands: vec!["60".into()],
                ..Invocation::default()
            };
            pooled
                .call(
                    &runnable(&hoarder),
                    &arguments(spec, &invocation).expect("the arguments fit"),
                    &workspace,
                    &with_timeout(20.0),
                )
                .await
        }));
    }
    runtime.block_on(async { tokio::time::sleep(Duration::from_millis(500)).await });
    let spec = probe
        .verbs
        .iter()
        .find(|v| v.path_string() == "probe read")
        .unwrap()
        .clone();
    let invocation = Invocation {
        operands: vec![".vault/ok.md".into()],
        ..Invocation::default()
    };
    let read = runtime.block_on(async {
        tokio::time::timeout(
            Duration::from_secs(10),
            pooled.call(
                &runnable(&probe),
                &arguments(&spec, &invocation).expect("the arguments fit"),
                &workspace,
                &quick(),
            ),
        )
        .await
    });
    let outcome = read.expect("the read found no slot while one verb flooded the pool")?;
    assert_eq!(outcome.exit_code, Some(0), "{}", stdout(&outcome));
    for sleeper in &sleepers {
        assert!(
            !sleeper.is_finished(),
            "a sleeper ended before its deadline"
        );
    }
    runtime.shutdown_background();
    assert_host_still_serves(&vault)
}

/// A session on `vault` whose user trusts the hoarder guest installed in
/// the workspace.
fn session_trusting_the_hoarder(vault: &TestVault, home: &Path) -> anyhow::Result<Session> {
    install_trusted(vault, home, "hoarder", guests::HOARDER)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_vaultspec"));
    command
        .arg("mcp")
        .arg("--target")
        .arg(vault.root())
        .env("HOME", home)
        .env("VAULTSPEC_CACHE_DIR", cache_dir())
        .env("VAULTSPEC_STDIO_WATCHDOG", "0")
        .env("VAULTSPEC_LOG_LEVEL", "error")
        .env_remove("VAULTSPEC_TARGET_DIR");
    let client = runtime.block_on(async {
        let transport = rmcp::transport::TokioChildProcess::new(command)?;
        anyhow::Ok(rmcp::ServiceExt::serve((), transport).await?)
    })?;
    Ok(Session { client, runtime })
}

fn invoke_params(arguments: Value) -> rmcp::model::CallToolRequestParams {
    let Value::Object(map) = arguments else {
        unreachable!()
    };
    rmcp::model::CallToolRequestParams::new("invoke").with_arguments(map)
}

#[test]
fn sixteen_sleeping_invokes_over_mcp_time_out_and_vault_list_still_answers() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    let home = tempfile::tempdir()?;
    let session = std::sync::Arc::new(session_trusting_the_hoarder(&vault, home.path())?);
    // Both components compiled and prepared before the flood, so the flood
    // measures waits, not compiles.
    let warm = session.call(
        "invoke",
        json!({"verb": "hoarder sleep", "positionals": ["0"]}),
    )?;
    assert_eq!(warm.structured_content.unwrap_or(Value::Null)["ok"], true);
    let warm = session.call("invoke", json!({"verb": "vault list"}))?;
    assert_eq!(warm.structured_content.unwrap_or(Value::Null)["ok"], true);
    let start = Instant::now();
    let sleepers: Vec<_> = (0..16)
        .map(|_| {
            let handle = session.runtime.handle().clone();
            let session = session.clone();
            handle.spawn(async move {
                let params = invoke_params(
                    json!({"verb": "hoarder sleep", "positionals": ["60"], "timeout": 2}),
                );
                session.client.call_tool(params).await
            })
        })
        .collect();
    let runtime = &session.runtime;
    let list = runtime.block_on(async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let params = invoke_params(json!({"verb": "vault list", "timeout": 10}));
        tokio::time::timeout(Duration::from_secs(15), session.client.call_tool(params)).await
    });
    let list = list.expect("`vault list` did not answer within 15 s behind 16 sleeping invokes")?;
    let reply = list.structured_content.clone().unwrap_or(Value::Null);
    assert_eq!(reply["ok"], true, "{}", text(&list));
    for sleeper in sleepers {
        let done = runtime
            .block_on(async { tokio::time::timeout(Duration::from_secs(15), sleeper).await });
        let result =
            done.expect("a sleeping invoke with timeout 2 did not answer within 15 s")??;
        let reply = result.structured_content.clone().unwrap_or(Value::Null);
        assert_eq!(reply["error"]["kind"], "timeout", "{}", text(&result));
    }
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "the flood took {:?}",
        start.elapsed()
    );
    // The next call on the same server still works.
    let again = session.call("invoke", json!({"verb": "vault list"}))?;
    assert_eq!(again.structured_content.unwrap_or(Value::Null)["ok"], true);
    Ok(())
}

// ---- one memory ceiling per call over memories and tables ---------------

/// The declaration embedded in [`greedy`]: one top-level verb, `grab`.
const GREEDY_WIT: &str = "package guests:greedy@0.1.0;\n\nworld greedy {\n    /// Take memory.\n    export grab: func() -> u8;\n}\n";

/// A component whose `grab` verb touches every page of `memories` memories
/// of `pages` 64 KiB pages each, beside `tables` tables of `elements`
/// elements, all declared by core modules of their own.
fn greedy(
    memories: usize,
    pages: u32,
    tables: usize,
    elements: u32,
) -> anyhow::Result<VerbComponent> {
    let mut wat = String::from("(component\n");
    for i in 0..memories {
        wat.push_str(&format!(
            "  (core module $mem{i} (memory {pages}) (func (export \"fill\") \
             i32.const 0 i32.const 1 memory.size i32.const 65536 i32.mul memory.fill))\n"
        ));
    }
    for i in 0..tables {
        wat.push_str(&format!(
            "  (core module $tab{i} (table {elements} funcref))\n"
        ));
    }
    wat.push_str("  (core module $main\n");
    for i in 0..memories {
        wat.push_str(&format!("    (import \"m{i}\" \"fill\" (func $fill{i}))\n"));
    }
    wat.push_str("    (func (export \"grab\") (result i32)\n");
    for i in 0..memories {
        wat.push_str(&format!("      call $fill{i}\n"));
    }
    wat.push_str("      i32.const 0)\n");
    wat.push_str(&format!(
        "    (@custom \"vaultspec-wit\" \"{}\"))\n",
        GREEDY_WIT.replace('\n', "\\n")
    ));
    for i in 0..memories {
        wat.push_str(&format!("  (core instance $m{i} (instantiate $mem{i}))\n"));
    }
    for i in 0..tables {
        wat.push_str(&format!("  (core instance $t{i} (instantiate $tab{i}))\n"));
    }
    let with: String = (0..memories)
        .map(|i| format!(" (with \"m{i}\" (instance $m{i}))"))
        .collect();
    wat.push_str(&format!(
        "  (core instance $main (instantiate $main{with}))\n"
    ));
    wat.push_str(
        "  (func (export \"grab\") (result u8) (canon lift (core func $main \"grab\")))\n)\n",
    );
    let bytes = wat::parse_str(&wat)?;
    let name = format!("greedy-{memories}x{pages}-{tables}x{elements}");
    Ok(VerbComponent::load(
        &name,
        Origin::File(PathBuf::from(format!("{name}.wasm"))),
        bytes.into(),
    )?)
}

fn grab(
    sandbox: &Sandbox,
    component: &VerbComponent,
    vault: &TestVault,
) -> anyhow::Result<Outcome> {
    let spec = component
        .verbs
        .iter()
        .find(|v| v.path_string() == "grab")
        .expect("the verb `grab`");
    let workspace = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(runtime.block_on(sandbox.call(
        &runnable(component),
        &arguments(spec, &Invocation::default()).expect("the arguments fit"),
        &workspace,
        &quick(),
    ))?)
}

/// `grab` of `component` fails at the memory limit without the host's
/// resident memory growing by more than a fraction of what was asked.
fn assert_refused_within_memory(
    sandbox: &Sandbox,
    component: &VerbComponent,
) -> anyhow::Result<()> {
    let _one_at_a_time = MEASURED.lock().unwrap_or_else(|e| e.into_inner());
    let vault = TestVault::new();
    let before = resident();
    let outcome = grab(sandbox, component, &vault)?;
    let grown = resident().saturating_sub(before);
    assert_eq!(
        outcome.exit_code, None,
        "`{}` ran to its end",
        component.name
    );
    assert_eq!(
        failure(&outcome),
        Some(FailureKind::MemoryLimit),
        "{outcome:?}"
    );
    assert!(grown < 200 * 1024 * 1024, "the host grew by {grown} bytes");
    assert_host_still_serves(&vault)
}

#[test]
fn two_memories_each_under_the_ceiling_are_refused_together() -> anyhow::Result<()> {
    // 2 × 300 MiB: each memory fits under 512 MiB, the two do not.
    let component = greedy(2, 4800, 0, 0)?;
    assert_refused_within_memory(sandbox(), &component)?;
    // A small component of the same shape still runs.
    let small = greedy(2, 16, 1, 100)?;
    let outcome = grab(sandbox(), &small, &TestVault::new())?;
    assert_eq!(outcome.exit_code, Some(0), "{outcome:?}");
    Ok(())
}

#[test]
fn the_pooled_engine_holds_the_same_ceiling() -> anyhow::Result<()> {
    let pooled = Sandbox::with_allocation(
        CompileCache::new(Some(cache_dir())),
        Allocation::Pooled { slots: 2 },
    )?;
    assert_refused_within_memory(&pooled, &greedy(2, 4800, 0, 0)?)?;
    let outcome = grab(&pooled, &greedy(2, 16, 1, 100)?, &TestVault::new())?;
    assert_eq!(outcome.exit_code, Some(0), "{outcome:?}");
    Ok(())
}

#[test]
fn huge_tables_are_refused() -> anyhow::Result<()> {
    assert_refused_within_memory(sandbox(), &greedy(1, 1, 3, 10_000_000)?)
}

#[test]
fn a_component_of_many_small_memories_runs_and_only_bytes_refuse_one() -> anyhow::Result<()> {
    // Six memories and six tables of a composed component: small, so they
    // run, on demand and pooled alike.
    let many = greedy(6, 2, 6, 100)?;
    let pooled = Sandbox::with_allocation(
        CompileCache::new(Some(cache_dir())),
        Allocation::Pooled { slots: 2 },
    )?;
    for sandbox in [sandbox(), &pooled] {
        let outcome = grab(sandbox, &many, &TestVault::new())?;
        assert_eq!(outcome.exit_code, Some(0), "{outcome:?}");
    }
    // More empty memories than the ceiling pays for: refused by bytes.
    assert_refused_within_memory(sandbox(), &greedy(40, 1, 0, 0)?)
}

// ---- read-ahead handles and what the host holds for them ----------------

#[test]
fn thousands_of_unfinished_read_aheads_are_stopped() -> anyhow::Result<()> {
    let _one_at_a_time = MEASURED.lock().unwrap_or_else(|e| e.into_inner());
    let vault = TestVault::new();
    for i in 0..100 {
        vault.write(&format!(".vault/adr/{i:03}.md"), &"x".repeat(1024));
    }
    let hoarder = load(guests::HOARDER)?;
    let before = resident();
    let outcome = call(&hoarder, "hoarder hoard", &["5000"], &vault, quick())?;
    let grown = resident().saturating_sub(before);
    assert_eq!(outcome.exit_code, None, "{}", stdout(&outcome));
    let failure = outcome.failure.clone().expect("a failure");
    assert_eq!(failure.kind, FailureKind::Trap);
    assert!(
        failure.message.contains("holds 64 unfinished"),
        "{}",
        failure.message
    );
    assert!(grown < 200 * 1024 * 1024, "the host grew by {grown} bytes");
    // Within the cap, the same verb runs.
    let outcome = call(&hoarder, "hoarder hoard", &["8"], &vault, quick())?;
    assert_eq!(stdout(&outcome), "holding 8 read-aheads of 100 files\n");
    assert_host_still_serves(&vault)
}

// ---- a call that writes nothing changes nothing -------------------------

/// Every entry under `root`: folders with their mtime, files with their
/// bytes and mtime.
fn snapshot(root: &Path) -> BTreeMap<String, (Option<Vec<u8>>, SystemTime)> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, (Option<Vec<u8>>, SystemTime)>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let relative = path.strip_prefix(root).unwrap().display().to_string();
            if meta.is_dir() {
                out.insert(relative, (None, meta.modified().unwrap()));
                walk(root, &path, out);
            } else {
                out.insert(
                    relative,
                    (
                        Some(std::fs::read(&path).unwrap()),
                        meta.modified().unwrap(),
                    ),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    out.insert(
        String::new(),
        (None, std::fs::metadata(root).unwrap().modified().unwrap()),
    );
    walk(root, root, &mut out);
    out
}

fn vault_with_documents() -> TestVault {
    let vault = TestVault::new();
    vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    vault.doc("research", "2026-03-01", "cache-layer", Some("eviction"));
    vault.doc("plan", "2026-03-03", "search", None);
    vault
}

fn assert_unchanged(
    before: &BTreeMap<String, (Option<Vec<u8>>, SystemTime)>,
    vault: &TestVault,
    what: &str,
) {
    let after = snapshot(vault.root());
    let added: Vec<_> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    assert!(added.is_empty(), "{what} created {added:?}");
    for (path, entry) in before {
        assert_eq!(after.get(path), Some(entry), "{what} changed `{path}`");
    }
}

#[test]
fn checks_without_fix_leave_the_workspace_untouched_at_the_command_line() -> anyhow::Result<()> {
    let vault = vault_with_documents();
    let cache = cache_dir().parent().unwrap().join("test-cli-cache");
    for args in [
        &["vault", "check", "all"][..],
        &["vault", "check", "markdown"],
    ] {
        let before = snapshot(vault.root());
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_vaultspec"))
            .args(args)
            .arg("--target")
            .arg(vault.root())
            .env("VAULTSPEC_CACHE_DIR", &cache)
            .env_remove("VAULTSPEC_TARGET_DIR")
            .stdin(std::process::Stdio::null())
            .output()?;
        assert!(out.status.code().is_some(), "{args:?} was killed");
        assert_unchanged(&before, &vault, &args.join(" "));
    }
    // A write still takes the docs-domain sentinel (and so creates it).
    let probe = load(guests::PROBE)?;
    let outcome = call(
        &probe,
        "probe write",
        &[".vault/notes/new.md", "hello"],
        &vault,
        quick(),
    )?;
    assert_eq!(outcome.exit_code, Some(0), "{}", stdout(&outcome));
    assert!(
        vault.root().join(sentinel::DOCS_DOMAIN).is_file(),
        "a write took no sentinel"
    );
    Ok(())
}

#[test]
fn checks_without_fix_leave_the_workspace_untouched_through_invoke() -> anyhow::Result<()> {
    let vault = vault_with_documents();
    let catalog = vaultspec_host::builtins::catalog()?;
    let workspace = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    for verb in ["vault check all", "vault check markdown"] {
        let before = snapshot(vault.root());
        let request = Request {
            verb: verb.into(),
            timeout: Some(30.0),
            ..Request::default()
        };
        let reply = runtime.block_on(invoke(
            &catalog,
            Runners::components(sandbox()),
            &workspace,
            &request,
        ));
        let reply = reply.map_err(anyhow::Error::msg)?;
        assert_ne!(reply["error"]["kind"], "timeout", "{reply}");
        assert_unchanged(&before, &vault, verb);
    }
    // The next call, a write, still works and takes the sentinel.
    let request = Request {
        verb: "vault check all".into(),
        arguments: json!({"fix": true}).as_object().cloned().unwrap(),
        timeout: Some(30.0),
        ..Request::default()
    };
    let reply = runtime
        .block_on(invoke(
            &catalog,
            Runners::components(sandbox()),
            &workspace,
            &request,
        ))
        .map_err(anyhow::Error::msg)?;
    assert_ne!(reply["error"]["kind"], "timeout", "{reply}");
    assert_host_still_serves(&vault)
}

// ---- results a verb asks the host to keep -------------------------------

/// Kept results over the vault at `root` as a walk lists it now, every file
/// settled, with nothing kept before.
fn kept_over(root: &Path) -> std::sync::Arc<Mutex<vaultspec_host::sandbox::KeptResults>> {
    use vaultspec_host::workspace::survey::{racy_after, settled_vault};
    let later = racy_after(SystemTime::now() + Duration::from_secs(60));
    let listed = settled_vault(&root.join(".vault"), later)
        .1
        .expect("a listing");
    std::sync::Arc::new(Mutex::new(vaultspec_host::sandbox::KeptResults::new(
        std::sync::Arc::new(listed.files),
        listed.settled,
        Vec::new,
    )))
}

/// What a call's kept results would store, every file still as it was.
fn stored(
    root: &Path,
    kept: &Mutex<vaultspec_host::sandbox::KeptResults>,
) -> Vec<(String, String, Vec<u8>)> {
    use vaultspec_host::workspace::survey::stamp;
    let now = |path: &str| {
        std::fs::symlink_metadata(root.join(path))
            .ok()
            .map(|m| stamp(&m))
    };
    kept.lock()
        .unwrap()
        .settle(now)
        .unwrap_or_default()
        .into_iter()
        .map(|e| (e.path, e.kind, e.value))
        .collect()
}

#[test]
fn a_verb_keeps_only_what_it_read_within_the_limits_and_a_flood_is_stopped() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let first = vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    vault.doc("research", "2026-03-01", "cache-layer", Some("eviction"));
    let hoarder = load(guests::HOARDER)?;
    let root = vault.root().to_owned();
    let keeping = |mode: &str| {
        let kept = kept_over(&root);
        let options = CallOptions {
            kept: Some(kept.clone()),
            ..CallOptions::default()
        };
        (
            call_at(&hoarder, "hoarder keep", &[mode], &root, options),
            kept,
        )
    };

    // Results for files it never read: none is stored.
    let (outcome, kept) = keeping("unread");
    assert_eq!(outcome.exit_code, Some(0), "{}", stdout(&outcome));
    assert_eq!(stored(&root, &kept), []);

    // The file it read: within the size and the kinds a file may have.
    let (outcome, kept) = keeping("read-one");
    assert_eq!(outcome.exit_code, Some(0), "{}", stdout(&outcome));
    let kinds: Vec<(String, String)> = stored(&root, &kept)
        .into_iter()
        .map(|(path, kind, _)| (path, kind))
        .collect();
    let expected: Vec<(String, String)> = ["k1", "k2", "k3", "row"]
        .iter()
        .map(|k| (first.clone(), (*k).to_owned()))
        .collect();
    assert_eq!(kinds, expected, "no oversized value and no fifth kind");

    // Floods of keeps and of recalls run into what the host holds for one
    // call, and stop it.
    for (mode, refused) in [
        ("flood", "keep refused"),
        ("recall-flood", "recall refused"),
    ] {
        let (outcome, _) = keeping(mode);
        let failure = outcome
            .failure
            .as_ref()
            .unwrap_or_else(|| panic!("{mode} was not stopped: {}", stdout(&outcome)));
        assert_eq!(failure.kind, FailureKind::Trap, "{mode}");
        assert!(
            failure.message.contains(refused),
            "{mode}: {}",
            failure.message
        );
    }
    assert_host_still_serves(&vault)
}

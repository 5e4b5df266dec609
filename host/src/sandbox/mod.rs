//! The sandbox: runs one verb call in a fresh store of a prepared component.
//!
//! On its first call a component gets its machine code (a builtin's was
//! compiled with the binary, see [`crate::catalog::Precompiled`]; others are compiled or
//! loaded from the [`CompileCache`]), is checked against its declaration,
//! and is pre-instantiated once; every call then gets a fresh [`Store`]
//! with its own WASI context, limits and workspace access. What a call may
//! use:
//!
//! | resource | rule |
//! |---|---|
//! | workspace | only `vaultspec:verb/workspace-*`, read-only unless the component imports write |
//! | environment | empty; gateway calls get `VAULTSPEC_MCP_GATEWAY_INVOCATION=1`, a builtin at a terminal that takes colour `VAULTSPEC_COLOR=1`, builtin `migrations run` at a terminal what the host's migrations did |
//! | stdin | empty |
//! | stdout + stderr | captured together up to 1 MiB ([`Output::Capture`]), or the host's own ([`Output::Inherit`]; a closed pipe ends output quietly) |
//! | time | one deadline per call from the timeout, over guest code and every host wait of the call (locks, pool slot, sleeps in `poll`) |
//! | memory | [`MEMORY_LIMIT`] per call over all its memories and tables together, each memory or table charged a creation cost beside its size, so bytes decide how many (at most [`MAX_INSTANCES`] core instances, which cannot be weighed); a pooled slot ([`Allocation::Pooled`]) is reset to the component's initial image before its next call |
//! | pool slots | at most half of a pool's slots per component ([`slot_share`]) |
//! | host threads | `read-ahead` reads on at most 4 threads per call, each stopped when its handle is dropped |
//! | host memory | file contents within the read budget; at most [`MAX_LIVE_READS`] unfinished `read-ahead` handles; paths and error texts within [`HELD_BUDGET`] |
//!
//! A trap, a panic or a limit ends that call only; the next call starts clean.
//!
//! # Threat model
//!
//! **Who attacks.** Four parties may be hostile, alone or together:
//!
//! - *a verb component*: a third-party one a person trusted by digest (the
//!   trust covers its bytes, not its intent), or a builtin steered by
//!   crafted input. It runs any wasm it likes and calls every host function
//!   it imports, in any order, with any arguments, as often as it likes;
//! - *the workspace's files*: a cloned repository, or anyone who could write
//!   the folder before us, can leave symlinks (to `..`, `/`, `~`), hard
//!   links, FIFOs, sockets, huge or sparse files, and names carrying
//!   terminal escapes;
//! - *an MCP client*: it floods `invoke`, asks for the longest timeouts and
//!   the dearest verbs, and sends arguments meant to smuggle flags;
//! - *another local user* who can write a shared cache folder.
//!
//! **What they want.** To write or read outside `.vault/` and `.vaultspec/`
//! (source, `.git/config`, the home folder); to change what runs or what is
//! trusted (`.vaultspec/verbs/`, MCP definitions, hooks, triggers, the
//! compile cache); to stop the host from serving the next call (memory,
//! threads, pool slots, time); to write to a person's terminal.
//!
//! **What stops each.**
//!
//! | attack | defence | where |
//! |---|---|---|
//! | a path out of the workspace (`..`, absolute, a symlink out) | paths checked by component, then resolved beneath the root | `vaultspec_vault::storage` |
//! | a link inside the workspace, to steer a write, a read or a cache | **one rule: no link inside a workspace is ever followed.** A read resolves its whole path refusing every link (`openat2` with `RESOLVE_NO_SYMLINKS`, or a folder-by-folder walk with `O_NOFOLLOW`); a listing enters no linked folder and lists each link as an entry, which its reader reports by name; a change walks its folders the same way and acts on the last folder's handle. So what any read sees never depends on a link's target, and no cache keyed by the stamps of what was read (the CLI's answers, the server's loaded vault and kept replies) can be outlived by one | `CapStorage` |
//! | a link planted at the atomic write's temp name | temp files made exclusively under a random name; the rename replaces the name | `CapStorage` |
//! | a hard link to a file elsewhere | a file with more than one link is neither read nor changed | `CapStorage` |
//! | a FIFO, socket or device where a file should be | opened non-blocking, its type checked before reading | `CapStorage` |
//! | rewriting what runs or is trusted | `.vaultspec/verbs/`, `mcps/`, `hooks/`, `triggers/`, `workspace.json` and `.env` are outside every write scope | `WriteScope` |
//! | rewriting the instructions every coding agent reads (`CLAUDE.md`, `.claude/rules/`, …) | only builtins are granted `framework-write`: a third-party component importing it is refused at load, and the sandbox gives its scope to builtins alone; that scope never reaches `.git/`, another root file or `.vault/` | `crate::catalog`, `WriteScope::Framework` |
//! | bulk reads and writes | a read budget and a write budget (bytes, files) per call | `CapStorage` |
//! | a verb that never returns, or makes the host wait | one deadline per call, enforced from outside it (the call future is dropped) and inside (the epoch interrupt): lock, sentinel and pool-slot waits are bounded by it | [`Sandbox::call`] |
//! | memory | one ceiling per call over all memories and tables, their creation charged too; a count of core instances; read-ahead handles capped, the bytes the host keeps for a call charged, all freed with the store | `limiter`, `workspace` |
//! | a flood of one verb | a component holds at most half of the pool's slots; the rest wait under their own deadlines | `slots` |
//! | output | 1 MiB of stdout and stderr together, at the CLI as over MCP | [`output`], `host_stdout` |
//! | a call that only reads changing the workspace | the workspace lock creates nothing; the sentinel that does is made at the first write | `write_guard` |
//! | swapped precompiled code | only code embedded in the binary is loaded without a cache's checks: changing it means changing the binary | [`crate::catalog::Precompiled`] |
//! | a planted `.cwasm` (it is native code) | the cache folder and each entry must be the user's own and writable by nobody else; entries are opened without following links | [`CompileCache`] |
//! | a huge, linked or special file among the components | no links, a size cap checked on the handle before reading, full validation before anything parses it | `crate::catalog` |
//! | escapes in names, docs and file names | control and bidi characters escaped wherever the host prints them; verb output to a terminal filtered | `crate::display`, `host_stdout` |
//! | a recovery record planted by a clone, a pull or a synced folder | the undo journal is sealed with a key of this user's on this machine (outside the workspace); a foreign or broken one is reported and left, never applied or deleted; a roll-back restores a file only while it holds the bytes the batch wrote, bounded in entries and run after `initialize` | `vaultspec_vault::ops::journal`, `crate::journal_key` |
//! | host-side reads of files outside the sandbox (definitions, provider state, tokens, keys, caches) | one checked reader: no link, non-blocking open, `fstat` says a regular file, a size cap before the first byte; workspace files through `CapStorage` | `crate::checked_file` |
//! | an MCP client that holds on to the server | over HTTP: connection and session caps, idle sessions reaped, header and body timeouts, a body cap, back-off when out of file descriptors; over stdio: a reply rmcp drops frees its payload | `crate::mcp::http_bounds`, `crate::mcp::splice` |
//! | temp files a killed writer left | a server start, and every command that may write (before it writes), removes those whose process is gone, in the vault, the agents' folders and among the root's files | `CapStorage::sweep_stale_temps` |
//!
//! **Out of scope.** A person who can already write the workspace can
//! change anything in it; we only make sure that what they plant cannot
//! turn *our* writes into writes elsewhere, or our reads into reads of
//! files outside. Bugs in wasmtime, cranelift or the kernel, and timing
//! side channels between calls, are wasmtime's to defend (its defaults are
//! kept). A trusted component may damage what its scope allows, the vault:
//! trust is a person's decision; its writes are still atomic and reported
//! in `changed`. The host's own CPU time between calls, and a client that
//! keeps every component busy at once (each still gets its share of slots
//! and every call its deadline), are served as ordinary heavy work.

mod compile_cache;
mod engine;
mod history_calls;
mod host_stdout;
mod inputs;
mod journal;
mod kept;
mod kept_calls;
mod limiter;
mod output;
mod precompiled;
mod read_ahead;
mod slots;
mod stamped;
mod state;
mod verify;
mod workspace_calls;
mod write_guard;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use vaultspec_vault::storage::CALL_READ_BUDGET;
use vaultspec_vault::{CapStorage, WriteScope};
use wasmtime::component::{ComponentExportIndex, InstancePre, Linker, ResourceTable};
use wasmtime::{Engine, Store, Trap};
use wasmtime_wasi::WasiCtxBuilder;

pub use compile_cache::CompileCache;
pub(crate) use compile_cache::{own_folder, read_own_file, write_own_file};
pub use engine::{Allocation, EPOCH_TICK, MEMORY_LIMIT};
pub use host_stdout::{Chunk, HostOutput};
pub use inputs::Inputs;
pub use journal::Journal;
pub use kept::{KeptEntry, KeptResults};
use limiter::CallLimiter;
pub use limiter::{MAX_INSTANCES, MAX_MEMORIES, MAX_TABLE_ELEMENTS, MAX_TABLES};
pub use output::{Capture, OUTPUT_LIMIT};
pub use precompiled::CodeSource;
use slots::Slots;
pub use slots::share as slot_share;
pub use stamped::Outside;
use state::CallState;
pub use workspace_calls::{HELD_BUDGET, MAX_LIVE_READS};
use write_guard::WriteGuard;

use crate::catalog::{Reason, Refusal, Runnable, VerbComponent};
use crate::env;
use crate::invocation::Arguments;
use crate::workspace::Workspace;

/// Where a call's stdout and stderr go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Into memory, both streams counted together against [`OUTPUT_LIMIT`].
    Capture,
    /// Straight to the host's own stdout and stderr (a person at a terminal),
    /// under the same cap, escaped where a stream is a terminal
    /// ([`host_stdout`]); a closed stdout pipe drops the rest quietly.
    Inherit,
    /// stderr as [`Output::Inherit`]; stdout held back under the same cap
    /// and given in [`Outcome::stdout`], for the host to print once the
    /// exit code is known (the command line's `--json`).
    InheritStderr,
}

/// How to run one call.
#[derive(Debug, Clone)]
pub struct CallOptions {
    /// Stop the call after this long, waits included (`None`: no deadline).
    pub timeout: Option<Duration>,
    /// Where its output goes.
    pub output: Output,
    /// Whether the call comes through the MCP gateway (sets the
    /// non-interactive marker in the guest's environment).
    pub gateway: bool,
    /// The most memory the call's memories and tables may take together,
    /// in bytes.
    pub memory_limit: usize,
    /// Files the user named at the command line, served to the verb under
    /// their names (none through MCP).
    pub inputs: Inputs,
    /// Keep what an [`Output::Inherit`] call writes, in
    /// [`Outcome::recorded`].
    pub record: bool,
    /// Let the verb print colour to the host's terminal: sets
    /// [`env::COLOR`] in its environment and passes the SDK's colour
    /// sequences through the terminal filter. Builtins only.
    pub colour: bool,
    /// Variables the host sets for a builtin (what a host pass did before
    /// it, [`crate::provision::migrate::DONE_ENV`]); a third-party verb
    /// never gets them.
    pub builtin_env: Vec<(&'static str, String)>,
    /// The listing of `.vault/` the host took just before the call (the
    /// command line's answer cache walks it for its key): the verb's first
    /// listing of `.vault` is given it instead of a second walk.
    pub vault_listing: Option<Arc<Vec<vaultspec_vault::storage::FileEntry>>>,
    /// What earlier runs of the component kept for files of `.vault/`, and
    /// what this call keeps (`kept-results`; the command line stores it
    /// after the call). Without it a verb recalls nothing.
    pub kept: Option<Arc<Mutex<KeptResults>>>,
}

impl Default for CallOptions {
    fn default() -> Self {
        Self {
            timeout: Some(Duration::from_secs(60)),
            output: Output::Capture,
            gateway: false,
            memory_limit: MEMORY_LIMIT,
            inputs: Inputs::default(),
            record: false,
            colour: false,
            builtin_env: Vec::new(),
            vault_listing: None,
            kept: None,
        }
    }
}

/// Whether a call may print colour: asked for, printing to the host's own
/// streams, and a builtin (a third-party verb's escapes are all written
/// out).
fn colour_allowed(options: &CallOptions, component: &VerbComponent) -> bool {
    options.colour
        && options.output == Output::Inherit
        && component.origin == crate::catalog::Origin::Builtin
}

/// Why a call did not finish with an exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The timeout passed.
    Timeout,
    /// stdout and stderr together passed [`OUTPUT_LIMIT`].
    OutputLimit,
    /// The guest asked for more memory and tables than [`MEMORY_LIMIT`], or
    /// for more instances, memories or tables than a call may create.
    MemoryLimit,
    /// The guest trapped or panicked.
    Trap,
}

/// A call that stopped without an exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What stopped it.
    pub kind: FailureKind,
    /// The engine's account of it.
    pub message: String,
}

/// What one call did.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// The verb's exit code, when it returned one.
    pub exit_code: Option<u8>,
    /// What it printed to stdout ([`Output::Capture`] and
    /// [`Output::InheritStderr`] only).
    pub stdout: Vec<u8>,
    /// What it printed to stderr ([`Output::Capture`] only).
    pub stderr: Vec<u8>,
    /// Why it stopped early, if it did.
    pub failure: Option<Failure>,
    /// Workspace paths it wrote, renamed or removed, without repeats.
    pub changed: Vec<String>,
    /// What it wrote to the host's streams, when [`CallOptions::record`]
    /// asked for it.
    pub recorded: Vec<Chunk>,
    /// What it looked at outside `.vault/`; `None` when it did not end by
    /// itself (its deadline passed).
    pub journal: Option<Journal>,
}

/// Why a call could not start.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The component cannot be run.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The host could not set the call up.
    #[error("could not start `{verb}`: {message}")]
    Setup {
        /// The verb path.
        verb: String,
        /// What went wrong.
        message: String,
    },
}

/// A component compiled, verified and ready to instantiate.
struct Prepared {
    source: CodeSource,
    pre: InstancePre<CallState>,
    exports: HashMap<String, ComponentExportIndex>,
}

/// Runs verb calls. One per process; cheap to share behind an `Arc`.
pub struct Sandbox {
    engine: Engine,
    linker: Linker<CallState>,
    /// [`vaultspec_engine_config::compatibility_digest`] of `engine`.
    engine_digest: String,
    cache: CompileCache,
    prepared: Mutex<HashMap<String, Arc<Prepared>>>,
    /// With a pooled engine, its slots: a call past the pool's size (or past
    /// its component's share) waits for a slot instead of failing to
    /// instantiate.
    slots: Option<Slots>,
}

impl Sandbox {
    /// A sandbox with its engine, its linker and the given compile cache;
    /// every call gets fresh memory (see [`Allocation::OnDemand`]).
    pub fn new(cache: CompileCache) -> anyhow::Result<Self> {
        Self::with_allocation(cache, Allocation::OnDemand)
    }

    /// A sandbox whose calls take their memory as `allocation` says.
    pub fn with_allocation(cache: CompileCache, allocation: Allocation) -> anyhow::Result<Self> {
        let engine = engine::engine(allocation).map_err(anyhow::Error::from)?;
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_async(&mut linker).map_err(anyhow::Error::from)?;
        workspace_calls::Bindings::add_to_linker::<_, wasmtime::component::HasSelf<_>>(
            &mut linker,
            |s| s,
        )
        .map_err(anyhow::Error::from)?;
        let slots = match allocation {
            Allocation::OnDemand => None,
            Allocation::Pooled { slots } => Some(Slots::new(slots)),
        };
        Ok(Self {
            engine_digest: vaultspec_engine_config::compatibility_digest(&engine),
            engine,
            linker,
            cache,
            prepared: Mutex::default(),
            slots,
        })
    }

    /// The engine every call runs on.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Load its precompiled code, or compile it (or load that from cache),
    /// then verify and pre-instantiate a component, once per process; says
    /// where its code came from. A component whose real type differs from
    /// its declaration is refused here, before any of its code runs.
    pub fn prepare(&self, component: &VerbComponent) -> Result<CodeSource, Refusal> {
        self.prepared(component).map(|p| p.source)
    }

    fn prepared(&self, component: &VerbComponent) -> Result<Arc<Prepared>, Refusal> {
        if let Some(p) = self
            .prepared
            .lock()
            .expect("sandbox lock poisoned")
            .get(&component.digest)
        {
            return Ok(p.clone());
        }
        let refuse = |reason| Refusal {
            component: component.name.clone(),
            reason,
        };
        let (compiled, source) = precompiled::load(
            &self.engine,
            &self.engine_digest,
            component.precompiled,
            &self.cache,
            &component.digest,
            &component.bytes,
        )
        .map_err(|e| refuse(Reason::NotAComponent(format!("{e:#}"))))?;
        verify::verify(&self.engine, &compiled, &component.verbs)
            .map_err(|what| refuse(Reason::DeclarationMismatch(what)))?;
        let pre = self
            .linker
            .instantiate_pre(&compiled)
            .map_err(|e| refuse(Reason::ImportNotGranted(format!("{e:#}"))))?;
        let mut exports = HashMap::new();
        for verb in &component.verbs {
            let index = match &verb.export.interface {
                None => compiled.get_export_index(None, &verb.export.function),
                Some(interface) => compiled
                    .get_export_index(None, interface)
                    .and_then(|i| compiled.get_export_index(Some(&i), &verb.export.function)),
            };
            let index = index.ok_or_else(|| {
                refuse(Reason::DeclarationMismatch(format!(
                    "`{}` is declared but not exported",
                    verb.path_string()
                )))
            })?;
            exports.insert(verb.path_string(), index);
        }
        let prepared = Arc::new(Prepared {
            source,
            pre,
            exports,
        });
        self.prepared
            .lock()
            .expect("sandbox lock poisoned")
            .insert(component.digest.clone(), prepared.clone());
        Ok(prepared)
    }

    /// Run one verb of `component` on `workspace`.
    ///
    /// The call's one deadline (`options.timeout`) covers all of it: the
    /// waits for the write lock, the sentinel and a pool slot, the
    /// instantiation and the guest, asleep or running. Past it the whole
    /// call future is dropped, which cancels the guest and discards its
    /// store, and the call fails with [`FailureKind::Timeout`]. A guest that
    /// computes without pause yields to the runtime at every epoch tick (so
    /// it holds no worker thread, and dropping the call stops it there) and
    /// is interrupted at the deadline ([`engine::bound`]).
    pub async fn call(
        &self,
        component: &Runnable,
        args: &Arguments,
        workspace: &Workspace,
        options: &CallOptions,
    ) -> Result<Outcome, CallError> {
        let verb = args.verb();
        let prepared = self.prepared(component)?;
        let index = *prepared.exports.get(verb).ok_or_else(|| CallError::Setup {
            verb: verb.to_owned(),
            message: format!("`{}` exports no such verb", component.name),
        })?;
        let capture = Capture::new(OUTPUT_LIMIT);
        let host_output = if options.record {
            HostOutput::recording(OUTPUT_LIMIT)
        } else {
            HostOutput::new(OUTPUT_LIMIT)
        };
        let host_output = match options.output {
            Output::InheritStderr => host_output.holding_stdout(),
            Output::Capture | Output::Inherit => {
                host_output.with_colour(colour_allowed(options, component))
            }
        };
        let changed = Arc::new(Mutex::new(Vec::new()));
        let outputs = (&capture, &host_output);
        let run = self.run(
            component,
            verb,
            &prepared,
            index,
            args.values(),
            workspace,
            options,
            outputs,
            &changed,
        );
        let ran = match options.timeout {
            Some(timeout) => tokio::time::timeout(timeout, run).await.ok(),
            None => Some(run.await),
        };

        let (mut stdout, stderr) = capture.take();
        if options.output == Output::InheritStderr {
            stdout = host_output.take_held();
        }
        let mut changed = std::mem::take(&mut *changed.lock().expect("changed list poisoned"));
        dedup_in_order(&mut changed);
        let mut outcome = Outcome {
            stdout,
            stderr,
            changed,
            recorded: host_output.take_record(),
            journal: ran
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .map(|r| r.journal.clone()),
            ..Outcome::default()
        };
        match ran.transpose()? {
            None => {
                let seconds = options.timeout.unwrap_or_default().as_secs_f64();
                outcome.failure = Some(Failure {
                    kind: FailureKind::Timeout,
                    message: format!(
                        "the call's deadline of {seconds} s passed before it finished"
                    ),
                });
            }
            Some(Ran {
                result: Ok(wasmtime::component::Val::U8(code)),
                ..
            }) => outcome.exit_code = Some(code),
            Some(Ran {
                result: Ok(other), ..
            }) => {
                outcome.failure = Some(Failure {
                    kind: FailureKind::Trap,
                    message: format!("the verb returned {other:?} instead of an exit code"),
                })
            }
            Some(Ran {
                result: Err(err),
                memory_exceeded,
                ..
            }) => classify(
                err,
                memory_exceeded,
                capture.exceeded() || host_output.exceeded(),
                &mut outcome,
            ),
        }
        Ok(outcome)
    }

    /// Everything of a call that its deadline bounds.
    #[allow(clippy::too_many_arguments)]
    async fn run(
        &self,
        component: &VerbComponent,
        verb: &str,
        prepared: &Prepared,
        index: ComponentExportIndex,
        args: &[wasmtime::component::Val],
        workspace: &Workspace,
        options: &CallOptions,
        (capture, host_output): (&Capture, &HostOutput),
        changed: &Arc<Mutex<Vec<String>>>,
    ) -> Result<Ran, CallError> {
        let setup = |message: String| CallError::Setup {
            verb: verb.to_owned(),
            message,
        };

        let writes = component.capabilities.writes();
        let opened = |scope: WriteScope| -> Result<CapStorage, CallError> {
            let dir = workspace
                .dir()
                .try_clone()
                .map_err(|e| setup(e.to_string()))?;
            Ok(CapStorage::from_dir(dir)
                .with_scope(scope)
                .with_journal_key_from(crate::journal_key::key)
                .with_read_budget(CALL_READ_BUDGET)
                .with_write_budget(
                    vaultspec_vault::storage::CALL_WRITE_BUDGET_BYTES,
                    vaultspec_vault::storage::CALL_WRITE_BUDGET_FILES,
                ))
        };
        let storage = opened(if component.capabilities.write {
            WriteScope::Vault
        } else {
            WriteScope::ReadOnly
        })?;
        // The agents' files: only for a builtin (the catalog refuses any
        // other component that imports `framework-write`; this is the
        // second lock on that door).
        let framework = match (component.capabilities.framework, &component.origin) {
            (true, crate::catalog::Origin::Builtin) => {
                Some(Arc::new(opened(WriteScope::Framework)?))
            }
            _ => None,
        };

        let mut wasi = WasiCtxBuilder::new();
        wasi.allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false);
        match options.output {
            Output::Capture => {
                wasi.stdout(capture.stdout()).stderr(capture.stderr());
            }
            Output::Inherit | Output::InheritStderr => {
                wasi.stdout(host_output.stdout())
                    .stderr(host_output.stderr());
            }
        }
        if options.gateway {
            wasi.env(env::GATEWAY_INVOCATION, "1");
        }
        if colour_allowed(options, component) {
            wasi.env(env::COLOR, "1");
        }
        if component.origin == crate::catalog::Origin::Builtin {
            for (name, value) in &options.builtin_env {
                wasi.env(name, value);
            }
        }

        // Writers hold the workspace lock for the whole call, so two verbs
        // (or two processes) never interleave their writes. They also hold
        // the reference's docs-domain sentinel, so a Python `vaultspec-core`
        // renaming or logging on the same vault waits too: from the start
        // when it exists, else from the first write (see `write_guard`).
        // Both waits poll under the call's deadline.
        let (_lock, write_guard) = if writes {
            let lock = workspace
                .lock_writes()
                .await
                .map_err(|e| setup(format!("{e:#}")))?;
            let dir = workspace
                .dir()
                .try_clone()
                .map_err(|e| setup(e.to_string()))?;
            let guard = WriteGuard::at_start(dir)
                .await
                .map_err(|e| setup(format!("{e:#}")))?;
            (Some(lock), guard)
        } else {
            (None, WriteGuard::ReadOnly)
        };
        // A pool slot, taken once the locks are held (a writer waiting for
        // them holds none). Declared before the store, it is released after
        // the store has given the slot back.
        let _slot = match &self.slots {
            Some(slots) => Some(
                slots
                    .acquire(&component.digest)
                    .await
                    .map_err(|e| setup(e.to_string()))?,
            ),
            None => None,
        };
        let state = CallState {
            wasi: wasi.build(),
            table: ResourceTable::new(),
            limits: CallLimiter::new(options.memory_limit),
            storage: Arc::new(storage),
            framework,
            in_flight: 0,
            live_reads: 0,
            held: 0,
            write_guard,
            changed: changed.clone(),
            inputs: options.inputs.clone(),
            vault_listing: options.vault_listing.clone(),
            kept: options.kept.clone(),
            journal: Journal::default(),
            root: workspace.root().to_path_buf(),
            deadline: options.timeout.map(|t| std::time::Instant::now() + t),
        };
        let mut store = Store::new(&self.engine, state);
        store.limiter(|s| &mut s.limits);
        engine::bound(&mut store, options.timeout);

        let result = async {
            let instance = prepared.pre.instantiate_async(&mut store).await?;
            let func = instance
                .get_func(&mut store, index)
                .ok_or_else(|| wasmtime::format_err!("the export vanished"))?;
            let mut results = [wasmtime::component::Val::U8(0)];
            func.call_async(&mut store, args, &mut results).await?;
            Ok::<_, wasmtime::Error>(results[0].clone())
        }
        .await;
        Ok(Ran {
            result,
            memory_exceeded: store.data().limits.exceeded(),
            journal: std::mem::take(&mut store.data_mut().journal),
        })
    }
}

/// How the guest part of a call ended.
struct Ran {
    result: wasmtime::Result<wasmtime::component::Val>,
    /// The call asked for more memory or tables than its ceiling.
    memory_exceeded: bool,
    /// What it looked at outside `.vault/`.
    journal: Journal,
}

fn dedup_in_order(paths: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    paths.retain(|p| seen.insert(p.clone()));
}

fn classify(
    err: wasmtime::Error,
    memory_exceeded: bool,
    output_exceeded: bool,
    outcome: &mut Outcome,
) {
    if let Some(exit) = err.downcast_ref::<wasmtime_wasi::I32Exit>() {
        outcome.exit_code = Some(u8::try_from(exit.0).unwrap_or(1));
        return;
    }
    let message = format!("{err:#}");
    let kind = if output_exceeded {
        FailureKind::OutputLimit
    } else if matches!(err.downcast_ref::<Trap>(), Some(Trap::Interrupt)) {
        FailureKind::Timeout
    } else if memory_exceeded || message.contains("resource limit exceeded") {
        // Past the ceiling of memories and tables, or past the number of
        // instances, memories or tables a call may create.
        FailureKind::MemoryLimit
    } else {
        FailureKind::Trap
    };
    outcome.failure = Some(Failure { kind, message });
}

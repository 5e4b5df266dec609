//! The one wasmtime engine of the process, with the epoch clock that times
//! calls out.

use std::time::Duration;

use wasmtime::{
    Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, ProfilingStrategy,
};

use super::limiter::{MAX_INSTANCES, MAX_MEMORIES, MAX_TABLE_ELEMENTS, MAX_TABLES};

/// How often the epoch advances: a timeout is counted in these ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// The most memory one call may hold: all its linear memories and tables
/// together (see [`super::limiter::CallLimiter`]).
pub const MEMORY_LIMIT: usize = 512 * 1024 * 1024;

/// Of a pooled instance's memory, what stays mapped for the next call
/// instead of being handed back to the kernel: the heap of a verb over a
/// few thousand documents.
const KEEP_RESIDENT: usize = 16 * 1024 * 1024;

/// Where instances get their memory and bookkeeping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allocation {
    /// Fresh for every call: right for a process that makes one or two (the
    /// CLI).
    OnDemand,
    /// From a pool of `slots` instance slots that calls reuse, for a
    /// long-lived server: a call finds the pages the last one touched (up to
    /// [`KEEP_RESIDENT`]) mapped and zeroed, where fresh memory would fault
    /// every page in again. At most `slots` calls run at once.
    Pooled {
        /// Calls that may run at once.
        slots: u32,
    },
}

/// The pool of [`Allocation::Pooled`]: room for `slots` calls of components
/// past the size of ours (ours have one memory and a handful of core
/// instances and tables). The per-component limits are the per-call limits
/// of [`super::limiter`], so a component the pool cannot hold is refused
/// when it is prepared, and none can take the slots of another call. Each
/// memory reserves about 4 GiB of address space, all of it when the engine
/// is made.
fn pool(slots: u32) -> PoolingAllocationConfig {
    let per_call = |n: usize| u32::try_from(n).expect("a small per-call limit");
    let mut pool = PoolingAllocationConfig::new();
    pool.total_component_instances(slots)
        .total_core_instances(slots * per_call(MAX_INSTANCES))
        .total_memories(slots * per_call(MAX_MEMORIES))
        .total_tables(slots * per_call(MAX_TABLES))
        .total_stacks(slots)
        .max_core_instances_per_component(per_call(MAX_INSTANCES))
        .max_memories_per_component(per_call(MAX_MEMORIES))
        .max_tables_per_component(per_call(MAX_TABLES))
        .table_elements(MAX_TABLE_ELEMENTS)
        .max_memory_size(MEMORY_LIMIT)
        .linear_memory_keep_resident(KEEP_RESIDENT);
    pool
}

/// Build the engine every call shares. Epoch interruption is what enforces
/// timeouts; the compile cache key includes this configuration, so a change
/// here invalidates cached components instead of misloading them.
pub fn engine(allocation: Allocation) -> wasmtime::Result<Engine> {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    if let Allocation::Pooled { slots } = allocation {
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool(slots)));
    }
    if std::env::var_os(crate::env::WASM_PERFMAP).is_some() {
        config.profiler(ProfilingStrategy::PerfMap);
    }
    let engine = Engine::new(&config)?;
    start_epoch_clock(&engine);
    Ok(engine)
}

/// Advance the engine's epoch every [`EPOCH_TICK`] until the engine is gone.
fn start_epoch_clock(engine: &Engine) {
    let weak = engine.weak();
    std::thread::Builder::new()
        .name("vaultspec-epoch".into())
        .spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        })
        .expect("spawning the epoch clock thread");
}

/// The epoch deadline, in ticks, for a timeout (`None`: practically never).
pub fn deadline_ticks(timeout: Option<Duration>) -> u64 {
    match timeout {
        Some(t) => (t.as_millis() / EPOCH_TICK.as_millis()).max(1) as u64,
        None => u64::MAX / 2,
    }
}

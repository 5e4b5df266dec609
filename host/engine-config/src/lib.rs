//! The one wasmtime engine configuration: the host's runtime engine and the
//! build script that compiles the builtin verbs ahead of time both take it
//! from here, so the machine code embedded in the binary fits the engine
//! that loads it.
//!
//! Only settings that shape compiled code or instances belong here; the
//! host adds its runtime-only ones (the epoch clock, the perf map) on top.

use std::hash::{Hash, Hasher};

use sha2::{Digest, Sha256};
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

/// The most memory one call may hold: all its linear memories and tables
/// together (the host's call limiter enforces it per store).
pub const MEMORY_LIMIT: usize = 512 * 1024 * 1024;

/// What creating one linear memory is charged against [`MEMORY_LIMIT`],
/// beside its pages: the address space it reserves and its bookkeeping.
/// So how many memories a call may create follows from the ceiling.
pub const MEMORY_CREATION_COST: usize = 16 * 1024 * 1024;

/// What creating one table is charged against [`MEMORY_LIMIT`], beside its
/// elements.
pub const TABLE_CREATION_COST: usize = 4 * 1024 * 1024;

/// Linear memories one call can create: as many as the ceiling pays for
/// (ours have one). Never the reason for a refusal before the bytes are.
pub const MAX_MEMORIES: usize = MEMORY_LIMIT / MEMORY_CREATION_COST;

/// Tables one call can create: as many as the ceiling pays for.
pub const MAX_TABLES: usize = MEMORY_LIMIT / TABLE_CREATION_COST;

/// Core instances one call may create. A core instance cannot be charged
/// in bytes (wasmtime asks no limiter), so this counts them: room for a
/// component composed of a module per memory the ceiling pays for, and
/// their shims (ours need under ten).
pub const MAX_INSTANCES: usize = 2 * MAX_MEMORIES;

/// The most elements one table may have.
pub const MAX_TABLE_ELEMENTS: usize = 100_000;

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
    /// 16 MiB) mapped and zeroed, where fresh memory would fault every page
    /// in again. At most `slots` calls run at once.
    Pooled {
        /// Calls that may run at once.
        slots: u32,
    },
}

/// The engine configuration for `allocation`. Epoch interruption is what
/// enforces timeouts. The allocation strategy does not change compiled
/// code: components compiled for one engine load in the other.
pub fn config(allocation: Allocation) -> Config {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    if let Allocation::Pooled { slots } = allocation {
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool(slots)));
    }
    config
}

/// A stable digest (lowercase hex SHA-256) of everything in `engine` that
/// compiled code depends on: target and CPU features, compiler flags,
/// tunables, wasm features and the wasmtime version. Equal digests mean a
/// component compiled by one engine loads in the other.
pub fn compatibility_digest(engine: &Engine) -> String {
    let mut hasher = ShaHasher(Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hex::encode(hasher.0.finalize())
}

/// Feeds `Hash` output into SHA-256, for a digest stable across processes.
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn finish(&self) -> u64 {
        unreachable!("only the digest of the written bytes is used")
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

/// The pool of [`Allocation::Pooled`]: room for `slots` calls of components
/// as large as the per-call limits above allow (ours have one memory and a
/// handful of core instances and tables), so none can take the slots of
/// another call. Each memory slot reserves about 4 GiB of address space,
/// all of it when the engine is made: untouched, it costs no memory.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pooled_and_the_on_demand_engine_load_the_same_code() {
        let on_demand = Engine::new(&config(Allocation::OnDemand)).unwrap();
        let pooled = Engine::new(&config(Allocation::Pooled { slots: 2 })).unwrap();
        assert_eq!(
            compatibility_digest(&on_demand),
            compatibility_digest(&pooled)
        );
    }

    #[test]
    fn a_setting_that_changes_code_changes_the_digest() {
        let ours = Engine::new(&config(Allocation::OnDemand)).unwrap();
        let mut other = config(Allocation::OnDemand);
        other.epoch_interruption(false);
        let other = Engine::new(&other).unwrap();
        assert_ne!(compatibility_digest(&ours), compatibility_digest(&other));
    }
}

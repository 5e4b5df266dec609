//! The one wasmtime engine of the process, with the epoch clock that times
//! calls out.

use std::time::Duration;

use wasmtime::{Engine, ProfilingStrategy};

pub use vaultspec_engine_config::{Allocation, MEMORY_LIMIT};

/// How often the epoch advances: a timeout is counted in these ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Build the engine every call shares, from the configuration the builtin
/// verbs were compiled for at build time ([`vaultspec_engine_config`]).
/// The compile cache key and the precompiled builtins' check both cover
/// this configuration, so a change invalidates compiled code instead of
/// misloading it.
pub fn engine(allocation: Allocation) -> wasmtime::Result<Engine> {
    let mut config = vaultspec_engine_config::config(allocation);
    // Only where the code is, for `perf`: the compiled code is unchanged.
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

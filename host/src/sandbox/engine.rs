//! The one wasmtime engine of the process, with the epoch clock that times
//! calls out.

use std::time::{Duration, Instant};

use wasmtime::{Engine, ProfilingStrategy, Store, UpdateDeadline};

pub use vaultspec_engine_config::{Allocation, MEMORY_LIMIT};

/// How often the epoch advances: how often a running guest yields and
/// checks its deadline.
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

/// Bound a call's guest by its `timeout` on the epoch clock. At every tick
/// the guest hands its thread back to the async runtime, so a verb that
/// computes without pause holds no worker of a server (its other calls,
/// its transport and its timers go on) and a caller that drops the call
/// stops the guest at the next tick; once `timeout` has passed, the guest
/// is stopped with [`wasmtime::Trap::Interrupt`]. Without a timeout it only
/// yields.
pub fn bound<T: 'static>(store: &mut Store<T>, timeout: Option<Duration>) {
    let deadline = timeout.map(|t| Instant::now() + t);
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(move |_| {
        Ok(match deadline {
            Some(deadline) if Instant::now() >= deadline => UpdateDeadline::Interrupt,
            _ => UpdateDeadline::Yield(1),
        })
    });
}

//! The one wasmtime engine of the process, with the epoch clock that times
//! calls out.

use std::time::Duration;

use wasmtime::{Config, Engine, ProfilingStrategy};

/// How often the epoch advances: a timeout is counted in these ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// The most memory one instance may grow to.
pub const MEMORY_LIMIT: usize = 512 * 1024 * 1024;

/// Build the engine every call shares. Epoch interruption is what enforces
/// timeouts; the compile cache key includes this configuration, so a change
/// here invalidates cached components instead of misloading them.
pub fn engine() -> wasmtime::Result<Engine> {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
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

//! Loading the machine code compiled for a component ahead of time (the
//! builtin verbs', when the binary was built: a [`Precompiled`]), and the
//! fallback to compiling it when that code does not fit this machine's CPU
//! or engine.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use wasmtime::Engine;
use wasmtime::component::Component;

use super::CompileCache;
use crate::catalog::Precompiled;

/// Where a prepared component's machine code came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeSource {
    /// The code compiled ahead of time ([`Precompiled`]).
    Precompiled,
    /// Compiled from the component's bytes (or loaded from the
    /// [`CompileCache`], which holds what an earlier run compiled).
    Compiled,
}

/// The component's machine code: its [`Precompiled`] code when it fits
/// `engine` (whose compatibility digest is `engine_digest`), else compiled
/// from `bytes` through `cache`. The first compile of a component that came
/// with code that does not fit says so on a terminal, as it takes seconds.
pub(super) fn load(
    engine: &Engine,
    engine_digest: &str,
    precompiled: Option<Precompiled>,
    cache: &CompileCache,
    digest: &str,
    bytes: &[u8],
) -> wasmtime::Result<(Component, CodeSource)> {
    let Some(precompiled) = precompiled else {
        let component = cache.load_or_compile(engine, digest, bytes, || {})?;
        return Ok((component, CodeSource::Compiled));
    };
    if precompiled.compiled_for() == engine_digest {
        // SAFETY: `Precompiled::new`'s contract: the bytes are wasmtime's own
        // output. For the builtins they were written by `build.rs` and are
        // embedded in this binary, so they change only if the binary does.
        match unsafe { Component::deserialize(engine, precompiled.code()) } {
            Ok(component) => return Ok((component, CodeSource::Precompiled)),
            Err(e) => {
                tracing::warn!("compiling a builtin component instead of loading its code: {e:#}")
            }
        }
    } else {
        tracing::debug!(
            "the builtin components were compiled for another CPU or engine configuration; compiling them"
        );
    }
    let component = cache.load_or_compile(engine, digest, bytes, announce_compiling)?;
    Ok((component, CodeSource::Compiled))
}

/// Tell a person at a terminal, once per process, why this run is slow.
fn announce_compiling() {
    static ANNOUNCED: AtomicBool = AtomicBool::new(false);
    if std::io::stderr().is_terminal() && !ANNOUNCED.swap(true, Ordering::Relaxed) {
        eprintln!("compiling builtin verbs for this CPU…");
    }
}

#[cfg(test)]
mod tests {
    use vaultspec_engine_config::{Allocation, compatibility_digest, config};

    use super::*;
    use crate::builtins::catalog;
    use crate::sandbox::Sandbox;

    /// A builtin's code compiled by an engine other than the runtime one
    /// (no epoch interruption: code that could not be timed out).
    fn code_from_another_engine(wasm: &[u8]) -> (&'static [u8], &'static str) {
        let mut other = config(Allocation::OnDemand);
        other.epoch_interruption(false);
        let other = Engine::new(&other).unwrap();
        let code = other.precompile_component(wasm).unwrap();
        let digest = compatibility_digest(&other);
        (code.leak(), String::leak(digest))
    }

    #[test]
    fn code_that_does_not_fit_the_engine_is_compiled_instead() {
        let sandbox = Sandbox::new(CompileCache::new(None)).unwrap();
        let catalog = catalog().unwrap();
        let admin = catalog
            .components()
            .iter()
            .find(|c| c.name == "admin")
            .expect("the `admin` builtin");
        let (code, other_digest) = code_from_another_engine(&admin.bytes);
        let runtime_digest: &'static str = String::leak(compatibility_digest(sandbox.engine()));
        // Honest about the engine it was compiled for, and lying about it
        // (so that only loading it finds out): both compile instead.
        for compiled_for in [other_digest, runtime_digest] {
            let mismatched = crate::catalog::VerbComponent::load(
                &admin.name,
                admin.origin.clone(),
                admin.bytes.clone(),
            )
            .unwrap()
            // SAFETY: wasmtime's own output, from `precompile_component`.
            .with_precompiled(unsafe { Precompiled::new(code, compiled_for) });
            let fresh = Sandbox::new(CompileCache::new(None)).unwrap();
            assert_eq!(fresh.prepare(&mismatched).unwrap(), CodeSource::Compiled);
        }
    }
}

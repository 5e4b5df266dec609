//! Machine code compiled for a component ahead of time: the builtin verbs'
//! code, compiled when the binary was built and embedded in it. The
//! sandbox loads it when it fits the machine's engine, else compiles.

/// A component's machine code from `Engine::precompile_component`.
#[derive(Clone, Copy)]
pub struct Precompiled {
    code: &'static [u8],
    compiled_for: &'static str,
}

impl std::fmt::Debug for Precompiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Precompiled")
            .field("bytes", &self.code.len())
            .field("compiled_for", &self.compiled_for)
            .finish()
    }
}

impl Precompiled {
    /// Code compiled by an engine whose
    /// [`vaultspec_engine_config::compatibility_digest`] is `compiled_for`.
    ///
    /// # Safety
    ///
    /// `code` must be the unaltered output of wasmtime's
    /// `Engine::precompile_component` or `Component::serialize`: it is
    /// native code that is mapped and run. Wasmtime checks its version,
    /// target, CPU features and configuration on loading, but cannot tell
    /// crafted bytes from its own.
    pub const unsafe fn new(code: &'static [u8], compiled_for: &'static str) -> Self {
        Self { code, compiled_for }
    }

    /// The machine code.
    pub fn code(&self) -> &'static [u8] {
        self.code
    }

    /// The compatibility digest of the engine that compiled it.
    pub fn compiled_for(&self) -> &'static str {
        self.compiled_for
    }
}

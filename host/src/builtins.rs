//! The verb components compiled into the binary.
//!
//! `build.rs` builds every crate under `verbs/` for `wasm32-wasip2`, compiles
//! each to machine code with the runtime engine's configuration, and lists
//! both in `builtins.rs` under `OUT_DIR`; they are embedded with
//! `include_bytes!`, so the binary carries its verbs with it, ready to run,
//! beside their digests (hashed at build time: 13 MB of SHA-256 was most of
//! start-up) and their declarations (read at build time by the catalog's
//! own code: parsing their WIT on every start was a third of it).

use anyhow::Context;
use bytes::Bytes;

use crate::catalog::Precompiled;
use crate::catalog::{Catalog, Origin, VerbComponent};

/// One builtin verb component as the build embedded it.
#[derive(Debug, Clone, Copy)]
pub struct Builtin {
    /// Its short name (`vault` for the crate `vaultspec-verbs-vault`).
    pub name: &'static str,
    /// The component.
    pub wasm: &'static [u8],
    /// `sha256:` + lowercase hex of [`Builtin::wasm`].
    pub digest: &'static str,
    /// Its machine code, from `Engine::precompile_component` on the build
    /// machine with an engine compatible with [`COMPILED_FOR`].
    pub code: &'static [u8],
    /// Its capabilities and verbs as the catalog read them from it at
    /// build time: JSON of `(Capabilities, Vec<VerbSpec>)`.
    pub declared: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/builtins.rs"));

/// A catalog of every builtin verb.
pub fn catalog() -> anyhow::Result<Catalog> {
    let mut catalog = Catalog::new();
    for builtin in BUILTINS {
        let name = builtin.name;
        let (capabilities, verbs) = serde_json::from_str(builtin.declared)
            .with_context(|| format!("reading the declaration of the builtin verbs `{name}`"))?;
        let component = VerbComponent {
            name: name.to_owned(),
            origin: Origin::Builtin,
            bytes: Bytes::from_static(builtin.wasm),
            digest: builtin.digest.to_owned(),
            capabilities,
            verbs,
            precompiled: None,
        }
        .with_precompiled(
            // SAFETY: `build.rs` wrote `code` with wasmtime's
            // `precompile_component`, and it is embedded in this
            // binary: it is exactly as trustworthy as the binary.
            unsafe { Precompiled::new(builtin.code, COMPILED_FOR) },
        );
        catalog
            .add(component)
            .with_context(|| format!("adding the builtin verbs `{name}`"))?;
    }
    Ok(catalog)
}

#[cfg(test)]
mod tests {
    use wasmtime::component::Component;

    use super::*;
    use crate::sandbox::{Allocation, CodeSource, CompileCache, Sandbox};

    /// The names of a component's exports, in order.
    fn exports(sandbox: &Sandbox, component: &Component) -> Vec<String> {
        component
            .component_type()
            .exports(sandbox.engine())
            .map(|(name, _)| name.to_owned())
            .collect()
    }

    #[test]
    fn every_embedded_artifact_loads_in_the_runtime_engines_and_is_its_component() {
        for allocation in [Allocation::OnDemand, Allocation::Pooled { slots: 2 }] {
            let sandbox = Sandbox::with_allocation(CompileCache::new(None), allocation).unwrap();
            assert_eq!(
                vaultspec_engine_config::compatibility_digest(sandbox.engine()),
                COMPILED_FOR,
                "the {allocation:?} engine is not the one the builtins were compiled for"
            );
            for builtin in BUILTINS {
                // SAFETY: `build.rs` wrote it with `precompile_component`.
                let loaded = unsafe { Component::deserialize(sandbox.engine(), builtin.code) }
                    .unwrap_or_else(|e| panic!("`{}` does not load: {e:#}", builtin.name));
                let compiled = Component::new(sandbox.engine(), builtin.wasm).unwrap();
                assert_eq!(
                    exports(&sandbox, &loaded),
                    exports(&sandbox, &compiled),
                    "`{}`",
                    builtin.name
                );
            }
        }
    }

    #[test]
    fn each_declaration_read_at_build_time_is_the_one_its_component_carries() {
        let catalog = catalog().unwrap();
        for (builtin, embedded) in BUILTINS.iter().zip(catalog.components()) {
            let bytes = Bytes::from_static(builtin.wasm);
            let read = VerbComponent::load(builtin.name, Origin::Builtin, bytes).unwrap();
            assert_eq!(embedded.name, read.name);
            assert_eq!(embedded.digest, read.digest, "`{}`", builtin.name);
            assert_eq!(
                embedded.capabilities, read.capabilities,
                "`{}`",
                builtin.name
            );
            assert_eq!(embedded.verbs, read.verbs, "`{}`", builtin.name);
        }
    }

    #[test]
    fn the_sandbox_runs_every_builtin_from_its_embedded_code() {
        // No compile cache: the code cannot come from an earlier run.
        let sandbox = Sandbox::new(CompileCache::new(None)).unwrap();
        let catalog = catalog().unwrap();
        assert_eq!(catalog.components().len(), BUILTINS.len());
        for component in catalog.components() {
            assert_eq!(
                sandbox.prepare(component).unwrap(),
                CodeSource::Precompiled,
                "`{}`",
                component.name
            );
        }
    }
}

//! The verb components compiled into the binary.
//!
//! `build.rs` builds every crate under `verbs/` for `wasm32-wasip2` and lists
//! the artifacts in `builtins.rs` under `OUT_DIR`; they are embedded with
//! `include_bytes!`, so the binary carries its verbs with it.

use std::sync::Arc;

use anyhow::Context;

use crate::catalog::{Catalog, Origin, VerbComponent};

include!(concat!(env!("OUT_DIR"), "/builtins.rs"));

/// The builtin components, by name.
pub fn components() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    BUILTINS.iter().copied()
}

/// A catalog of every builtin verb.
pub fn catalog() -> anyhow::Result<Catalog> {
    let mut catalog = Catalog::new();
    for (name, bytes) in components() {
        let component = VerbComponent::load(name, Origin::Builtin, Arc::from(bytes))
            .with_context(|| format!("loading the builtin verbs `{name}`"))?;
        catalog.add(component).with_context(|| format!("adding the builtin verbs `{name}`"))?;
    }
    Ok(catalog)
}

//! The verb components compiled into the binary.
//!
//! `build.rs` builds every crate under `verbs/` for `wasm32-wasip2` and lists
//! the artifacts in `builtins.rs` under `OUT_DIR`; they are embedded with
//! `include_bytes!`, so the binary carries its verbs with it, beside their
//! digests (hashed at build time: 13 MB of SHA-256 was most of start-up).

use anyhow::Context;
use bytes::Bytes;

use crate::catalog::{Catalog, Origin, VerbComponent};

include!(concat!(env!("OUT_DIR"), "/builtins.rs"));

/// A catalog of every builtin verb.
pub fn catalog() -> anyhow::Result<Catalog> {
    let mut catalog = Catalog::new();
    for &(name, bytes, digest) in BUILTINS {
        let bytes = Bytes::from_static(bytes);
        let component =
            VerbComponent::load_digested(name, Origin::Builtin, bytes, digest.to_owned())
                .with_context(|| format!("loading the builtin verbs `{name}`"))?;
        catalog
            .add(component)
            .with_context(|| format!("adding the builtin verbs `{name}`"))?;
    }
    Ok(catalog)
}

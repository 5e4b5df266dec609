//! The verb author's kit: write a WIT world and a Rust impl, get a vaultspec verb.
//!
//! A verb crate keeps its declaration in `wit/world.wit` (with the
//! `vaultspec:verb` package under `wit/deps/`), implements the generated
//! `Guest` traits, and calls [`verb!`] once. The macro generates the
//! bindings, exports the implementation and embeds the WIT source in the
//! component, where the host reads flags, operands and help without running
//! any guest code. Inside a verb, [`Workspace`] reads the workspace through
//! the host and [`output`] prints the JSON envelope every verb shares.
//!
//! ```ignore
//! struct Verb;
//! impl exports::acme::notes::notes::Guest for Verb {
//!     fn count(options: exports::acme::notes::notes::CountOptions) -> u8 {
//!         let workspace = vaultspec_sdk::Workspace::open();
//!         // ... read through `workspace`, print, return the exit code
//!         0
//!     }
//! }
//! vaultspec_sdk::verb!(Verb);
//! ```
#![deny(missing_docs)]

mod bindings;
pub mod hints;
pub mod history;
pub mod kept;
pub mod output;
pub mod style;
mod workspace_client;

pub use serde_json;
pub use vaultspec_vault as vault;
pub use workspace_client::{FrameworkWorkspace, Workspace, WritableWorkspace};

/// The `vaultspec:verb` WIT package this SDK speaks, for tools that scaffold
/// verb crates (it belongs in `wit/deps/vaultspec-verb/verb.wit`).
pub const VERB_WIT: &str = include_str!("../../../wit/verb.wit");

/// The name of the custom section that carries a verb's WIT declaration.
pub const WIT_SECTION: &str = "vaultspec-wit";

#[doc(hidden)]
pub mod __private {
    pub use wit_bindgen;
}

/// Turn a type implementing the generated `Guest` traits into a verb
/// component.
///
/// Expands, at the crate root, to the bindings of `wit/world.wit` (with every
/// package under `wit/deps/`), the export of `$verb`, and a custom section
/// holding the world's source so the host can read the declaration,
/// doc comments included.
#[macro_export]
macro_rules! verb {
    ($verb:ident) => {
        $crate::__private::wit_bindgen::generate!({
            path: "wit",
            generate_all,
            runtime_path: "::vaultspec_sdk::__private::wit_bindgen::rt",
        });

        export!($verb);

        #[cfg(target_arch = "wasm32")]
        #[unsafe(link_section = "vaultspec-wit")]
        #[used]
        static __VAULTSPEC_WIT: [u8; include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/wit/world.wit"
        ))
        .len()] = *include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/wit/world.wit"));
    };
}

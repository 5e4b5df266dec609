//! Builds the builtin verbs (`verbs/*`) as components, compiles each to
//! machine code for this machine's CPU with the host's own engine
//! configuration, reads each one's declaration and capabilities with the
//! catalog's own code (`src/catalog/`), and lists all three for
//! `src/builtins.rs` to embed, with the SHA-256 digest of each component;
//! and embeds the SDK's sources for `vaultspec verbs new` (`build/sdk.rs`).

use std::path::PathBuf;

use sha2::{Digest, Sha256};
use vaultspec_engine_config::{Allocation, compatibility_digest, config};
use wasmtime::Engine;

#[path = "build/sdk.rs"]
mod sdk;

// The catalog's reading of a component, exactly as the binary has it.
#[allow(dead_code)]
#[path = "src/display.rs"]
mod display;
#[allow(dead_code)]
#[path = "src/catalog"]
mod catalog {
    pub mod component;
    pub mod declaration;
    pub mod error;
    pub mod spec;
}

/// The capabilities and verbs `wasm` declares, as JSON for
/// `Builtin::declared`: what a start would otherwise read from its WIT.
fn declared(short: &str, wasm: &[u8]) -> String {
    let refused =
        |e: catalog::error::Reason| -> ! { panic!("the builtin `{short}` is refused: {e}") };
    let inspection = catalog::component::inspect(wasm).unwrap_or_else(|e| refused(e));
    let capabilities =
        catalog::component::capabilities(&inspection.imports).unwrap_or_else(|e| refused(e));
    let source = inspection
        .declaration
        .unwrap_or_else(|| panic!("the builtin `{short}` carries no declaration"));
    let verbs = catalog::declaration::parse(&source).unwrap_or_else(|e| refused(e));
    serde_json::to_string(&(capabilities, verbs)).unwrap()
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap()).join("..");
    let verbs = root.join("verbs");
    println!("cargo:rerun-if-changed={}", root.join("wit").display());
    println!(
        "cargo:rerun-if-changed={}",
        root.join("sdk/verb/src").display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        root.join("sdk/vault/src").display()
    );
    for read in ["src/display.rs", "src/catalog"] {
        println!("cargo:rerun-if-changed={read}");
    }
    let guests = vaultspec_guest_build::build(&verbs, &verbs);
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    // The runtime engine's configuration (the allocation strategy does not
    // change compiled code); the host checks the digest before loading.
    let engine = Engine::new(&config(Allocation::OnDemand)).expect("making the engine");
    let mut list = String::from(
        "/// Every builtin verb component, with its machine code for the build machine.\n",
    );
    list.push_str("pub const BUILTINS: &[Builtin] = &[\n");
    for guest in guests {
        let short = guest
            .name
            .strip_prefix("vaultspec-verbs-")
            .unwrap_or(&guest.name);
        let bytes = std::fs::read(&guest.path).unwrap();
        let digest = format!("sha256:{}", hex::encode(Sha256::digest(&bytes)));
        let code = engine
            .precompile_component(&bytes)
            .unwrap_or_else(|e| panic!("compiling the builtin `{short}`: {e:?}"));
        let code_path = out_dir.join(format!("{short}.cwasm"));
        std::fs::write(&code_path, code).unwrap();
        let declared_path = out_dir.join(format!("{short}.declared.json"));
        std::fs::write(&declared_path, declared(short, &bytes)).unwrap();
        list.push_str(&format!(
            "    Builtin {{ name: {short:?}, wasm: include_bytes!({:?}), digest: {digest:?}, code: include_bytes!({code_path:?}), declared: include_str!({declared_path:?}) }},\n",
            guest.path
        ));
    }
    list.push_str("];\n\n");
    list.push_str("/// The compatibility digest of the engine that compiled [`Builtin::code`].\n");
    list.push_str(&format!(
        "pub const COMPILED_FOR: &str = {:?};\n",
        compatibility_digest(&engine)
    ));
    std::fs::write(out_dir.join("builtins.rs"), list).unwrap();
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.toml").display()
    );
    sdk::embed(&root, &out_dir);
}

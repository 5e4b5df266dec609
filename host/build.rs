//! Builds the builtin verbs (`verbs/*`) as components and lists them for
//! `src/builtins.rs` to embed, with the SHA-256 digest of each; and embeds
//! the SDK's sources for `vaultspec verbs new` (`build/sdk.rs`).

use std::path::PathBuf;

use sha2::{Digest, Sha256};

#[path = "build/sdk.rs"]
mod sdk;

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
    let guests = vaultspec_guest_build::build(&verbs, &verbs);
    let mut list = String::from("/// Every builtin verb component: its short name and bytes.\n");
    list.push_str("pub const BUILTINS: &[(&str, &[u8], &str)] = &[\n");
    for guest in guests {
        let short = guest
            .name
            .strip_prefix("vaultspec-verbs-")
            .unwrap_or(&guest.name);
        let bytes = std::fs::read(&guest.path).unwrap();
        let digest = format!("sha256:{}", hex::encode(Sha256::digest(&bytes)));
        list.push_str(&format!(
            "    ({short:?}, include_bytes!({:?}), {digest:?}),\n",
            guest.path
        ));
    }
    list.push_str("];\n");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    std::fs::write(out_dir.join("builtins.rs"), list).unwrap();
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.toml").display()
    );
    sdk::embed(&root, &out_dir);
}

//! Builds the test guests (`guests/*`) and names each component's path.

use std::path::PathBuf;

fn main() {
    let guests = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap()).join("guests");
    println!(
        "cargo:rerun-if-changed={}",
        guests.join("../../wit").display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        guests.join("../../sdk/verb/src").display()
    );
    let mut consts = String::new();
    for guest in vaultspec_guest_build::build(&guests, &guests) {
        let short = guest.name.strip_prefix("guest-").unwrap_or(&guest.name);
        consts.push_str(&format!(
            "/// The `{short}` test guest component.\npub const {}: &str = {:?};\n",
            short.to_uppercase().replace('-', "_"),
            guest.path
        ));
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("guests.rs");
    std::fs::write(out, consts).unwrap();
}

//! Stops the build at once, with the command that fixes it, when the
//! toolchain cannot build `wasm32-wasip2` guests: this runs before the host's
//! dependencies finish compiling, where the guest build itself would fail
//! only minutes later.

#[path = "src/wasm_target.rs"]
mod wasm_target;

fn main() {
    println!(
        "cargo::rerun-if-env-changed={}",
        wasm_target::SYSROOT_OVERRIDE
    );
    println!("cargo::rerun-if-env-changed=RUSTC");
    if let Ok(sysroot) = wasm_target::sysroot() {
        // Adding or removing a target changes this folder.
        println!(
            "cargo::rerun-if-changed={}",
            sysroot.join("lib").join("rustlib").display()
        );
    }
    if let Err(message) = wasm_target::check() {
        println!("cargo::error={message}");
    }
}

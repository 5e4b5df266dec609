//! The files of a scaffolded verb crate, with `{{…}}` placeholders that
//! `verbs new` fills in.

/// `Cargo.toml`; `{{PATCH}}` is [`PATCH`] filled in, or nothing.
pub const CARGO_TOML: &str = r#"[package]
name = "{{NAME}}"
version = "0.1.0"
edition = "2024"
publish = false

# A verb is a WebAssembly component:
# `cargo build --release --target wasm32-wasip2` writes
# `target/wasm32-wasip2/release/{{LIB}}.wasm`.
[lib]
crate-type = ["cdylib"]

[dependencies]
vaultspec-sdk = "{{SDK_REQ}}"
{{PATCH}}
# Small components load and compile faster.
[profile.release]
opt-level = "s"
lto = true
strip = "debuginfo"

# This crate is a workspace of its own, wherever it lives.
[workspace]
"#;

/// `wit/world.wit`: one verb, `NAME count`.
pub const WORLD_WIT: &str = r#"package {{NS}}:{{NAME}}@0.1.0;

/// The `{{VERBS}}` verbs: every function here is the verb `{{VERBS}} <function>`.
interface {{NAME}} {
    record count-options {
        /// Print one JSON document instead of text.
        json: bool,
    }

    /// Count the markdown documents of the vault, or of one of its folders.
    ///
    /// DOC-TYPE is a folder of `.vault/` (`adr`, `plan`, `research`, ...).
    ///
    /// Use it to:
    /// - see how many notes the vault holds
    /// - count the ADRs written so far
    count: func(options: count-options, doc-type: option<string>) -> u8;
}

world {{NAME}}-verbs {
    import vaultspec:verb/workspace-read@0.1.0;
    export {{NAME}};
}
"#;

/// `src/lib.rs`: the verb's implementation.
pub const LIB_RS: &str = r#"//! The `{{VERBS}}` verbs: `wit/world.wit` declares them, this file implements them.

use exports::{{NS_RUST}}::{{LIB}}::{{LIB}}::{CountOptions, Guest};
use vaultspec_sdk::vault::Storage;
use vaultspec_sdk::{Workspace, output};

struct Verbs;

impl Guest for Verbs {
    fn count(options: CountOptions, doc_type: Option<String>) -> u8 {
        let folder = match &doc_type {
            Some(doc_type) => format!(".vault/{doc_type}"),
            None => ".vault".to_owned(),
        };
        let files = match Workspace::open().list(&folder) {
            Ok(files) => files,
            Err(err) => return output::fail(options.json, err),
        };
        let count = files.iter().filter(|f| f.path.ends_with(".md")).count();
        if options.json {
            let data = vaultspec_sdk::serde_json::json!({ "folder": folder, "count": count });
            let schema = output::schema("{{VERBS}} count", 1);
            output::print_json(&output::envelope(&schema, output::status::UNCHANGED, data));
        } else {
            println!("{count} documents in {folder}");
        }
        output::EXIT_OK
    }
}

vaultspec_sdk::verb!(Verbs);
"#;

/// `README.md`: what each file is and the next steps.
pub const README: &str = r#"# {{NAME}}

vaultspec verbs, shipped as a WebAssembly component.

- `wit/world.wit` declares the verbs: interface `{{NAME}}`, function `count`
  is the verb `vaultspec {{VERBS}} count` (each `-` in an interface name
  starts a nested group); the `options` record gives its
  flags and the doc comments its help. `wit/deps/vaultspec-verb/verb.wit` is
  the host contract (do not edit it).
- `src/lib.rs` implements them with `vaultspec-sdk`.
- `Cargo.toml` depends on `vaultspec-sdk`; until the SDK is published, its
  `[patch.crates-io]` section builds it from local sources (by default the
  ones `vaultspec verbs new` wrote under `~/.vaultspec/sdk/`, with a
  `Cargo.lock` pinning what vaultspec's own verbs were built with; the
  first build fetches those from crates.io unless cargo's cache holds them).

From this folder, with `WORKSPACE` the root of the workspace to use it in
(the folder with `.vaultspec/`; `~` puts it in every workspace):

```sh
cargo build --release --target wasm32-wasip2
mkdir -p "$WORKSPACE/.vaultspec/verbs"
cp target/wasm32-wasip2/release/{{LIB}}.wasm "$WORKSPACE/.vaultspec/verbs/{{NAME}}.wasm"
vaultspec verbs inspect "$WORKSPACE/.vaultspec/verbs/{{NAME}}.wasm"
vaultspec verbs trust {{NAME}}       # at a terminal: review, then answer y
vaultspec {{VERBS}} count --json
```

The catalog names a component by its file: `{{NAME}}`, whatever Cargo
called the build (`{{LIB}}.wasm`).

Rebuilding changes the component's digest: trust it again after each install.
"#;

/// The `[patch.crates-io]` section that builds the SDK from `{{SDK_PATH}}`;
/// `{{SDK_ORIGIN}}` is comment lines saying where the sources come from.
pub const PATCH: &str = r#"
# `vaultspec-sdk` is not on crates.io yet: this patch builds it from local
# sources instead. Once the SDK is published, delete this comment and the two
# lines below, and the crate builds against crates.io with no other change.
#
{{SDK_ORIGIN}}[patch.crates-io]
vaultspec-sdk = { path = {{SDK_PATH}} }
"#;

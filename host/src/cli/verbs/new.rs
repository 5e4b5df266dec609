//! `vaultspec verbs new NAME`: scaffold a verb crate that builds as it is.
//!
//! The crate is its own Cargo workspace and holds everything a verb needs:
//! `Cargo.toml` (a `cdylib`), `wit/world.wit` declaring one verb
//! `NAME count`, the contract under `wit/deps/vaultspec-verb/verb.wit`,
//! `src/lib.rs` implementing it, and a README with the next steps. The SDK
//! dependency is `vaultspec-sdk = "0.1"`, or a local checkout by path when
//! `--sdk` or `VAULTSPEC_SDK_PATH` names one.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use clap::Args;
use serde_json::json;

use super::print_envelope;
use crate::catalog::{DENIED_VERBS, HOST_COMMANDS, VERB_WIT};
use crate::{builtins, env};

/// Arguments of `verbs new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The verb group and crate name: lowercase letters and digits, starting with a letter (`notes`)
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Where to create the crate (default: `./NAME`)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// The WIT package namespace: your organisation (`acme` gives `acme:NAME`)
    #[arg(long, value_name = "NS", default_value = "local")]
    pub namespace: String,
    /// Depend on a local SDK checkout (`sdk/verb`) by path instead of by version
    #[arg(long, value_name = "DIR", env = env::SDK_PATH)]
    pub sdk: Option<PathBuf>,
    /// Print one JSON document instead of text
    #[arg(long)]
    pub json: bool,
}

/// The SDK version a scaffolded crate depends on when no checkout is named.
const SDK_VERSION: &str = "0.1";

/// Create the crate; exit 0.
pub fn run(args: &NewArgs) -> anyhow::Result<u8> {
    check_name(&args.name)?;
    check_namespace(&args.namespace)?;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(&args.name));
    if dir.exists()
        && std::fs::read_dir(&dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        bail!(
            "`{}` exists and is not empty: pass `--dir` with a new or empty folder",
            dir.display()
        );
    }
    let sdk = match &args.sdk {
        Some(path) => {
            let path = std::fs::canonicalize(path)
                .with_context(|| format!("the SDK checkout `{}` does not exist", path.display()))?;
            if !path.join("Cargo.toml").is_file() {
                bail!(
                    "`{}` is not an SDK checkout: it has no `Cargo.toml` (give the `sdk/verb` folder)",
                    path.display()
                );
            }
            let quoted = serde_json::to_string(&path.display().to_string())?;
            format!("vaultspec-sdk = {{ path = {quoted} }}")
        }
        None => format!("vaultspec-sdk = \"{SDK_VERSION}\""),
    };
    let fill = |template: &str| {
        template
            .replace("{{NAME}}", &args.name)
            .replace("{{NS}}", &args.namespace)
            .replace("{{NS_RUST}}", &args.namespace.replace('-', "_"))
            .replace("{{SDK}}", &sdk)
    };
    let files: [(&str, String); 6] = [
        ("Cargo.toml", fill(CARGO_TOML)),
        (".gitignore", "/target\n".to_owned()),
        ("wit/world.wit", fill(WORLD_WIT)),
        ("wit/deps/vaultspec-verb/verb.wit", VERB_WIT.to_owned()),
        ("src/lib.rs", fill(LIB_RS)),
        ("README.md", fill(README)),
    ];
    for (path, text) in &files {
        write(&dir.join(path), text)?;
    }
    if args.json {
        let data = json!({
            "name": args.name,
            "dir": dir.display().to_string(),
            "files": files.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        });
        print_envelope("new", "created", data)?;
    } else {
        println!(
            "created the verb crate `{}` in `{}`",
            args.name,
            dir.display()
        );
        println!(
            "build it:    cd {} && cargo build --release --target wasm32-wasip2",
            dir.display()
        );
        println!(
            "install it:  cp target/wasm32-wasip2/release/{}.wasm <workspace>/.vaultspec/verbs/",
            args.name
        );
        println!("trust it:    vaultspec verbs trust {}", args.name);
    }
    Ok(0)
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating `{}`", parent.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("writing `{}`", path.display()))
}

/// A name is one verb group word, and not one the host or a builtin owns.
fn check_name(name: &str) -> anyhow::Result<()> {
    let mut chars = name.chars();
    let well_formed = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if !well_formed {
        bail!(
            "`{name}` is not a verb group name: use lowercase letters and digits, starting with a letter (`notes`)"
        );
    }
    if HOST_COMMANDS.contains(&name)
        || DENIED_VERBS
            .iter()
            .any(|d| d.split(' ').next() == Some(name))
    {
        bail!("`{name}` is taken by the host or the gateway's denylist: choose another name");
    }
    let catalog = builtins::catalog()?;
    if catalog.entries().any(|e| e.spec.path[0] == name) {
        bail!("`{name}` is a builtin verb group: choose another name");
    }
    Ok(())
}

fn check_namespace(namespace: &str) -> anyhow::Result<()> {
    let mut chars = namespace.chars();
    let ok = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !namespace.ends_with('-')
        && !namespace.contains("--");
    if !ok {
        bail!("`{namespace}` is not a WIT namespace: use lowercase words joined by `-` (`acme`)");
    }
    Ok(())
}

const CARGO_TOML: &str = r#"[package]
name = "{{NAME}}"
version = "0.1.0"
edition = "2024"
publish = false

# A verb is a WebAssembly component:
# `cargo build --release --target wasm32-wasip2` writes
# `target/wasm32-wasip2/release/{{NAME}}.wasm`.
[lib]
crate-type = ["cdylib"]

[dependencies]
{{SDK}}

# Small components load and compile faster.
[profile.release]
opt-level = "s"
lto = true
strip = "debuginfo"

# This crate is a workspace of its own, wherever it lives.
[workspace]
"#;

const WORLD_WIT: &str = r#"package {{NS}}:{{NAME}}@0.1.0;

/// The `{{NAME}}` verbs: every function here is the verb `{{NAME}} <function>`.
interface {{NAME}} {
    record count-options {
        /// Print one JSON document instead of text.
        json: bool,
    }

    /// Count the markdown documents of the vault, or of one of its folders.
    ///
    /// DOC-TYPE is a folder of `.vault/` (`adr`, `plan`, `research`, ...).
    count: func(options: count-options, doc-type: option<string>) -> u8;
}

world {{NAME}}-verbs {
    import vaultspec:verb/workspace-read@0.1.0;
    export {{NAME}};
}
"#;

const LIB_RS: &str = r#"//! The `{{NAME}}` verbs: `wit/world.wit` declares them, this file implements them.

use exports::{{NS_RUST}}::{{NAME}}::{{NAME}}::{CountOptions, Guest};
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
            Err(err) => return output::fail(options.json, &err.to_string()),
        };
        let count = files.iter().filter(|f| f.path.ends_with(".md")).count();
        if options.json {
            let data = vaultspec_sdk::serde_json::json!({ "folder": folder, "count": count });
            let schema = output::schema("{{NAME}} count", 1);
            output::print_json(&output::envelope(&schema, output::status::UNCHANGED, data));
        } else {
            println!("{count} documents in {folder}");
        }
        output::EXIT_OK
    }
}

vaultspec_sdk::verb!(Verbs);
"#;

const README: &str = r#"# {{NAME}}

vaultspec verbs, shipped as a WebAssembly component.

- `wit/world.wit` declares the verbs: interface `{{NAME}}`, function `count`
  is the verb `vaultspec {{NAME}} count`; the `options` record gives its
  flags and the doc comments its help. `wit/deps/vaultspec-verb/verb.wit` is
  the host contract (do not edit it).
- `src/lib.rs` implements them with `vaultspec-sdk`.

```sh
cargo build --release --target wasm32-wasip2
vaultspec verbs inspect target/wasm32-wasip2/release/{{NAME}}.wasm
cp target/wasm32-wasip2/release/{{NAME}}.wasm <workspace>/.vaultspec/verbs/
vaultspec verbs trust {{NAME}}       # at a terminal: review, then answer y
vaultspec {{NAME}} count --json
```

Rebuilding changes the component's digest: trust it again after each install.
"#;

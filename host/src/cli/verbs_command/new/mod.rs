//! `vaultspec verbs new NAME`: scaffold a verb crate that builds as it is.
//!
//! The crate is its own Cargo workspace and holds everything a verb needs:
//! `Cargo.toml` (a `cdylib`), `wit/world.wit` declaring one verb
//! `NAME count`, the contract under `wit/deps/vaultspec-verb/verb.wit`,
//! `src/lib.rs` implementing it, and a README with the next steps.
//!
//! It depends on `vaultspec-sdk = "0.1"` as it will once the SDK is
//! published, with a `[patch.crates-io]` that builds the SDK from local
//! sources meanwhile: by default the ones this binary carries, written to
//! `~/.vaultspec/sdk/<version>-<digest>/` ([`crate::sdk`]) with a
//! `Cargo.lock` of the versions the builtin verbs were built with, so the
//! crate builds offline; or a checkout named by `--sdk`.

mod name;
mod templates;

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use clap::Args;
use serde_json::json;

use super::print_envelope;
use crate::catalog::{DENIED_VERBS, HOST_COMMANDS, VERB_WIT};
use crate::{builtins, env, sdk};
use templates::{CARGO_TOML, LIB_RS, PATCH, README, WORLD_WIT};

/// Arguments of `verbs new`.
#[derive(Debug, Args)]
#[command(after_help = "\
The crate depends on `vaultspec-sdk = \"0.1\"`. Until the SDK is on crates.io, a \
`[patch.crates-io]` in its Cargo.toml builds the SDK from the sources this vaultspec \
carries, written once to `~/.vaultspec/sdk/<version>-<digest>/`, and its Cargo.lock \
pins what the builtin verbs were built with: the first build works offline.")]
pub struct NewArgs {
    /// The crate, WIT interface and verb group name: lowercase words joined by `-` (`notes`; `my-notes` gives the verbs `my notes …`)
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Where to create the crate (default: `./NAME`)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// The WIT package namespace: your organisation (`acme` gives `acme:NAME`)
    #[arg(long, value_name = "NS", default_value = "local")]
    pub namespace: String,
    /// Build against a local SDK checkout (`sdk/verb`) instead of the SDK this binary carries
    #[arg(long, value_name = "DIR", env = env::SDK_PATH)]
    pub sdk: Option<PathBuf>,
    /// Print one JSON document instead of text
    #[arg(long)]
    pub json: bool,
}

/// Create the crate; exit 0.
pub fn run(args: &NewArgs, home: Option<&Path>, root: Option<&Path>) -> anyhow::Result<u8> {
    check_name(&args.name)?;
    name::check_kebab("WIT namespace", &args.namespace)?;
    let lib = name::rust_ident(&args.name);
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
    let world = fill(WORLD_WIT, args, &lib, &[]);
    if let Err((_, err)) = wit_parser::UnresolvedPackageGroup::parse("world.wit", &world) {
        bail!(
            "`{}` cannot name a WIT interface ({err}): it is a WIT keyword; choose another name",
            args.name
        );
    }
    let (sdk_path, origin, lockfile) = match &args.sdk {
        Some(path) => {
            let path = std::fs::canonicalize(path)
                .with_context(|| format!("the SDK checkout `{}` does not exist", path.display()))?;
            if !path.join("Cargo.toml").is_file() {
                bail!(
                    "`{}` is not an SDK checkout: it has no `Cargo.toml` (give the `sdk/verb` folder)",
                    path.display()
                );
            }
            let origin = "# The sources are a checkout of the SDK.\n".to_owned();
            (path, origin, None)
        }
        None => {
            let Some(home) = home else {
                bail!(
                    "no home folder: set `HOME` to have the SDK written to `~/{}`",
                    sdk::SDK_HOME
                )
            };
            let cache = sdk::install(home)?;
            let origin = format!(
                "# The sources are the ones vaultspec {} carries (SDK {}),\n\
                 # written by `vaultspec verbs new`; if the folder is gone, a `verbs new`\n\
                 # of the same vaultspec writes it again. `Cargo.lock` pins the versions\n\
                 # vaultspec's own verbs were built with; the first build fetches them from\n\
                 # crates.io unless cargo's cache already holds them.\n",
                env!("CARGO_PKG_VERSION"),
                sdk::folder_name(),
            );
            (
                cache.join("sdk/verb"),
                origin,
                Some(sdk::lockfile(&args.name)),
            )
        }
    };
    let quoted = serde_json::to_string(&sdk_path.display().to_string())?;
    let patch = fill(
        PATCH,
        args,
        &lib,
        &[("SDK_PATH", &quoted), ("SDK_ORIGIN", &origin)],
    );
    let requirement = requirement(sdk::SDK_VERSION);
    let cargo_toml = fill(
        CARGO_TOML,
        args,
        &lib,
        &[("PATCH", &patch), ("SDK_REQ", &requirement)],
    );
    let mut files: Vec<(&str, String)> = vec![
        ("Cargo.toml", cargo_toml),
        (".gitignore", "/target\n".to_owned()),
        ("wit/world.wit", world),
        ("wit/deps/vaultspec-verb/verb.wit", VERB_WIT.to_owned()),
        ("src/lib.rs", fill(LIB_RS, args, &lib, &[])),
        ("README.md", fill(README, args, &lib, &[])),
    ];
    if let Some(lockfile) = lockfile {
        files.push(("Cargo.lock", lockfile));
    }
    write_all(&dir, &files)?;
    let component = format!("target/wasm32-wasip2/release/{lib}.wasm");
    // Where the component goes: this workspace's verbs, else the user's
    // (loaded in every workspace), under the name the catalog shows.
    let verbs_dir = match root {
        Some(root) => {
            shell_words::quote(&root.join(".vaultspec/verbs").display().to_string()).into_owned()
        }
        None => "~/.vaultspec/verbs".to_owned(),
    };
    let installed = format!("{verbs_dir}/{}.wasm", args.name);
    let install = format!("mkdir -p {verbs_dir} && cp {component} {installed}");
    if args.json {
        let data = json!({
            "name": args.name,
            "dir": dir.display().to_string(),
            "files": files.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
            "sdk": sdk_path.display().to_string(),
            "component": component,
            "install": install,
            "verb": format!("{} count", verb_group(&args.name)),
        });
        print_envelope("new", "created", data)?;
    } else {
        println!(
            "created the verb crate `{}` in `{}` (SDK sources: `{}`)",
            args.name,
            dir.display(),
            sdk_path.display()
        );
        println!(
            "build it:    cd {} && cargo build --release --target wasm32-wasip2",
            dir.display()
        );
        println!("install it:  {install}");
        println!("check it:    vaultspec verbs inspect {installed}");
        println!("trust it:    vaultspec verbs trust {}", args.name);
        println!("run it:      vaultspec {} count", verb_group(&args.name));
        println!(
            "(the first build fetches the crates `Cargo.lock` pins from crates.io, unless \
             cargo's cache already holds them)"
        );
    }
    Ok(0)
}

/// `template` with the name placeholders and `extra` ones replaced.
fn fill(template: &str, args: &NewArgs, lib: &str, extra: &[(&str, &str)]) -> String {
    let mut text = template
        .replace("{{NAME}}", &args.name)
        .replace("{{LIB}}", lib)
        .replace("{{VERBS}}", &verb_group(&args.name))
        .replace("{{NS}}", &args.namespace)
        .replace("{{NS_RUST}}", &name::rust_ident(&args.namespace));
    for (key, value) in extra {
        text = text.replace(&format!("{{{{{key}}}}}"), value);
    }
    text
}

/// The Cargo requirement matching `version` the way Cargo's default caret
/// does at its first non-zero part: `0.1.0` → `0.1`, `1.2.3` → `1`.
fn requirement(version: &str) -> String {
    let parts: Vec<&str> = version.split('.').collect();
    match parts.as_slice() {
        ["0", minor, ..] => format!("0.{minor}"),
        [major, ..] => (*major).to_owned(),
        [] => version.to_owned(),
    }
}

/// Write the crate into a temporary folder beside `dir`, then rename it into
/// place (over `dir` only when that is an empty folder): all or nothing.
fn write_all(dir: &Path, files: &[(&str, String)]) -> anyhow::Result<()> {
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent).with_context(|| format!("creating `{}`", parent.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".vaultspec-new-")
        .tempdir_in(parent)
        .with_context(|| format!("creating a temporary folder in `{}`", parent.display()))?;
    for (name, text) in files {
        let path = staging.path().join(name);
        let folder = path.parent().expect("a file has a folder");
        std::fs::create_dir_all(folder)
            .with_context(|| format!("creating `{}`", folder.display()))?;
        std::fs::write(&path, text).with_context(|| format!("writing `{}`", path.display()))?;
    }
    std::fs::rename(staging.path(), dir)
        .with_context(|| format!("moving the new crate into `{}`", dir.display()))?;
    let _ = staging.keep();
    Ok(())
}

/// The verb group an interface named `name` gives: the host reads each `-`
/// as a nested group (`my-notes` → `my notes`).
fn verb_group(name: &str) -> String {
    name.replace('-', " ")
}

/// A name is kebab case, and its first group word is not one the host, the
/// gateway's denylist or a builtin owns.
fn check_name(name: &str) -> anyhow::Result<()> {
    name::check_kebab("verb group name", name)?;
    let first = name.split('-').next().unwrap_or(name);
    let subject = if first == name {
        format!("`{name}`")
    } else {
        format!("`{name}` puts its verbs in the group `{first}`, which")
    };
    let catalog = builtins::catalog()?;
    if catalog.entries().any(|e| e.spec.path[0] == first) {
        bail!("{subject} is a builtin verb group: choose another name");
    }
    if HOST_COMMANDS.contains(&first)
        || DENIED_VERBS
            .iter()
            .any(|d| d.split(' ').next() == Some(first))
    {
        bail!("{subject} is taken by the host or the gateway's denylist: choose another name");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_requirement_is_what_a_plain_version_would_match() {
        assert_eq!(requirement("0.1.0"), "0.1");
        assert_eq!(requirement("1.2.3"), "1");
    }
}

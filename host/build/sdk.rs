//! Embeds the verb SDK's sources (`sdk/verb`, `sdk/vault`, `wit/`) so that
//! `vaultspec verbs new` can write them out for a crate that builds offline.
//!
//! The two manifests are written standalone, the way `cargo package` would:
//! the workspace's inherited fields filled in, path dependencies given their
//! version, and what only this repository builds (dev-dependencies, benches,
//! examples, tests) left out. The lockfile entries are the dependency closure
//! of `vaultspec-sdk` in `verbs/Cargo.lock`: the exact versions the builtin
//! verbs were built with, so they are already in the local cargo registry.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use toml::{Table, Value};

/// The folders whose files are carried as they are, relative to the root.
const SOURCE_DIRS: &[&str] = &["sdk/verb/src", "sdk/vault/src", "wit"];

/// The package manifests rewritten standalone, relative to the root.
const MANIFESTS: &[&str] = &["sdk/verb", "sdk/vault"];

/// Manifest sections only this repository's own builds use.
const DROPPED_SECTIONS: &[&str] = &["dev-dependencies", "bench", "example", "test"];

/// Write `sdk.rs` into `OUT_DIR`: the embedded files, their digest, the SDK
/// version and the lockfile entries.
pub fn embed(root: &Path, out_dir: &Path) {
    let workspace = read_toml(&root.join("Cargo.toml"));
    let workspace = workspace["workspace"]
        .as_table()
        .expect("the root manifest has [workspace]");
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    for dir in SOURCE_DIRS {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
        collect(root, &root.join(dir), &mut files);
    }
    let generated = out_dir.join("sdk");
    for member in MANIFESTS {
        let manifest = root.join(member).join("Cargo.toml");
        println!("cargo:rerun-if-changed={}", manifest.display());
        let text = standalone_manifest(&read_toml(&manifest), workspace, member);
        let path = generated.join(member).join("Cargo.toml");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        write_if_changed(&path, &text);
        files.push((format!("{member}/Cargo.toml"), path));
    }
    files.sort();

    let mut digest = Sha256::new();
    for (name, path) in &files {
        let bytes = std::fs::read(path).unwrap();
        digest.update((name.len() as u64).to_le_bytes());
        digest.update(name.as_bytes());
        digest.update((bytes.len() as u64).to_le_bytes());
        digest.update(&bytes);
    }
    let digest = hex::encode(digest.finalize());

    let lock_path = root.join("verbs/Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock_path.display());
    let lock = lock_entries(&std::fs::read_to_string(&lock_path).unwrap());

    let version = workspace["package"]["version"]
        .as_str()
        .expect("the workspace has a version");
    let mut out = String::new();
    writeln!(out, "/// The version of the embedded SDK crates.").unwrap();
    writeln!(out, "pub const SDK_VERSION: &str = {version:?};").unwrap();
    writeln!(out, "/// SHA-256 of the embedded files' names and bytes.").unwrap();
    writeln!(out, "pub const SDK_DIGEST: &str = {digest:?};").unwrap();
    writeln!(out, "/// Every embedded file: its relative path and bytes.").unwrap();
    writeln!(out, "pub const SDK_FILES: &[(&str, &[u8])] = &[").unwrap();
    for (name, path) in &files {
        writeln!(out, "    ({name:?}, include_bytes!({:?})),", path.display()).unwrap();
    }
    writeln!(out, "];").unwrap();
    writeln!(
        out,
        "/// The lockfile entries (name, text) of the SDK's dependency closure."
    )
    .unwrap();
    writeln!(out, "pub const SDK_LOCK_ENTRIES: &[(&str, &str)] = &[").unwrap();
    for (name, text) in &lock {
        writeln!(out, "    ({name:?}, {text:?}),").unwrap();
    }
    writeln!(out, "];").unwrap();
    write_if_changed(&out_dir.join("sdk.rs"), &out);
}

fn read_toml(path: &Path) -> Table {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("reading `{}`: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("parsing `{}`: {e}", path.display()))
}

/// Every file under `dir`, named relative to `root` with `/` separators.
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            let name = path
                .strip_prefix(root)
                .unwrap()
                .components()
                .map(|c| c.as_os_str().to_str().expect("SDK paths are UTF-8"))
                .collect::<Vec<_>>()
                .join("/");
            files.push((name, path));
        }
    }
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

/// The manifest of the package at `member` with nothing inherited from the
/// workspace and nothing that only this repository builds.
fn standalone_manifest(manifest: &Table, workspace: &Table, member: &str) -> String {
    let mut manifest = manifest.clone();
    for section in DROPPED_SECTIONS {
        manifest.remove(*section);
    }
    let package = manifest["package"].as_table_mut().unwrap();
    let inherited = workspace["package"].as_table().unwrap();
    for (key, value) in package.iter_mut() {
        if is_inherited(value) {
            *value = inherited
                .get(key)
                .unwrap_or_else(|| panic!("[workspace.package] has no `{key}`"))
                .clone();
        }
    }
    if manifest.get("lints").is_some_and(is_inherited) {
        manifest.insert("lints".into(), workspace["lints"].clone());
    }
    let depth = member.split('/').count();
    let version = inherited["version"].clone();
    let deps = workspace["dependencies"].as_table().unwrap();
    let fix = |table: &mut Table| {
        for (name, dep) in table.iter_mut() {
            *dep = standalone_dependency(name, dep, deps, depth, &version);
        }
    };
    if let Some(Value::Table(table)) = manifest.get_mut("dependencies") {
        fix(table);
    }
    if let Some(Value::Table(targets)) = manifest.get_mut("target") {
        for (_, target) in targets.iter_mut() {
            let target = target.as_table_mut().unwrap();
            for section in DROPPED_SECTIONS {
                target.remove(*section);
            }
            if let Some(Value::Table(table)) = target.get_mut("dependencies") {
                fix(table);
            }
        }
    }
    format!(
        "# Written by the vaultspec build from `{member}/Cargo.toml`, standalone:\n\
         # nothing is inherited from the vaultspec workspace.\n\n{}",
        toml::to_string(&manifest).unwrap()
    )
}

fn is_inherited(value: &Value) -> bool {
    value
        .as_table()
        .and_then(|t| t.get("workspace"))
        .and_then(Value::as_bool)
        == Some(true)
}

/// A dependency with `workspace = true` resolved against the workspace's
/// `[workspace.dependencies]`; a path (relative to the workspace root) made
/// relative to the member `depth` folders deep, with the version beside it.
fn standalone_dependency(
    name: &str,
    dep: &Value,
    deps: &Table,
    depth: usize,
    version: &Value,
) -> Value {
    if !is_inherited(dep) {
        return dep.clone();
    }
    let own = dep.as_table().unwrap();
    let mut resolved = match deps.get(name) {
        Some(Value::String(version)) => {
            let mut t = Table::new();
            t.insert("version".into(), Value::String(version.clone()));
            t
        }
        Some(Value::Table(t)) => t.clone(),
        _ => panic!("[workspace.dependencies] has no `{name}`"),
    };
    if let Some(Value::String(path)) = resolved.get("path").cloned() {
        resolved.insert(
            "path".into(),
            Value::String(format!("{}{path}", "../".repeat(depth))),
        );
        resolved.entry("version").or_insert_with(|| version.clone());
    }
    for (key, value) in own {
        match key.as_str() {
            "workspace" => {}
            "features" => {
                let features: BTreeSet<String> = resolved
                    .get("features")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .chain(value.as_array().into_iter().flatten())
                    .filter_map(|f| f.as_str().map(str::to_owned))
                    .collect();
                let list = features.into_iter().map(Value::String).collect();
                resolved.insert("features".into(), Value::Array(list));
            }
            _ => {
                resolved.insert(key.clone(), value.clone());
            }
        }
    }
    if resolved.len() == 1
        && let Some(Value::String(version)) = resolved.get("version")
    {
        return Value::String(version.clone());
    }
    Value::Table(resolved)
}

/// The `[[package]]` entries of `lock` that `vaultspec-sdk` depends on,
/// itself included, as (name, text), in the lockfile's order.
fn lock_entries(lock: &str) -> Vec<(String, String)> {
    let entries: Vec<(Table, String)> = lock
        .split("\n[[package]]\n")
        .skip(1)
        .map(|chunk| {
            let text = format!("[[package]]\n{}\n", chunk.trim_end());
            let table: Table = chunk.parse().expect("a lockfile entry parses");
            (table, text)
        })
        .collect();
    let key = |t: &Table| {
        (
            t["name"].as_str().unwrap().to_owned(),
            t["version"].as_str().unwrap().to_owned(),
        )
    };
    let find = |reference: &str| -> usize {
        // `name`, `name version` or `name version (source)`.
        let mut words = reference.split(' ');
        let name = words.next().unwrap();
        let version = words.next();
        let found: Vec<usize> = entries
            .iter()
            .enumerate()
            .filter(|(_, (t, _))| {
                let (n, v) = key(t);
                n == name && version.is_none_or(|version| v == version)
            })
            .map(|(i, _)| i)
            .collect();
        assert_eq!(found.len(), 1, "`{reference}` names one lockfile entry");
        found[0]
    };
    let mut wanted = BTreeSet::new();
    let mut todo = vec![find("vaultspec-sdk")];
    while let Some(i) = todo.pop() {
        if !wanted.insert(i) {
            continue;
        }
        for dep in entries[i]
            .0
            .get("dependencies")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            todo.push(find(dep.as_str().unwrap()));
        }
    }
    wanted
        .into_iter()
        .map(|i| (key(&entries[i].0).0, entries[i].1.clone()))
        .collect()
}

//! Shared harness for the golden vectors of `tests/golden/`: load a
//! vector's `before/` into a [`MemStorage`], read its commands and recorded
//! outputs, and compare the resulting `.vault/` tree with `after/.vault`.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use vaultspec_vault::{Date, MemStorage};

/// The day the vectors were generated: passing it as today needs no
/// substitution in `today.txt` files.
pub fn golden_today() -> Date {
    Date::new(2026, 11, 30).expect("valid date")
}

/// The golden folder, `tests/golden/` at the repository root. It is in git,
/// so a checkout without it is broken: the tests fail rather than skip.
pub fn golden_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden");
    assert!(
        root.join("README.md").is_file(),
        "the golden vectors are missing from `{}`: restore the folder from git",
        root.display()
    );
    root
}

/// One golden vector.
pub struct Vector {
    /// Folder name, e.g. `01-add-research-topic`.
    pub name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Each command line split with POSIX shell rules.
    pub commands: Vec<Vec<String>>,
    /// The recorded output of each command.
    pub stdout: Vec<Value>,
    /// The recorded exit code of each command (`mcp` for MCP calls).
    pub exits: Vec<String>,
}

fn walk(dir: &Path, base: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, base, out);
        } else if let Ok(bytes) = fs::read(&p) {
            let rel = p
                .strip_prefix(base)
                .expect("under base")
                .to_string_lossy()
                .replace('\\', "/");
            out.insert(rel, bytes);
        }
    }
}

/// Whether a vault-relative path is runtime state the comparison ignores.
pub fn ignored(path: &str) -> bool {
    path.starts_with(".vault/data/") || path.starts_with(".vault/logs/") || path.ends_with(".lock")
}

impl Vector {
    /// Loads a vector by folder name.
    pub fn load(name: &str) -> Vector {
        let dir = golden_root().join(name);
        let commands = fs::read_to_string(dir.join("command.txt"))
            .expect("command.txt")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| shell_words::split(l).expect("shell words"))
            .collect();
        let stdout = serde_json::from_str(
            &fs::read_to_string(dir.join("stdout.json")).expect("stdout.json"),
        )
        .expect("json");
        let exits = fs::read_to_string(dir.join("exit.txt"))
            .expect("exit.txt")
            .lines()
            .map(str::to_string)
            .collect();
        Vector {
            name: name.to_string(),
            dir,
            commands,
            stdout,
            exits,
        }
    }

    /// Every file of `before/` (minus `.vault/data/`) in a fresh storage.
    pub fn before_storage(&self) -> MemStorage {
        let s = MemStorage::new();
        let mut files = BTreeMap::new();
        walk(
            &self.dir.join("before"),
            &self.dir.join("before"),
            &mut files,
        );
        for (p, b) in files {
            if !ignored(&p) {
                s.insert(&p, b);
            }
        }
        s
    }

    /// An input file of the vector (`body.md`, `manifest.txt`).
    pub fn input(&self, rel: &str) -> String {
        fs::read_to_string(self.dir.join("before").join(rel)).expect("input file")
    }

    /// The expected `.vault/` tree.
    pub fn expected_vault(&self) -> BTreeMap<String, Vec<u8>> {
        let mut files = BTreeMap::new();
        let after = self.dir.join("after");
        walk(&after.join(".vault"), &after, &mut files);
        files.retain(|p, _| !ignored(p));
        files
    }

    /// Copies `before/` (minus `.vault/data/`) into a fresh temporary folder.
    pub fn before_dir(&self) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut files = BTreeMap::new();
        walk(
            &self.dir.join("before"),
            &self.dir.join("before"),
            &mut files,
        );
        for (p, b) in files.into_iter().filter(|(p, _)| !ignored(p)) {
            let target = dir.path().join(&p);
            fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
            fs::write(target, b).expect("write");
        }
        dir
    }

    /// Differences between the storage's `.vault/` tree and `after/.vault`.
    pub fn vault_differences(&self, storage: &MemStorage) -> Vec<String> {
        self.tree_differences(storage.snapshot())
    }

    /// Differences between the `.vault/` tree under `root` and `after/.vault`.
    pub fn dir_differences(&self, root: &Path) -> Vec<String> {
        let mut files = BTreeMap::new();
        walk(&root.join(".vault"), root, &mut files);
        self.tree_differences(files)
    }

    /// Differences between a workspace-relative file map and `after/.vault`.
    pub fn tree_differences(&self, files: BTreeMap<String, Vec<u8>>) -> Vec<String> {
        let expected = self.expected_vault();
        let ours: BTreeMap<String, Vec<u8>> = files
            .into_iter()
            .filter(|(p, _)| p.starts_with(".vault/") && !ignored(p))
            .collect();
        let mut diffs = Vec::new();
        for (p, bytes) in &expected {
            match ours.get(p) {
                None => diffs.push(format!("missing `{p}`")),
                Some(b) if b != bytes => diffs.push(format!(
                    "`{p}` differs:\n--- expected\n{}\n--- ours\n{}",
                    String::from_utf8_lossy(bytes),
                    String::from_utf8_lossy(b)
                )),
                _ => {}
            }
        }
        for p in ours.keys().filter(|p| !expected.contains_key(*p)) {
            diffs.push(format!("unexpected `{p}`"));
        }
        diffs
    }
}

fn strip_root(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(s.strip_prefix("<ROOT>/").unwrap_or(s).to_string()),
        Value::Array(a) => Value::Array(a.iter().map(strip_root).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, v)| (k.clone(), strip_root(v))).collect())
        }
        other => other.clone(),
    }
}

/// Compares the keys of `ours` that the recorded `expected` also has (after
/// the `<ROOT>/` swap); message wording (`message`, `checks`) is skipped and
/// arrays of scalars are compared as sets. Returns each mismatch.
pub fn json_mismatches(ours: &Value, expected: &Value, at: &str) -> Vec<String> {
    let expected = strip_root(expected);
    let mut out = Vec::new();
    match (ours, &expected) {
        (Value::Object(o), Value::Object(e)) => {
            for (k, v) in o {
                if matches!(k.as_str(), "message" | "checks" | "hint") {
                    continue;
                }
                if let Some(ev) = e.get(k) {
                    out.extend(json_mismatches(v, ev, &format!("{at}.{k}")));
                }
            }
        }
        (Value::Array(a), Value::Array(b))
            if a.iter().chain(b).all(|v| !v.is_object() && !v.is_array()) =>
        {
            let mut a: Vec<String> = a.iter().map(Value::to_string).collect();
            let mut b: Vec<String> = b.iter().map(Value::to_string).collect();
            a.sort();
            b.sort();
            if a != b {
                out.push(format!("{at}: ours {a:?}, expected {b:?}"));
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                out.push(format!("{at}: {} items, expected {}", a.len(), b.len()));
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                out.extend(json_mismatches(x, y, &format!("{at}[{i}]")));
            }
        }
        (a, b) if a != b => out.push(format!("{at}: ours {a}, expected {b}")),
        _ => {}
    }
    out
}

//! Reading the reference's golden vectors (`tests/golden/`, part of the
//! repository) and comparing a workspace with a vector's `after/.vault` byte for byte.
//!
//! The vectors were made on 2026-11-30; files listed in a vector's
//! `today.txt` carry that date, so it is swapped for the run's own UTC date
//! before comparing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The day the vectors were generated.
pub const GENERATION_DAY: &str = "2026-11-30";

/// The golden folder, `tests/golden/`. It is in git, so a checkout without
/// it is broken: the tests fail rather than skip.
pub fn dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden");
    assert!(
        dir.join("README.md").is_file(),
        "the golden vectors are missing from `{}`: restore the folder from git",
        dir.display()
    );
    dir
}

/// Today's UTC date as `YYYY-MM-DD`, as the binary stamps it.
pub fn today() -> String {
    vaultspec_vault::Date::today_utc().to_string()
}

/// Copy a folder tree.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            // The bytes, not the mode: the vectors may be read-only (CI lays
            // `shared/` without write bits), and vaultspec refuses to replace
            // a read-only file.
            std::fs::write(&target, std::fs::read(entry.path()).unwrap()).unwrap();
        }
    }
}

fn ignored(relative: &str) -> bool {
    relative.starts_with("data/") || relative.starts_with("logs/") || relative.ends_with(".lock")
}

/// Every file under `root` (relative path → bytes), minus what the vectors
/// leave out (`data/`, `logs/`, `*.lock`).
pub fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let relative = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if !ignored(&relative) {
                    out.insert(relative, std::fs::read(&path).unwrap());
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The files of a vector's `today.txt` (paths relative to `after/`).
pub fn today_files(vector: &Path) -> Vec<String> {
    std::fs::read_to_string(vector.join("today.txt"))
        .map(|t| {
            t.lines()
                .map(|l| l.trim().to_owned())
                .filter(|l| !l.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// Compare `workspace/.vault` with the vector's `after/.vault` (and
/// `workspace/.vaultspec` with `after/.vaultspec`, for the vectors that
/// record it, such as `rule promote`); the differences, one line each
/// (empty when equal).
pub fn compare_vault(vector: &Path, workspace: &Path) -> Vec<String> {
    let mut diffs = compare_tree(vector, workspace, ".vault");
    if vector.join("after/.vaultspec").is_dir() {
        diffs.extend(compare_tree(vector, workspace, ".vaultspec"));
    }
    diffs
}

/// [`compare_vault`] for one top folder of the workspace.
fn compare_tree(vector: &Path, workspace: &Path, top: &str) -> Vec<String> {
    let today = today();
    let dated = today_files(vector);
    let mut expected = files(&vector.join("after").join(top));
    for (path, bytes) in expected.iter_mut() {
        if dated
            .iter()
            .any(|d| d.trim_start_matches("after/") == format!("{top}/{path}"))
        {
            *bytes = String::from_utf8_lossy(bytes)
                .replace(GENERATION_DAY, &today)
                .into_bytes();
        }
    }
    let mut actual = files(&workspace.join(top));
    // Files a vector's `before/` holds only to keep a folder in git.
    actual.retain(|path, _| !path.ends_with(".gitkeep"));
    let mut diffs = Vec::new();
    for (path, bytes) in &expected {
        match actual.get(path) {
            None => diffs.push(format!("missing `{top}/{path}`")),
            Some(got) if got != bytes => diffs.push(format!(
                "`{top}/{path}` differs:\n--- expected\n{}\n--- actual\n{}",
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(got)
            )),
            _ => {}
        }
    }
    for path in actual.keys().filter(|p| !expected.contains_key(*p)) {
        diffs.push(format!("unexpected `{top}/{path}`"));
    }
    diffs
}

//! `migrations run` on workspaces older releases of the reference made:
//! the documents come out byte for byte as `vaultspec-core` 0.3.9's own run
//! left them, the manifest as it rewrites it, and a second run changes
//! nothing.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::binary::run_in;

/// Every file under `dir`, by its path beneath it.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn copy(from: &Path, to: &Path) {
    for (rel, bytes) in files(from) {
        let path = to.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

/// The fixture `name` migrated by us: the workspace, and the run's JSON.
fn migrated(name: &str) -> (tempfile::TempDir, Value) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/migrations")
        .join(name);
    let ws = tempfile::tempdir().unwrap();
    std::fs::create_dir(ws.path().join(".git")).unwrap();
    copy(&fixture.join("before"), ws.path());
    let out = run_in(ws.path(), &["migrations", "run", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (ws, serde_json::from_slice(&out.stdout).unwrap())
}

/// The documents under `.vault/` (lock files aside) that differ from `after`.
fn differences(ws: &Path, after: &Path, skip_exec: bool) -> Vec<String> {
    let ours = files(&ws.join(".vault"));
    let theirs = files(&after.join(".vault"));
    let mut diffs = Vec::new();
    for (rel, bytes) in &theirs {
        if ours.get(rel) != Some(bytes) {
            diffs.push(format!("{rel} differs"));
        }
    }
    for rel in ours.keys() {
        let ours_only = !theirs.contains_key(rel) && !rel.starts_with("data/");
        if ours_only && !(skip_exec && rel.starts_with("exec/")) {
            diffs.push(format!("{rel} is only ours"));
        }
    }
    diffs
}

fn detail(run: &Value, name: &str) -> String {
    run["data"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name)
        .map(|i| i["detail"].as_str().unwrap().to_owned())
        .unwrap_or_default()
}

#[test]
fn a_0_1_20_workspace_gets_the_stamps_the_reference_gave_it() {
    let (ws, run) = migrated("0.1.20");
    let after =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/migrations/0.1.20/after");
    let diffs = differences(ws.path(), &after, false);
    assert!(diffs.is_empty(), "{diffs:#?}");
    assert_eq!(
        detail(&run, "modified_stamp_backfill"),
        "0.1.29  backfilled modified stamp on 6 documents"
    );
    assert_eq!(
        detail(&run, "body_hash_seed"),
        "0.1.55  seeded body fingerprint on 0 documents"
    );
    // The manifest as the reference rewrites it (its run stopped at 0.1.55).
    let manifest = std::fs::read_to_string(ws.path().join(".vaultspec/providers.json")).unwrap();
    let reference =
        std::fs::read_to_string(after.join("../before/.vaultspec/providers.json")).unwrap();
    assert!(
        manifest.contains("\"serial\": 4,") && reference.contains("\"serial\": 3,"),
        "{manifest}"
    );
    assert!(
        manifest.contains("\"vaultspec_version\": \"0.3.9\",\n  \"installed_at\""),
        "{manifest}"
    );
    assert!(
        manifest.ends_with("\"resolved_floor_version\": null\n}\n"),
        "{manifest}"
    );

    // A second run finds nothing pending and changes nothing.
    let before = files(ws.path());
    let again = run_in(ws.path(), &["migrations", "run", "--json"]);
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["status"], "unchanged", "{again}");
    let now = files(ws.path());
    let changed: Vec<&String> = now
        .keys()
        .filter(|k| before.get(*k) != now.get(*k) && !k.ends_with(".lock"))
        .collect();
    assert!(changed.is_empty(), "{changed:?}");
}

#[test]
fn every_rule_of_the_stamping_migrations_matches_the_reference() {
    let (ws, run) = migrated("edge");
    let after =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/migrations/edge/after");
    let diffs = differences(ws.path(), &after, true);
    assert!(diffs.is_empty(), "{diffs:#?}");
    assert_eq!(
        detail(&run, "modified_stamp_backfill"),
        "0.1.29  backfilled modified stamp on 12 documents (4 skipped, no defensible date)"
    );
    assert_eq!(
        detail(&run, "body_hash_seed"),
        "0.1.55  seeded body fingerprint on 3 documents (4 skipped, no frontmatter anchor)"
    );
}

#[test]
fn a_dry_run_lists_each_document_and_writes_nothing() {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/migrations/0.1.20/before");
    let ws = tempfile::tempdir().unwrap();
    std::fs::create_dir(ws.path().join(".git")).unwrap();
    copy(&fixture, ws.path());
    let before = files(ws.path());
    let out = run_in(ws.path(), &["migrations", "run", "--dry-run", "--json"]);
    let run: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(run["data"]["dry_run"], true);
    let stamps = run["data"]["migrations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "modified_stamp_backfill")
        .unwrap();
    assert_eq!(stamps["changes"].as_array().unwrap().len(), 6, "{stamps}");
    let now = files(ws.path());
    let changed: Vec<&String> = now
        .keys()
        .filter(|k| before.get(*k) != now.get(*k))
        .collect();
    assert!(changed.is_empty(), "{changed:?}");
}

//! `migrations run` on workspaces older releases of the reference made:
//! the documents come out byte for byte as `vaultspec-core` 0.3.9's own run
//! left them, the manifest as it rewrites it, and a second run changes
//! nothing.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::binary::run_in;

/// Every file under `dir`, by its path beneath it.
pub fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
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
    // Where the release predates the ledger template, the reference's run
    // stops and asks for it; its fixture was finished with the template in
    // place, and so is ours.
    let template = fixture.join("exec-ledger.md");
    if template.exists() {
        let templates = ws.path().join(".vaultspec/templates");
        std::fs::create_dir_all(&templates).unwrap();
        std::fs::copy(template, templates.join("exec-ledger.md")).unwrap();
    }
    let out = run_in(ws.path(), &["migrations", "run", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (ws, serde_json::from_slice(&out.stdout).unwrap())
}

/// A path beneath `.vault/` with a snapshot folder's time stamp taken out
/// (`.trash/20261206-204506-exec_ledger_fold/…` → `.trash/exec_ledger_fold/…`).
fn unstamped(rel: &str) -> String {
    match rel.strip_prefix(".trash/") {
        Some(rest) if rest.len() > 16 => format!(".trash/{}", &rest[16..]),
        _ => rel.to_owned(),
    }
}

/// A file's bytes with what depends on the day of the run made fixed: a
/// ledger's `modified:` stamp; of a snapshot's `RESTORE.txt`, only its
/// operation, counts and listing (the prose around them is each tool's own).
fn undated(rel: &str, bytes: &[u8]) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return bytes.to_vec();
    };
    if rel.ends_with("RESTORE.txt") {
        return text
            .split_inclusive('\n')
            .filter(|l| {
                l.starts_with("operation:") || l.starts_with("contents:") || l.starts_with("  ")
            })
            .collect::<String>()
            .into_bytes();
    }
    if !rel.ends_with("-ledger.md") {
        return bytes.to_vec();
    }
    text.split_inclusive('\n')
        .map(|line| {
            if line.starts_with("modified: '") {
                "modified: 'the day of the run'\n"
            } else {
                line
            }
        })
        .collect::<String>()
        .into_bytes()
}

/// The files under `.vault/` (lock files and `data/` aside), by path with
/// snapshot stamps taken out, with their bytes undated.
fn vault_files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    files(&root.join(".vault"))
        .into_iter()
        .filter(|(rel, _)| !rel.starts_with("data/"))
        .map(|(rel, bytes)| (unstamped(&rel), undated(&rel, &bytes)))
        .collect()
}

/// The documents under `.vault/` that differ from `after`.
fn differences(ws: &Path, after: &Path) -> Vec<String> {
    let ours = vault_files(ws);
    let theirs = vault_files(after);
    let mut diffs = Vec::new();
    for (rel, bytes) in &theirs {
        match ours.get(rel) {
            None => diffs.push(format!("{rel} is missing")),
            Some(mine) if mine != bytes => diffs.push(format!(
                "{rel} differs:\n--- ours\n{}\n--- reference\n{}",
                String::from_utf8_lossy(mine),
                String::from_utf8_lossy(bytes)
            )),
            Some(_) => {}
        }
    }
    for rel in ours.keys().filter(|rel| !theirs.contains_key(*rel)) {
        diffs.push(format!("{rel} is only ours"));
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
    let diffs = differences(ws.path(), &after);
    assert!(diffs.is_empty(), "{diffs:#?}");
    assert_eq!(
        detail(&run, "modified_stamp_backfill"),
        "0.1.29  backfilled modified stamp on 6 documents"
    );
    assert_eq!(
        detail(&run, "body_hash_seed"),
        "0.1.55  seeded body fingerprint on 0 documents"
    );
    assert_eq!(
        detail(&run, "exec_ledger_fold"),
        "0.1.58  folded 3 execution records into 1 ledger (3 scope path(s) recovered); 3 copied \
         to .vault/.trash/"
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

    assert_second_run_changes_nothing(ws.path());
}

#[test]
fn every_rule_of_the_stamping_migrations_matches_the_reference() {
    let (ws, run) = migrated("edge");
    let after =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/migrations/edge/after");
    let diffs = differences(ws.path(), &after);
    assert!(diffs.is_empty(), "{diffs:#?}");
    assert_eq!(
        detail(&run, "modified_stamp_backfill"),
        "0.1.29  backfilled modified stamp on 12 documents (4 skipped, no defensible date)"
    );
    assert_eq!(
        detail(&run, "body_hash_seed"),
        "0.1.55  seeded body fingerprint on 3 documents (4 skipped, no frontmatter anchor)"
    );
    assert_eq!(
        detail(&run, "exec_ledger_fold"),
        "0.1.58  folded 4 execution records into 2 ledgers (5 scope path(s) recovered); 2 left \
         intact; 1 current-schema record(s) untouched; 4 copied to .vault/.trash/"
    );
    assert_eq!(
        detail(&run, "exec_ledger_only"),
        "0.1.74  folded 2 execution records into 1 ledger (3 path(s) recovered, 0 summary(ies) \
         removed); 4 left intact; 2 copied to .vault/.trash/"
    );
}

/// A second run over a migrated workspace changes no file.
fn assert_second_run_changes_nothing(ws: &Path) {
    let before = files(ws);
    let again = run_in(ws, &["migrations", "run", "--json"]);
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["status"], "unchanged", "{again}");
    let now = files(ws);
    let changed: Vec<&String> = now
        .keys()
        .filter(|k| before.get(*k) != now.get(*k) && !k.ends_with(".lock"))
        .collect();
    assert!(changed.is_empty(), "{changed:?}");
}

#[test]
fn per_step_records_fold_into_ledgers_as_the_reference_folds_them() {
    // 0.1.73: body-v2 records with hand-filled rows, verify lines and notes,
    // a phase summary, and a ledger that `vault exec log` began.
    let (ws, run) = migrated("0.1.73");
    let after =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/migrations/0.1.73/after");
    let diffs = differences(ws.path(), &after);
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    assert_eq!(
        detail(&run, "exec_ledger_only"),
        "0.1.74  folded 4 execution records into 2 ledgers (6 path(s) recovered, 1 summary(ies) \
         removed); 1 left intact; 5 copied to .vault/.trash/"
    );
    assert_second_run_changes_nothing(ws.path());
}

#[test]
fn body_v1_records_fold_and_a_summary_stays_while_the_fold_writes_nothing_for_it() {
    let (ws, run) = migrated("0.1.57");
    let after =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/migrations/0.1.57/after");
    let diffs = differences(ws.path(), &after);
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    assert_eq!(
        detail(&run, "exec_ledger_fold"),
        "0.1.58  folded 3 execution records into 1 ledger (3 scope path(s) recovered); 1 left \
         intact; 3 copied to .vault/.trash/"
    );
    assert_eq!(
        detail(&run, "exec_ledger_only"),
        "0.1.74  no per-Step execution records to fold; 2 left intact"
    );
    assert_second_run_changes_nothing(ws.path());
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

/// The fixture `name`'s `before` tree in a fresh workspace.
fn workspace(name: &str) -> tempfile::TempDir {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/migrations")
        .join(name)
        .join("before");
    let ws = tempfile::tempdir().unwrap();
    std::fs::create_dir(ws.path().join(".git")).unwrap();
    copy(&fixture, ws.path());
    ws
}

#[test]
fn without_the_ledger_template_the_fold_scaffolds_the_ledger_from_ours() {
    // The reference stops here and asks for `install --upgrade`; the records
    // fold all the same, into a ledger made from our own template.
    let ws = workspace("0.1.57");
    let out = run_in(ws.path(), &["migrations", "run", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let folder = ws.path().join(".vault/exec/2026-03-04-cache-layer");
    let ledger = std::fs::read_to_string(folder.join("2026-03-04-cache-layer-ledger.md")).unwrap();
    assert!(
        ledger.contains(
            "- `S01` `T` `src/cache/client.py`\n- `S02` `T` `src/cache/evict.py`\n- `S03` `T` `src/app/reads.py`\n"
        ),
        "{ledger}"
    );
    assert!(!folder.join("2026-03-04-cache-layer-P01-S01.md").exists());
    let trash: Vec<_> = std::fs::read_dir(ws.path().join(".vault/.trash"))
        .unwrap()
        .collect();
    assert_eq!(trash.len(), 1);
    let snapshot = trash[0].as_ref().unwrap().path();
    assert!(
        snapshot
            .join("exec/2026-03-04-cache-layer/2026-03-04-cache-layer-P01-S01.md")
            .is_file()
    );
    assert!(
        std::fs::read_to_string(snapshot.join("RESTORE.txt"))
            .unwrap()
            .contains("operation: exec_ledger_fold\ncontents:  3 file(s),")
    );
}

#[test]
fn a_record_that_cannot_be_read_stops_the_run_and_nothing_changes() {
    let ws = workspace("0.1.57");
    std::fs::write(
        ws.path()
            .join(".vault/exec/2026-03-04-cache-layer/2026-03-04-cache-layer-P09-S09.md"),
        b"---\nstep_id: S09\n---\n\xff\xfe not text\n",
    )
    .unwrap();
    let before = files(ws.path());
    let out = run_in(ws.path(), &["migrations", "run", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let run: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        run.to_string()
            .contains("2026-03-04-cache-layer-P09-S09.md"),
        "{run}"
    );
    let now = files(ws.path());
    let changed: Vec<&String> = now
        .keys()
        .chain(before.keys())
        .filter(|k| before.get(*k) != now.get(*k) && !k.ends_with(".lock"))
        .collect();
    assert!(changed.is_empty(), "{changed:?}");
}

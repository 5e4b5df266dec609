//! The command line's answer cache: a read verb run again on an unchanged
//! vault answers from the cache, and never answers stale — not after an
//! edit of the same size in the same second, a file replaced by rename, a
//! modification time set back, a new file outside `.vault/` the verb
//! lists, a truncated entry or an entry from another workspace; and it writes nothing in the workspace.
//! The per-document rows a listing keeps hold to the same rules.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use vaultspec_test_support::TestVault;

use crate::binary::{command, text};

/// Longer than the window in which a change leaves a file racy (3 s).
const SETTLE: Duration = Duration::from_millis(3_200);

/// A workspace, its own answer cache, and the marker a run logs when it
/// answered from the cache.
struct Fixture {
    vault: TestVault,
    cache: tempfile::TempDir,
    adr: String,
}

const GIVEN: &str = "answer given from";
const KEPT: &str = "answer kept in";

impl Fixture {
    /// A vault of three documents, left to settle so its answers are kept.
    fn settled() -> Self {
        let vault = TestVault::new();
        let adr = vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
        vault.doc("research", "2026-03-01", "cache-layer", Some("eviction"));
        vault.doc("plan", "2026-03-03", "search", None);
        std::thread::sleep(SETTLE);
        Self {
            vault,
            cache: tempfile::tempdir().unwrap(),
            adr,
        }
    }

    fn run_with(&self, cache: &Path, args: &[&str]) -> Output {
        command(args)
            .arg("--target")
            .arg(self.vault.root())
            .env("VAULTSPEC_CACHE_DIR", cache)
            .env("VAULTSPEC_LOG_LEVEL", "debug")
            .output()
            .expect("running vaultspec")
    }

    /// Run `args` with this fixture's cache: (stdout, stderr).
    fn run(&self, args: &[&str]) -> (String, String) {
        let out = self.run_with(self.cache.path(), args);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            text(&out.stderr)
        );
        (text(&out.stdout), text(&out.stderr))
    }

    /// What `args` prints when run afresh, with no cache at all.
    fn fresh(&self, args: &[&str]) -> String {
        let mut args = args.to_vec();
        args.push("--no-cache");
        let (stdout, stderr) = self.run(&args);
        assert!(
            !stderr.contains(GIVEN) && !stderr.contains(KEPT),
            "{stderr}"
        );
        stdout
    }

    /// Run `args` until its answer is kept, then check it is given again.
    fn kept(&self, args: &[&str]) -> String {
        let (first, log) = self.run(args);
        assert!(log.contains(KEPT), "{args:?} kept no answer:\n{log}");
        let (again, log) = self.run(args);
        assert!(log.contains(GIVEN), "{args:?} was run again:\n{log}");
        assert_eq!(first, again);
        first
    }

    /// `args` after a change: not given from the cache, and equal to a run
    /// without one.
    fn not_stale(&self, args: &[&str], before: &str) -> String {
        let (now, log) = self.run(args);
        assert!(!log.contains(GIVEN), "a stale answer was given:\n{log}");
        assert_eq!(now, self.fresh(args));
        assert_ne!(now, before, "the change should show in the answer");
        now
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.vault.root().join(relative)
    }

    fn entries(&self) -> Vec<PathBuf> {
        let dir = self.cache.path().join("answers");
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        entries.sort();
        entries
    }
}

const LIST: &[&str] = &["vault", "list", "--json"];

/// Replace the first `from` in the file at `path` with `to`, of the same
/// length, and set its modification time back to what it was: only the
/// contents and the change time (which nobody can set) differ.
fn edit_in_place(path: &Path, from: &str, to: &str) {
    assert_eq!(from.len(), to.len());
    let text = std::fs::read_to_string(path).unwrap();
    let mtime = std::fs::metadata(path).unwrap().modified().unwrap();
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
}

/// Every file under `root` with its bytes, for comparing a tree before and
/// after.
fn tree(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                files.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn an_unchanged_vault_is_answered_from_the_cache_and_the_workspace_is_untouched() {
    let f = Fixture::settled();
    let before = tree(f.vault.root());
    let listed = f.kept(LIST);
    assert!(listed.contains(&f.adr), "{listed}");
    f.kept(&["status", "--json"]);
    f.kept(&["vault", "check", "all", "--json"]);
    // `--no-cache` runs the verb, and gives and keeps nothing.
    assert_eq!(f.fresh(LIST), listed);
    assert_eq!(
        tree(f.vault.root()),
        before,
        "a read wrote in the workspace"
    );
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(f.cache.path().join("answers"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o777, 0o700);
}

#[test]
fn an_edit_of_the_same_size_within_the_same_second_is_seen() {
    let f = Fixture::settled();
    let before = f.kept(LIST);
    edit_in_place(&f.path(&f.adr), "2026-03-02", "2026-03-09");
    let after = f.not_stale(LIST, &before);
    assert!(after.contains("2026-03-09"), "{after}");
    // The edit is racy, so that answer was not kept; once it settles the
    // new answer is.
    std::thread::sleep(SETTLE);
    assert_eq!(f.kept(LIST), after);
}

#[test]
fn a_file_replaced_by_rename_or_removed_is_seen() {
    let f = Fixture::settled();
    let before = f.kept(LIST);
    let path = f.path(&f.adr);
    let text = std::fs::read_to_string(&path).unwrap();
    let replacement = f.path(".vault/adr/replacement.tmp");
    std::fs::write(&replacement, text.replacen("2026-03-02", "2026-03-07", 1)).unwrap();
    std::fs::rename(&replacement, &path).unwrap();
    let after = f.not_stale(LIST, &before);
    std::fs::remove_file(&path).unwrap();
    f.not_stale(LIST, &after);
}

#[test]
fn a_change_outside_the_vault_that_check_all_reads_is_seen() {
    let f = Fixture::settled();
    let check = &["vault", "check", "all", "--json"];
    let before = f.kept(check);
    // `check all` lists `.vaultspec/` for entries the framework does not
    // know; the survey of `.vault/` alone would miss this one.
    f.vault.write(".vaultspec/notes.txt", "mine\n");
    let after = f.not_stale(check, &before);
    assert!(after.contains("notes.txt"), "{after}");
}

#[test]
fn a_truncated_corrupt_or_foreign_entry_is_ignored_and_replaced() {
    let f = Fixture::settled();
    let before = f.kept(LIST);
    let [entry] = f.entries().try_into().expect("one entry");
    let bytes = std::fs::read(&entry).unwrap();

    std::fs::write(&entry, &bytes[..bytes.len() / 2]).unwrap();
    let (out, log) = f.run(LIST);
    assert!(!log.contains(GIVEN) && log.contains(KEPT), "{log}");
    assert_eq!(out, before);

    let mut flipped = std::fs::read(&entry).unwrap();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x20;
    std::fs::write(&entry, &flipped).unwrap();
    let (out, log) = f.run(LIST);
    assert!(!log.contains(GIVEN), "{log}");
    assert_eq!(out, before);

    // Another workspace's answer put under this call's name: its key is not
    // this call's, so it is not given.
    let other = Fixture::settled();
    other.kept(LIST);
    let [foreign] = other.entries().try_into().expect("one entry");
    std::fs::copy(&foreign, &entry).unwrap();
    let (out, log) = f.run(LIST);
    assert!(!log.contains(GIVEN), "{log}");
    assert_eq!(out, before);
}

#[test]
fn an_entry_others_may_write_is_not_trusted() {
    use std::os::unix::fs::PermissionsExt;
    let f = Fixture::settled();
    let before = f.kept(LIST);
    let [entry] = f.entries().try_into().expect("one entry");
    std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o666)).unwrap();
    let (out, log) = f.run(LIST);
    assert!(!log.contains(GIVEN), "{log}");
    assert_eq!(out, before);
}

/// No link inside the workspace is followed, so no answer can depend on a
/// link's target: a linked `.vaultspec/config.toml`, a linked `.vaultspec/`
/// and a linked document are refused by name, the same before and after
/// their targets change, never answered from what the target said before.
#[test]
fn no_answer_depends_on_what_a_link_in_the_workspace_points_at() {
    let f = Fixture::settled();
    let shared = f.path("shared");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::write(shared.join("config.toml"), "editor = \"old-editor\"\n").unwrap();
    std::os::unix::fs::symlink("../shared/config.toml", f.path(".vaultspec/config.toml")).unwrap();
    std::thread::sleep(SETTLE);
    let get = ["config", "get", "editor"];
    for round in 0..2 {
        let (said, _) = f.run(&get);
        assert!(!said.contains("old-editor"), "round {round}: {said}");
        let out = f.run_with(f.cache.path(), &get);
        let told = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(told.contains("symbolic link"), "round {round}: {told}");
        std::fs::write(shared.join("config.toml"), "editor = \"new-editor\"\n").unwrap();
    }

    // A linked document is a bad file, whatever its target says.
    std::fs::write(
        shared.join("note.md"),
        "---\ntags: [\"#adr\"]\n---\n# first\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(
        "../../shared/note.md",
        f.path(".vault/adr/2026-03-05-linked-adr.md"),
    )
    .unwrap();
    std::thread::sleep(SETTLE);
    let listed = f.fresh(LIST);
    assert!(listed.contains("2026-03-05-linked-adr"), "{listed}");
    assert!(listed.contains("symbolic link"), "{listed}");
    assert!(!listed.contains("first"), "{listed}");
}

/// The per-document results a listing keeps (`kept-results`), as the log
/// tells them: how many of the corpus were recalled in one run.
fn recalled(log: &str) -> &str {
    let line = log
        .lines()
        .find(|l| l.contains("kept results:") && l.contains("recalled"))
        .unwrap_or_else(|| panic!("no kept results were asked for:\n{log}"));
    line.split("kept results: ").nth(1).unwrap()
}

/// After an edit the listing recalls every unchanged document's row and
/// reads the edited file alone; an edit that leaves size and modification
/// time as they were (only the change time moves) is never answered from
/// the row kept before it, not even once it has settled.
#[test]
fn a_listing_after_an_edit_reads_only_the_edited_file_and_never_a_stale_row() {
    let f = Fixture::settled();
    let (first, log) = f.run(LIST);
    assert_eq!(recalled(&log), "0 of 3 recalled");
    assert!(log.contains("kept results: 3 stored"), "{log}");

    edit_in_place(&f.path(&f.adr), "2026-03-02", "2026-03-09");
    // Racy now: read again, and its row not kept.
    let (now, log) = f.run(LIST);
    assert_eq!(recalled(&log), "2 of 3 recalled");
    assert!(!log.contains("stored"), "{log}");
    assert_ne!(now, first);
    assert_eq!(now, f.fresh(LIST));
    // Settled: the same size and modification time as the kept row's, so
    // only the change time tells the two apart.
    std::thread::sleep(SETTLE);
    let (settled, log) = f.run(LIST);
    assert_eq!(recalled(&log), "2 of 3 recalled");
    assert!(settled.contains("2026-03-09"), "{settled}");
    assert_eq!(settled, now);
    // Its new row is kept with the rest: a run with no answer to give
    // recalls all three.
    for entry in f.entries() {
        std::fs::remove_file(entry).unwrap();
    }
    let (again, log) = f.run(LIST);
    assert_eq!(recalled(&log), "3 of 3 recalled");
    assert_eq!(again, now);
}

/// A store of kept rows that is truncated, corrupt or another workspace's
/// is ignored: nothing is recalled from it and the listing is a fresh one.
#[test]
fn a_truncated_corrupt_or_foreign_store_of_kept_rows_gives_nothing() {
    let f = Fixture::settled();
    let (first, _) = f.run(LIST);
    let stores = |f: &Fixture| -> Vec<PathBuf> {
        let dir = f.cache.path().join("kept");
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect()
    };
    let [store] = stores(&f).try_into().expect("one store");
    let bytes = std::fs::read(&store).unwrap();
    let other = Fixture::settled();
    other.run(LIST);
    let [foreign] = stores(&other).try_into().expect("one store");
    let mut flipped = bytes.clone();
    let last = flipped.len() - 2;
    flipped[last] ^= 0x01;
    for (what, spoiled) in [
        ("truncated", bytes[..bytes.len() / 2].to_vec()),
        ("corrupt", flipped),
        ("foreign", std::fs::read(&foreign).unwrap()),
    ] {
        std::fs::write(&store, &spoiled).unwrap();
        for entry in f.entries() {
            std::fs::remove_file(entry).unwrap();
        }
        let (out, log) = f.run(LIST);
        assert_eq!(recalled(&log), "0 of 3 recalled", "{what}");
        assert_eq!(out, first, "{what}");
    }
}

/// Rounds of random changes, behind our back and through our verbs: edits
/// that move a document's date or feature (some of the same size with the
/// modification time put back), renames, removals, new documents, broken
/// frontmatter and `vault set-frontmatter`. After each round, once it has
/// settled and again at once after a further edit, the listing with its kept
/// rows is the listing run afresh.
#[test]
fn after_random_changes_the_kept_rows_list_what_a_fresh_run_lists() {
    let f = Fixture::settled();
    let full = ["vault", "list", "--json", "--limit", "500"];
    f.run(&full);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let docs = |f: &Fixture| -> Vec<PathBuf> {
        let mut docs: Vec<PathBuf> = ["adr", "research", "plan"]
            .iter()
            .flat_map(|t| {
                std::fs::read_dir(f.path(&format!(".vault/{t}")))
                    .into_iter()
                    .flatten()
            })
            .flatten()
            .map(|e| e.path())
            .collect();
        docs.sort();
        docs
    };
    for round in 0..3 {
        for step in 0..4 {
            let all = docs(&f);
            let path = all[next(all.len())].clone();
            let before = std::fs::read_to_string(&path).unwrap_or_default();
            match next(7) {
                0 => edit_in_place(&path, "2026-03-0", "2026-04-0"),
                1 => std::fs::write(&path, before.replace("#cache-layer", "#moved-on")).unwrap(),
                2 => {
                    let renamed =
                        path.with_file_name(format!("2026-05-0{step}-renamed-{round}-adr.md"));
                    std::fs::rename(&path, renamed).unwrap();
                }
                3 if all.len() > 2 => std::fs::remove_file(&path).unwrap(),
                4 => {
                    f.vault.doc(
                        "research",
                        &format!("2026-06-0{step}"),
                        "fresh",
                        Some(&format!("r{round}")),
                    );
                }
                5 => std::fs::write(
                    &path,
                    before.replacen("tags:", "tags: [\"#broken\"\n  - x", 1),
                )
                .unwrap(),
                _ => {
                    let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                    let out = f.run_with(
                        f.cache.path(),
                        &[
                            "vault",
                            "set-frontmatter",
                            &stem,
                            "--date",
                            "2026-07-01",
                            "--json",
                        ],
                    );
                    assert!(out.status.code().is_some(), "{}", text(&out.stderr));
                }
            }
        }
        std::thread::sleep(SETTLE);
        let (listed, _) = f.run(&full);
        assert_eq!(listed, f.fresh(&full), "round {round}, settled");
        // One more edit, not settled: read afresh, the rest recalled.
        let all = docs(&f);
        let path = &all[next(all.len())];
        let mut file = std::fs::OpenOptions::new().append(true).open(path).unwrap();
        std::io::Write::write_all(&mut file, b"\nanother line\n").unwrap();
        let (listed, log) = f.run(&full);
        assert!(!recalled(&log).starts_with("0 of"), "{log}");
        assert_eq!(listed, f.fresh(&full), "round {round}, racy");
    }
}

//! The native storage's tests: containment, atomic writes, bad files and
//! the one rule for links.

use super::*;

#[test]
fn stale_temps_are_swept_where_vaultspec_writes_and_nowhere_else() {
    let dir = tempfile::tempdir().unwrap();
    // A pid no process has (pid_max is at most 2^22).
    let dead = ".CLAUDE.md.vs-99999999-0123456789abcdef.tmp";
    let live = format!(".x.md.vs-{}-0123456789abcdef.tmp", std::process::id());
    for folder in ["", ".claude/rules", ".vault/adr", "src/deep"] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        std::fs::write(dir.path().join(folder).join(dead), "half").unwrap();
    }
    std::fs::write(dir.path().join(&live), "mine").unwrap();
    let storage = CapStorage::open(dir.path()).unwrap();
    assert_eq!(storage.sweep_stale_temps(), 3);
    for folder in ["", ".claude/rules", ".vault/adr"] {
        assert!(!dir.path().join(folder).join(dead).exists(), "{folder}");
    }
    assert!(
        dir.path().join("src/deep").join(dead).exists(),
        "below the root's own files"
    );
    assert!(dir.path().join(&live).exists(), "a live writer's temp file");
}

fn workspace() -> (tempfile::TempDir, CapStorage) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".vault/adr")).unwrap();
    std::fs::write(dir.path().join(".vault/adr/a.md"), "alpha").unwrap();
    std::fs::write(dir.path().join("outside.txt"), "root file").unwrap();
    let storage = CapStorage::open(dir.path()).unwrap();
    (dir, storage)
}

#[test]
fn setup_makes_and_removes_folders_without_following_links() {
    let (dir, storage) = workspace();
    let storage = storage.with_scope(WriteScope::Setup);
    storage.create_dir(".vaultspec/templates").unwrap();
    storage.create_dir(".vaultspec/templates").unwrap();
    assert!(dir.path().join(".vaultspec/templates").is_dir());
    storage.remove_dir(".vaultspec/templates").unwrap();
    assert!(!dir.path().join(".vaultspec/templates").exists());
    assert!(storage.remove_dir(".vault/adr").is_err(), "not empty");

    std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
    std::os::unix::fs::symlink("../elsewhere", dir.path().join(".vault/link")).unwrap();
    let err = storage.create_dir(".vault/link/inner").unwrap_err();
    assert!(matches!(err, StorageError::Denied { .. }), "{err}");
    assert!(!dir.path().join("elsewhere/inner").exists());
    assert!(storage.remove_dir(".vault/link").is_err());
    assert!(dir.path().join("elsewhere").is_dir());
    assert!(
        CapStorage::open(dir.path())
            .unwrap()
            .create_dir(".vaultspec/mcps")
            .is_err(),
        "a verb's scope may not make protected folders"
    );
}

#[test]
fn reads_and_lists_files_inside_the_workspace() {
    let (_dir, storage) = workspace();
    assert_eq!(storage.read(".vault/adr/a.md").unwrap(), b"alpha");
    let listed: Vec<_> = storage
        .list(".vault")
        .unwrap()
        .into_iter()
        .map(|e| e.path)
        .collect();
    assert_eq!(listed, [".vault/adr/a.md"]);
    assert!(storage.list(".vault/missing").unwrap().is_empty());
}

#[test]
fn reads_whole_files_of_any_size_and_refuses_those_over_the_limit() {
    let (dir, storage) = workspace();
    for (name, len) in [
        ("empty.md", 0),
        ("page.md", 4096),
        ("limit.md", MAX_FILE_BYTES as usize),
    ] {
        std::fs::write(dir.path().join(".vault").join(name), vec![b'x'; len]).unwrap();
        assert_eq!(
            storage.read(&format!(".vault/{name}")).unwrap().len(),
            len,
            "{name}"
        );
    }
    std::fs::write(
        dir.path().join(".vault/big.md"),
        vec![b'x'; MAX_FILE_BYTES as usize + 1],
    )
    .unwrap();
    assert!(matches!(
        storage.read(".vault/big.md"),
        Err(StorageError::TooLarge { .. })
    ));
}

#[test]
fn read_batches_hands_over_every_batch_in_order() {
    let (dir, storage) = workspace();
    std::fs::create_dir_all(dir.path().join(".vault/n")).unwrap();
    let paths: Vec<String> = (0..super::super::READ_BATCH * 2 + 3)
        .map(|i| format!(".vault/n/{i:04}.md"))
        .collect();
    for (i, path) in paths.iter().enumerate() {
        std::fs::write(dir.path().join(path), i.to_string()).unwrap();
    }
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut seen = Vec::new();
    storage.read_batches(&refs, &mut |offset, reads| {
        assert_eq!(
            offset,
            seen.len(),
            "batches come in order, each at its offset"
        );
        seen.extend(reads.into_iter().map(Result::unwrap));
    });
    let expected: Vec<Vec<u8>> = (0..paths.len())
        .map(|i| i.to_string().into_bytes())
        .collect();
    assert_eq!(seen, expected);
}

#[test]
fn a_symlink_leading_out_is_refused() {
    let (dir, storage) = workspace();
    std::os::unix::fs::symlink("/etc/passwd", dir.path().join(".vault/evil.md")).unwrap();
    let err = storage.read(".vault/evil.md").unwrap_err();
    assert!(err.to_string().contains("symbolic link"), "{err}");
    assert!(storage.write(".vault/evil.md", b"x").is_err());
    // Listed as what it is (nothing read through it), so a reader
    // names it.
    let listed: Vec<_> = storage
        .list(".vault")
        .unwrap()
        .into_iter()
        .map(|e| (e.path, e.size))
        .collect();
    assert_eq!(
        listed,
        [
            (".vault/adr/a.md".to_owned(), 5),
            (".vault/evil.md".to_owned(), 0)
        ]
    );
}

#[test]
fn writes_are_atomic_create_folders_and_stay_in_scope() {
    let (dir, storage) = workspace();
    storage.write(".vault/plan/new.md", b"new").unwrap();
    assert_eq!(
        std::fs::read(dir.path().join(".vault/plan/new.md")).unwrap(),
        b"new"
    );
    assert!(storage.write("outside.txt", b"x").is_err());
    assert!(storage.write(".vault/../outside.txt", b"x").is_err());
    assert_eq!(
        std::fs::read(dir.path().join("outside.txt")).unwrap(),
        b"root file"
    );
    let leftovers = std::fs::read_dir(dir.path().join(".vault/plan"))
        .unwrap()
        .count();
    assert_eq!(leftovers, 1, "a temporary file was left behind");
}

#[test]
fn rename_refuses_an_existing_destination_and_prunes_empty_folders() {
    let (dir, storage) = workspace();
    storage.write(".vault/research/b.md", b"beta").unwrap();
    assert!(matches!(
        storage.rename(".vault/adr/a.md", ".vault/research/b.md"),
        Err(StorageError::AlreadyExists { .. })
    ));
    storage
        .rename(".vault/adr/a.md", ".vault/_archive/adr/a.md")
        .unwrap();
    assert!(!dir.path().join(".vault/adr").exists());
    assert_eq!(storage.read(".vault/_archive/adr/a.md").unwrap(), b"alpha");
}

#[test]
fn a_budget_refuses_reads_past_it() {
    let (_dir, storage) = workspace();
    let storage = storage.with_read_budget(7);
    storage.read(".vault/adr/a.md").unwrap();
    assert!(matches!(
        storage.read(".vault/adr/a.md"),
        Err(StorageError::BudgetExceeded { .. })
    ));
}

fn denied_reason(err: StorageError) -> String {
    match err {
        StorageError::Denied { reason, .. } => reason,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn no_change_goes_through_a_symlinked_folder() {
    let (dir, storage) = workspace();
    std::os::unix::fs::symlink("..", dir.path().join(".vault/up")).unwrap();
    let reason = denied_reason(storage.write(".vault/up/src/x.rs", b"x").unwrap_err());
    assert!(
        reason.contains("`.vault/up` is a symbolic link"),
        "{reason}"
    );
    assert!(
        !dir.path().join("src").exists(),
        "a folder was made through the link"
    );
    let reason = denied_reason(storage.write(".vault/up/outside.txt", b"x").unwrap_err());
    assert!(reason.contains("`.vault/up`"), "{reason}");
    let reason = denied_reason(storage.remove(".vault/up/outside.txt").unwrap_err());
    assert!(reason.contains("`.vault/up`"), "{reason}");
    let reason = denied_reason(
        storage
            .rename(".vault/adr/a.md", ".vault/up/moved.md")
            .unwrap_err(),
    );
    assert!(reason.contains("`.vault/up`"), "{reason}");
    let reason = denied_reason(
        storage
            .rename(".vault/up/outside.txt", ".vault/in.md")
            .unwrap_err(),
    );
    assert!(reason.contains("`.vault/up`"), "{reason}");
    assert_eq!(
        std::fs::read(dir.path().join("outside.txt")).unwrap(),
        b"root file"
    );
    assert!(dir.path().join(".vault/adr/a.md").exists());
    // Nor does a read, though the link stays inside the workspace.
    let err = storage.read(".vault/up/outside.txt").unwrap_err();
    assert!(
        err.to_string().contains("`.vault/up` is a symbolic link"),
        "{err}"
    );
}

#[test]
fn a_tree_nested_past_the_depth_limit_is_listed_down_to_it() {
    let (dir, storage) = workspace();
    let mut deep = dir.path().join(".vault");
    for _ in 0..MAX_LIST_DEPTH + 20 {
        deep.push("d");
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("x.md"), "deep").unwrap();
    let listed = storage.list(".vault").unwrap();
    let deepest = listed
        .iter()
        .map(|e| e.path.matches('/').count())
        .max()
        .unwrap();
    assert_eq!(deepest, MAX_LIST_DEPTH, "{listed:?}");
    assert!(listed.iter().any(|e| e.path == ".vault/adr/a.md"));
}

/// The one rule for links inside a workspace: none is followed. What a
/// read, a listing or a check sees does not depend on a link's target,
/// so no cache keyed by the stamps of what it read can be misled by one.
#[test]
fn no_read_listing_or_check_follows_a_link_inside_the_workspace() {
    let (dir, storage) = workspace();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/inner")).unwrap();
    std::fs::write(root.join("docs/inner/real.md"), "target").unwrap();
    std::os::unix::fs::symlink(
        "../../docs/inner/real.md",
        root.join(".vault/adr/linked.md"),
    )
    .unwrap();
    std::os::unix::fs::symlink("../docs/inner", root.join(".vault/folder")).unwrap();
    // A linked document is listed, as what it is, and its read refused.
    let listed = storage.list(".vault").unwrap();
    let linked = listed
        .iter()
        .find(|e| e.path == ".vault/adr/linked.md")
        .unwrap();
    assert_eq!(linked.size, 0);
    let err = storage.read(".vault/adr/linked.md").unwrap_err();
    assert!(err.to_string().contains("it is a symbolic link"), "{err}");
    assert!(storage.exists(".vault/adr/linked.md").unwrap());
    // A linked folder is listed as an entry, never entered.
    assert!(listed.iter().any(|e| e.path == ".vault/folder"));
    assert!(!listed.iter().any(|e| e.path.starts_with(".vault/folder/")));
    assert!(storage.read(".vault/folder/real.md").is_err());
    assert!(storage.exists(".vault/folder/real.md").is_err());
    // A linked top folder is not listed through either.
    std::os::unix::fs::symlink("docs", root.join(".vaultspec")).unwrap();
    let err = storage.list(".vaultspec").unwrap_err();
    assert!(err.to_string().contains("it is a symbolic link"), "{err}");
    let err = storage.read(".vaultspec/inner/real.md").unwrap_err();
    assert!(
        err.to_string().contains("`.vaultspec` is a symbolic link"),
        "{err}"
    );
    // The whole workspace, listed from its root, enters no link.
    let all = storage.list("").unwrap();
    assert!(all.iter().any(|e| e.path == "docs/inner/real.md"));
    assert!(!all.iter().any(|e| e.path.starts_with(".vaultspec/")));
}

#[test]
fn a_symlinked_vault_folder_takes_no_writes() {
    let (dir, storage) = workspace();
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    std::os::unix::fs::symlink("docs", dir.path().join(".vaultspec")).unwrap();
    let reason = denied_reason(
        storage
            .write(".vaultspec/templates/a.md", b"x")
            .unwrap_err(),
    );
    assert!(
        reason.contains("`.vaultspec` is a symbolic link"),
        "{reason}"
    );
    assert!(!dir.path().join("docs/templates").exists());
}

#[test]
fn a_file_with_another_hard_link_is_not_read_replaced_moved_or_removed() {
    let (dir, storage) = workspace();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret");
    std::fs::write(&secret, "secret").unwrap();
    std::fs::hard_link(&secret, dir.path().join(".vault/linked.md")).unwrap();
    let err = storage.read(".vault/linked.md").unwrap_err();
    assert!(
        err.to_string()
            .contains("`.vault/linked.md`: it has 2 hard links"),
        "{err}"
    );
    for err in [
        storage.write(".vault/linked.md", b"x").unwrap_err(),
        storage
            .rename(".vault/linked.md", ".vault/moved.md")
            .unwrap_err(),
        storage.remove(".vault/linked.md").unwrap_err(),
    ] {
        assert!(denied_reason(err).contains("has 2 hard links"));
    }
    assert_eq!(std::fs::read(&secret).unwrap(), b"secret");
    assert!(dir.path().join(".vault/linked.md").exists());
    // Anywhere in the workspace: a symlink from any folder could lead
    // to the same file, so a hard link outside the vault is refused too.
    std::fs::hard_link(dir.path().join("outside.txt"), dir.path().join("twin.txt")).unwrap();
    assert!(
        storage
            .read("twin.txt")
            .unwrap_err()
            .to_string()
            .contains("has 2 hard links")
    );
}

#[test]
fn a_read_only_file_is_not_replaced_and_others_keep_their_mode() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, storage) = workspace();
    let locked = dir.path().join(".vault/adr/a.md");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
    let err = storage.write(".vault/adr/a.md", b"changed").unwrap_err();
    assert!(err.to_string().contains("read-only (mode 0444)"), "{err}");
    assert_eq!(std::fs::read(&locked).unwrap(), b"alpha");
    assert_eq!(
        std::fs::metadata(&locked).unwrap().permissions().mode() & 0o7777,
        0o444
    );

    let private = dir.path().join(".vault/adr/private.md");
    std::fs::write(&private, "mine").unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
    storage
        .write(".vault/adr/private.md", b"still mine")
        .unwrap();
    assert_eq!(std::fs::read(&private).unwrap(), b"still mine");
    assert_eq!(
        std::fs::metadata(&private).unwrap().permissions().mode() & 0o7777,
        0o600
    );
}

#[test]
fn a_fifo_is_listed_so_its_reader_can_report_it() {
    let (dir, storage) = workspace();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        dir.path().join(".vault/adr/pipe.md"),
        FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    let listed: Vec<_> = storage
        .list(".vault")
        .unwrap()
        .into_iter()
        .map(|e| e.path)
        .collect();
    assert_eq!(listed, [".vault/adr/a.md", ".vault/adr/pipe.md"]);
    let err = storage.read(".vault/adr/pipe.md").unwrap_err();
    assert!(err.to_string().contains("a FIFO"), "{err}");
}

#[test]
fn special_files_are_refused_at_once_naming_what_they_are() {
    let (dir, storage) = workspace();
    let fifo = dir.path().join(".vaultspec/config.toml");
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        FileType::Fifo,
        rustix::fs::Mode::from(0o600),
        0,
    )
    .unwrap();
    // Without the defence this read would wait for a writer forever.
    let err = storage.read(".vaultspec/config.toml").unwrap_err();
    assert_eq!(
        err.to_string(),
        "reading `.vaultspec/config.toml`: it is a FIFO, not a regular file"
    );
    let socket = std::os::unix::net::UnixListener::bind(dir.path().join(".vault/sock.md")).unwrap();
    let err = storage.read(".vault/sock.md").unwrap_err();
    assert!(
        err.to_string()
            .contains("it is a socket, not a regular file"),
        "{err}"
    );
    drop(socket);
    let err = storage.read(".vault/adr").unwrap_err();
    assert!(
        err.to_string()
            .contains("it is a folder, not a regular file"),
        "{err}"
    );
}

#[test]
fn a_write_never_follows_a_link_at_its_own_name() {
    let (dir, storage) = workspace();
    std::os::unix::fs::symlink("../outside.txt", dir.path().join(".vault/inside-link.md")).unwrap();
    let reason = denied_reason(storage.write(".vault/inside-link.md", b"x").unwrap_err());
    assert!(reason.contains("symbolic link"), "{reason}");
    assert_eq!(
        std::fs::read(dir.path().join("outside.txt")).unwrap(),
        b"root file"
    );
}

#[test]
fn renames_and_removes_respect_the_protected_folders() {
    let (dir, storage) = workspace();
    std::fs::create_dir_all(dir.path().join(".vaultspec/verbs")).unwrap();
    std::fs::write(dir.path().join(".vaultspec/verbs/v.wasm"), "component").unwrap();
    assert!(
        storage
            .rename(".vault/adr/a.md", ".vaultspec/verbs/x.wasm")
            .is_err()
    );
    assert!(
        storage
            .rename(".vaultspec/verbs/v.wasm", ".vault/v.wasm")
            .is_err()
    );
    assert!(storage.remove(".vaultspec/verbs/v.wasm").is_err());
    assert!(storage.write(".vaultspec/workspace.json", b"{}").is_err());
    assert!(dir.path().join(".vaultspec/verbs/v.wasm").exists());
    assert!(!dir.path().join(".vaultspec/workspace.json").exists());
    storage.write(".vaultspec/providers.json", b"{}").unwrap();
}

#[test]
fn the_write_budget_refuses_changes_past_it() {
    let (dir, storage) = workspace();
    let storage = storage.with_write_budget(10, 3);
    storage.write(".vault/a.md", b"123456").unwrap();
    let err = storage.write(".vault/b.md", b"12345").unwrap_err();
    assert_eq!(
        err.to_string(),
        "changing `.vault/b.md` would exceed this call's write budget of 10 bytes"
    );
    assert!(!dir.path().join(".vault/b.md").exists());
    storage.rename(".vault/a.md", ".vault/c.md").unwrap();
    storage.remove(".vault/c.md").unwrap();
    let err = storage.remove(".vault/adr/a.md").unwrap_err();
    assert!(
        matches!(
            err,
            StorageError::WriteBudgetExceeded {
                limit: 3,
                unit: "files",
                ..
            }
        ),
        "{err}"
    );
    assert!(dir.path().join(".vault/adr/a.md").exists());
}

#[test]
fn removing_prunes_empty_folders_below_the_top_only() {
    let (dir, storage) = workspace();
    storage.write(".vault/x/y/z.md", b"z").unwrap();
    storage.remove(".vault/x/y/z.md").unwrap();
    assert!(!dir.path().join(".vault/x").exists());
    storage.remove(".vault/adr/a.md").unwrap();
    assert!(!dir.path().join(".vault/adr").exists());
    assert!(dir.path().join(".vault").is_dir(), "the top folder stays");
    assert!(matches!(
        storage.remove(".vault/adr/a.md"),
        Err(StorageError::NotFound { .. })
    ));
    assert!(matches!(
        storage.rename(".vault/none.md", ".vault/b.md"),
        Err(StorageError::NotFound { .. })
    ));
}

//! The same guarantee on a real folder through [`CapStorage`].

use std::fs;
use std::path::Path;

use vaultspec_vault::storage::JournalKey;
use vaultspec_vault::{CapStorage, Storage};

use crate::common::Vector;
use crate::harness::{Files, Vault, exercise, rename_cache_layer};

struct Disk {
    dir: tempfile::TempDir,
    storage: CapStorage,
}

fn walk(dir: &Path, base: &Path, out: &mut Files) {
    for e in fs::read_dir(dir).expect("read dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, base, out);
        } else {
            let rel = p
                .strip_prefix(base)
                .expect("under base")
                .to_string_lossy()
                .replace('\\', "/");
            out.insert(rel, fs::read(&p).expect("read file"));
        }
    }
}

impl Vault for Disk {
    fn storage(&self) -> &dyn Storage {
        &self.storage
    }
    fn files(&self) -> Files {
        let mut out = Files::new();
        walk(self.dir.path(), self.dir.path(), &mut out);
        out
    }
}

fn make(files: &Files) -> Box<dyn Vault> {
    let dir = tempfile::tempdir().expect("tempdir");
    for (p, b) in files {
        let target = dir.path().join(p);
        fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        fs::write(target, b).expect("write");
    }
    // The key the host would take from the user's state folder.
    let storage = CapStorage::open(dir.path())
        .expect("open the folder")
        .with_journal_key(JournalKey::new([42; 32]));
    Box::new(Disk { dir, storage })
}

#[test]
fn feature_rename_on_disk_is_all_or_nothing() {
    let v = Vector::load("31-feature-rename");
    let changes = exercise(
        "31-feature-rename on disk",
        &v.before_storage().snapshot(),
        &make,
        &rename_cache_layer,
    );
    assert!(changes >= 2);
}

//! Files that cannot be read as text: invalid UTF-8 and over the per-file
//! limit on disk; permission denied and a FIFO through a storage double
//! (as root every file is readable, and the listing of the real storage
//! holds regular files only).

use vaultspec_vault::Storage;
use vaultspec_vault::checks::Check;

use super::double::Failing;
use super::survive::{Bad, fix_keeps, readers_answer};
use super::vault::{ADR, INDEX, NOTE, Vault};

fn on_disk(bytes: Vec<u8>, problem: &str, named_by: Check) {
    let vault = Vault::new();
    vault.write(NOTE, &bytes);
    let bad = Bad {
        path: NOTE,
        named_by,
        problem: Some(problem),
    };
    readers_answer(&vault.storage(), &bad);
    let before = vault.files();
    fix_keeps(&vault.storage(), &before, || vault.files(), &[ADR, INDEX]);
    assert_eq!(
        std::fs::read(vault.root().join(NOTE)).unwrap(),
        bytes,
        "the bad file itself is untouched"
    );
}

#[test]
fn invalid_utf8_is_a_listed_document_and_links_to_it_are_kept() {
    let mut bytes = std::fs::read(Vault::new().root().join(NOTE)).unwrap();
    bytes.extend_from_slice(b"\xff\xfe trailing bytes\n");
    on_disk(bytes, "not valid UTF-8", Check::Encoding);
}

#[test]
fn a_file_over_the_limit_is_a_listed_document_and_links_to_it_are_kept() {
    let mut bytes = std::fs::read(Vault::new().root().join(NOTE)).unwrap();
    bytes.extend(std::iter::repeat_n(b'x', 1024 * 1024 + 1));
    on_disk(bytes, "limit", Check::Encoding);
}

fn through_double(message: &str) {
    let vault = Vault::new();
    std::fs::remove_file(vault.root().join(NOTE)).unwrap();
    let storage = Failing {
        inner: vault.storage(),
        path: NOTE.to_string(),
        message: message.to_string(),
    };
    let bad = Bad {
        path: NOTE,
        named_by: Check::Encoding,
        problem: Some(message),
    };
    readers_answer(&storage, &bad);
    let files = || {
        let s = vault.storage();
        s.list(".vault")
            .unwrap()
            .into_iter()
            .map(|e| (e.path.clone(), s.read(&e.path).unwrap()))
            .collect()
    };
    let before = files();
    fix_keeps(&storage, &before, files, &[ADR, INDEX]);
}

#[test]
fn a_file_denied_to_us_is_a_listed_document_and_links_to_it_are_kept() {
    through_double("Permission denied (os error 13)");
}

#[test]
fn a_fifo_the_storage_refuses_is_a_listed_document_and_links_to_it_are_kept() {
    through_double("not a regular file (a FIFO)");
}

#[test]
fn repair_keeps_every_link_to_an_undecodable_note() {
    let vault = Vault::new();
    let mut bytes = std::fs::read(vault.root().join(NOTE)).unwrap();
    bytes.extend_from_slice(b"\xff\n");
    vault.write(NOTE, &bytes);
    let before = vault.files();
    let storage = vault.storage();
    vaultspec_vault::checks::repair(
        &storage,
        &vaultspec_vault::checks::RepairOptions::new(super::vault::today()),
    )
    .expect("repair runs");
    let after = vault.files();
    for path in [ADR, INDEX] {
        let text = String::from_utf8_lossy(&after[path]).into_owned();
        assert!(
            text.contains("[[2026-01-01-f-note-research]]"),
            "{path} keeps its link: {text}"
        );
        assert_eq!(after[path], before[path], "{path} is left byte for byte");
    }
}

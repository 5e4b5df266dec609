//! The vault the bad-input tests share: a research note, an ADR and a
//! feature index that both link to it, fixed once so that a second fixing
//! run has nothing to do; and the ways a file can go bad.

use std::collections::BTreeMap;
use std::path::Path;

use vaultspec_vault::checks::{Options, run_all};
use vaultspec_vault::{CapStorage, Date, Storage};

/// The day every run uses.
pub fn today() -> Date {
    Date::new(2026, 11, 30).expect("valid date")
}

/// The research note the other documents link to (the one that goes bad).
pub const NOTE: &str = ".vault/research/2026-01-01-f-note-research.md";
/// The ADR that links to the note in `related:` and in its body.
pub const ADR: &str = ".vault/adr/2026-01-02-f-choice-adr.md";
/// The feature index, which links to both.
pub const INDEX: &str = ".vault/index/f.index.md";
/// A second research note, unrelated to the bad one.
pub const OTHER: &str = ".vault/research/2026-01-03-f-other-research.md";

const NOTE_TEXT: &str = "---\ntags:\n  - '#research'\n  - '#f'\ndate: '2026-01-01'\nrelated: []\n---\n\n# `f` research: `note`\n\nThe eviction policy we measured: zanzibar quokka.\n";
const OTHER_TEXT: &str = "---\ntags:\n  - '#research'\n  - '#f'\ndate: '2026-01-03'\nrelated:\n  - '[[2026-01-02-f-choice-adr]]'\n---\n\n# `f` research: `other`\n\nA second note about marmalade.\n";
const ADR_TEXT: &str = "---\ntags:\n  - '#adr'\n  - '#f'\ndate: '2026-01-02'\nrelated:\n  - '[[2026-01-01-f-note-research]]'\n---\n\n# `f` adr: `choice` | (**status:** `accepted`)\n\n## Problem Statement\n\nWe must choose, as [[2026-01-01-f-note-research]] explains.\n\n## Considerations\n\nSome.\n\n## Constraints\n\nNone.\n\n## Implementation\n\nDo it.\n\n## Rationale\n\nBecause.\n\n## Consequences\n\nFew.\n";
const INDEX_TEXT: &str = "---\ntags:\n  - '#index'\n  - '#f'\ndate: '2026-01-01'\ngenerated: true\nrelated:\n  - '[[2026-01-01-f-note-research]]'\n  - '[[2026-01-02-f-choice-adr]]'\n  - '[[2026-01-03-f-other-research]]'\n---\n\n# `f` feature index\n";

/// A vault on disk in a temporary folder.
pub struct Vault {
    dir: tempfile::TempDir,
}

impl Vault {
    /// The shared vault, already run through `check all --fix` once.
    pub fn new() -> Vault {
        let dir = tempfile::tempdir().expect("temp dir");
        let vault = Vault { dir };
        for (path, text) in [
            (NOTE, NOTE_TEXT),
            (ADR, ADR_TEXT),
            (INDEX, INDEX_TEXT),
            (OTHER, OTHER_TEXT),
        ] {
            vault.write(path, text.as_bytes());
        }
        run_all(&vault.storage(), &Options::fix(today())).expect("first fixing run");
        vault
    }

    /// The workspace root.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// A fresh storage over the workspace.
    pub fn storage(&self) -> CapStorage {
        CapStorage::open(self.root()).expect("open the workspace")
    }

    /// Writes `bytes` at workspace-relative `path`, creating folders.
    pub fn write(&self, path: &str, bytes: &[u8]) {
        let full = self.root().join(path);
        std::fs::create_dir_all(full.parent().expect("a parent")).expect("mkdir");
        std::fs::write(full, bytes).expect("write");
    }

    /// Every file under `.vault/`, by path.
    pub fn files(&self) -> BTreeMap<String, Vec<u8>> {
        let storage = self.storage();
        storage
            .list(".vault")
            .expect("list")
            .into_iter()
            .filter_map(|e| storage.read(&e.path).ok().map(|b| (e.path, b)))
            .collect()
    }
}

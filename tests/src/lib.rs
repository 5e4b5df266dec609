//! What the end-to-end tests share: test guest components and vault fixtures.
//!
//! The guests under `tests/guests/` are built once (release, their own target
//! folder) by this crate's build script; [`guests`] names each component's
//! path. [`TestVault`] makes a throwaway workspace, and [`cache_dir`] is the
//! one compiled-component cache every test shares.

use std::path::{Path, PathBuf};

pub mod contract;
pub mod golden;

/// Paths of the test guest components, one constant per guest.
pub mod guests {
    include!(concat!(env!("OUT_DIR"), "/guests.rs"));
}

/// The compiled-component cache shared by every test run: inside the target
/// folder, so `cargo clean` clears it and tests never compile a guest twice.
pub fn cache_dir() -> PathBuf {
    let out = PathBuf::from(env!("OUT_DIR"));
    out.ancestors()
        .nth(4)
        .expect("OUT_DIR is deep enough")
        .join("test-component-cache")
}

/// A throwaway workspace: a temporary folder with `.vaultspec/` and `.vault/`.
pub struct TestVault {
    dir: tempfile::TempDir,
}

impl TestVault {
    /// An empty workspace.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("creating a temporary workspace");
        std::fs::create_dir_all(dir.path().join(".vaultspec")).unwrap();
        std::fs::create_dir_all(dir.path().join(".vault")).unwrap();
        Self { dir }
    }

    /// The workspace root.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Write a file at a workspace-relative path, creating folders.
    pub fn write(&self, path: &str, text: &str) -> &Self {
        let full = self.root().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
        self
    }

    /// Add a document with the canonical frontmatter of its type.
    pub fn doc(&self, doc_type: &str, date: &str, feature: &str, topic: Option<&str>) -> String {
        let stem = match topic {
            Some(topic) => format!("{date}-{feature}-{topic}-{doc_type}"),
            None => format!("{date}-{feature}-{doc_type}"),
        };
        let path = format!(".vault/{doc_type}/{stem}.md");
        let text = format!(
            "---\ntags:\n  - '#{doc_type}'\n  - '#{feature}'\ndate: '{date}'\nmodified: '{date}'\nrelated: []\n---\n\n# `{feature}` {doc_type}\n\nSome words about {feature}.\n"
        );
        self.write(&path, &text);
        path
    }

    /// Read a workspace-relative file, if it exists.
    pub fn read(&self, path: &str) -> Option<String> {
        std::fs::read_to_string(self.root().join(path)).ok()
    }
}

impl Default for TestVault {
    fn default() -> Self {
        Self::new()
    }
}

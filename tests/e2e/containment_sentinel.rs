//! Hostile links around the lock sentinels the host makes itself under
//! `.vault/data/`: a symlinked folder or sentinel is refused by name, no
//! sentinel is made or locked through it, nothing appears outside `.vault/`,
//! and the host serves the next call once the link is gone.

use std::path::Path;

use serde_json::json;
use vaultspec_host::sentinel;
use vaultspec_test_support::{TestVault, guests};

use crate::mcp::{Session, text};
use crate::support::{assert_host_still_serves, call, load, quick, stdout};

/// Every entry under `dir`, recursively, as paths relative to it.
fn entries(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            out.push(path.strip_prefix(dir).unwrap().display().to_string());
            if path.is_dir() && !path.is_symlink() {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A workspace whose `src/` holds one file, and `.vault/data` linked to it.
fn linked_data_folder() -> TestVault {
    let vault = TestVault::new();
    vault.write("src/lib.rs", "fn main() {}\n");
    std::os::unix::fs::symlink("../src", vault.root().join(".vault/data")).unwrap();
    vault
}

#[test]
fn a_verb_write_does_not_make_the_docs_domain_sentinel_through_a_linked_data_folder()
-> anyhow::Result<()> {
    let vault = linked_data_folder();
    let probe = load(guests::PROBE)?;
    let outcome = call(
        &probe,
        "probe write",
        &[".vault/notes/a.md", "text"],
        &vault,
        quick(),
    )?;
    let said = stdout(&outcome);
    assert_eq!(outcome.exit_code, Some(1), "the write went ahead: {said}");
    assert!(
        said.contains(sentinel::DOCS_DOMAIN) && said.contains("`.vault/data` is a symbolic link"),
        "{said}"
    );
    assert!(outcome.changed.is_empty());
    assert!(vault.read(".vault/notes/a.md").is_none());
    assert_eq!(entries(&vault.root().join("src")), ["lib.rs"]);
    // A link at the sentinel's own name is not followed either.
    std::fs::remove_file(vault.root().join(".vault/data"))?;
    std::fs::create_dir(vault.root().join(".vault/data"))?;
    std::os::unix::fs::symlink(
        "../../src/owned.lock",
        vault.root().join(sentinel::DOCS_DOMAIN),
    )?;
    let outcome = call(
        &probe,
        "probe write",
        &[".vault/notes/a.md", "text"],
        &vault,
        quick(),
    )?;
    let said = stdout(&outcome);
    assert_eq!(outcome.exit_code, Some(1), "the write went ahead: {said}");
    assert!(said.contains("is a symbolic link"), "{said}");
    assert_eq!(entries(&vault.root().join("src")), ["lib.rs"]);
    std::fs::remove_file(vault.root().join(sentinel::DOCS_DOMAIN))?;
    assert_host_still_serves(&vault)?;
    assert!(vault.root().join(sentinel::DOCS_DOMAIN).is_file());
    Ok(())
}

#[test]
fn mcp_create_does_not_make_its_sentinels_through_a_linked_data_folder() -> anyhow::Result<()> {
    let vault = linked_data_folder();
    let session = Session::start(&vault, &[])?;
    let created = ".vault/research/2026-03-01-cache-layer-research.md";
    let arguments = json!({"documents": [{"feature": "cache-layer", "type": "research", "date": "2026-03-01"}]});
    let reply = session.call("create", arguments.clone())?;
    let said = format!("{} {}", text(&reply), json!(reply.structured_content));
    assert!(said.contains("`.vault/data` is a symbolic link"), "{said}");
    assert!(vault.read(created).is_none());
    assert_eq!(entries(&vault.root().join("src")), ["lib.rs"]);
    // The same server creates the document once the link is gone.
    std::fs::remove_file(vault.root().join(".vault/data"))?;
    let reply = session.call("create", arguments)?;
    assert_eq!(reply.is_error, Some(false), "{}", text(&reply));
    assert!(vault.read(created).is_some());
    assert!(
        vault
            .root()
            .join(sentinel::document_path(created))
            .is_file()
    );
    assert_host_still_serves(&vault)
}

//! A vault written only by the verbs passes every check.

use vaultspec_vault::checks::{Options, Severity, run_all};
use vaultspec_vault::{CapStorage, Date};

use super::*;

#[test]
fn a_vault_written_by_the_verbs_passes_every_check_without_errors() -> anyhow::Result<()> {
    let vault = built();
    vault.write("body.md", "# `cache-layer` research: `eviction`\n\n## Summary\n\nOld entries leave first.\n\n## Findings\n\nLRU works.\n");
    human(
        &vault,
        &[
            "vault",
            "set-body",
            "2026-03-01-cache-layer-eviction-research",
            "--body-file",
            "body.md",
        ],
    );
    human(
        &vault,
        &[
            "vault",
            "link",
            "add",
            "2026-03-05-cache-layer-plan",
            "2026-03-09-cache-layer-byte-cap-adr",
        ],
    );
    for adr in [
        "2026-03-03-cache-layer-size-cap-adr",
        "2026-03-09-cache-layer-byte-cap-adr",
    ] {
        human(
            &vault,
            &[
                "vault",
                "link",
                "add",
                adr,
                "2026-03-01-cache-layer-eviction-research",
            ],
        );
    }
    human(
        &vault,
        &[
            "vault",
            "rename",
            "2026-03-02-cache-layer-key-format-reference",
            "--to",
            "2026-03-02-cache-layer-keys-reference",
        ],
    );
    human(
        &vault,
        &[
            "vault",
            "adr",
            "supersede",
            "2026-03-03-cache-layer-size-cap-adr",
            "--by",
            "2026-03-09-cache-layer-byte-cap-adr",
        ],
    );
    human(&vault, &["vault", "feature", "index"]);
    std::fs::remove_file(vault.root().join("body.md"))?;
    let storage = CapStorage::open(vault.root())?;
    let results = run_all(&storage, &Options::check(Date::today_utc()))?;
    let errors: Vec<String> = results
        .iter()
        .flat_map(|r| &r.findings)
        .filter(|f| f.severity == Severity::Error)
        .map(|f| {
            format!(
                "{}: {} {}",
                f.check,
                f.path.as_deref().unwrap_or(""),
                f.message
            )
        })
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    Ok(())
}

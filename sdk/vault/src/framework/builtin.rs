//! The framework vaultspec ships: its rules, skills, personas and system
//! parts, embedded in the binary, and how a workspace's copy of each is
//! told apart from a person's edit.
//!
//! Texts live under `builtin/` in the same layout as `.vaultspec/`, so a
//! reader finds `builtin/skills/vaultspec-adr/SKILL.md` where `install`
//! puts it. A builtin rule's file name ends in `.builtin.md`; skills and
//! personas are the `vaultspec-` ones.

/// One file vaultspec ships, by its path under `.vaultspec/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuiltinFile {
    /// Path under `.vaultspec/` (`rules/vaultspec.builtin.md`).
    pub path: &'static str,
    /// Its text.
    pub text: &'static str,
}

macro_rules! builtin {
    ($($path:literal),* $(,)?) => {
        [$(BuiltinFile { path: $path, text: include_str!(concat!("builtin/", $path)) }),*]
    };
}

/// Every file of the builtin framework, and the vault schema reference
/// agents read beside it.
pub const FILES: [BuiltinFile; 34] = builtin![
    "agents/vaultspec-adr-researcher.md",
    "agents/vaultspec-code-reviewer.md",
    "agents/vaultspec-docs-curator.md",
    "agents/vaultspec-high-executor.md",
    "agents/vaultspec-low-executor.md",
    "agents/vaultspec-project-coordinator.md",
    "agents/vaultspec-reference-auditor.md",
    "agents/vaultspec-researcher.md",
    "agents/vaultspec-standard-executor.md",
    "agents/vaultspec-writer.md",
    "reference/vault-schema.md",
    "rules/vaultspec-cli.builtin.md",
    "rules/vaultspec-discovery.builtin.md",
    "rules/vaultspec.builtin.md",
    "skills/vaultspec-adr/SKILL.md",
    "skills/vaultspec-code-research/SKILL.md",
    "skills/vaultspec-code-review/SKILL.md",
    "skills/vaultspec-curate/SKILL.md",
    "skills/vaultspec-curate/references/adr-status-taxonomy.md",
    "skills/vaultspec-curate/references/reconciliation-playbook.md",
    "skills/vaultspec-documentation/SKILL.md",
    "skills/vaultspec-documentation/agents/editorial-reviewer.md",
    "skills/vaultspec-documentation/agents/wireframe-agent.md",
    "skills/vaultspec-documentation/references/diataxis-rules.md",
    "skills/vaultspec-documentation/references/prose-style-rules.md",
    "skills/vaultspec-execute/SKILL.md",
    "skills/vaultspec-projectmanager/SKILL.md",
    "skills/vaultspec-research/SKILL.md",
    "skills/vaultspec-team/SKILL.md",
    "skills/vaultspec-write/SKILL.md",
    "system/01-core.md",
    "system/02-operations.md",
    "system/03-vaultspec.md",
    "system/90-custom.md",
];

/// The builtin file at `path` (under `.vaultspec/`), if there is one.
pub fn file(path: &str) -> Option<&'static BuiltinFile> {
    FILES.iter().find(|f| f.path == path)
}

/// The files of one builtin source: `(path under .vaultspec/, text)`.
/// A skill has its whole folder; any other source its one file.
pub fn source_files(kind: super::Kind, name: &str) -> Vec<&'static BuiltinFile> {
    let main = kind.path(name);
    let main = main.strip_prefix(".vaultspec/").unwrap_or(&main).to_owned();
    match kind {
        super::Kind::Skill => {
            let folder = format!("skills/{name}/");
            FILES
                .iter()
                .filter(|f| f.path.starts_with(&folder))
                .collect()
        }
        _ => FILES.iter().filter(|f| f.path == main).collect(),
    }
}

/// The names of the builtin sources of one kind.
pub fn names(kind: super::Kind) -> Vec<&'static str> {
    let prefix = match kind {
        super::Kind::Rule => "rules/",
        super::Kind::Skill => "skills/",
        super::Kind::Agent => "agents/",
        super::Kind::System => "system/",
    };
    let mut names: Vec<&str> = FILES
        .iter()
        .filter_map(|f| f.path.strip_prefix(prefix))
        .map(|rest| match kind {
            super::Kind::Skill => rest.split('/').next().unwrap_or(rest),
            _ => rest.trim_end_matches(".md"),
        })
        .collect();
    names.dedup();
    names
}

/// Whether a source of `kind` named `name` is one vaultspec ships (or, by
/// its name, the reference shipped): restored by `restore`, refreshed by
/// `install --upgrade`.
pub fn is_builtin_name(kind: super::Kind, name: &str) -> bool {
    match kind {
        super::Kind::Rule => name.ends_with(".builtin"),
        super::Kind::System => names(kind).contains(&name),
        _ => name.starts_with("vaultspec-"),
    }
}

/// Whether `text` at `path` (under `.vaultspec/`) is what `vaultspec-core`
/// 0.3.9 shipped there: such a file is the reference's builtin, replaced by
/// ours on `install --upgrade`, never by a plain `sync`.
pub fn is_reference_builtin(path: &str, text: &str) -> bool {
    use sha2::{Digest, Sha256};
    let digest = hex::encode(Sha256::digest(text.as_bytes()));
    REFERENCE_DIGESTS
        .iter()
        .any(|(p, d)| *p == path && *d == digest)
}

/// The SHA-256 of each builtin file `vaultspec-core` 0.3.9 installs, by
/// its path under `.vaultspec/` (measured from a reference install).
const REFERENCE_DIGESTS: &[(&str, &str)] = &[
    (
        "agents/vaultspec-adr-researcher.md",
        "5dd0a8dff4720b742f8012ef91c654d738830efb41eb56c90badc48ed8262dc1",
    ),
    (
        "agents/vaultspec-code-reviewer.md",
        "84b2545aff6c32a9a2bc4fad28290e5f0608ce17e002095a12a683b47280eb6e",
    ),
    (
        "agents/vaultspec-docs-curator.md",
        "82fb412fd3b6e56b57f03ead459b846283807ffb40d334525beeb33fe05a8db6",
    ),
    (
        "agents/vaultspec-high-executor.md",
        "0062a5dee6f117ef1f9c2946f507a1eced0a8da3d20f7a75b6b43fc43b541eae",
    ),
    (
        "agents/vaultspec-low-executor.md",
        "c78ee6fb8cdd87c85d7d3c83852c38369bee9eaf74a84c56d09a43669e819401",
    ),
    (
        "agents/vaultspec-project-coordinator.md",
        "4c768e5e35db620bf463e30b961dfd8b664b9d272dcc4078bb6d90fe66f89114",
    ),
    (
        "agents/vaultspec-reference-auditor.md",
        "7ca1c5081f746c27c7cd477a09ad9392e49f330a6c8e38ebf3d53d185d3a2693",
    ),
    (
        "agents/vaultspec-researcher.md",
        "e7f719ca61c6c734810d81d032e844ac682c5bcf48d8229fe6bdd317e3f20d49",
    ),
    (
        "agents/vaultspec-standard-executor.md",
        "16dfca4d26ca4b3de9e82058dedc3682cdcda20dc7d26237014024730d0d8c14",
    ),
    (
        "agents/vaultspec-writer.md",
        "0f8732fd3e594ff9e6f850ab0d28e7e9d50265534630df889b5785f476bf24e5",
    ),
    (
        "rules/vaultspec-cli.builtin.md",
        "11c8f1a6c923a9b0feb2388fb482f67256401bd50614ff11e450bffa27198c76",
    ),
    (
        "rules/vaultspec-discovery.builtin.md",
        "a80129d04264d188966fdfc811e24890af0bf10e8d0b6b8c8ee96f41355f746c",
    ),
    (
        "rules/vaultspec.builtin.md",
        "e9b968a2332a59439cd1fc5fd804ff09117dcad266016a0b584bde62202b5127",
    ),
    (
        "skills/vaultspec-adr/SKILL.md",
        "82fa0d64ccc7d0d23a7f57b0d62d9dbac94468d34eb58c3b09487eced3b6d497",
    ),
    (
        "skills/vaultspec-code-research/SKILL.md",
        "38b76510a2c8d37ea6caf558f7a0f3bbdd0ac5a90962dd4ff6d479003b27ef76",
    ),
    (
        "skills/vaultspec-code-review/SKILL.md",
        "8d6edd301183bb285c99f39f69886aa45cd4eb39bbd94acfe148a7289c51690c",
    ),
    (
        "skills/vaultspec-curate/SKILL.md",
        "e770c5f5455e70790659409001691e601227139e43e28d58826b35caab151201",
    ),
    (
        "skills/vaultspec-curate/references/adr-status-taxonomy.md",
        "39de201dcdbba2bbbec742e927140e35e379e283932d87f25c8dec45e2d8907a",
    ),
    (
        "skills/vaultspec-curate/references/reconciliation-playbook.md",
        "1e936a673c54b39de56767aecc132a86042dc9dab89f19e2386020fa331a3b04",
    ),
    (
        "skills/vaultspec-documentation/SKILL.md",
        "e27c14eda85495ffd3e80c4e2e86cf9499092a3d524b9c32a3a76cdc8ea9c633",
    ),
    (
        "skills/vaultspec-documentation/agents/editorial-reviewer.md",
        "ddb914337823e4a88c76369096e80eadea90a1e31ded394497f0d17dd431f69a",
    ),
    (
        "skills/vaultspec-documentation/agents/wireframe-agent.md",
        "80c7fab7f3f668efa26ec5b2f234f82e2c4a37e77424f8a0d43be1f150c82b38",
    ),
    (
        "skills/vaultspec-documentation/references/diataxis-rules.md",
        "eaa642753643a7da6215c23f8d29406f362fecd78b5401b82b30e6812cc7ca35",
    ),
    (
        "skills/vaultspec-documentation/references/prose-style-rules.md",
        "6a7611daf665778732c88c5bebedcd5b369361689496d248fccac685fcc793b2",
    ),
    (
        "skills/vaultspec-execute/SKILL.md",
        "9b784d63a28659fa15acc54832d0f06c52544f3b5dcc68251db518c6f6f71ee5",
    ),
    (
        "skills/vaultspec-projectmanager/SKILL.md",
        "dcddfd721b318618543f3f50370c25bd6bd5ac08809747daa7e054659e9c37fd",
    ),
    (
        "skills/vaultspec-research/SKILL.md",
        "7ad63d03a69ca3d0c29d23b7f545c5ea5bcb1d7dfbef420e1658ac0ecb8e9d0b",
    ),
    (
        "skills/vaultspec-team/SKILL.md",
        "d61baf81a4602f099372547ca30b83bb4eb7d7302818c831d1e2be4abb3d3ada",
    ),
    (
        "skills/vaultspec-write/SKILL.md",
        "cb5ce968eaae94d77581e47b9b68bfa86bb4bef09149a7a365df53b3ad2ab071",
    ),
    (
        "system/01-core.md",
        "a6bd3b8f35ee05ece1b4e5e7e393d15c9bdab0d70efe8c835933a2b9c7ebdfa9",
    ),
    (
        "system/02-operations.md",
        "1d0dc9c71dc574de9c2857536f5879dbfaafb3dbdeb272e33c96562976a11ae4",
    ),
    (
        "system/03-vaultspec.md",
        "ca2beba0de7b23ab9a0e943bc065ede70622cc3b0692217180922d14cdc17215",
    ),
    (
        "system/90-custom.md",
        "3d344cc44cc166544351d02486caab3bc070b219db03199aefd2dd368c50bede",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::{Front, Kind};

    #[test]
    fn every_builtin_has_the_keys_its_kind_needs() {
        for kind in Kind::ALL {
            assert!(!names(kind).is_empty(), "{kind:?}");
            for name in names(kind) {
                assert!(is_builtin_name(kind, name), "{name}");
                let files = source_files(kind, name);
                let main = kind.path(name);
                let main = files
                    .iter()
                    .find(|f| format!(".vaultspec/{}", f.path) == main)
                    .unwrap_or_else(|| panic!("{main} is not shipped"));
                let front = Front::parse(main.text);
                let needs: &[&str] = match kind {
                    Kind::Rule => &["name"],
                    Kind::Skill => &["name", "description"],
                    Kind::Agent => &["description", "tier", "mode", "tools"],
                    Kind::System => &["order"],
                };
                for key in needs {
                    assert!(!front.text(key).is_empty(), "{} has no `{key}`", main.path);
                }
                assert!(main.text.ends_with('\n') && !main.text.ends_with("\n\n"));
            }
        }
        assert_eq!(names(Kind::Skill).len(), 10);
        assert_eq!(names(Kind::Agent).len(), 10);
        assert_eq!(names(Kind::Rule).len(), 3);
    }

    #[test]
    fn the_references_own_texts_are_recognised_and_ours_are_not_theirs() {
        assert_eq!(REFERENCE_DIGESTS.len(), 33);
        for file in FILES {
            assert!(!is_reference_builtin(file.path, file.text), "{}", file.path);
        }
    }
}

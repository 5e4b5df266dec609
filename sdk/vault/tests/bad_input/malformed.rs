//! Files whose frontmatter cannot be parsed, and a name with spaces: each is
//! reported precisely and no fixer touches it or what links to it.

use vaultspec_vault::checks::{Check, Options, run_all};

use super::survive::{Bad, fix_keeps, readers_answer};
use super::vault::{ADR, INDEX, NOTE, OTHER, Vault, today};

/// A fence never closed (the `related:` link would become body text).
const UNCLOSED: &str = "---\ntags:\n  - '#research'\n  - '#f'\ndate: '2026-01-01'\nrelated:\n  - '[[2026-01-03-f-other-research]]'\n\n# `f` research: `note`\n\nzanzibar.\n";
/// A list item with an unclosed quote.
const UNCLOSED_QUOTE: &str = "---\ntags:\n  - '#research\n  - '#f'\ndate: '2026-01-01'\nrelated:\n  - '[[2026-01-03-f-other-research]]'\n---\n\n# `f` research: `note`\n\nzanzibar.\n";
/// A flow list never closed.
const UNCLOSED_FLOW: &str = "---\ntags: ['#research', '#f'\ndate: '2026-01-01'\nrelated: []\n---\n\n# `f` research: `note`\n\nzanzibar.\n";

fn malformed(text: &str, line: usize) {
    let vault = Vault::new();
    vault.write(NOTE, text.as_bytes());
    let bad = Bad {
        path: NOTE,
        named_by: Check::Frontmatter,
        problem: Some(&format!("line {line}")),
    };
    readers_answer(&vault.storage(), &bad);
    let results = run_all(&vault.storage(), &Options::check(today())).unwrap();
    let finding = results
        .iter()
        .flat_map(|r| &r.findings)
        .find(|f| f.path.as_deref() == Some(NOTE) && f.message.contains("Malformed frontmatter"))
        .expect("a finding names the malformed frontmatter");
    assert!(
        finding.message.contains(&format!("line {line}")),
        "{}",
        finding.message
    );
    let before = vault.files();
    fix_keeps(
        &vault.storage(),
        &before,
        || vault.files(),
        &[NOTE, ADR, INDEX, OTHER],
    );
}

#[test]
fn an_unclosed_fence_is_reported_and_left_byte_for_byte() {
    malformed(UNCLOSED, 1);
}

#[test]
fn an_unclosed_quote_in_a_list_is_reported_and_left_byte_for_byte() {
    malformed(UNCLOSED_QUOTE, 3);
}

#[test]
fn an_unclosed_flow_list_is_reported_and_left_byte_for_byte() {
    malformed(UNCLOSED_FLOW, 2);
}

#[test]
fn a_name_with_spaces_is_reported_with_a_valid_name_and_not_renamed() {
    let vault = Vault::new();
    let spaced = ".vault/research/2026-01-01-f My Note.md";
    let text = std::fs::read(vault.root().join(NOTE)).unwrap();
    std::fs::remove_file(vault.root().join(NOTE)).unwrap();
    vault.write(spaced, &text);
    for path in [ADR, INDEX] {
        let t = std::fs::read_to_string(vault.root().join(path)).unwrap();
        vault.write(
            path,
            t.replace("2026-01-01-f-note-research", "2026-01-01-f My Note")
                .as_bytes(),
        );
    }
    let bad = Bad {
        path: spaced,
        named_by: Check::Structure,
        problem: None,
    };
    readers_answer(&vault.storage(), &bad);
    let results = run_all(&vault.storage(), &Options::fix(today())).unwrap();
    let structure = results
        .iter()
        .find(|r| r.check == Check::Structure)
        .unwrap();
    assert!(
        structure
            .findings
            .iter()
            .any(|f| f.path.as_deref() == Some(spaced)
                && f.message.contains("2026-01-01-f-my-note-research.md")),
        "the finding names a valid name: {structure:#?}"
    );
    assert_eq!(structure.fixed_count, 0, "nothing claims a fix");
    let after = vault.files();
    assert!(after.contains_key(spaced), "the file keeps its name");
    for path in [ADR, INDEX] {
        let text = String::from_utf8_lossy(&after[path]).into_owned();
        assert!(
            text.contains("'[[2026-01-01-f My Note]]'"),
            "{path} keeps its link: {text}"
        );
    }
    fix_keeps(
        &vault.storage(),
        &after,
        || vault.files(),
        &[spaced, ADR, INDEX],
    );
}

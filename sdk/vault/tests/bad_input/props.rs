//! The property of issue 14: over random vaults with random bad files,
//! `check all --fix` never reduces the set of links whose targets exist on
//! disk. Links are counted on the raw bytes of every file (so links inside
//! files the vault cannot parse count too); a target exists when a corpus
//! file has that stem.

use std::collections::BTreeSet;

use proptest::prelude::*;
use vaultspec_vault::MemStorage;
use vaultspec_vault::checks::{Options, run_all};

use super::vault::today;

/// How a generated document goes bad, if it does.
#[derive(Debug, Clone, Copy)]
enum Bad {
    Sound,
    NotUtf8,
    OverLimit,
    UnclosedFence,
    UnclosedQuote,
    UnclosedFlow,
    Spaces,
}

fn bad() -> impl Strategy<Value = Bad> {
    prop_oneof![
        4 => Just(Bad::Sound),
        1 => Just(Bad::NotUtf8),
        1 => Just(Bad::OverLimit),
        1 => Just(Bad::UnclosedFence),
        1 => Just(Bad::UnclosedQuote),
        1 => Just(Bad::UnclosedFlow),
        1 => Just(Bad::Spaces),
    ]
}

/// One generated document: how it goes bad, its type, and the documents
/// (by index, or past the end: a target that does not exist) it links to.
fn spec() -> impl Strategy<Value = (Bad, bool, Vec<usize>)> {
    (
        bad(),
        any::<bool>(),
        prop::collection::vec(0usize..10, 0..4),
    )
}

fn stem(i: usize, bad: Bad, adr: bool) -> String {
    let kind = if adr { "adr" } else { "research" };
    match bad {
        Bad::Spaces => format!("2026-01-0{} f Topic {i}", i % 9 + 1),
        _ => format!("2026-01-0{}-f-topic{i}-{kind}", i % 9 + 1),
    }
}

fn write_vault(specs: &[(Bad, bool, Vec<usize>)]) -> MemStorage {
    let s = MemStorage::new();
    let stems: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(i, (b, adr, _))| stem(i, *b, *adr))
        .collect();
    for (i, (bad, adr, links)) in specs.iter().enumerate() {
        let kind = if *adr { "adr" } else { "research" };
        let targets: Vec<String> = links
            .iter()
            .map(|&j| {
                stems
                    .get(j)
                    .cloned()
                    .unwrap_or_else(|| format!("2026-02-01-f-gone{j}-research"))
            })
            .collect();
        let related: String = targets.iter().map(|t| format!("  - '[[{t}]]'\n")).collect();
        let (tags, fence) = match bad {
            Bad::UnclosedQuote => (format!("tags:\n  - '#{kind}\n  - '#f'\n"), "---\n"),
            Bad::UnclosedFlow => (format!("tags: ['#{kind}', '#f'\n"), "---\n"),
            Bad::UnclosedFence => (format!("tags:\n  - '#{kind}'\n  - '#f'\n"), ""),
            _ => (format!("tags:\n  - '#{kind}'\n  - '#f'\n"), "---\n"),
        };
        let related = if related.is_empty() {
            "related: []\n".to_string()
        } else {
            format!("related:\n{related}")
        };
        let mut bytes = format!("---\n{tags}date: '2026-01-0{}'\n{related}{fence}\n# `f` {kind}: `topic{i}`\n\nWords.\n", i % 9 + 1).into_bytes();
        match bad {
            Bad::NotUtf8 => bytes.extend_from_slice(b"\xff\xfe\n"),
            Bad::OverLimit => bytes.extend(std::iter::repeat_n(b'x', 1024 * 1024)),
            _ => {}
        }
        s.insert(&format!(".vault/{kind}/{}.md", stems[i]), bytes);
    }
    s
}

/// `(source, target)` for every `[[target]]` in any file whose target is
/// the stem of a corpus file.
fn live_links(s: &MemStorage) -> BTreeSet<(String, String)> {
    let files = s.snapshot();
    let stems: BTreeSet<String> = files
        .keys()
        .filter_map(|p| p.rsplit('/').next()?.strip_suffix(".md"))
        .map(str::to_lowercase)
        .collect();
    let mut out = BTreeSet::new();
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes);
        for part in text.split("[[").skip(1) {
            let Some((target, _)) = part.split_once("]]") else {
                continue;
            };
            let target = target
                .split('|')
                .next()
                .unwrap_or(target)
                .trim()
                .to_lowercase();
            if stems.contains(&target) {
                out.insert((path.clone(), target));
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn check_all_fix_never_loses_a_link_to_an_existing_file(specs in prop::collection::vec(spec(), 2..8)) {
        let s = write_vault(&specs);
        let before = live_links(&s);
        run_all(&s, &Options::fix(today())).expect("check all --fix runs");
        let after = live_links(&s);
        let lost: Vec<_> = before.difference(&after).collect();
        prop_assert!(lost.is_empty(), "links lost: {:?}", lost);
    }
}

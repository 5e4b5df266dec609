//! Containment of the native workspace storage, as a property: over random
//! hostile workspace layouts (symlinks inside, up and out, chains, dangling
//! links, a vault root swapped for a link, hard links to outside and to the
//! workspace's own files, FIFOs, sockets, planted temp names) and random
//! sequences of workspace calls with random path strings, made through
//! [`CapStorage`] with the write scope the sandbox gives write-capable verbs:
//! every call returns, no read or listing passes a link (none inside a
//! workspace is followed, so none returns data from outside the root),
//! nothing outside `.vault/` and `.vaultspec/` changes (the outside tree
//! included, whatever links reach it), and no protected path is created,
//! changed or removed.
//!
//! Reads of the workspace's own files outside the vault folders (`src/…`) are
//! allowed: the read interface is workspace-wide. `PROPTEST_CASES` runs more
//! cases; `CONTAINMENT_PROPERTY` (some of `returns`, `reads`, `writes`,
//! `protected`, comma-separated) checks those promises only, to shrink to
//! the simplest breach of one.
#![cfg(unix)]

mod containment;

use containment::case;
use containment::layout::{
    Hostile, Layout, LinkTo, PLANT_DIRS, PLANT_NAMES, RootSwap, Source, TRAP_TARGETS, Trap,
};
use containment::ops::Call;
use proptest::prelude::*;
use proptest::sample::select;

/// Temp names planted per trap, from the count of successful writes on: the
/// counter of a storage that numbers its temp files is at least that count
/// and seldom much more (a write failing after its temp file was made).
const TRAP_WINDOW: u64 = 600;

fn link_to() -> impl Strategy<Value = LinkTo> {
    prop_oneof![
        Just(LinkTo::Parent),
        Just(LinkTo::GrandParent),
        Just(LinkTo::RootAbs),
        (0..PLANT_NAMES.len()).prop_map(LinkTo::Sibling),
        Just(LinkTo::VaultDir),
        (0..PLANT_NAMES.len()).prop_map(LinkTo::VaultEntry),
        Just(LinkTo::WorkspaceFile),
        Just(LinkTo::GitDir),
        Just(LinkTo::GitConfig),
        Just(LinkTo::ProtectedDir),
        Just(LinkTo::OutsideDir),
        Just(LinkTo::OutsideDirAbs),
        Just(LinkTo::OutsideFile),
        Just(LinkTo::OutsideFileAbs),
        Just(LinkTo::Dangling),
    ]
}

fn source() -> impl Strategy<Value = Source> {
    select(
        &[
            Source::OutsideFile,
            Source::OutsideDeep,
            Source::WorkspaceFile,
            Source::GitConfig,
            Source::Protected,
            Source::VaultFile,
        ][..],
    )
}

fn hostile() -> impl Strategy<Value = Hostile> {
    let at = (0..PLANT_DIRS.len(), 0..PLANT_NAMES.len());
    prop_oneof![
        5 => (at.clone(), link_to()).prop_map(|((dir, name), to)| Hostile::Symlink { dir, name, to }),
        2 => (at.clone(), source()).prop_map(|((dir, name), to)| Hostile::HardLink { dir, name, to }),
        1 => at.clone().prop_map(|(dir, name)| Hostile::Fifo { dir, name }),
        1 => at.prop_map(|(dir, name)| Hostile::Socket { dir, name }),
    ]
}

fn root_swap() -> impl Strategy<Value = RootSwap> {
    prop_oneof![
        12 => Just(RootSwap::None),
        1 => (0..2usize).prop_map(RootSwap::ToSrc),
        1 => (0..2usize).prop_map(RootSwap::ToGit),
        1 => (0..2usize).prop_map(RootSwap::ToOutside),
        1 => (0..2usize).prop_map(RootSwap::ToMoved),
    ]
}

fn layout() -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec((0..PLANT_DIRS.len(), 0..PLANT_NAMES.len()), 0..4),
        any::<[bool; 6]>(),
        prop::collection::vec(hostile(), 0..12),
        root_swap(),
        prop::option::weighted(
            0.3,
            (0..TRAP_TARGETS.len(), source()).prop_map(|(target, to)| Trap { target, to }),
        ),
    )
        .prop_map(|(extra_files, protected, hostile, swap, trap)| Layout {
            extra_files,
            protected,
            hostile,
            swap,
            trap,
        })
}

/// Path components the calls are built from: the planted names, the real
/// folders, and the odd ones `check_path` must refuse.
const SEGMENTS: &[&str] = &[
    "up",
    "out",
    "link",
    "chain",
    "hl",
    "fifo",
    "x.md",
    "config.toml",
    "sock",
    "adr",
    "deep",
    "plan",
    "templates",
    "verbs",
    "mcps",
    "hooks",
    "triggers",
    "item",
    "workspace.json",
    ".env",
    "src",
    "main.rs",
    ".git",
    "config",
    "outside",
    "outsider.txt",
    "a.md",
    "t.md",
    ".vault",
    ".vaultspec",
    "old.vault",
    "..",
    ".",
    "",
];

/// Where a call's path most often starts.
const STARTS: &[&str] = &[
    ".vault",
    ".vaultspec",
    ".vault/adr",
    ".vault/up",
    ".vault/adr/up",
    ".vault/out",
    ".vault/link",
    ".vault/chain",
    ".vault/plan",
    ".vaultspec/templates",
    ".vaultspec/verbs",
    ".vault/adr/deep",
    "src",
];

/// Whole path strings an attacker would try.
const HOSTILE_PATHS: &[&str] = &[
    "",
    "/etc/passwd",
    "..",
    "../outside/outsider.txt",
    ".vault/../src/main.rs",
    ".vault/up/src/main.rs",
    ".vault/up/.git/config",
    ".vault/adr/up/up/src/main.rs",
    ".vault/plan/up/.git/config",
    ".vault/out/outsider.txt",
    ".vault/link",
    ".vault/hl",
    ".vault/fifo",
    ".vaultspec/config.toml",
    ".vaultspec/verbs/evil.wasm",
    ".vaultspec/verbs",
    ".vaultspec/hooks",
    ".vaultspec/mcps/m.json",
    ".vaultspec/triggers/t.toml",
    ".vaultspec/workspace.json",
    ".vaultspec/.env",
    ".vault/t.md",
    ".vault/adr/a.md",
    "@ROOT/src/main.rs",
    "@OUT/outsider.txt",
    "@ROOT/.vault/adr/a.md",
    ".vault//x.md",
    "./.vault/x.md",
    ".vault\\x.md",
    ".vault/x\0.md",
    ".vault/",
    "src/main.rs",
    ".git/config",
];

fn path() -> impl Strategy<Value = String> {
    let segments = prop::collection::vec(
        prop_oneof![4 => select(SEGMENTS).prop_map(str::to_owned), 1 => "[a-z.]{1,6}"],
        0..4,
    );
    let planted = || (0..16usize).prop_map(|k| format!("@P{k}"));
    prop_oneof![
        6 => (select(STARTS), segments.clone()).prop_map(|(start, rest)| {
            std::iter::once(start.to_owned()).chain(rest).collect::<Vec<_>>().join("/")
        }),
        2 => segments.clone().prop_map(|rest| rest.join("/")),
        4 => select(HOSTILE_PATHS).prop_map(str::to_owned),
        4 => planted(),
        1 => (planted(), segments).prop_map(|(start, rest)| {
            std::iter::once(start).chain(rest).collect::<Vec<_>>().join("/")
        }),
        1 => "\\PC{0,12}",
    ]
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        3 => path().prop_map(Call::Read),
        1 => prop::collection::vec(path(), 1..4).prop_map(Call::ReadMany),
        1 => path().prop_map(Call::List),
        1 => path().prop_map(Call::Exists),
        4 => (path(), any::<u8>()).prop_map(|(p, n)| Call::Write(p, n)),
        2 => (path(), path()).prop_map(|(a, b)| Call::Rename(a, b)),
        2 => path().prop_map(Call::Remove),
    ]
}

fn run_case(layout: &Layout, calls: &[Call]) -> Result<(), TestCaseError> {
    let broken = case::run(layout, calls, TRAP_WINDOW).map_err(TestCaseError::fail)?;
    prop_assert!(
        broken.is_empty(),
        "containment broken:\n{}",
        broken.join("\n")
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        failure_persistence: None,
        max_shrink_time: 120_000,
        ..ProptestConfig::default()
    })]

    #[test]
    fn hostile_layouts_and_paths_stay_contained(
        layout in layout(),
        calls in prop::collection::vec(call(), 1..30),
    ) {
        run_case(&layout, &calls)?;
    }
}

/// The fixed layout of the fuzz target, with the calls that broke each
/// promise on the storage before containment was fixed (a regression of
/// the harness itself as much as of the storage), and reads from `src/` of
/// a file hard-linked to one outside: one planted there, and the vault's
/// own `.vault/adr/hl` and `.vault/hl` reached through `src/out ->
/// ../.vault/adr` and `src/link -> ../.vault/hl`.
#[test]
fn the_known_escapes_are_contained() {
    let calls = [
        Call::Write(".vault/up/src/main.rs".into(), 1),
        Call::Write(".vault/plan/out/hooks/pre-commit".into(), 2),
        Call::Remove(".vault/up/.git/config".into()),
        Call::Rename(".vault/up/README.md".into(), ".vault/stolen.md".into()),
        Call::Read(".vault/hl".into()),
        Call::Read(".vault/fifo".into()),
        Call::Read("src/hl".into()),
        Call::Read("src/out/hl".into()),
        Call::Read("src/link".into()),
        Call::ReadMany(vec![
            ".vaultspec/config.toml".into(),
            ".vault/adr/hl".into(),
        ]),
        Call::Write(".vaultspec/verbs/evil.wasm".into(), 3),
        Call::Write(".vaultspec/workspace.json".into(), 4),
        Call::Write(".vault/t.md".into(), 5),
    ];
    if let Err(e) = run_case(&Layout::everything(), &calls) {
        panic!("{e}");
    }
}

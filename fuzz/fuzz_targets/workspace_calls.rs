//! Fuzzes the workspace host interface: each input decodes to a sequence of
//! workspace calls (read, read-many, list, exists, write, rename, remove)
//! whose path strings are spliced from hostile fragments and raw text, made
//! through `CapStorage` with the sandbox's write scope over a fresh hostile
//! layout (symlinks up and out, a FIFO, a socket, hard links to outside and
//! workspace files, protected paths, planted temp names). After each input:
//! every call returned, no read returned outside bytes, nothing outside
//! `.vault/` and `.vaultspec/` changed, and no protected path changed.
#![no_main]

#[path = "../../sdk/vault/tests/containment/mod.rs"]
mod containment;

use containment::case;
use containment::layout::Layout;
use containment::ops::Call;
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;

/// Pieces path strings are made of: every planted name and folder, the
/// protected paths, and the strings `check_path` must refuse.
const FRAGMENTS: &[&str] = &[
    ".vault",
    ".vaultspec",
    "adr",
    "deep",
    "plan",
    "templates",
    "verbs",
    "mcps",
    "hooks",
    "triggers",
    "workspace.json",
    ".env",
    "up",
    "out",
    "link",
    "chain",
    "hl",
    "fifo",
    "sock",
    "x.md",
    "config.toml",
    "a.md",
    "t.md",
    "item",
    "src",
    "main.rs",
    ".git",
    "config",
    "README.md",
    "outsider.txt",
    "old.vault",
    "..",
    ".",
    "",
    "/",
    "//",
    "\\",
    "\0",
    "@ROOT",
    "@OUT",
    "/etc/passwd",
    "~",
    " ",
    "\u{202e}",
    ".vault/up",
    ".vault/adr/up",
    ".vault/hl",
    ".vault/fifo",
    ".vault/plan/out",
    ".vaultspec/verbs",
    ".vault/t.md",
];

/// One part of a path: a fragment (joined with `/`) or raw text.
#[derive(Debug, Arbitrary)]
enum Part {
    Fragment(u8),
    Raw(String),
}

/// Where a path starts: most attacks begin inside a vault root or at a
/// planted link; the first (empty) start leaves the path to its parts.
const STARTS: &[&str] = &[
    "",
    ".vault",
    ".vaultspec",
    ".vault/up",
    ".vault/adr",
    ".vault/adr/up",
    ".vault/out",
    ".vault/link",
    ".vault/chain",
    ".vault/plan",
    ".vault/plan/out",
    ".vault/plan/chain",
    ".vaultspec/templates",
    ".vaultspec/verbs",
    "src",
];

/// The paths of everything planted in the fixed layout, starts too.
fn planted() -> &'static [String] {
    static PLANTED: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    PLANTED.get_or_init(|| Layout::everything().planted_paths())
}

/// A path: a start (one of [`STARTS`] or a planted path), then parts joined with `/` (raw text is spliced in
/// as it is, separators and all).
#[derive(Debug, Arbitrary)]
struct FuzzPath {
    start: u8,
    parts: Vec<Part>,
}

impl FuzzPath {
    fn text(&self) -> String {
        let planted = planted();
        let start = self.start as usize % (STARTS.len() + planted.len());
        let mut out = STARTS.get(start).map_or_else(
            || planted[start - STARTS.len()].clone(),
            |s| (*s).to_owned(),
        );
        for part in self.parts.iter().take(8) {
            match part {
                Part::Fragment(n) => {
                    if !out.is_empty() {
                        out.push('/');
                    }
                    out.push_str(FRAGMENTS[*n as usize % FRAGMENTS.len()]);
                }
                Part::Raw(text) => out.extend(text.chars().take(24)),
            }
        }
        out
    }
}

#[derive(Debug, Arbitrary)]
enum FuzzCall {
    Read(FuzzPath),
    ReadMany(Vec<FuzzPath>),
    List(FuzzPath),
    Exists(FuzzPath),
    Write(FuzzPath, u8),
    Rename(FuzzPath, FuzzPath),
    Remove(FuzzPath),
}

impl FuzzCall {
    fn call(&self) -> Call {
        match self {
            FuzzCall::Read(p) => Call::Read(p.text()),
            FuzzCall::ReadMany(ps) => {
                Call::ReadMany(ps.iter().take(8).map(FuzzPath::text).collect())
            }
            FuzzCall::List(p) => Call::List(p.text()),
            FuzzCall::Exists(p) => Call::Exists(p.text()),
            FuzzCall::Write(p, n) => Call::Write(p.text(), *n),
            FuzzCall::Rename(a, b) => Call::Rename(a.text(), b.text()),
            FuzzCall::Remove(p) => Call::Remove(p.text()),
        }
    }
}

/// Temp names planted from the count of successful writes on.
const TRAP_WINDOW: u64 = 32;

fuzz_target!(|calls: Vec<FuzzCall>| {
    let calls: Vec<Call> = calls.iter().take(24).map(FuzzCall::call).collect();
    if std::env::var_os("FUZZ_SHOW").is_some() {
        eprintln!("{calls:?}");
    }
    let broken = case::run(&Layout::everything(), &calls, TRAP_WINDOW).expect("run the calls");
    assert!(
        broken.is_empty(),
        "containment broken by {calls:#?}:\n{}",
        broken.join("\n")
    );
});

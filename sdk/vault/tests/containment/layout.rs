//! Hostile workspace layouts: a workspace with `.vault/` and `.vaultspec/`,
//! its own files outside them, a sibling tree outside the workspace, and
//! planted symlinks, hard links, FIFOs, sockets and temp-name traps.

use std::fs;
use std::io;
use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::{Path, PathBuf};

use super::{OUTSIDE_MARKER, WORKSPACE_MARKER};

/// Folders where hostile entries are planted: the vault roots, and `src`
/// (outside the write scope, but read like any workspace file).
pub const PLANT_DIRS: [&str; 8] = [
    ".vault",
    ".vault/adr",
    ".vault/adr/deep",
    ".vault/plan",
    ".vaultspec",
    ".vaultspec/templates",
    ".vaultspec/verbs",
    "src",
];

/// Names planted entries take; the path strings of the calls use them too.
pub const PLANT_NAMES: [&str; 9] = [
    "up",
    "out",
    "link",
    "chain",
    "hl",
    "fifo",
    "x.md",
    "config.toml",
    "sock",
];

/// The paths that decide what runs or what is trusted: no verb may create,
/// change or remove them.
pub const PROTECTED: [&str; 6] = [
    ".vaultspec/verbs",
    ".vaultspec/mcps",
    ".vaultspec/hooks",
    ".vaultspec/triggers",
    ".vaultspec/workspace.json",
    ".vaultspec/.env",
];

/// Files whose atomic-write temp names can be planted in advance.
pub const TRAP_TARGETS: [&str; 3] = [".vault/t.md", ".vaultspec/config.toml", ".vault/adr/a.md"];

/// Where a planted symlink points, relative to its own folder unless `Abs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkTo {
    /// `..`
    Parent,
    /// `../..`
    GrandParent,
    /// The workspace root by absolute path.
    RootAbs,
    /// Another planted name in the same folder (chains, loops, dangling).
    Sibling(usize),
    /// `.vault/adr`, reached from the link's folder.
    VaultDir,
    /// `.vault/<the planted name>`, reached from the link's folder.
    VaultEntry(usize),
    /// `src/main.rs`, a workspace file outside the vault.
    WorkspaceFile,
    /// The `.git` folder.
    GitDir,
    /// `.git/config`.
    GitConfig,
    /// `.vaultspec/verbs`, the catalog.
    ProtectedDir,
    /// The outside tree, relatively (`../../outside`).
    OutsideDir,
    /// The outside tree by absolute path.
    OutsideDirAbs,
    /// A file of the outside tree, relatively.
    OutsideFile,
    /// A file of the outside tree by absolute path.
    OutsideFileAbs,
    /// Nothing.
    Dangling,
}

/// The file a planted hard link shares its inode with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `outside/outsider.txt`.
    OutsideFile,
    /// `outside/deep/outsider2.txt`.
    OutsideDeep,
    /// `src/main.rs`.
    WorkspaceFile,
    /// `.git/config`.
    GitConfig,
    /// `.vaultspec/workspace.json` (created for the link when missing).
    Protected,
    /// `.vault/adr/a.md`.
    VaultFile,
}

/// One planted entry at `PLANT_DIRS[dir]/PLANT_NAMES[name]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hostile {
    /// A symbolic link.
    Symlink { dir: usize, name: usize, to: LinkTo },
    /// A hard link.
    HardLink { dir: usize, name: usize, to: Source },
    /// A FIFO: opening it for reading blocks until a writer comes.
    Fifo { dir: usize, name: usize },
    /// A Unix socket.
    Socket { dir: usize, name: usize },
}

/// A vault root replaced by a symlink (the real folder moves to `old<name>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootSwap {
    /// Both roots are real folders.
    None,
    /// `.vault` (0) or `.vaultspec` (1) points at `src`.
    ToSrc(usize),
    /// … at `.git`.
    ToGit(usize),
    /// … at the outside tree.
    ToOutside(usize),
    /// … at its own moved folder, which is outside the write scope by name.
    ToMoved(usize),
}

/// Hard links at the temp names an atomic write of `TRAP_TARGETS[target]`
/// could use (`.{name}.vs-{pid}-{n}.tmp`, `n` in the window the harness
/// gives), sharing the inode of `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trap {
    pub target: usize,
    pub to: Source,
}

/// A whole hostile layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Plain vault files at `(dir, name)`.
    pub extra_files: Vec<(usize, usize)>,
    /// Which of [`PROTECTED`] exist before the calls.
    pub protected: [bool; 6],
    pub hostile: Vec<Hostile>,
    pub swap: RootSwap,
    pub trap: Option<Trap>,
}

impl Layout {
    /// Every kind of hostile entry at once: the fixed layout of the fuzz target.
    pub fn everything() -> Self {
        let s = |dir, name, to| Hostile::Symlink { dir, name, to };
        Self {
            extra_files: vec![(0, 6), (5, 6)],
            protected: [true, true, false, true, true, true],
            hostile: vec![
                s(0, 0, LinkTo::Parent),
                s(1, 0, LinkTo::GrandParent),
                s(0, 1, LinkTo::OutsideDir),
                s(1, 1, LinkTo::OutsideDirAbs),
                s(0, 2, LinkTo::WorkspaceFile),
                s(1, 2, LinkTo::OutsideFile),
                s(2, 2, LinkTo::OutsideFileAbs),
                s(0, 3, LinkTo::Sibling(2)),
                s(1, 3, LinkTo::Sibling(0)),
                s(3, 0, LinkTo::RootAbs),
                s(3, 1, LinkTo::GitDir),
                s(3, 2, LinkTo::GitConfig),
                s(3, 3, LinkTo::ProtectedDir),
                s(2, 0, LinkTo::Dangling),
                s(5, 0, LinkTo::Parent),
                s(4, 1, LinkTo::VaultDir),
                Hostile::HardLink {
                    dir: 0,
                    name: 4,
                    to: Source::OutsideFile,
                },
                Hostile::HardLink {
                    dir: 1,
                    name: 4,
                    to: Source::OutsideFile,
                },
                Hostile::HardLink {
                    dir: 6,
                    name: 4,
                    to: Source::WorkspaceFile,
                },
                Hostile::HardLink {
                    dir: 2,
                    name: 4,
                    to: Source::GitConfig,
                },
                Hostile::HardLink {
                    dir: 5,
                    name: 4,
                    to: Source::Protected,
                },
                Hostile::HardLink {
                    dir: 3,
                    name: 4,
                    to: Source::OutsideDeep,
                },
                Hostile::Fifo { dir: 0, name: 5 },
                Hostile::Fifo { dir: 4, name: 7 },
                Hostile::Socket { dir: 0, name: 8 },
                Hostile::HardLink {
                    dir: 7,
                    name: 4,
                    to: Source::OutsideFile,
                },
                Hostile::Fifo { dir: 7, name: 5 },
                s(7, 1, LinkTo::VaultDir),
                s(7, 2, LinkTo::VaultEntry(4)),
            ],
            swap: RootSwap::None,
            trap: Some(Trap {
                target: 0,
                to: Source::OutsideFile,
            }),
        }
    }
}

impl Layout {
    /// The workspace paths of the planted entries and extra files (as the
    /// calls name them, before any root swap).
    pub fn planted_paths(&self) -> Vec<String> {
        let at = |dir: usize, name: usize| {
            format!(
                "{}/{}",
                PLANT_DIRS[dir % PLANT_DIRS.len()],
                PLANT_NAMES[name % PLANT_NAMES.len()]
            )
        };
        let hostile = self.hostile.iter().map(|h| match *h {
            Hostile::Symlink { dir, name, .. }
            | Hostile::HardLink { dir, name, .. }
            | Hostile::Fifo { dir, name }
            | Hostile::Socket { dir, name } => at(dir, name),
        });
        self.extra_files
            .iter()
            .map(|&(dir, name)| at(dir, name))
            .chain(hostile)
            .collect()
    }
}

/// Where layouts are built when it can be written: a memory file system,
/// where creating and deleting the hundred entries of a layout costs
/// microseconds, not the milliseconds of a busy disk.
const SCRATCH: &str = "/dev/shm";

/// A built layout; the temporary folder goes when it is dropped.
pub struct Built {
    _base: tempfile::TempDir,
    /// The workspace root (canonical).
    pub root: PathBuf,
    /// The outside tree (canonical), a sibling of the root.
    pub outside: PathBuf,
    /// Every FIFO planted, wherever it ended up.
    pub fifos: Vec<PathBuf>,
    /// [`Layout::planted_paths`], which `@P<k>` in a call's path names.
    pub planted: Vec<String>,
}

fn write(path: &Path, text: &str) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    fs::write(path, text)
}

/// Make a FIFO at `path`.
pub fn mkfifo(path: &Path) -> io::Result<()> {
    use rustix::fs::{CWD, FileType, Mode, mknodat};
    Ok(mknodat(
        CWD,
        path,
        FileType::Fifo,
        Mode::from_raw_mode(0o644),
        0,
    )?)
}

fn source_path(built: &Built, to: Source) -> io::Result<PathBuf> {
    Ok(match to {
        Source::OutsideFile => built.outside.join("outsider.txt"),
        Source::OutsideDeep => built.outside.join("deep/outsider2.txt"),
        Source::WorkspaceFile => built.root.join("src/main.rs"),
        Source::GitConfig => built.root.join(".git/config"),
        Source::Protected => {
            let path = built.root.join(".vaultspec/workspace.json");
            if !path.exists() {
                write(&path, "{\"trusted\": []}\n")?;
            }
            path
        }
        Source::VaultFile => built.root.join(".vault/adr/a.md"),
    })
}

fn link_target(built: &Built, dir: &str, to: LinkTo) -> PathBuf {
    let up = "../".repeat(dir.split('/').count());
    let rel = |tail: &str| PathBuf::from(format!("{up}{tail}"));
    match to {
        LinkTo::Parent => PathBuf::from(".."),
        LinkTo::GrandParent => PathBuf::from("../.."),
        LinkTo::RootAbs => built.root.clone(),
        LinkTo::Sibling(i) => PathBuf::from(PLANT_NAMES[i % PLANT_NAMES.len()]),
        LinkTo::VaultDir => rel(".vault/adr"),
        LinkTo::VaultEntry(i) => rel(&format!(".vault/{}", PLANT_NAMES[i % PLANT_NAMES.len()])),
        LinkTo::WorkspaceFile => rel("src/main.rs"),
        LinkTo::GitDir => rel(".git"),
        LinkTo::GitConfig => rel(".git/config"),
        LinkTo::ProtectedDir => rel(".vaultspec/verbs"),
        LinkTo::OutsideDir => rel("../outside"),
        LinkTo::OutsideDirAbs => built.outside.clone(),
        LinkTo::OutsideFile => rel("../outside/outsider.txt"),
        LinkTo::OutsideFileAbs => built.outside.join("outsider.txt"),
        LinkTo::Dangling => PathBuf::from("missing/nowhere.md"),
    }
}

/// Plant one hostile entry; an entry whose place is taken or whose folder
/// is missing is skipped (layouts are random).
fn plant(built: &Built, hostile: Hostile) -> io::Result<()> {
    let (dir, name) = match hostile {
        Hostile::Symlink { dir, name, .. }
        | Hostile::HardLink { dir, name, .. }
        | Hostile::Fifo { dir, name }
        | Hostile::Socket { dir, name } => (
            PLANT_DIRS[dir % PLANT_DIRS.len()],
            PLANT_NAMES[name % PLANT_NAMES.len()],
        ),
    };
    let at = built.root.join(dir).join(name);
    if !built.root.join(dir).is_dir() || fs::symlink_metadata(&at).is_ok() {
        return Ok(());
    }
    match hostile {
        Hostile::Symlink { to, .. } => symlink(link_target(built, dir, to), &at),
        Hostile::HardLink { to, .. } => fs::hard_link(source_path(built, to)?, &at),
        Hostile::Fifo { .. } => mkfifo(&at),
        Hostile::Socket { .. } => std::os::unix::net::UnixListener::bind(&at).map(drop),
    }
}

fn plant_traps(built: &Built, trap: Trap, window: std::ops::Range<u64>) -> io::Result<()> {
    let target = TRAP_TARGETS[trap.target % TRAP_TARGETS.len()];
    let (parent, leaf) = target.rsplit_once('/').expect("trap targets have a folder");
    let folder = built.root.join(parent);
    if !folder.is_dir() {
        return Ok(());
    }
    let source = source_path(built, trap.to)?;
    let pid = std::process::id();
    for n in window {
        let at = folder.join(format!(".{leaf}.vs-{pid}-{n}.tmp"));
        if fs::symlink_metadata(&at).is_err() {
            fs::hard_link(&source, &at)?;
        }
    }
    Ok(())
}

fn swap(built: &Built, swap: RootSwap) -> io::Result<()> {
    let (which, to) = match swap {
        RootSwap::None => return Ok(()),
        RootSwap::ToSrc(w) => (w, PathBuf::from("src")),
        RootSwap::ToGit(w) => (w, PathBuf::from(".git")),
        RootSwap::ToOutside(w) => (w, built.outside.clone()),
        RootSwap::ToMoved(w) => (
            w,
            PathBuf::from(format!("old{}", [".vault", ".vaultspec"][w % 2])),
        ),
    };
    let name = [".vault", ".vaultspec"][which % 2];
    fs::rename(built.root.join(name), built.root.join(format!("old{name}")))?;
    symlink(to, built.root.join(name))
}

fn collect_fifos(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_fifo() {
            out.push(entry.path());
        } else if kind.is_dir() {
            collect_fifos(&entry.path(), out);
        }
    }
}

/// Build `layout` in a fresh temporary folder; `trap_window` is the range of
/// temp-name counters to plant traps for.
pub fn build(layout: &Layout, trap_window: std::ops::Range<u64>) -> io::Result<Built> {
    let base = match tempfile::tempdir_in(SCRATCH) {
        Ok(dir) => dir,
        Err(_) => tempfile::tempdir()?,
    };
    let canon = base.path().canonicalize()?;
    let built = Built {
        root: canon.join("ws"),
        outside: canon.join("outside"),
        fifos: Vec::new(),
        planted: layout.planted_paths(),
        _base: base,
    };
    let (root, outside) = (&built.root, &built.outside);
    write(
        &outside.join("outsider.txt"),
        &format!("{OUTSIDE_MARKER} top\n"),
    )?;
    write(
        &outside.join("deep/outsider2.txt"),
        &format!("{OUTSIDE_MARKER} deep\n"),
    )?;
    write(
        &root.join("src/main.rs"),
        &format!("// {WORKSPACE_MARKER} main\n"),
    )?;
    write(
        &root.join("src/lib/mod.rs"),
        &format!("// {WORKSPACE_MARKER} lib\n"),
    )?;
    write(
        &root.join(".git/config"),
        &format!("# {WORKSPACE_MARKER} git\n[core]\n"),
    )?;
    write(
        &root.join("README.md"),
        &format!("{WORKSPACE_MARKER} readme\n"),
    )?;
    write(&root.join(".vault/adr/a.md"), "alpha\n")?;
    write(&root.join(".vault/adr/deep/b.md"), "beta\n")?;
    write(&root.join(".vault/plan/p.md"), "plan\n")?;
    write(&root.join(".vaultspec/config.toml"), "[vault]\n")?;
    write(&root.join(".vaultspec/templates/adr.md"), "template\n")?;
    for (path, present) in PROTECTED.iter().zip(layout.protected) {
        if !present {
            continue;
        }
        if path.ends_with(".json") || path.ends_with(".env") {
            write(&root.join(path), "protected\n")?;
        } else {
            write(&root.join(path).join("item"), "protected item\n")?;
        }
    }
    for dir in PLANT_DIRS {
        if !PROTECTED.contains(&dir) {
            fs::create_dir_all(root.join(dir))?;
        }
    }
    for &(dir, name) in &layout.extra_files {
        let at = root
            .join(PLANT_DIRS[dir % PLANT_DIRS.len()])
            .join(PLANT_NAMES[name % PLANT_NAMES.len()]);
        if at.parent().is_some_and(Path::is_dir) && fs::symlink_metadata(&at).is_err() {
            fs::write(at, "vault file\n")?;
        }
    }
    for &hostile in &layout.hostile {
        plant(&built, hostile)?;
    }
    if let Some(trap) = layout.trap {
        plant_traps(&built, trap, trap_window)?;
    }
    swap(&built, layout.swap)?;
    let mut fifos = Vec::new();
    collect_fifos(&canon, &mut fifos);
    Ok(Built { fifos, ..built })
}

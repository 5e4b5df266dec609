//! Third-party components: finding them, admitting them, marking their trust.
//!
//! A third-party component is a `.wasm` file in the workspace's
//! `.vaultspec/verbs/` or the user's `~/.vaultspec/verbs/`. Loading reads its
//! declaration and imports only (no guest code runs). A component is refused,
//! whole, when one of its verbs would shadow a builtin verb, a path on the
//! gateway's denylist or a host command, or when another third-party
//! component declares the same verb (both are refused until one goes). What
//! is admitted is marked [`Trust::Trusted`] when the user's trust file
//! approves its exact bytes at its path for this workspace, else
//! [`Trust::Untrusted`].
//!
//! Versions: a component names the `vaultspec:verb` version it was built
//! against in its imports. A released version never changes and the host
//! keeps linking every version it has released (today only `0.1.x`), so a
//! component built against an older contract keeps loading and running; one
//! that needs a newer contract than the host knows is refused at load, with
//! the import named.

use std::path::{Path, PathBuf};

use super::component::validate;
use super::denylist::{DENIED_VERBS, HOST_COMMANDS, overlaps};
use super::file;
use super::{Catalog, Origin, Reason, Refusal, Trust, VerbComponent};
use crate::display::Escaped;
use crate::trust::{TrustStore, identity};

/// The workspace's folder of components, relative to its root.
pub const WORKSPACE_VERBS_DIR: &str = ".vaultspec/verbs";

/// The user's folder of components, relative to their home folder.
pub const USER_VERBS_DIR: &str = ".vaultspec/verbs";

/// Where a third-party component was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// `.vaultspec/verbs/` of the workspace.
    Workspace,
    /// `~/.vaultspec/verbs/` of the user.
    User,
}

/// The catalog for one workspace, and what could not join it.
#[derive(Debug, Default)]
pub struct LoadedCatalog {
    /// Builtins and admitted third-party components, each with its trust.
    pub catalog: Catalog,
    /// Components refused, one entry per reason (a component may have
    /// several). Report them as warnings; they never stop the host.
    pub refusals: Vec<Refusal>,
    /// Problems that refused nothing but deserve a line on stderr (an
    /// unreadable folder or trust file: every component is then untrusted).
    pub warnings: Vec<String>,
}

/// Build the catalog the CLI and the MCP server use: the `builtins`
/// (`crate::builtins::catalog`), then every third-party component of
/// `workspace` (its root, when there is one) and of the user whose home
/// folder is `home`, admitted or refused and marked with its trust.
pub fn load_all(
    builtins: Catalog,
    workspace: Option<&Path>,
    home: Option<&Path>,
) -> anyhow::Result<LoadedCatalog> {
    let mut loaded = LoadedCatalog {
        catalog: builtins,
        ..LoadedCatalog::default()
    };
    let store = match (workspace, home) {
        (Some(_), Some(home)) => TrustStore::read(home).unwrap_or_else(|err| {
            loaded.warnings.push(format!(
                "{}; every third-party component is untrusted",
                Escaped::text(&format!("{err:#}"))
            ));
            TrustStore::empty(TrustStore::path_in(home))
        }),
        (_, home) => TrustStore::empty(home.map(TrustStore::path_in).unwrap_or_default()),
    };

    let mut candidates: Vec<(VerbComponent, Vec<Reason>)> = Vec::new();
    for path in verb_files(workspace, home, &mut loaded.warnings) {
        match load_file(&path) {
            Ok(component) => {
                let reasons = conflicts(&loaded.catalog, &component);
                candidates.push((component, reasons));
            }
            Err(refusal) => loaded.refusals.push(refusal),
        }
    }
    contest(&mut candidates);

    for (component, reasons) in candidates {
        if !reasons.is_empty() {
            let name = &component.name;
            loaded
                .refusals
                .extend(reasons.into_iter().map(|reason| Refusal {
                    component: name.clone(),
                    reason,
                }));
            continue;
        }
        let trusted = match (&component.origin, workspace) {
            (Origin::File(path), Some(root)) => store.is_trusted(root, path, &component.digest),
            _ => false,
        };
        let trust = if trusted {
            Trust::Trusted
        } else {
            Trust::Untrusted
        };
        if let Err(refusal) = loaded.catalog.add_with_trust(component, trust) {
            loaded.refusals.push(refusal);
        }
    }
    Ok(loaded)
}

/// Every `*.wasm` entry of the workspace's folder, then of the user's, each
/// sorted by name; a file reachable both ways is listed once. Entries are
/// not followed: a symlink or a FIFO named `*.wasm` is listed, and
/// [`load_file`] refuses it by name. A folder that is a symlink, or cannot
/// be read, adds a warning and lists nothing ([`file::real_folder`]).
pub fn verb_files(
    workspace: Option<&Path>,
    home: Option<&Path>,
    warnings: &mut Vec<String>,
) -> Vec<PathBuf> {
    let dirs = [
        workspace.map(|w| w.join(WORKSPACE_VERBS_DIR)),
        home.map(|h| h.join(USER_VERBS_DIR)),
    ];
    let mut seen = std::collections::HashSet::new();
    let mut files = Vec::new();
    for dir in dirs.into_iter().flatten() {
        match file::real_folder(&dir, 2) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(warning) => {
                warnings.push(warning);
                continue;
            }
        }
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => {
                warnings.push(format!(
                    "cannot list the verb components in `{}`: {err}",
                    Escaped::new(&dir.display().to_string())
                ));
                continue;
            }
        };
        // `file_type` of an entry does not follow a symlink; folders are
        // skipped, everything else named `*.wasm` goes to `load_file`.
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "wasm"))
            .collect();
        found.sort();
        files.extend(found.into_iter().filter(|p| seen.insert(identity(p))));
    }
    files
}

/// Whether a component file is the workspace's or the user's.
pub fn scope_of(path: &Path, workspace: Option<&Path>) -> Scope {
    let dir = path.parent().map(identity);
    match workspace {
        Some(root) if dir == Some(identity(&root.join(WORKSPACE_VERBS_DIR))) => Scope::Workspace,
        _ => Scope::User,
    }
}

/// Load one component file; its name is the file's stem. The file is read
/// without following a link and only up to a cap ([`file::read_capped`]),
/// and validated as a component ([`validate`]) before its declaration or
/// imports are looked at.
pub fn load_file(path: &Path) -> Result<VerbComponent, Refusal> {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let refuse = |reason| Refusal {
        component: name.clone(),
        reason,
    };
    let bytes = file::read_capped(path).map_err(refuse)?;
    validate(&bytes).map_err(refuse)?;
    VerbComponent::load(&name, Origin::File(path.to_owned()), bytes.into())
}

/// Every reason `component` may not join `catalog` as a third-party
/// component: a verb that shadows a host command, a denied path or a builtin
/// verb, or that another (third-party) component of the catalog declares.
/// Entries of the same file (the component itself, installed) do not count.
pub fn conflicts(catalog: &Catalog, component: &VerbComponent) -> Vec<Reason> {
    let mut reasons = Vec::new();
    for verb in &component.verbs {
        let path = verb.path_string();
        if let Some(command) = HOST_COMMANDS.iter().find(|c| verb.path[0] == **c) {
            reasons.push(Reason::ShadowsHost {
                verb: path,
                command: (*command).to_owned(),
            });
            continue;
        }
        let denied = DENIED_VERBS
            .iter()
            .find(|d| overlaps(&verb.path, &d.split(' ').collect::<Vec<_>>()));
        if let Some(denied) = denied {
            reasons.push(Reason::ShadowsDenied {
                verb: path.clone(),
                denied: (*denied).to_owned(),
            });
        }
        let mut others: Vec<&str> = Vec::new();
        for entry in catalog.entries() {
            if !overlaps(&verb.path, &entry.spec.path) {
                continue;
            }
            let other = catalog.component_of(entry);
            if other.origin == component.origin && other.digest == component.digest {
                continue;
            }
            if others.contains(&other.name.as_str()) {
                continue;
            }
            others.push(&other.name);
            let other_verb = entry.spec.path_string();
            reasons.push(match catalog.trust(entry) {
                Trust::Builtin => Reason::ShadowsBuiltin {
                    verb: path.clone(),
                    builtin_verb: other_verb,
                    builtin: other.name.clone(),
                },
                _ => Reason::Contested {
                    verb: path.clone(),
                    other: other.name.clone(),
                    other_verb,
                },
            });
        }
    }
    reasons
}

/// Add a [`Reason::Contested`] to both sides of every pair of candidates
/// that declare the same or overlapping verbs.
fn contest(candidates: &mut [(VerbComponent, Vec<Reason>)]) {
    let mut found = Vec::new();
    for (i, (a, _)) in candidates.iter().enumerate() {
        for (j, (b, _)) in candidates.iter().enumerate().skip(i + 1) {
            let pair = a.verbs.iter().find_map(|va| {
                b.verbs
                    .iter()
                    .find(|vb| overlaps(&va.path, &vb.path))
                    .map(|vb| (va.path_string(), vb.path_string()))
            });
            if let Some((verb_a, verb_b)) = pair {
                found.push((
                    i,
                    Reason::Contested {
                        verb: verb_a.clone(),
                        other: b.name.clone(),
                        other_verb: verb_b.clone(),
                    },
                ));
                found.push((
                    j,
                    Reason::Contested {
                        verb: verb_b,
                        other: a.name.clone(),
                        other_verb: verb_a,
                    },
                ));
            }
        }
    }
    for (index, reason) in found {
        candidates[index].1.push(reason);
    }
}

//! The framework's part of `install` and `uninstall`: the builtin sources
//! put into `.vaultspec/`, rendered for the agents being set up, and taken
//! out of the agents' files again.

use std::path::Path;

use anyhow::Context;

use vaultspec_vault::Storage;
use vaultspec_vault::framework::sync::{self, Action, Overwrite};
use vaultspec_vault::framework::{Kind, Provider, builtin, render, source};

use super::SyncReport;
use super::render_run;

/// The note `install` leaves in `.vaultspec/rules/`.
const RULES_GITIGNORE: &str = "\
# The rules in this folder are the team's: vaultspec's own (*.builtin.md)
# and yours (*.md) are committed, so every clone gives its agents the same
# rules. Keep them flat here; `vaultspec sync` renders them for each agent.
";

/// What `install` did to the framework.
#[derive(Debug, Default)]
pub struct Installed {
    /// Each source file looked at: its path and `created`, `updated`,
    /// `kept` or `unchanged`.
    pub sources: Vec<(String, &'static str)>,
    /// The render into the agents' files (none in a dry run).
    pub sync: Option<SyncReport>,
    /// Things the person should know.
    pub notes: Vec<String>,
}

/// Put the builtin sources in place, then render them for `agents`.
/// `--upgrade` replaces `vaultspec-core`'s builtins with ours; `--force`
/// replaces every builtin and every agent file. The reference files list
/// the verbs of `catalog`.
pub fn install(
    root: &Path,
    agents: &[&str],
    write_sources: bool,
    upgrade: bool,
    force: bool,
    dry_run: bool,
    catalog: &crate::catalog::Catalog,
) -> anyhow::Result<Installed> {
    let storage = render_run::storage(root)?;
    let mut installed = Installed::default();
    let mut theirs = 0;
    let mut replaced = 0;
    if write_sources {
        // `(path, text, generated)`: a generated file (a snapshot, a reference
        // made from this binary) is refreshed by `--upgrade`, a source only
        // when it is still `vaultspec-core`'s.
        let mut wanted: Vec<(String, String, bool)> = builtin::FILES
            .iter()
            .map(|f| (format!(".vaultspec/{}", f.path), f.text.to_owned(), false))
            .collect();
        wanted.push((
            ".vaultspec/rules/.gitignore".into(),
            RULES_GITIGNORE.into(),
            false,
        ));
        for rule in builtin::names(Kind::Rule) {
            let file = builtin::source_files(Kind::Rule, rule)[0];
            wanted.push((
                format!(".vaultspec/_snapshots/{}", file.path),
                file.text.to_owned(),
                true,
            ));
        }
        // The reference files are made from this binary: always current.
        for (path, text) in super::reference::files(catalog) {
            wanted.push((path, text, true));
        }
        let mut writes = Vec::new();
        for (path, text, generated) in wanted {
            let outcome = match source::read_text(&storage, &path) {
                Err(_) if !storage.exists(&path).unwrap_or(false) => "created",
                Err(message) => {
                    installed
                        .notes
                        .push(format!("`{path}` is left alone: {message}"));
                    "kept"
                }
                Ok(have) if have == text => "unchanged",
                Ok(_) if force || (generated && upgrade) => "updated",
                Ok(have)
                    if builtin::is_reference_builtin(
                        path.strip_prefix(".vaultspec/").unwrap_or(&path),
                        &have,
                    ) =>
                {
                    if upgrade {
                        replaced += 1;
                        "updated"
                    } else {
                        theirs += 1;
                        "kept"
                    }
                }
                Ok(_) => "kept",
            };
            if matches!(outcome, "created" | "updated") && !dry_run {
                writes.push((path.clone(), text));
            }
            installed.sources.push((path, outcome));
        }
        // Each file is written atomically on its own; writing them side by
        // side overlaps their waits for the disk.
        let threads = vaultspec_vault::parallel::WRITE_THREADS;
        let written = vaultspec_vault::parallel::map_heavy(&writes, threads, |(path, text)| {
            storage
                .write(path, text.as_bytes())
                .with_context(|| format!("writing `{path}`"))
        });
        written.into_iter().collect::<anyhow::Result<Vec<()>>>()?;
    }
    if theirs > 0 {
        installed.notes.push(format!(
            "{theirs} framework sources are vaultspec-core's builtins; they stay until \
             `vaultspec install --upgrade` replaces them with vaultspec's"
        ));
    }
    if replaced > 0 {
        installed.notes.push(format!(
            "replaced {replaced} of vaultspec-core's builtin sources with vaultspec's own"
        ));
    }
    let providers: Vec<Provider> = agents.iter().filter_map(|a| Provider::parse(a)).collect();
    if !providers.is_empty() && !dry_run {
        let overwrite = Overwrite {
            force,
            builtins: upgrade || force,
        };
        installed.sync = Some(render_run::run(
            root,
            &storage,
            &providers,
            &Kind::ALL,
            overwrite,
            false,
        ));
    }
    Ok(installed)
}

/// Take vaultspec's framework out of the files of `leaving`, keeping what
/// the agents still set up (`staying`) share with them, and every file a
/// person wrote or edited.
pub fn uninstall(
    root: &Path,
    leaving: &[Provider],
    staying: &[Provider],
    dry_run: bool,
) -> anyhow::Result<SyncReport> {
    let storage = render_run::storage(root)?;
    let mut folders: Vec<&str> = Vec::new();
    let mut roots: Vec<&str> = Vec::new();
    let kept = |f: &dyn Fn(Provider) -> Vec<&'static str>| -> Vec<&'static str> {
        staying.iter().flat_map(|p| f(*p)).collect()
    };
    let folders_of = |p: Provider| {
        let mut all = vec![p.rules_dir(), p.skills_dir()];
        all.extend(p.agents_dir());
        all
    };
    let roots_of = |p: Provider| {
        let mut all = vec![p.root_file()];
        match p {
            Provider::Codex => all.push(render::CODEX_CONFIG),
            Provider::Gemini => all.push(render::GEMINI_SYSTEM),
            _ => {}
        }
        all
    };
    let kept_folders = kept(&folders_of);
    let kept_roots = kept(&roots_of);
    for provider in leaving {
        for folder in folders_of(*provider) {
            if !kept_folders.contains(&folder) && !folders.contains(&folder) {
                folders.push(folder);
            }
        }
        for file in roots_of(*provider) {
            if !kept_roots.contains(&file) && !roots.contains(&file) {
                roots.push(file);
            }
        }
    }
    let mut report = SyncReport {
        changes: sync::plan_removal(&storage, &folders, &roots),
        problems: Vec::new(),
    };
    if !dry_run {
        for (path, err) in sync::apply(&storage, &report.changes) {
            report
                .problems
                .push(format!("could not change `{path}`: {err}"));
        }
    }
    report.changes.retain(|c| c.action != Action::Same);
    Ok(report)
}

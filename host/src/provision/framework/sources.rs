//! `spec rules|skills|agents list|add|show|edit|remove|rename|restore`: the
//! sources under `.vaultspec/`, changed one at a time through the storage.

use std::io::{IsTerminal, Read, Write};
use std::path::Path;

use anyhow::{Context, bail};
use serde_json::json;
use vaultspec_vault::framework::{Kind, Sources, builtin, shown, valid_name};
use vaultspec_vault::{CapStorage, Storage};

use super::args::{AddArgs, EditArgs, NameArgs, RemoveArgs, RenameArgs, RestoreArgs};
use crate::report::{exit, print_envelope, write_stdout};

/// The bytes a source given with `--from-file` or on standard input may
/// have: the storage's limit for one file.
const MAX_SOURCE_BYTES: u64 = vaultspec_vault::storage::MAX_FILE_BYTES;

fn schema(kind: Kind, verb: &str) -> String {
    format!("vaultspec.spec.{}.{verb}.v1", kind.folder())
}

/// A name as typed: `team-style`, `team-style.md`; checked.
fn name_of(kind: Kind, typed: &str) -> anyhow::Result<String> {
    let name = match kind {
        Kind::Skill => typed,
        _ => typed.strip_suffix(".md").unwrap_or(typed),
    };
    if !valid_name(name) {
        bail!(
            "`{}` cannot name a {}: use letters, digits, `.`, `_` and `-` (not first)",
            shown(typed),
            kind.noun()
        );
    }
    Ok(name.to_owned())
}

/// Every file of one source, workspace-relative.
fn files_of(storage: &CapStorage, kind: Kind, name: &str) -> Vec<String> {
    match kind {
        Kind::Skill => storage
            .list(&format!(".vaultspec/skills/{name}"))
            .map(|entries| entries.into_iter().map(|e| e.path).collect())
            .unwrap_or_default(),
        _ => {
            let path = kind.path(name);
            match storage.exists(&path) {
                Ok(true) => vec![path],
                _ => Vec::new(),
            }
        }
    }
}

/// `list`.
pub fn list(storage: &CapStorage, kind: Kind, json: bool) -> anyhow::Result<u8> {
    let sources = Sources::read(storage);
    let items: Vec<_> = sources
        .of(kind)
        .iter()
        .map(|s| {
            let origin = if builtin::is_builtin_name(kind, &s.name) {
                "Built-in"
            } else {
                "Custom"
            };
            json!({"name": s.name, "source": origin, "description": s.description(), "path": s.path})
        })
        .collect();
    if json {
        let problems: Vec<_> = sources
            .problems
            .iter()
            .map(|p| json!({"path": p.path, "message": p.message}))
            .collect();
        print_envelope(
            &schema(kind, "list"),
            "unchanged",
            json!({"items": items, "problems": problems}),
        )?;
        return Ok(exit::OK);
    }
    let mut out = String::new();
    if items.is_empty() {
        out.push_str(&format!(
            "No {} in `{}`; add one with `vaultspec spec {} add NAME --body …`.\n",
            kind.folder(),
            kind.dir(),
            kind.folder()
        ));
    }
    let width = items
        .iter()
        .map(|i| i["name"].as_str().unwrap_or("").len())
        .max()
        .unwrap_or(0);
    for item in &items {
        out.push_str(&format!(
            "{:width$}  {:8}  {}\n",
            item["name"].as_str().unwrap_or(""),
            item["source"].as_str().unwrap_or(""),
            shown(item["description"].as_str().unwrap_or(""))
        ));
    }
    for problem in &sources.problems {
        eprintln!("warning: {}", shown(&problem.message));
    }
    write_stdout(&out)?;
    Ok(exit::OK)
}

/// `show`.
pub fn show(storage: &CapStorage, kind: Kind, args: &NameArgs) -> anyhow::Result<u8> {
    let name = name_of(kind, &args.name)?;
    let path = kind.path(&name);
    let text = vaultspec_vault::framework::source::read_text(storage, &path)
        .map_err(|message| anyhow::anyhow!("no {} `{name}` to show: {message}", kind.noun()))?;
    if args.json {
        print_envelope(
            &schema(kind, "show"),
            "unchanged",
            json!({"name": name, "path": path, "content": text}),
        )?;
    } else {
        write_stdout(&text)?;
    }
    Ok(exit::OK)
}

/// Read a file the person named with `--from-file` (or `-`, standard
/// input): a regular file, opened without blocking, at most 1 MiB, UTF-8.
pub fn read_input(path: &Path) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .take(MAX_SOURCE_BYTES + 1)
            .read_to_end(&mut bytes)
            .context("reading standard input")?;
    } else {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
            .with_context(|| format!("opening `{}`", path.display()))?;
        let meta = file
            .metadata()
            .with_context(|| format!("reading `{}`", path.display()))?;
        if !meta.is_file() {
            bail!("`{}` is not a regular file", path.display());
        }
        if meta.len() > MAX_SOURCE_BYTES {
            bail!(
                "`{}` is {} bytes, over the {MAX_SOURCE_BYTES}-byte limit for a source",
                path.display(),
                meta.len()
            );
        }
        file.take(MAX_SOURCE_BYTES + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("reading `{}`", path.display()))?;
    }
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        bail!("the text is over the {MAX_SOURCE_BYTES}-byte limit for a source");
    }
    String::from_utf8(bytes).context("the text is not UTF-8")
}

/// The new source's whole text.
fn compose(kind: Kind, name: &str, args: &AddArgs, body: &str) -> anyhow::Result<String> {
    use vaultspec_vault::framework::Front;
    let description = args.description.clone().unwrap_or_default();
    let yaml = |key: &str, value: &str| {
        format!(
            "{key}: {}\n",
            vaultspec_vault::framework::source::yaml_scalar(value)
        )
    };
    let body = if body.ends_with('\n') || body.is_empty() {
        body.to_owned()
    } else {
        format!("{body}\n")
    };
    Ok(match kind {
        Kind::Rule => format!("---\n{}---\n\n{body}", yaml("name", name)),
        Kind::Skill => {
            let body = match &args.template {
                Some(template) if args.body.is_none() && args.from_file.is_none() => {
                    let file = builtin::file(&format!("skills/{template}/SKILL.md")).with_context(
                        || {
                            format!(
                                "no builtin skill `{}` to start from; `vaultspec spec skills list` \
                                 shows them",
                                shown(template)
                            )
                        },
                    )?;
                    Front::parse(file.text).body
                }
                _ => body,
            };
            let description = if description.is_empty() {
                format!("Use when the team's {name} procedure applies.")
            } else {
                description
            };
            format!(
                "---\n{}{}---\n\n{body}",
                yaml("name", name),
                yaml("description", &description)
            )
        }
        Kind::Agent => {
            let description = if description.is_empty() {
                format!("The team's {name} persona.")
            } else {
                description
            };
            format!(
                "---\n{}tier: STANDARD\nmode: read-only\ntools: [Glob, Grep, Read]\n---\n\n{body}",
                yaml("description", &description)
            )
        }
        Kind::System => bail!("system parts are edited as files in `.vaultspec/system/`"),
    })
}

/// `add`.
pub fn add(storage: &CapStorage, kind: Kind, args: &AddArgs) -> anyhow::Result<u8> {
    let name = name_of(kind, &args.name)?;
    if args.template.is_some() && kind != Kind::Skill {
        bail!("`--template` is for skills only");
    }
    let body = match (&args.body, &args.from_file) {
        (Some(body), _) => body.clone(),
        (None, Some(path)) => read_input(path)?,
        (None, None) if args.template.is_some() => String::new(),
        (None, None) if !std::io::stdin().is_terminal() => read_input(Path::new("-"))?,
        (None, None) => bail!(
            "give the {}'s text with `--body TEXT`, `--from-file PATH`, or on standard input",
            kind.noun()
        ),
    };
    let text = compose(kind, &name, args, &body)?;
    let path = kind.path(&name);
    let exists = !files_of(storage, kind, &name).is_empty();
    if exists && !args.force {
        bail!(
            "a {} named `{name}` exists already (`{path}`); `--force` replaces it",
            kind.noun()
        );
    }
    if !args.dry_run {
        storage
            .write(&path, text.as_bytes())
            .with_context(|| format!("writing `{path}`"))?;
    }
    let status = match (args.dry_run, exists) {
        (true, _) => "unchanged",
        (false, true) => "updated",
        (false, false) => "created",
    };
    if args.json {
        print_envelope(
            &schema(kind, "add"),
            status,
            json!({"name": name, "path": path, "dry_run": args.dry_run}),
        )?;
    } else if args.dry_run {
        write_stdout(&format!("Would write `{path}`:\n{text}"))?;
    } else {
        write_stdout(&format!(
            "Wrote `{path}`. Run `vaultspec sync` to give it to the agents.\n"
        ))?;
    }
    Ok(exit::OK)
}

/// `remove`.
pub fn remove(storage: &CapStorage, kind: Kind, args: &RemoveArgs) -> anyhow::Result<u8> {
    let name = name_of(kind, &args.name)?;
    let files = files_of(storage, kind, &name);
    if files.is_empty() {
        bail!(
            "no {} named `{name}` in `{}`; `vaultspec spec {} list` shows them",
            kind.noun(),
            kind.dir(),
            kind.folder()
        );
    }
    if !args.yes {
        if args.json || !std::io::stdin().is_terminal() {
            bail!("removing `{name}` needs `--yes` when nobody is at a terminal to ask");
        }
        eprint!(
            "Remove {} `{name}` ({} file(s))? [y/N] ",
            kind.noun(),
            files.len()
        );
        std::io::stderr().flush().ok();
        let mut answer = String::new();
        std::io::stdin().read_line(&mut answer).ok();
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            write_stdout("Nothing removed.\n")?;
            return Ok(exit::OK);
        }
    }
    for file in &files {
        storage
            .remove(file)
            .with_context(|| format!("removing `{file}`"))?;
    }
    if args.json {
        print_envelope(&schema(kind, "remove"), "removed", json!({"removed": name}))?;
    } else {
        write_stdout(&format!(
            "Removed {} `{name}`. Run `vaultspec sync` to take it from the agents.\n",
            kind.noun()
        ))?;
    }
    Ok(exit::OK)
}

/// `rename`.
pub fn rename(storage: &CapStorage, kind: Kind, args: &RenameArgs) -> anyhow::Result<u8> {
    let old = name_of(kind, &args.old_name)?;
    let new = name_of(kind, &args.new_name)?;
    let files = files_of(storage, kind, &old);
    if files.is_empty() {
        bail!("no {} named `{old}` to rename", kind.noun());
    }
    if !files_of(storage, kind, &new).is_empty() {
        bail!("a {} named `{new}` exists already", kind.noun());
    }
    let main_old = kind.path(&old);
    let main_new = kind.path(&new);
    for file in &files {
        let target = match kind {
            Kind::Skill => format!(
                ".vaultspec/skills/{new}/{}",
                &file[".vaultspec/skills/".len() + old.len() + 1..]
            ),
            _ => main_new.clone(),
        };
        storage
            .rename(file, &target)
            .with_context(|| format!("moving `{file}` to `{target}`"))?;
    }
    // The `name:` key follows the file, when it named the old one.
    if let Ok(bytes) = storage.read(&main_new) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let old_line = format!("\nname: {old}\n");
        if text.contains(&old_line) {
            let renamed = text.replacen(&old_line, &format!("\nname: {new}\n"), 1);
            storage
                .write(&main_new, renamed.as_bytes())
                .with_context(|| format!("writing `{main_new}`"))?;
        }
    }
    if args.json {
        print_envelope(
            &schema(kind, "rename"),
            "updated",
            json!({"old_name": old, "new_name": new, "path": main_new}),
        )?;
    } else {
        write_stdout(&format!(
            "Renamed `{main_old}` to `{main_new}`. Run `vaultspec sync` to update the agents.\n"
        ))?;
    }
    Ok(exit::OK)
}

/// `restore`.
pub fn restore(storage: &CapStorage, kind: Kind, args: &RestoreArgs) -> anyhow::Result<u8> {
    let name = name_of(kind, &args.filename)?;
    let files = builtin::source_files(kind, &name);
    if files.is_empty() {
        bail!(
            "`{name}` is not a builtin {}; the builtins are: {}",
            kind.noun(),
            builtin::names(kind).join(", ")
        );
    }
    for file in &files {
        let path = format!(".vaultspec/{}", file.path);
        storage
            .write(&path, file.text.as_bytes())
            .with_context(|| format!("writing `{path}`"))?;
    }
    if args.json {
        print_envelope(&schema(kind, "restore"), "restored", json!({"name": name}))?;
    } else {
        write_stdout(&format!(
            "Restored {} `{name}` as vaultspec ships it. Run `vaultspec sync` to update the agents.\n",
            kind.noun()
        ))?;
    }
    Ok(exit::OK)
}

/// `edit`: the source opened in the person's editor, on a copy outside
/// the workspace; the result is written back atomically if it changed.
pub fn edit(storage: &CapStorage, kind: Kind, args: &EditArgs) -> anyhow::Result<u8> {
    let name = name_of(kind, &args.name)?;
    let path = kind.path(&name);
    let before = vaultspec_vault::framework::source::read_text(storage, &path)
        .map_err(|message| anyhow::anyhow!("no {} `{name}` to edit: {message}", kind.noun()))?;
    let Some(command) = editor(storage, args.editor.as_deref()) else {
        bail!(
            "no editor: pass `--editor COMMAND`, set one with `vaultspec config set editor COMMAND`, \
             or set $VISUAL or $EDITOR"
        );
    };
    let words = shell_words::split(&command)
        .with_context(|| format!("reading the editor command `{command}`"))?;
    let (program, rest) = words.split_first().context("the editor command is empty")?;
    let copy = tempfile::Builder::new()
        .prefix(&format!("{name}-"))
        .suffix(".md")
        .tempfile()
        .context("making a copy to edit")?;
    std::fs::write(copy.path(), &before).context("writing the copy to edit")?;
    let status = std::process::Command::new(program)
        .args(rest)
        .arg(copy.path())
        .status();
    match status {
        Ok(status) if status.success() => {}
        Ok(status) => {
            eprintln!("error: the editor `{command}` ended with {status}; `{path}` is unchanged");
            return Ok(exit::EDITOR_FAILED);
        }
        Err(err) => {
            eprintln!("error: starting the editor `{command}`: {err}");
            return Ok(exit::EDITOR_FAILED);
        }
    }
    let after = read_input(copy.path())?;
    if after == before {
        write_stdout(&format!("`{path}` is unchanged.\n"))?;
        return Ok(exit::OK);
    }
    if after.trim().is_empty() {
        eprintln!("The edited text is empty: the edit is cancelled and `{path}` is unchanged.");
        return Ok(exit::EDITOR_CANCELLED);
    }
    storage
        .write(&path, after.as_bytes())
        .with_context(|| format!("writing `{path}`"))?;
    write_stdout(&format!(
        "Saved `{path}`. Run `vaultspec sync` to give it to the agents.\n"
    ))?;
    Ok(exit::OK)
}

/// The editor: `--editor`, else `editor` in `.vaultspec/config.toml`, else
/// $VISUAL, else $EDITOR.
fn editor(storage: &CapStorage, flag: Option<&str>) -> Option<String> {
    if let Some(flag) = flag.filter(|f| !f.trim().is_empty()) {
        return Some(flag.to_owned());
    }
    // Read through the storage: no link out, no FIFO, 1 MiB at most.
    let configured =
        vaultspec_vault::framework::source::read_text(storage, ".vaultspec/config.toml")
            .ok()
            .and_then(|text| text.parse::<toml::Table>().ok())
            .and_then(|table| table.get("editor")?.as_str().map(str::to_owned))
            .filter(|e| !e.trim().is_empty());
    configured.or_else(|| {
        ["VISUAL", "EDITOR"]
            .iter()
            .find_map(|v| std::env::var(v).ok().filter(|e| !e.trim().is_empty()))
    })
}

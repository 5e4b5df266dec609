//! `add`, `remove`, `rename` and `restore`: the sources under
//! `.vaultspec/`, changed one at a time through `framework-write`.

use vaultspec_sdk::FrameworkWorkspace;
use vaultspec_sdk::output::{self, done, fail, usage};
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::Storage;
use vaultspec_sdk::vault::framework::source::{read_text, yaml_scalar};
use vaultspec_sdk::vault::framework::{Front, Kind, builtin, shown};

use crate::Add;

/// The envelope schema of a family's verb.
pub fn schema(kind: Kind, verb: &str) -> String {
    output::schema(&format!("spec {} {verb}", kind.folder()), 1)
}

/// The new source's whole text, or why it cannot be made.
fn compose(kind: Kind, name: &str, add: &Add, body: &str) -> Result<String, String> {
    let yaml = |key: &str, value: &str| format!("{key}: {}\n", yaml_scalar(value));
    let body = if body.ends_with('\n') || body.is_empty() {
        body.to_owned()
    } else {
        format!("{body}\n")
    };
    let description = add.description.clone().unwrap_or_default();
    Ok(match kind {
        Kind::Rule => format!("---\n{}---\n\n{body}", yaml("name", name)),
        Kind::Skill => {
            let body = match &add.template {
                Some(template) => {
                    let file =
                        builtin::file(&format!("skills/{template}/SKILL.md")).ok_or_else(|| {
                            format!(
                                "no builtin skill `{}` to start from; the builtin skills are: {}",
                                shown(template),
                                builtin::names(Kind::Skill).join(", ")
                            )
                        })?;
                    Front::parse(file.text).body
                }
                None => body,
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
        Kind::System => {
            return Err("system parts are edited as files in `.vaultspec/system/`".into());
        }
    })
}

/// The text `add` was given: `--body`, the `--from-file` the host read for
/// the verb, or a skill's `--template` alone.
fn body(ws: &impl Storage, kind: Kind, add: &Add) -> Result<String, String> {
    match (&add.body, &add.from_file, &add.template) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) | (_, Some(_), Some(_)) => {
            Err("give the text one way: `--body`, `--from-file` or (skills) `--template`".into())
        }
        (Some(body), None, None) => Ok(body.clone()),
        (None, Some(path), None) => read_text(ws, path)
            .map_err(|message| format!("cannot read `--from-file {}`: {message}", shown(path))),
        (None, None, Some(_)) => Ok(String::new()),
        (None, None, None) => Err(format!(
            "give the {}'s text with `--body TEXT` or `--from-file PATH` (`-` for standard input)",
            kind.noun()
        )),
    }
}

/// `add`.
pub fn add(kind: Kind, typed: &str, add: &Add) -> u8 {
    let json = add.json;
    let name = match kind.typed_name(typed) {
        Ok(name) => name,
        Err(message) => return usage(json, &message),
    };
    let ws = FrameworkWorkspace::open();
    let text = match body(&ws, kind, add).and_then(|body| compose(kind, &name, add, &body)) {
        Ok(text) => text,
        Err(message) => return usage(json, &message),
    };
    let path = kind.path(&name);
    let exists = !kind.files(&ws, &name).is_empty();
    if exists && !add.force {
        return fail(
            json,
            format!(
                "a {} named `{name}` exists already (`{path}`); `--force` replaces it",
                kind.noun()
            ),
        );
    }
    if !add.dry_run
        && let Err(err) = ws.write(&path, text.as_bytes())
    {
        return fail(json, err);
    }
    let status = match (add.dry_run, exists) {
        (true, _) => "unchanged",
        (false, true) => "updated",
        (false, false) => "created",
    };
    let data = json!({"name": name, "path": path, "dry_run": add.dry_run});
    done(json, &schema(kind, "add"), status, &data, || {
        if add.dry_run {
            print!("Would write `{path}`:\n{text}");
        } else {
            println!("Wrote `{path}`. Run `vaultspec sync` to give it to the agents.");
        }
    })
}

/// The files of an existing source, or the failure naming where to look.
fn existing(ws: &impl Storage, kind: Kind, name: &str, json: bool) -> Result<Vec<String>, u8> {
    let files = kind.files(ws, name);
    if files.is_empty() {
        return Err(fail(
            json,
            format!(
                "no {} named `{name}` in `{}`; `vaultspec spec {} list` names them",
                kind.noun(),
                kind.dir(),
                kind.folder()
            ),
        ));
    }
    Ok(files)
}

/// `remove`: nothing is asked, so without `--yes` nothing is removed.
pub fn remove(kind: Kind, typed: &str, yes: bool, json: bool) -> u8 {
    let name = match kind.typed_name(typed) {
        Ok(name) => name,
        Err(message) => return usage(json, &message),
    };
    let ws = FrameworkWorkspace::open();
    let files = match existing(&ws, kind, &name, json) {
        Ok(files) => files,
        Err(code) => return code,
    };
    if !yes {
        return usage(
            json,
            &format!(
                "removing {} `{name}` deletes {} file(s); add `--yes` to confirm",
                kind.noun(),
                files.len()
            ),
        );
    }
    for file in &files {
        if let Err(err) = ws.remove(file) {
            return fail(json, err);
        }
    }
    let data = json!({"removed": name, "files": files});
    done(json, &schema(kind, "remove"), "removed", &data, || {
        println!(
            "Removed {} `{name}`. Run `vaultspec sync` to take it from the agents.",
            kind.noun()
        )
    })
}

/// `rename`.
pub fn rename(kind: Kind, old_typed: &str, new_typed: &str, json: bool) -> u8 {
    let (old, new) = match (kind.typed_name(old_typed), kind.typed_name(new_typed)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(message), _) | (_, Err(message)) => return usage(json, &message),
    };
    let ws = FrameworkWorkspace::open();
    let files = match existing(&ws, kind, &old, json) {
        Ok(files) => files,
        Err(code) => return code,
    };
    if !kind.files(&ws, &new).is_empty() {
        return fail(
            json,
            format!("a {} named `{new}` exists already", kind.noun()),
        );
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
        if let Err(err) = ws.rename(file, &target) {
            return fail(json, err);
        }
    }
    // The `name:` key follows the file, when it named the old one.
    if let Ok(text) = read_text(&ws, &main_new) {
        let old_line = format!("\nname: {old}\n");
        if text.contains(&old_line) {
            let renamed = text.replacen(&old_line, &format!("\nname: {new}\n"), 1);
            if let Err(err) = ws.write(&main_new, renamed.as_bytes()) {
                return fail(json, err);
            }
        }
    }
    let data = json!({"old_name": old, "new_name": new, "path": main_new});
    done(json, &schema(kind, "rename"), "updated", &data, || {
        println!("Renamed `{main_old}` to `{main_new}`. Run `vaultspec sync` to update the agents.")
    })
}

/// `restore`.
pub fn restore(kind: Kind, typed: &str, json: bool) -> u8 {
    let name = match kind.typed_name(typed) {
        Ok(name) => name,
        Err(message) => return usage(json, &message),
    };
    let files = builtin::source_files(kind, &name);
    if files.is_empty() {
        return fail(
            json,
            format!(
                "`{name}` is not a builtin {}; the builtins are: {}",
                kind.noun(),
                builtin::names(kind).join(", ")
            ),
        );
    }
    let ws = FrameworkWorkspace::open();
    for file in &files {
        let path = format!(".vaultspec/{}", file.path);
        if let Err(err) = ws.write(&path, file.text.as_bytes()) {
            return fail(json, err);
        }
    }
    let data = json!({"name": name});
    done(json, &schema(kind, "restore"), "restored", &data, || {
        println!(
            "Restored {} `{name}` as vaultspec ships it. Run `vaultspec sync` to update the agents.",
            kind.noun()
        )
    })
}

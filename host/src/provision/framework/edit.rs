//! `spec rules|skills|agents edit`: a source opened in the person's editor.
//!
//! It runs in the host, not in the `framework` component, because it starts
//! a program of the person's choosing and waits for them at the terminal;
//! the gateway never reaches it.

use crate::checked_file::{self, Owner};

use std::path::Path;

use anyhow::{Context, bail};
use vaultspec_vault::framework::Kind;
use vaultspec_vault::{CapStorage, Storage};

use super::args::EditArgs;
use crate::report::{exit, write_stdout};

/// The bytes an edited source may have: the storage's limit for one file.
const MAX_SOURCE_BYTES: u64 = vaultspec_vault::storage::MAX_FILE_BYTES;

/// Read the edited copy back: a regular file, no link, at most 1 MiB,
/// UTF-8.
fn read_back(path: &Path) -> anyhow::Result<String> {
    checked_file::read_text(path, MAX_SOURCE_BYTES, Owner::Anyone)
        .with_context(|| format!("reading the edited copy `{}`", path.display()))?
        .with_context(|| format!("the edited copy `{}` is gone", path.display()))
}

/// `edit`: the source opened in the person's editor, on a copy outside
/// the workspace; the result is written back atomically if it changed.
pub fn edit(storage: &CapStorage, kind: Kind, args: &EditArgs) -> anyhow::Result<u8> {
    let name = kind.typed_name(&args.name).map_err(anyhow::Error::msg)?;
    let path = kind.path(&name);
    vaultspec_vault::framework::source::read_text(storage, &path)
        .map_err(|message| anyhow::anyhow!("no {} `{name}` to edit: {message}", kind.noun()))?;
    edit_file(
        storage,
        &path,
        args.editor.as_deref(),
        "Run `vaultspec sync` to give it to the agents.",
    )
}

/// The workspace file `path` opened in the person's editor (`flag`, else
/// the configured one), on a copy outside the workspace, written back
/// atomically through `storage` if it changed; `next` is said after a save.
pub fn edit_file(
    storage: &CapStorage,
    path: &str,
    flag: Option<&str>,
    next: &str,
) -> anyhow::Result<u8> {
    let before = vaultspec_vault::framework::source::read_text(storage, path)
        .map_err(|message| anyhow::anyhow!("no `{path}` to edit: {message}"))?;
    let Some(command) = editor(storage, flag) else {
        bail!(
            "no editor: pass `--editor COMMAND`, set one with `vaultspec config set editor COMMAND`, \
             or set $VISUAL or $EDITOR"
        );
    };
    let words = shell_words::split(&command)
        .with_context(|| format!("reading the editor command `{command}`"))?;
    let (program, rest) = words.split_first().context("the editor command is empty")?;
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let (stem, suffix) = file_name
        .rsplit_once('.')
        .map_or((file_name, String::new()), |(s, e)| (s, format!(".{e}")));
    let copy = tempfile::Builder::new()
        .prefix(&format!("{stem}-"))
        .suffix(&suffix)
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
    let after = read_back(copy.path())?;
    if after == before {
        write_stdout(&format!("`{path}` is unchanged.\n"))?;
        return Ok(exit::OK);
    }
    if after.trim().is_empty() {
        eprintln!("The edited text is empty: the edit is cancelled and `{path}` is unchanged.");
        return Ok(exit::EDITOR_CANCELLED);
    }
    storage
        .write(path, after.as_bytes())
        .with_context(|| format!("writing `{path}`"))?;
    write_stdout(&format!("Saved `{path}`. {next}\n"))?;
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

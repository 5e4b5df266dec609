//! `spec mcps add` and `spec mcps remove`: the definition files themselves.

use std::path::Path;

use anyhow::Context;
use serde_json::{Value, json};
use vaultspec_vault::{CapStorage, Storage, WriteScope};

use super::args::{AddArgs, RemoveArgs};
use super::definitions;
use super::pyjson::{self, Style};
use crate::display::Escaped;
use crate::report::exit;
use crate::trust::{Terminal, stdin_is_terminal};

/// A server name a definition file may carry.
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty()
        || name.contains(['/', '\\'])
        || name.contains("..")
        || name.ends_with(".builtin")
        || name.ends_with(".builtin.json")
        || name.chars().any(char::is_control)
    {
        return Err(format!(
            "invalid MCP server name {:?}: use a plain name, without `/`, `\\`, `..`, control \
             characters or a `.builtin` ending",
            name
        ));
    }
    Ok(())
}

fn setup_storage(root: &Path) -> anyhow::Result<CapStorage> {
    Ok(CapStorage::open(root)
        .with_context(|| format!("opening `{}`", root.display()))?
        .with_scope(WriteScope::Setup))
}

pub fn add(root: &Path, args: &AddArgs) -> anyhow::Result<u8> {
    let reporter = crate::report::Reporter { json: args.json };
    if let Err(err) = check_name(&args.name) {
        return Ok(reporter.fail(exit::USAGE, &err));
    }
    let config = match &args.config {
        None => json!({"command": "", "args": []}),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => {
                return Ok(
                    reporter.fail(exit::FINDINGS, "MCP configuration must be a JSON object.")
                );
            }
            Err(err) => {
                return Ok(reporter.fail(exit::FINDINGS, &format!("--config is not JSON: {err}")));
            }
        },
    };
    let relative = format!("{}/{}.json", definitions::FOLDER, args.name);
    let storage = setup_storage(root)?;
    if storage.exists(&relative)? && !args.force {
        return Ok(reporter.fail(
            exit::FINDINGS,
            &format!("MCP definition '{relative}' exists. Use --force to overwrite."),
        ));
    }
    let text = format!("{}\n", pyjson::dumps(&config, Style::INDENTED));
    storage
        .write(&relative, text.as_bytes())
        .with_context(|| format!("writing `{relative}`"))?;
    let path = root.join(&relative).display().to_string();
    if args.json {
        crate::report::print_envelope(
            "vaultspec.spec.mcps.add.v1",
            "created",
            json!({"path": path}),
        )?;
    } else {
        crate::report::write_stdout(&format!(
            "Wrote {}. Approve it with `vaultspec spec mcps trust`, then `vaultspec spec mcps sync`.\n",
            Escaped::new(&path)
        ))?;
    }
    Ok(exit::OK)
}

pub fn remove(root: &Path, args: &RemoveArgs) -> anyhow::Result<u8> {
    let reporter = crate::report::Reporter { json: args.json };
    if let Err(err) = check_name(&args.name) {
        return Ok(reporter.fail(exit::USAGE, &err));
    }
    let storage = setup_storage(root)?;
    let found = [".json", ".builtin.json"]
        .iter()
        .map(|ext| format!("{}/{}{ext}", definitions::FOLDER, args.name))
        .find(|p| storage.exists(p).unwrap_or(false));
    let Some(relative) = found else {
        return Ok(reporter.fail(
            exit::FINDINGS,
            &format!("MCP definition '{}' not found.", args.name),
        ));
    };
    if !args.force {
        if args.json || !stdin_is_terminal() {
            return Ok(reporter.fail(
                exit::FINDINGS,
                &format!("removing `{relative}` needs a yes at a terminal, or --force"),
            ));
        }
        if !Terminal::open()?.confirm(&format!("Remove {relative}?"))? {
            return Ok(reporter.fail(exit::FINDINGS, "Nothing was removed."));
        }
    }
    storage
        .remove(&relative)
        .with_context(|| format!("removing `{relative}`"))?;
    if args.json {
        crate::report::print_envelope(
            "vaultspec.spec.mcps.remove.v1",
            "removed",
            json!({"removed": args.name}),
        )?;
    } else {
        crate::report::write_stdout(&format!(
            "Removed {relative}. The agents' files still list it until `vaultspec spec mcps sync --prune`.\n"
        ))?;
    }
    Ok(exit::OK)
}

//! The reference files `install` leaves in `.vaultspec/reference/` for an
//! agent without the MCP server: the command inventory (`cli.md`), what
//! the gateway reaches (`published-surface.json`), and the vault's schema
//! (`vault-schema.md`, shipped as text).
//!
//! The first two are made here from the catalog of builtin verbs, so they
//! can never name a verb this binary does not have; the schema is one of
//! the builtin files.

use std::collections::BTreeMap;

use serde_json::json;

use crate::catalog::{self, Catalog};

/// The host's own commands, with what they do: they are not in the
/// catalog, which holds the verb components only.
const HOST_COMMANDS: [(&str, &str); 8] = [
    ("install", "set up this workspace and its agents"),
    ("uninstall", "take vaultspec out of this workspace"),
    (
        "sync",
        "render rules, skills, personas and the system prompt for every agent",
    ),
    (
        "spec rules|skills|agents …",
        "list, add, show, edit, remove, rename, restore, status, sync",
    ),
    (
        "spec system show|sync",
        "the system-prompt parts and where they go",
    ),
    ("spec mcps …", "MCP server definitions and their enrollment"),
    ("spec doctor", "diagnose the workspace's setup"),
    ("mcp", "serve the vault over MCP (stdio, or --http)"),
];

/// `(path, text)` of each reference file.
pub fn files(catalog: &Catalog) -> Vec<(String, String)> {
    vec![
        (".vaultspec/reference/cli.md".to_owned(), cli_md(catalog)),
        (
            ".vaultspec/reference/published-surface.json".to_owned(),
            surface(catalog),
        ),
    ]
}

fn cli_md(catalog: &Catalog) -> String {
    let mut out = String::from(
        "# vaultspec commands\n\n\
         Every command of this `vaultspec`, for an agent without the MCP server (with it, \
         `discover` finds the same verbs). `vaultspec <command> --help` gives the flags of \
         each; `--json` prints one JSON document. Made by `vaultspec install` from the \
         binary's own catalog: do not edit.\n\n## Workspace commands\n\n",
    );
    for (command, what) in HOST_COMMANDS {
        out.push_str(&format!("- `vaultspec {command}`: {what}\n"));
    }
    out.push_str("\n## Verbs\n\n");
    let mut verbs: Vec<(String, String)> = catalog
        .entries()
        .map(|e| (e.spec.path_string(), e.spec.summary()))
        .collect();
    verbs.sort();
    verbs.dedup();
    for (path, summary) in verbs {
        let reach = if catalog::is_denied(&path) {
            " (terminal only)"
        } else {
            ""
        };
        out.push_str(&format!("- `vaultspec {path}`{reach}: {summary}\n"));
    }
    out
}

fn surface(catalog: &Catalog) -> String {
    let mut commands: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in catalog.entries() {
        let path = entry.spec.path_string();
        if catalog::is_denied(&path) {
            continue;
        }
        let mut flags: Vec<String> = entry
            .spec
            .flags
            .iter()
            .map(|f| format!("--{}", f.name))
            .collect();
        flags.sort();
        commands.insert(path, flags);
    }
    let mut text = serde_json::to_string_pretty(&json!({ "commands": commands }))
        .expect("a map of strings serialises");
    text.push('\n');
    text
}

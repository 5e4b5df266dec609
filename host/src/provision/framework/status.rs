//! `spec rules|skills|agents status` and `spec system show`: how the agents'
//! files stand against the sources, without changing anything.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};
use vaultspec_vault::CapStorage;
use vaultspec_vault::framework::sync::{self, Action, Held, Overwrite};
use vaultspec_vault::framework::{Kind, Sources, render, source};

use super::render_run;
use crate::report::{exit, print_envelope, write_stdout};

/// `status` for one family: exits 0 when every file is up to date, 1 when
/// anything is missing, drifted or stale.
pub fn status(
    root: &Path,
    storage: &CapStorage,
    kind: Kind,
    kinds: &[Kind],
    json: bool,
) -> anyhow::Result<u8> {
    let providers = render_run::chosen(root, "all", &[]).unwrap_or_default();
    let sources = Sources::read(storage);
    let rendered = render::render(&sources, &providers, kinds);
    let changes = sync::plan(storage, &rendered, Overwrite::default());
    let mut buckets: BTreeMap<&str, Vec<String>> = ["missing", "drifted", "stale", "up_to_date"]
        .into_iter()
        .map(|b| (b, Vec::new()))
        .collect();
    for change in &changes {
        let bucket = match change.action {
            Action::Create => "missing",
            Action::Update | Action::Keep(Held::Edited | Held::Foreign | Held::Unreadable(_)) => {
                "drifted"
            }
            Action::Remove => "stale",
            Action::Same => "up_to_date",
        };
        buckets
            .get_mut(bucket)
            .expect("a bucket")
            .push(change.path.clone());
    }
    let ok = buckets["missing"].is_empty()
        && buckets["drifted"].is_empty()
        && buckets["stale"].is_empty();
    let verdict = if providers.is_empty() {
        "not_installed"
    } else if ok {
        "ok"
    } else {
        "drift"
    };
    if json {
        let mut data: serde_json::Map<String, Value> = buckets
            .iter()
            .map(|(k, v)| ((*k).to_owned(), json!(v)))
            .collect();
        data.insert("status".into(), json!(verdict));
        data.insert(
            "providers".into(),
            json!(providers.iter().map(|p| p.name()).collect::<Vec<_>>()),
        );
        print_envelope(
            &format!("vaultspec.spec.{}.status.v1", kind.folder()),
            verdict,
            Value::Object(data),
        )?;
    } else {
        let mut out = String::new();
        if providers.is_empty() {
            out.push_str("No agent is set up in this workspace: run `vaultspec install` first.\n");
        }
        for (bucket, paths) in &buckets {
            if *bucket == "up_to_date" {
                continue;
            }
            for path in paths {
                out.push_str(&format!(
                    "  {bucket:8} {}\n",
                    crate::display::Escaped::new(path)
                ));
            }
        }
        out.push_str(&format!(
            "{} {}: {} up to date, {} missing, {} drifted, {} stale{}\n",
            kind.folder(),
            verdict,
            buckets["up_to_date"].len(),
            buckets["missing"].len(),
            buckets["drifted"].len(),
            buckets["stale"].len(),
            if ok {
                ""
            } else {
                " (`vaultspec sync` brings them in line)"
            }
        ));
        write_stdout(&out)?;
    }
    Ok(if ok && !providers.is_empty() {
        exit::OK
    } else {
        exit::FINDINGS
    })
}

/// One agent's framework files out of line: its name, and how many are
/// missing, differ and are stale.
pub type Drift = (String, [usize; 3]);

/// For `spec doctor`: per installed agent, how many of its framework files
/// are missing, drifted or stale (agents whose files are all in line are
/// left out), and the sources that cannot be used.
pub fn drift(root: &Path) -> anyhow::Result<(Vec<Drift>, Vec<String>)> {
    let storage = render_run::storage(root)?;
    let providers = render_run::chosen(root, "all", &[]).unwrap_or_default();
    let sources = Sources::read(&storage);
    let problems = sources.problems.iter().map(|p| p.message.clone()).collect();
    let mut by_provider = Vec::new();
    for provider in providers {
        let rendered = render::render(&sources, &[provider], &Kind::ALL);
        let mut counts = [0usize; 3];
        for change in sync::plan(&storage, &rendered, Overwrite::default()) {
            match change.action {
                Action::Create => counts[0] += 1,
                Action::Update | Action::Keep(_) => counts[1] += 1,
                Action::Remove => counts[2] += 1,
                Action::Same => {}
            }
        }
        if counts.iter().any(|c| *c > 0) {
            by_provider.push((provider.name().to_owned(), counts));
        }
    }
    Ok((by_provider, problems))
}

/// `spec system show`: the parts in order, and where the prompt goes.
pub fn system_show(root: &Path, storage: &CapStorage, json: bool) -> anyhow::Result<u8> {
    let sources = Sources::read(storage);
    let parts: Vec<Value> = sources
        .of(Kind::System)
        .iter()
        .map(|part| {
            json!({
                "name": part.name,
                "order": source::order(part),
                "lines": part.front.body.lines().count(),
                "path": part.path,
            })
        })
        .collect();
    let providers = render_run::chosen(root, "all", &[]).unwrap_or_default();
    let targets: Vec<Value> = providers
        .iter()
        .filter_map(|p| {
            let path = match p {
                vaultspec_vault::framework::Provider::Gemini => render::GEMINI_SYSTEM.to_owned(),
                p if p.system_rule() => format!("{}/{}", p.rules_dir(), render::SYSTEM_RULE),
                _ => return None,
            };
            Some(json!({"tool": p.name(), "path": path}))
        })
        .collect();
    if json {
        print_envelope(
            "vaultspec.spec.system.show.v1",
            "unchanged",
            json!({"parts": parts, "targets": targets}),
        )?;
        return Ok(exit::OK);
    }
    let mut out = String::from("System-prompt parts, in order:\n");
    for part in &parts {
        out.push_str(&format!(
            "  {:>3}  {}  ({} lines)\n",
            part["order"]
                .as_i64()
                .map_or("-".to_owned(), |o| if o == i64::MAX {
                    "-".to_owned()
                } else {
                    o.to_string()
                }),
            part["path"].as_str().unwrap_or(""),
            part["lines"]
        ));
    }
    out.push_str("Composed into:\n");
    if targets.is_empty() {
        out.push_str("  (no agent is set up here: run `vaultspec install`)\n");
    }
    for target in &targets {
        out.push_str(&format!(
            "  {:12} {}\n",
            target["tool"].as_str().unwrap_or(""),
            target["path"].as_str().unwrap_or("")
        ));
    }
    write_stdout(&out)?;
    Ok(exit::OK)
}

//! `spec rules|skills|agents status` and `spec system show`: how the agents'
//! files stand against the sources, changing nothing.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::output::{self, done};
use vaultspec_sdk::serde_json::{Map, Value, json};
use vaultspec_sdk::vault::framework::run::{BUCKETS, Standing, chosen};
use vaultspec_sdk::vault::framework::{Kind, Provider, Sources, render, shown, source};

use crate::sources::schema;

/// `status`: exits 0 when every file is up to date, 1 when anything is
/// missing, drifted or stale or no agent is set up.
pub fn status(kind: Kind, json: bool) -> u8 {
    let standing = Standing::read(&Workspace::open(), kind.family());
    let verdict = standing.verdict();
    let mut data: Map<String, Value> = standing
        .buckets
        .iter()
        .map(|(k, v)| ((*k).to_owned(), json!(v)))
        .collect();
    data.insert("status".into(), json!(verdict));
    data.insert(
        "providers".into(),
        json!(
            standing
                .providers
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
        ),
    );
    done(json, &schema(kind, "status"), verdict, &data, || {
        if standing.providers.is_empty() {
            println!("No agent is set up in this workspace: run `vaultspec install` first.");
        }
        for bucket in &BUCKETS[..3] {
            for path in &standing.buckets[bucket] {
                println!("  {bucket:8} {}", shown(path));
            }
        }
        let count = |b: &str| standing.buckets[b].len();
        println!(
            "{} {verdict}: {} up to date, {} missing, {} drifted, {} stale{}",
            kind.folder(),
            count("up_to_date"),
            count("missing"),
            count("drifted"),
            count("stale"),
            if standing.in_line() {
                ""
            } else {
                " (`vaultspec sync` brings them in line)"
            }
        );
    });
    if verdict == "ok" {
        output::EXIT_OK
    } else {
        output::EXIT_FAILURE
    }
}

/// Where the composed system prompt goes for one agent, if anywhere.
fn system_target(provider: Provider) -> Option<String> {
    match provider {
        Provider::Gemini => Some(render::GEMINI_SYSTEM.to_owned()),
        p if p.system_rule() => Some(format!("{}/{}", p.rules_dir(), render::SYSTEM_RULE)),
        _ => None,
    }
}

/// `spec system show`: the parts in order, and where the prompt goes.
pub fn system_show(json: bool) -> u8 {
    let ws = Workspace::open();
    let sources = Sources::read(&ws);
    let parts: Vec<Value> = sources
        .of(Kind::System)
        .iter()
        .map(|part| {
            let order = source::order(part);
            json!({
                "name": part.name,
                "order": (order != i64::MAX).then_some(order),
                "lines": part.front.body.lines().count(),
                "path": part.path,
            })
        })
        .collect();
    let targets: Vec<Value> = chosen(&ws, "all", &[])
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| Some(json!({"tool": p.name(), "path": system_target(p)?})))
        .collect();
    let data = json!({"parts": parts, "targets": targets});
    done(
        json,
        "vaultspec.spec.system.show.v1",
        "unchanged",
        &data,
        || {
            println!("System-prompt parts, in order:");
            for part in &parts {
                println!(
                    "  {:>3}  {}  ({} lines)",
                    part["order"]
                        .as_i64()
                        .map_or("-".to_owned(), |o| o.to_string()),
                    shown(part["path"].as_str().unwrap_or_default()),
                    part["lines"]
                );
            }
            println!("Composed into:");
            if targets.is_empty() {
                println!("  (no agent is set up here: run `vaultspec install`)");
            }
            for target in &targets {
                println!(
                    "  {:12} {}",
                    target["tool"].as_str().unwrap_or_default(),
                    target["path"].as_str().unwrap_or_default()
                );
            }
        },
    )
}

//! Verb against tool: the MCP tool and the CLI verb that do the same thing,
//! run on two copies of one workspace, answer with the same figures and
//! leave the same files (crossref, create/add, search, status, check).

use std::collections::BTreeMap;

use serde_json::{Value, json};
use vaultspec_test_support::{TestVault, golden};

use crate::binary::{envelope as verb, text};
use crate::mcp::{Session, text as tool_text};

/// Two ADRs that share code artifacts and wording, one that shares only its
/// subject with them, one linked to by another (isolated all the same: it
/// declares no link), and one superseded (which a sweep passes over).
const ADRS: [(&str, &str, &str, &str); 6] = [
    (
        "2026-03-01-cache-layer-adr",
        "evict the oldest cache entry",
        "",
        "Evict through `LruCache` in `src/cache/evict.rs`.",
    ),
    (
        "2026-03-02-cache-store-adr",
        "evict cache entries by age",
        "",
        "Evict through `LruCache` in `src/cache/evict.rs`.",
    ),
    (
        "2026-03-03-cache-warmup-adr",
        "warm cache entries before eviction",
        "",
        "Warm the cache entries by age before any eviction runs.",
    ),
    (
        "2026-03-04-auth-tokens-adr",
        "rotate signing keys",
        "2026-03-01-cache-layer-adr",
        "Rotate keys in `src/auth/keys.rs`.",
    ),
    (
        "2026-03-05-log-format-adr",
        "write logs as json lines | (**status:** `superseded`)",
        "",
        "Format with `JsonLayer` in `src/log.rs`.",
    ),
    (
        "2026-03-06-http-retry-adr",
        "retry idempotent requests",
        "",
        "Retry in `src/http/retry.rs`.",
    ),
];

/// A workspace with the ADRs above, research notes and a plan.
fn workspace() -> TestVault {
    let vault = TestVault::new();
    for (stem, title, related, decision) in ADRS {
        let feature = stem[11..stem.len() - 4].to_owned();
        let date = &stem[..10];
        let related = if related.is_empty() {
            "related: []\n".to_owned()
        } else {
            format!("related:\n  - '[[{related}]]'\n")
        };
        vault.write(
            &format!(".vault/adr/{stem}.md"),
            &format!(
                "---\ntags:\n  - '#adr'\n  - '#{feature}'\ndate: '{date}'\nmodified: '{date}'\n{related}---\n\n\
                 # `{feature}` adr: {title}\n\n## Decision\n\n{decision}\n"
            ),
        );
    }
    for (date, topic, words) in [
        (
            "2026-03-01",
            "eviction",
            "Least recently used eviction keeps hot keys resident.",
        ),
        (
            "2026-03-02",
            "sizing",
            "Size the cache by bytes; eviction follows the budget.",
        ),
        (
            "2026-03-03",
            "metrics",
            "Count hits and misses to tune eviction.",
        ),
    ] {
        vault.write(
            &format!(".vault/research/{date}-cache-layer-{topic}-research.md"),
            &format!(
                "---\ntags:\n  - '#research'\n  - '#cache-layer'\ndate: '{date}'\nmodified: '{date}'\nrelated: []\n---\n\n\
                 # `cache-layer` research: {topic}\n\n## Findings\n\n{words}\n"
            ),
        );
    }
    vault.write(
        ".vault/plan/2026-03-07-cache-layer-plan.md",
        "---\ntags:\n  - '#plan'\n  - '#cache-layer'\ndate: '2026-03-07'\nmodified: '2026-03-07'\ntier: L1\nrelated:\n  - '[[2026-03-01-cache-layer-adr]]'\n---\n\n\
         # `cache-layer` plan\n\n## Steps\n\n- [x] S01 Write the eviction policy\n- [ ] S02 Measure the hit rate\n",
    );
    vault
}

/// The files under `.vault/` (minus lock and data files), path to bytes.
fn vault_files(vault: &TestVault) -> BTreeMap<String, Vec<u8>> {
    golden::files(&vault.root().join(".vault"))
}

/// A tool's structured result, which must not be an error.
fn tool(session: &Session, name: &str, args: Value) -> Value {
    let result = session.call(name, args).expect("calling the tool");
    assert_eq!(
        result.is_error,
        Some(false),
        "{name}: {}",
        tool_text(&result)
    );
    result.structured_content.expect("structured content")
}

fn assert_same_files(cli: &TestVault, mcp: &TestVault) {
    let (ours, theirs) = (vault_files(cli), vault_files(mcp));
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&ours), names(&theirs), "the same files exist");
    for (path, bytes) in &ours {
        assert_eq!(
            text(bytes),
            text(&theirs[path]),
            "`{path}` differs between the verb and the tool"
        );
    }
}

#[test]
fn crossref_judges_and_links_alike_from_the_verb_and_the_tool() -> anyhow::Result<()> {
    let (cli, mcp) = (workspace(), workspace());
    let session = Session::start(&mcp, &[])?;

    let (code, isolated) = verb(&cli, &["vault", "adr", "crossref", "--isolated"]);
    assert_eq!(code, 0, "{isolated}");
    let by_tool = tool(&session, "crossref", json!({"isolated": true}));
    assert_eq!(isolated["data"], by_tool, "an isolated sweep");
    let judged: Vec<&str> = by_tool["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["source"].as_str().unwrap())
        .collect();
    assert!(
        judged.contains(&"2026-03-01-cache-layer-adr"),
        "linked to but declaring nothing is isolated: {judged:?}"
    );
    assert!(
        !judged.contains(&"2026-03-04-auth-tokens-adr"),
        "{judged:?}"
    );
    assert!(
        !judged.contains(&"2026-03-05-log-format-adr"),
        "a superseded ADR is not swept: {judged:?}"
    );

    let (code, applied) = verb(&cli, &["vault", "adr", "crossref", "--all", "--apply"]);
    assert_eq!(code, 0, "{applied}");
    let by_tool = tool(
        &session,
        "crossref",
        json!({"all_adrs": true, "apply": true}),
    );
    assert_eq!(applied["data"], by_tool, "an applied sweep");
    assert!(by_tool["written"].as_u64().unwrap() > 0, "{by_tool}");
    assert_same_files(&cli, &mcp);

    let (code, refused) = verb(
        &cli,
        &[
            "vault",
            "adr",
            "crossref",
            "2026-03-01-cache-layer-eviction-research",
        ],
    );
    let by_tool = session.call(
        "crossref",
        json!({"refs": ["2026-03-01-cache-layer-eviction-research"]}),
    )?;
    assert_eq!(code, 2, "{refused}");
    assert!(
        tool_text(&by_tool).ends_with(refused["data"]["message"].as_str().unwrap()),
        "{} / {refused}",
        tool_text(&by_tool)
    );
    Ok(())
}

#[test]
fn create_scaffolds_what_add_then_index_scaffold() -> anyhow::Result<()> {
    let (cli, mcp) = (workspace(), workspace());
    let session = Session::start(&mcp, &[])?;
    let args = [
        "vault",
        "add",
        "reference",
        "-f",
        "#cache-layer",
        "--date",
        "2026-03-08",
        "--topic",
        "key-format",
        "--related",
        "2026-03-01-cache-layer-adr",
    ];
    let (code, added) = verb(&cli, &args);
    assert_eq!(code, 0, "{added}");
    // `create` regenerates the feature index after its batch, as the
    // reference's does; `vault add` leaves that to `vault feature index`.
    let (code, indexed) = verb(&cli, &["vault", "feature", "index", "-f", "cache-layer"]);
    assert_eq!(code, 0, "{indexed}");
    let spec = json!({"documents": [{"feature": "#cache-layer", "type": "reference", "date": "2026-03-08",
        "topic": "key-format", "related": ["2026-03-01-cache-layer-adr"]}]});
    let created = tool(&session, "create", spec.clone());
    assert_eq!(created["counts"]["created"], 1, "{created}");
    assert_same_files(&cli, &mcp);

    // The same document again: both refuse, with the same words.
    let (code, refused) = verb(&cli, &args);
    assert_eq!(code, 1, "{refused}");
    let again = tool(&session, "create", spec);
    assert_eq!(
        again["items"][0]["error"]["message"], refused["data"]["message"],
        "{again}"
    );
    assert_same_files(&cli, &mcp);
    Ok(())
}

#[test]
fn search_counts_the_same_hits_from_the_verb_and_the_tool() -> anyhow::Result<()> {
    let vault = workspace();
    let session = Session::start(&vault, &[])?;
    let mut matching = None;
    for (limit, types) in [(11, vec![]), (1, vec![]), (2, vec!["research"])] {
        let limit_text = limit.to_string();
        let mut args = vec!["vault", "search", "eviction budget", "--limit", &limit_text];
        for t in &types {
            args.extend(["--type", t]);
        }
        let (code, by_verb) = verb(&vault, &args);
        assert_eq!(code, 0, "{by_verb}");
        let by_tool = tool(
            &session,
            "search",
            json!({"query": "eviction budget", "limit": limit, "type": types}),
        );
        let data = &by_verb["data"];
        for key in [
            "status",
            "answered",
            "ranking",
            "returned",
            "total",
            "truncated",
        ] {
            assert_eq!(data[key], by_tool[key], "`{key}` with limit {limit}");
        }
        let paths = |v: &Value| -> Vec<String> {
            v["hits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["path"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(paths(data), paths(&by_tool), "hits with limit {limit}");
        assert_eq!(data["answered"], false, "a local ranking judges nothing");
        match (limit, types.is_empty()) {
            (11, true) => matching = Some(data["returned"].clone()),
            (1, true) => {
                // `total` counts every matching document, not the page.
                assert_eq!(Some(&data["total"]), matching.as_ref(), "{data}");
                assert_eq!(data["truncated"], true, "{data}");
            }
            _ => {}
        }
    }
    Ok(())
}

#[test]
fn status_reports_the_same_features_and_plans() -> anyhow::Result<()> {
    let vault = workspace();
    let session = Session::start(&vault, &[])?;
    let (code, by_verb) = verb(&vault, &["status"]);
    assert_eq!(code, 0, "{by_verb}");
    let data = &by_verb["data"];
    let by_tool = tool(&session, "status", json!({}));
    let features = |rows: &Value| -> Vec<(String, u64)> {
        rows.as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["name"].as_str().unwrap().to_owned(),
                    f["doc_count"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        features(&data["active_features"]),
        features(&by_tool["features"])
    );
    assert_eq!(data["active_features_total"], by_tool["features_total"]);
    assert_eq!(data["plans_in_flight"], by_tool["plans_in_flight"]);
    assert_eq!(data["totals"], by_tool["totals"]);

    let (code, trace) = verb(&vault, &["status", "cache-layer"]);
    assert_eq!(code, 0, "{trace}");
    let by_tool = tool(&session, "status", json!({"target": "#cache-layer"}));
    // The verb says `kind` where the tool says `trace_kind`, as the reference.
    assert_eq!(trace["data"]["kind"], by_tool["trace_kind"]);
    // The tool's plan lines are a subset of the verb's, as the reference's.
    let (verb_plans, tool_plans) = (
        trace["data"]["plans"].as_array().unwrap(),
        by_tool["plans"].as_array().unwrap(),
    );
    assert_eq!(verb_plans.len(), tool_plans.len());
    for (from_verb, from_tool) in verb_plans.iter().zip(tool_plans) {
        for (key, value) in from_tool.as_object().unwrap() {
            assert_eq!(&from_verb[key], value, "plan field {key}");
        }
    }
    Ok(())
}

/// Per check: errors, warnings and fixes, as the verb reports them.
fn verb_counts(data: &Value) -> BTreeMap<String, (usize, usize, u64)> {
    data["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let items = c["diagnostics"]["items"].as_array().unwrap();
            let count = |s: &str| items.iter().filter(|i| i["severity"] == s).count();
            (
                c["check_name"].as_str().unwrap().to_owned(),
                (
                    count("error"),
                    count("warning"),
                    c["fixed_count"].as_u64().unwrap(),
                ),
            )
        })
        .collect()
}

/// Per check: errors, warnings and fixes, as the tool reports them.
fn tool_counts(result: &Value) -> BTreeMap<String, (usize, usize, u64)> {
    result["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["check"].as_str().unwrap().to_owned(),
                (
                    c["error_count"].as_u64().unwrap() as usize,
                    c["warning_count"].as_u64().unwrap() as usize,
                    c["fixed_count"].as_u64().unwrap(),
                ),
            )
        })
        .collect()
}

#[test]
fn check_finds_and_fixes_the_same_problems() -> anyhow::Result<()> {
    let (cli, mcp) = (workspace(), workspace());
    for vault in [&cli, &mcp] {
        // A dangling link and an unquoted status: one fixer each.
        vault.write(
            ".vault/research/2026-03-09-cache-layer-loose-research.md",
            "---\ntags:\n  - '#research'\n  - '#cache-layer'\ndate: '2026-03-09'\nmodified: '2026-03-09'\nrelated:\n  - '[[2026-01-01-gone-adr]]'\n---\n\n# `cache-layer` research: loose\n\nWords.\n",
        );
        vault.write(
            ".vault/adr/2026-03-10-cache-cap-adr.md",
            "---\ntags:\n  - '#adr'\n  - '#cache-cap'\ndate: '2026-03-10'\nmodified: '2026-03-10'\nrelated: []\n---\n\n# `cache-cap` adr: cap by bytes | (**status:** accepted)\n\n## Decision\n\nCap it.\n",
        );
    }
    let session = Session::start(&mcp, &[])?;
    let (_, found) = verb(&cli, &["vault", "check", "all", "--limit", "500"]);
    let by_tool = tool(&session, "check", json!({}));
    let counts = verb_counts(&found["data"]);
    assert_eq!(counts, tool_counts(&by_tool), "{found}\n{by_tool}");
    assert!(
        counts.values().any(|c| c.0 > 0),
        "the fixture has errors: {counts:?}"
    );

    let (_, fixed) = verb(&cli, &["vault", "check", "all", "--fix", "--limit", "500"]);
    let by_tool = tool(&session, "check", json!({"fix": true}));
    assert_eq!(
        verb_counts(&fixed["data"]),
        tool_counts(&by_tool),
        "{fixed}\n{by_tool}"
    );
    assert!(by_tool["total_fixed"].as_u64().unwrap() > 0, "{by_tool}");
    assert_same_files(&cli, &mcp);
    Ok(())
}

//! The read verbs: listing, counting, the link graph and search, and that they run without write access.

use super::*;

#[test]
fn read_verbs_list_count_graph_and_search_the_vault() {
    let vault = built();
    let data = ok(
        &vault,
        &["vault", "list", "--limit", "2"],
        "vaultspec.vault.list.v2",
        "unchanged",
    );
    assert_eq!(
        (
            data["returned"].as_u64(),
            data["total"].as_u64(),
            data["next_offset"].as_u64()
        ),
        (Some(2), Some(5), Some(2))
    );
    assert!(
        human(&vault, &["vault", "list", "research"])
            .contains("2026-03-01-cache-layer-eviction-research.md")
    );

    let data = ok(
        &vault,
        &["vault", "stats"],
        "vaultspec.vault.stats.v1",
        "unchanged",
    );
    assert_eq!(data["total_docs"], 5);
    assert_eq!(data["counts_by_type"]["adr"], 2);
    assert!(human(&vault, &["vault", "stats", "--orphaned"]).contains("orphaned"));

    let data = ok(
        &vault,
        &["vault", "feature", "list"],
        "vaultspec.vault.feature.list.v2",
        "unchanged",
    );
    assert_eq!(data["features"][0]["name"], "cache-layer");
    assert_eq!(data["features"][0]["has_plan"], true);
    assert!(human(&vault, &["vault", "feature", "list"]).contains("cache-layer"));

    let data = ok(
        &vault,
        &[
            "vault",
            "link",
            "list",
            "2026-03-02-cache-layer-key-format-reference",
        ],
        "vaultspec.vault.link.list.v1",
        "unchanged",
    );
    assert_eq!(data["count"], 1);
    assert_eq!(
        data["edges"][0]["dst"],
        "2026-03-01-cache-layer-eviction-research"
    );
    assert!(human(&vault, &["vault", "link", "list"]).contains("->"));

    let data = ok(
        &vault,
        &["vault", "graph"],
        "vaultspec.vault.graph.v2",
        "unchanged",
    );
    assert_eq!(data["directed"], true);
    assert_eq!(data["nodes"].as_array().map(Vec::len), Some(5));
    let data = ok(
        &vault,
        &[
            "vault",
            "graph",
            "--node",
            "2026-03-01-cache-layer-eviction-research",
            "--no-derived",
        ],
        "vaultspec.vault.graph.v2",
        "unchanged",
    );
    assert_eq!(data["derived_edges"], serde_json::json!([]));
    assert!(human(&vault, &["vault", "graph"]).contains("└──"));
    assert!(human(&vault, &["vault", "graph", "--metrics"]).contains("connected components"));
    assert!(human(&vault, &["vault", "graph", "--ascii"]).contains("-->"));

    let data = ok(
        &vault,
        &["vault", "search", "memory budget bytes", "--type", "adr"],
        "vaultspec.vault.search.v1",
        "unchanged",
    );
    assert!(data["returned"].as_u64().unwrap() >= 1, "{data}");
    assert!(
        data["hits"][0]["path"]
            .as_str()
            .unwrap()
            .starts_with(".vault/adr/")
    );
    assert!(human(&vault, &["vault", "search", "bytes"]).contains("lines"));
}

#[test]
fn read_only_verbs_run_in_a_component_without_write_access() {
    let catalog = vaultspec_host::builtins::catalog().expect("the builtin catalog loads");
    for verb in [
        "vault list",
        "vault stats",
        "vault graph",
        "vault search",
        "vault feature list",
        "vault link list",
        "status",
        "doctor",
        "migrations status",
        "config get",
        "config list",
    ] {
        let entry = catalog
            .get(verb)
            .unwrap_or_else(|| panic!("no verb `{verb}`"));
        assert!(
            !catalog.component_of(entry).capabilities.write,
            "`{verb}` runs with write access"
        );
    }
    for verb in [
        "vault add",
        "vault edit",
        "vault feature index",
        "vault link add",
        "migrations run",
        "config set",
    ] {
        let entry = catalog
            .get(verb)
            .unwrap_or_else(|| panic!("no verb `{verb}`"));
        assert!(
            catalog.component_of(entry).capabilities.write,
            "`{verb}` cannot write"
        );
    }
}

/// Three documents of three types, for the listing's order.
fn sample() -> TestVault {
    let vault = TestVault::new();
    vault.doc("adr", "2026-03-02", "cache-layer", Some("use-lru"));
    vault.doc("research", "2026-03-01", "cache-layer", Some("eviction"));
    vault.doc("plan", "2026-03-03", "search", None);
    vault
}

#[test]
fn vault_list_prints_every_document_by_type_then_name() {
    let vault = sample();
    let out = crate::binary::vaultspec(&vault, &["vault", "list"]);
    assert!(out.status.success(), "{}", crate::binary::text(&out.stderr));
    let stdout = crate::binary::text(&out.stdout);
    let adr = stdout
        .find("2026-03-02-cache-layer-use-lru-adr.md")
        .expect("the adr is listed");
    let plan = stdout
        .find("2026-03-03-search-plan.md")
        .expect("the plan is listed");
    let research = stdout
        .find("2026-03-01-cache-layer-eviction-research.md")
        .expect("the research is listed");
    assert!(adr < plan && plan < research, "{stdout}");
}

#[test]
fn vault_list_json_is_one_envelope() -> anyhow::Result<()> {
    let vault = sample();
    let out = crate::binary::vaultspec(&vault, &["vault", "list", "--json"]);
    assert!(out.status.success(), "{}", crate::binary::text(&out.stderr));
    let envelope: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    assert_eq!(envelope["schema"], "vaultspec.vault.list.v2");
    assert_eq!(envelope["status"], "unchanged");
    assert_eq!(envelope["data"]["total"], 3);
    assert_eq!(
        envelope["data"]["documents"][0]["path"],
        ".vault/adr/2026-03-02-cache-layer-use-lru-adr.md"
    );
    assert_eq!(envelope["data"]["documents"][0]["doc_type"], "adr");
    Ok(())
}

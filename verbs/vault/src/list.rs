//! `vault list`, `vault stats`, `vault feature list` and `vault link list`:
//! the listings of the vault, read from one graph load.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::graph::{
    DocSelect, FeatureFilter, Graph, load_graph, read_corpus, select_rows,
};
use vaultspec_sdk::vault::ops::link;
use vaultspec_sdk::vault::{Corpus, Date, resolve};

use crate::exports::vaultspec::vault::{vault, vault_feature, vault_link};
use crate::report::{self, date_flag, done, fail, page};
use crate::rows::corpus_rows;

/// The document types and pseudo types `vault list` accepts.
const LIST_TYPES: [&str; 9] = [
    "adr",
    "audit",
    "exec",
    "index",
    "plan",
    "reference",
    "research",
    "orphaned",
    "invalid",
];

fn check_type(raw: &str, pseudo: bool) -> Result<String, String> {
    let t = raw.trim().to_lowercase();
    let accepted = if pseudo {
        &LIST_TYPES[..]
    } else {
        &LIST_TYPES[..7]
    };
    if accepted.contains(&t.as_str()) {
        Ok(t)
    } else {
        Err(format!(
            "unknown document type `{raw}`: expected one of {}",
            accepted
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

/// The `--type` and `--date` filters checked; or the exit code of the
/// refusal already reported.
fn filters(
    json: bool,
    doc_type: Option<&str>,
    pseudo: bool,
    date: Option<&str>,
) -> Result<(Option<String>, Option<String>), u8> {
    let doc_type = doc_type
        .map(|t| check_type(t, pseudo))
        .transpose()
        .map_err(|message| fail(json, message))?;
    let date = date_flag(date).map_err(|message| report::usage(json, &message))?;
    Ok((doc_type, date))
}

/// [`filters`], and the vault's graph.
fn filtered_graph(
    json: bool,
    doc_type: Option<&str>,
    pseudo: bool,
    date: Option<&str>,
) -> Result<(Option<String>, Option<String>, Graph), u8> {
    let (doc_type, date) = filters(json, doc_type, pseudo, date)?;
    let graph = load_graph(&Workspace::open()).map_err(|err| fail(json, err))?;
    Ok((doc_type, date, graph))
}

pub fn documents(options: vault::ListOptions, doc_type: Option<String>) -> u8 {
    let json = options.json;
    let (doc_type, date) = match filters(json, doc_type.as_deref(), true, options.date.as_deref()) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let select = DocSelect::parse(doc_type.as_deref());
    let (feature, date) = (options.feature.as_deref(), date.as_deref());
    // Only `orphaned` and `invalid` are read from the links: any other
    // listing is made from the documents' rows, without building the graph.
    let workspace = Workspace::open();
    let rows = match select {
        DocSelect::Orphaned | DocSelect::Invalid => {
            read_corpus(&workspace).map(|(docs, archived)| {
                Graph::build(docs, &archived).list_documents(select, feature, date)
            })
        }
        _ => corpus_rows(&workspace).map(|rows| {
            select_rows(rows, select, feature, date).expect("a selection without links")
        }),
    };
    let rows = match rows {
        Ok(rows) => rows,
        Err(err) => return fail(json, err),
    };
    let (rows, window) = page(&rows, json, options.limit, options.offset);
    let mut data = json!({ "documents": rows });
    data.as_object_mut()
        .expect("an object")
        .extend(window.fields());
    let (total, next) = (window.total, window.next_offset());
    done(json, "vaultspec.vault.list.v2", data, || {
        for row in rows {
            let date = row.date.as_deref().unwrap_or("-");
            let feature = row.feature.as_deref().unwrap_or("-");
            match &row.problem {
                Some(problem) => println!(
                    "{date}  {:<9}  {feature:<20}  {}  ({problem})",
                    row.doc_type, row.path
                ),
                None => println!("{date}  {:<9}  {feature:<20}  {}", row.doc_type, row.path),
            }
        }
        match next {
            Some(n) => println!("{} of {total} documents (next: --offset {n})", rows.len()),
            None => println!("{total} documents"),
        }
    })
}

pub fn stats(options: vault::StatsOptions) -> u8 {
    let json = options.json;
    let (doc_type, date, graph) = match filtered_graph(
        json,
        options.type_.as_deref(),
        false,
        options.date.as_deref(),
    ) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let select = doc_type.as_deref().map_or(DocSelect::All, DocSelect::Type);
    let stats = graph.stats(select, options.feature.as_deref(), date.as_deref());
    let data = json!(stats);
    done(json, "vaultspec.vault.stats.v1", data, || {
        println!("documents: {}", stats.total_docs);
        println!("features:  {}", stats.total_features);
        if options.orphaned {
            println!("orphaned:  {}", stats.orphaned_count);
        }
        if options.invalid {
            println!("dangling links: {}", stats.dangling_link_count);
        }
        if !stats.counts_by_type.is_empty() {
            println!();
            for (t, n) in &stats.counts_by_type {
                println!("  {t:<10} {n:>5}");
            }
        }
    })
}

pub fn features(options: vault_feature::ListOptions) -> u8 {
    let json = options.json;
    let (doc_type, date, graph) = match filtered_graph(
        json,
        options.type_.as_deref(),
        false,
        options.date.as_deref(),
    ) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let stale_before = options
        .stale_days
        .and_then(|n| Date::today_utc().add_days(-i64::from(n)))
        .map(|d| d.to_string());
    let filter = FeatureFilter {
        date,
        doc_type,
        orphaned_only: options.orphaned,
        stale_before,
    };
    let rows = graph.feature_list(&filter);
    let (rows, window) = page(&rows, json, options.limit, options.offset);
    let mut data = json!({ "features": rows });
    data.as_object_mut()
        .expect("an object")
        .extend(window.fields());
    let (total, next) = (window.total, window.next_offset());
    done(json, "vaultspec.vault.feature.list.v2", data, || {
        for row in rows {
            let plan = if row.has_plan { "plan" } else { "no plan" };
            let latest = row.latest_activity.as_deref().unwrap_or("-");
            println!(
                "{:<24} {:>3} docs  latest {latest}  {plan}  [{}]",
                row.name,
                row.doc_count,
                row.types.join(", ")
            );
        }
        match next {
            Some(n) => println!("{} of {total} features (next: --offset {n})", rows.len()),
            None => println!("{total} features"),
        }
    })
}

pub fn links(options: vault_link::ListOptions, src: Option<String>) -> u8 {
    let json = options.json;
    let ws = Workspace::open();
    // The source as a node key: resolved like any document reference.
    let src = match src {
        Some(raw) => match Corpus::load(&ws)
            .and_then(|c| resolve::resolve(&c, &raw).map(|d| d.stem().to_owned()))
        {
            Ok(stem) => Some(stem),
            Err(err) => return fail(json, err),
        },
        None => None,
    };
    let graph = match load_graph(&ws) {
        Ok(g) => g,
        Err(err) => return fail(json, err),
    };
    let feature = options
        .feature
        .as_deref()
        .map(vaultspec_sdk::vault::doc::feature_arg);
    let Some(edges) = link::list(&graph, src.as_deref(), feature) else {
        let stem = src.unwrap_or_default();
        return fail(
            json,
            format!(
                "`{stem}` is no node of the graph: its stem is shared by documents of several types"
            ),
        );
    };
    let data = json!({ "edges": edges, "count": edges.len() });
    done(json, "vaultspec.vault.link.list.v1", data, || {
        for e in &edges {
            println!("{} -> {}", e.src, e.dst);
        }
        println!("{} links", edges.len());
    })
}

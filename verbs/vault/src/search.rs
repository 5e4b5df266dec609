//! `vault search`: the local BM25 ranking over document sections, printed as
//! the best documents with the passage and file lines that answer the query.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::graph::read_corpus;
use vaultspec_sdk::vault::search::{MAX_RESULTS, SEARCHABLE_TYPES, SearchIndex, SearchQuery};

use crate::exports::vaultspec::vault::vault::SearchOptions;
use crate::report::{self, date_flag, done, fail};

pub fn search(options: SearchOptions, query: &str) -> u8 {
    let json = options.json;
    if query.trim().is_empty() {
        return report::usage(json, "the query is empty: give a question or keywords");
    }
    let limit = options.limit.unwrap_or(4) as usize;
    if !(1..=MAX_RESULTS).contains(&limit) {
        return report::usage(
            json,
            &format!("invalid `--limit` {limit}: expected 1 to {MAX_RESULTS}"),
        );
    }
    let types: Vec<String> = options
        .type_
        .iter()
        .map(|t| t.trim().to_lowercase())
        .collect();
    if let Some(bad) = types
        .iter()
        .find(|t| !SEARCHABLE_TYPES.contains(&t.as_str()))
    {
        let accepted: Vec<String> = SEARCHABLE_TYPES.iter().map(|t| format!("`{t}`")).collect();
        return report::usage(
            json,
            &format!(
                "unknown `--type` `{bad}`: expected one of {}",
                accepted.join(", ")
            ),
        );
    }
    let date = match date_flag(options.date.as_deref()) {
        Ok(d) => d,
        Err(message) => return report::usage(json, &message),
    };
    let docs = match read_corpus(&Workspace::open()) {
        Ok((docs, _archived)) => docs,
        Err(err) => return fail(json, err),
    };
    let index = SearchIndex::build(&docs);
    let q = SearchQuery {
        text: query,
        types: &types,
        feature: options.feature.as_deref(),
        date: date.as_deref(),
        limit,
    };
    let page = index.page(&docs, &q);
    let hits = &page.hits;
    // What the ranking could not look inside is named, never silently
    // missing from the hits.
    let unreadable: Vec<_> = docs
        .iter()
        .filter(|d| !d.has_text())
        .map(|d| json!({"path": d.path, "problem": d.problem.as_ref().map(ToString::to_string)}))
        .collect();
    let mut data = json!(page);
    if !unreadable.is_empty() {
        data["unreadable"] = json!(unreadable);
    }
    done(json, "vaultspec.vault.search.v1", data, || {
        for u in &unreadable {
            println!(
                "not searched: {} ({})",
                u["path"].as_str().unwrap_or(""),
                u["problem"].as_str().unwrap_or("")
            );
        }
        if hits.is_empty() {
            println!("no passage matches `{query}`");
            return;
        }
        for hit in hits {
            let title = hit.title.as_deref().unwrap_or("");
            println!("{} ({:.2}) {title}", hit.path, hit.score);
            let e = &hit.excerpt;
            let section = if e.section.is_empty() {
                String::new()
            } else {
                format!(" {}", e.section)
            };
            println!("  lines {}-{}{section}", e.line_start, e.line_end);
            for line in e.text.lines() {
                println!("    {line}");
            }
            println!();
        }
        if page.truncated {
            println!(
                "{} of {} matching documents shown (raise --limit for more)",
                page.returned, page.total
            );
        }
    })
}

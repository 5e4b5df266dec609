//! The builtin read-only `vault` verbs: listing, counting, graphing and
//! searching documents, listing features and links.
//!
//! Every verb here only reads the workspace, so the component imports no
//! write access; the verbs that change the vault live in `vault-write`.

mod graph;
mod list;
mod report;
mod rows;
mod search;

use exports::vaultspec::vault::{vault, vault_feature, vault_link};

struct Verbs;

impl vault::Guest for Verbs {
    fn list(options: vault::ListOptions, doc_type: Option<String>) -> u8 {
        list::documents(options, doc_type)
    }

    fn stats(options: vault::StatsOptions) -> u8 {
        list::stats(options)
    }

    fn graph(options: vault::GraphOptions) -> u8 {
        graph::graph(options)
    }

    fn search(options: vault::SearchOptions, query: String) -> u8 {
        search::search(options, &query)
    }
}

impl vault_feature::Guest for Verbs {
    fn list(options: vault_feature::ListOptions) -> u8 {
        list::features(options)
    }
}

impl vault_link::Guest for Verbs {
    fn list(options: vault_link::ListOptions, src: Option<String>) -> u8 {
        list::links(options, src)
    }
}

vaultspec_sdk::verb!(Verbs);

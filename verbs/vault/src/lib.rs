//! The builtin `vault` verbs (interim: filename-based until the model lands).

use vaultspec_sdk::Workspace;
use vaultspec_sdk::output;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::Storage;

struct Verbs;

fn docs() -> Vec<(String, String, String, String)> {
    let ws = Workspace::open();
    let mut out = Vec::new();
    for entry in ws.list(".vault").unwrap_or_default() {
        let path = entry.path;
        let parts: Vec<&str> = path.split('/').collect();
        if parts.len() != 3 || !path.ends_with(".md") {
            continue;
        }
        let stem = parts[2].trim_end_matches(".md");
        let date = stem.get(..10).unwrap_or("").to_owned();
        let rest = stem.get(11..).unwrap_or("");
        let feature = rest.rsplit_once('-').map(|(f, _)| f).unwrap_or("").to_owned();
        out.push((path.clone(), parts[1].to_owned(), feature, date));
    }
    out
}

impl exports::vaultspec::vault::vault::Guest for Verbs {
    fn list(options: exports::vaultspec::vault::vault::ListOptions, doc_type: Option<String>) -> u8 {
        let docs: Vec<_> = docs()
            .into_iter()
            .filter(|d| doc_type.as_deref().is_none_or(|t| d.1 == t))
            .collect();
        if options.json {
            let documents: Vec<_> = docs
                .iter()
                .map(|(p, t, f, d)| json!({"path": p, "doc_type": t, "feature": f, "date": d}))
                .collect();
            let data = json!({"documents": documents, "returned": docs.len(), "total": docs.len(), "truncated": false});
            output::print_json(&output::envelope("vaultspec.vault.list.v2", "unchanged", data));
        } else {
            for (p, ..) in &docs {
                println!("{p}");
            }
        }
        0
    }
}

impl exports::vaultspec::vault::vault_feature::Guest for Verbs {
    fn list(options: exports::vaultspec::vault::vault_feature::ListOptions) -> u8 {
        let mut features: Vec<String> = docs().into_iter().map(|d| d.2).collect();
        features.sort();
        features.dedup();
        if options.json {
            output::print_json(&output::envelope("vaultspec.vault.feature.list.v2", "unchanged", json!({"features": features})));
        } else {
            for f in features {
                println!("{f}");
            }
        }
        0
    }
}

vaultspec_sdk::verb!(Verbs);

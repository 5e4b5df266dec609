//! `vaultspec notes count`: the third-party verb of `wit/README.md`.

use exports::acme::notes::notes::{CountOptions, Guest};
use vaultspec_sdk::{Workspace, output, vault::Storage};

struct Notes;

impl Guest for Notes {
    fn count(options: CountOptions, doc_type: Option<String>) -> u8 {
        let folder = format!(".vault/{}", doc_type.as_deref().unwrap_or(""));
        let folder = folder.trim_end_matches('/');
        let files = match Workspace::open().list(folder) {
            Ok(files) => files,
            Err(err) => return output::fail(options.json, err),
        };
        let tag = options
            .feature
            .map(|f| format!("-{}-", f.trim_start_matches('#')));
        let count = files
            .iter()
            .filter(|f| f.path.ends_with(".md"))
            .filter(|f| tag.as_ref().is_none_or(|t| f.path.contains(t.as_str())))
            .count();
        if options.json {
            let data = vaultspec_sdk::serde_json::json!({ "count": count });
            output::print_json(&output::envelope(
                "vaultspec.notes.count.v1",
                "unchanged",
                data,
            ));
        } else {
            println!("{count} notes");
        }
        output::EXIT_OK
    }
}

vaultspec_sdk::verb!(Notes);

//! `config get`, `config list` and `migrations status`: reading the
//! workspace's local settings and schema version.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::hints::Hints;
use vaultspec_sdk::output;
use vaultspec_sdk::serde_json::{Map, Value, json};
use vaultspec_sdk::vault::{Storage, StorageError};

use crate::exports::vaultspec::orient::config::{GetOptions, ListOptions};
use crate::exports::vaultspec::orient::migrations::StatusOptions;
use crate::report::{done, fail};
use vaultspec_verbs_shared::config_file::{self, CONFIG_PATH, KEYS};
use vaultspec_verbs_shared::migration_table::{REGISTERED, state};

/// The text of the settings file; empty when there is none.
fn config_text(ws: &Workspace) -> Result<String, StorageError> {
    match ws.read(CONFIG_PATH) {
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        Err(StorageError::NotFound { .. }) => Ok(String::new()),
        Err(err) => Err(err),
    }
}

pub fn get(options: GetOptions, key: String) -> u8 {
    let json = options.json;
    let key = match config_file::known_key(&key) {
        Ok(k) => k,
        Err(message) => return fail(json, message),
    };
    let text = match config_text(&Workspace::open()) {
        Ok(t) => t,
        Err(err) => return fail(json, err),
    };
    let value = config_file::get(&text, key);
    done(
        json,
        "vaultspec.config.get.v1",
        &json!({ "key": key, "value": value }),
        || match &value {
            Some(v) => println!("{v}"),
            None => println!("{key} is not set"),
        },
    )
}

pub fn list(options: ListOptions) -> u8 {
    let json = options.json;
    let text = match config_text(&Workspace::open()) {
        Ok(t) => t,
        Err(err) => return fail(json, err),
    };
    let mut entries = Map::new();
    for key in KEYS {
        entries.insert(key.to_owned(), json!(config_file::get(&text, key)));
    }
    let data = json!({ "entries": Value::Object(entries.clone()) });
    done(json, "vaultspec.config.list.v1", &data, || {
        for (key, value) in &entries {
            println!("{key} = {}", value.as_str().unwrap_or("(not set)"));
        }
    })
}

pub fn migrations_status(options: StatusOptions) -> u8 {
    let json = options.json;
    let st = match state(&Workspace::open()) {
        Ok(s) => s,
        Err(message) => return fail(json, message),
    };
    let registered: Vec<Value> = REGISTERED
        .iter()
        .map(|(name, target)| json!({ "name": name, "target_version": target }))
        .collect();
    let pending: Vec<Value> = st
        .pending
        .iter()
        .map(|(name, target)| json!({ "name": name, "target_version": target }))
        .collect();
    let data = json!({
        "manifest_version": st.manifest_version,
        "status": st.status_word(),
        "registered": registered,
        "pending": pending,
        "legacy_indexes": st.legacy_indexes,
    });
    // Text only, as the reference prints them.
    let hints = (!st.pending.is_empty())
        .then(|| {
            Hints::steps([
                (
                    "See what the pending migrations would change",
                    "vaultspec migrations run --dry-run",
                ),
                ("Apply them", "vaultspec migrations run"),
            ])
            .text_only()
        })
        .and_then(|h| h.unless(options.no_hints));
    let code = output::done_with_hints(
        json,
        "vaultspec.migrations.status.v1",
        output::status::UNCHANGED,
        &data,
        hints.as_ref(),
        || {
            println!(
                "manifest version: {}",
                st.manifest_version
                    .as_deref()
                    .unwrap_or("(no .vaultspec/providers.json)")
            );
            println!("status: {}", st.status_word());
            for (name, target) in &st.pending {
                println!("  pending {name} ({target})");
            }
        },
    );
    if st.pending.is_empty() {
        code
    } else {
        output::EXIT_FAILURE
    }
}

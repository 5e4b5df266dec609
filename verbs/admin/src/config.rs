//! `config set` and `config unset`: rewrite one `key = "value"` line of
//! `.vaultspec/config.toml`, keeping every other line.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::output;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::{Storage, StorageError};

use vaultspec_verbs_shared::config_file::{self, CONFIG_PATH};

/// Sets `key` to `value`, or clears it when `value` is `None`.
pub fn set(json: bool, key: &str, value: Option<&str>) -> u8 {
    let key = match config_file::known_key(key) {
        Ok(k) => k,
        Err(message) => return output::fail(json, &message),
    };
    let ws = WritableWorkspace::open();
    let text = match ws.read(CONFIG_PATH) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(StorageError::NotFound { .. }) => String::new(),
        Err(err) => return output::fail(json, err),
    };
    let new = config_file::set(&text, key, value);
    let result = if new == text {
        Ok(())
    } else if new.is_empty() {
        ws.remove(CONFIG_PATH)
    } else {
        ws.write(CONFIG_PATH, new.as_bytes())
    };
    if let Err(err) = result {
        return output::fail(json, err);
    }
    let (schema, status, data) = match value {
        Some(v) => (
            "vaultspec.config.set.v1",
            output::status::UPDATED,
            json!({ "key": key, "value": v }),
        ),
        None => (
            "vaultspec.config.unset.v1",
            output::status::REMOVED,
            json!({ "key": key }),
        ),
    };
    if json {
        output::print_json(&output::envelope(schema, status, data));
    } else {
        match value {
            Some(v) => println!("{key} = {v}"),
            None => println!("{key} cleared"),
        }
    }
    output::EXIT_OK
}

//! `migrations run`: apply what is pending. Of the reference's migrations only
//! `index_subfolder` concerns files this port manages (feature indexes at the
//! top of `.vault/` move into `.vault/index/`); the others rewrite provider
//! files and are recorded as applied with nothing to change. The manifest's
//! `vaultspec_version` is then brought to the current version. The moves and
//! the manifest bump are one batch, applied all or nothing.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::output;
use vaultspec_sdk::serde_json::{Value, json};
use vaultspec_sdk::vault::Storage;
use vaultspec_sdk::vault::ops::{self, Change};

use crate::exports::vaultspec::admin::migrations::RunOptions;
use vaultspec_verbs_shared::migration_table::{CURRENT_VERSION, MANIFEST_PATH, state};

/// The manifest text with `vaultspec_version` set to `version`.
fn bump(text: &str, version: &str) -> String {
    let key = "\"vaultspec_version\"";
    if let Some(at) = text.find(key) {
        let after = at + key.len();
        if let Some(open) = text[after..].find('"').map(|i| after + i + 1)
            && let Some(close) = text[open..].find('"').map(|i| open + i)
        {
            return format!("{}{version}{}", &text[..open], &text[close..]);
        }
    }
    match text.find('{') {
        Some(brace) => {
            let rest = text[brace + 1..].trim_start();
            let sep = if rest.starts_with('}') { "" } else { "," };
            format!(
                "{}\n  {key}: \"{version}\"{sep}{}",
                &text[..=brace],
                &text[brace + 1..]
            )
        }
        None => format!("{{\n  {key}: \"{version}\"\n}}\n"),
    }
}

pub fn run(options: RunOptions) -> u8 {
    let json = options.json;
    let ws = WritableWorkspace::open();
    if !options.dry_run
        && let Err(err) = ops::recover(&ws)
    {
        return output::fail(json, err);
    }
    let st = match state(&ws) {
        Ok(s) => s,
        Err(message) => return output::fail(json, &message),
    };
    let mut migrations: Vec<Value> = Vec::new();
    let mut moves = Vec::new();
    for (name, target) in &st.pending {
        let detail = if *name == "index_subfolder" {
            for old in &st.legacy_indexes {
                let file = old.rsplit('/').next().unwrap_or(old);
                moves.push((old.clone(), format!(".vault/index/{file}")));
            }
            format!(
                "{} feature indexes moved into `.vault/index/`",
                st.legacy_indexes.len()
            )
        } else {
            "nothing to change in the files this tool manages".to_owned()
        };
        migrations.push(json!({ "name": name, "target_version": target, "applied": !options.dry_run, "detail": detail }));
    }
    let mut manifest_change = Value::Null;
    if !st.pending.is_empty() && st.has_manifest {
        manifest_change = json!({ "old": st.manifest_version, "new": CURRENT_VERSION });
    }
    if !options.dry_run {
        let mut changes = Vec::new();
        for (from, to) in &moves {
            match ws.exists(to) {
                Ok(true) => changes.push(Change::Remove { path: from.clone() }),
                Ok(false) => changes.push(Change::Rename {
                    from: from.clone(),
                    to: to.clone(),
                }),
                Err(err) => return output::fail(json, err),
            }
        }
        if !manifest_change.is_null() {
            match ws.read(MANIFEST_PATH) {
                Ok(bytes) => changes.push(Change::Write {
                    path: MANIFEST_PATH.to_owned(),
                    bytes: bump(&String::from_utf8_lossy(&bytes), CURRENT_VERSION).into_bytes(),
                }),
                Err(err) => return output::fail(json, err),
            }
        }
        // Every move and the manifest bump land together or not at all.
        if let Err(err) = ops::apply(&ws, &changes) {
            return output::fail(json, err);
        }
    }
    let status = if st.pending.is_empty() || options.dry_run {
        output::status::UNCHANGED
    } else {
        output::status::UPDATED
    };
    let data = json!({
        "dry_run": options.dry_run,
        "deletes": [],
        "migrations": migrations,
        "manifest_version": manifest_change,
    });
    if json {
        output::print_json(&output::envelope(
            "vaultspec.migrations.run.v1",
            status,
            data,
        ));
    } else if st.pending.is_empty() {
        println!("no migration is pending");
    } else {
        let verb = if options.dry_run {
            "would apply"
        } else {
            "applied"
        };
        for m in &migrations {
            println!(
                "{verb} {} ({}): {}",
                m["name"].as_str().unwrap_or(""),
                m["target_version"].as_str().unwrap_or(""),
                m["detail"].as_str().unwrap_or("")
            );
        }
        if st.has_manifest {
            println!(
                "manifest version {} -> {CURRENT_VERSION}",
                st.manifest_version.as_deref().unwrap_or("(none)")
            );
        }
    }
    output::EXIT_OK
}

#[cfg(test)]
mod tests {
    use super::bump;

    #[test]
    fn the_manifest_version_is_replaced_or_added() {
        assert_eq!(
            bump("{\"vaultspec_version\": \"0.1.0\", \"x\": 1}", "0.3.9"),
            "{\"vaultspec_version\": \"0.3.9\", \"x\": 1}"
        );
        assert_eq!(
            bump("{}", "0.3.9"),
            "{\n  \"vaultspec_version\": \"0.3.9\"}"
        );
    }
}

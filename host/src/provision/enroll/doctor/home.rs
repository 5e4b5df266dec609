//! What `spec doctor` says under its `home` key beside the hooks and the
//! companion: the process records under `~/.vaultspec/procs/` whose process
//! is gone, and `.env` files the repository tracks (secrets on their way
//! into every clone).

use std::path::Path;

use serde_json::{Value, json};

/// `{signal, record_count, stale_records}`: `absent` without the folder,
/// `stale` when a recorded process no longer runs, else `healthy`.
pub fn process_registry(home: Option<&Path>) -> Value {
    let dir = home.map(|h| h.join(".vaultspec/procs"));
    let Some(entries) = dir
        .as_deref()
        .filter(|d| d.symlink_metadata().is_ok_and(|m| m.is_dir()))
        .and_then(|d| std::fs::read_dir(d).ok())
    else {
        return json!({"signal": "absent", "record_count": 0, "stale_records": []});
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    let (mut count, mut stale) = (0, Vec::new());
    for name in names {
        let Some(pid) = dir
            .as_deref()
            .and_then(|d| {
                let file = d.join(&name);
                crate::checked_file::read(&file, 64 * 1024, crate::checked_file::Owner::Anyone)
                    .ok()
                    .flatten()
            })
            .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
            .and_then(|record| record.get("pid").and_then(Value::as_i64))
            .filter(|pid| *pid > 0 && *pid <= i64::from(i32::MAX))
        else {
            continue;
        };
        count += 1;
        if !alive(pid as i32) {
            stale.push(name);
        }
    }
    let signal = if stale.is_empty() { "healthy" } else { "stale" };
    json!({"signal": signal, "record_count": count, "stale_records": stale})
}

/// Whether a process with this id exists (signal 0 asks without sending).
fn alive(pid: i32) -> bool {
    #[cfg(unix)]
    {
        // SAFETY: kill with signal 0 sends nothing; it only checks the pid.
        let done = unsafe { libc::kill(pid, 0) };
        done == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// The `.env` files the workspace's git index tracks (`.env.example`
/// aside), sorted; `[]` outside a repository, `null` when its index cannot
/// be read.
pub fn tracked_credentials(root: &Path) -> Value {
    match crate::git_index::tracked(root) {
        Ok(None) => json!([]),
        Ok(Some(paths)) => {
            let mut found: Vec<String> = paths
                .into_iter()
                .filter(|p| {
                    let name = p.rsplit('/').next().unwrap_or(p);
                    (name == ".env" || name.starts_with(".env."))
                        && (name != ".env.example" || p == ".vaultspec/.env.example")
                })
                .collect();
            found.sort();
            json!(found)
        }
        Err(_) => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_of_a_process_that_is_gone_is_stale() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(process_registry(Some(home.path()))["signal"], "absent");
        let procs = home.path().join(".vaultspec/procs");
        std::fs::create_dir_all(&procs).unwrap();
        let me = std::process::id();
        std::fs::write(procs.join("a.json"), format!("{{\"pid\": {me}}}")).unwrap();
        std::fs::write(procs.join("b.json"), "{\"pid\": 2147483000}").unwrap();
        std::fs::write(procs.join("c.json"), "{\"pid\": true}").unwrap();
        let registry = process_registry(Some(home.path()));
        assert_eq!(
            registry,
            json!({"signal": "stale", "record_count": 2, "stale_records": ["b.json"]})
        );
    }
}

//! Replies of the read-only tools, kept with the loaded vault they were
//! made from, so asking again while nothing changed costs a lookup.
//!
//! A reply depends on the files under `.vault/` (the [`LoadedVault`](super::LoadedVault)
//! it is kept in is dropped when any changes), on the framework files under
//! `.vaultspec/` (config, the body-schema baseline, rename manifests: their
//! [`fingerprint`](crate::workspace::survey::fingerprint) is part of the key), on today's date
//! (stamps and ages) and on the call's arguments; the key holds all four.
//!
//! A reply is kept written as JSON ([`Payload::Written`]): a tenth of the
//! memory of its value, and every call shares it instead of copying it
//! (the rollup of a vault with thousands of plans in flight is megabytes).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use vaultspec_vault::Date;

use super::fingerprint;
use crate::gateway::kept::KeptReplies;
use crate::mcp::reply::{Payload, Reply, ToolError, ToolResult};

/// The most replies kept for one loaded vault; past it the oldest are
/// forgotten all at once (a client asking about many features).
const KEPT: usize = 64;

/// One kept reply, or its place while the first call that asked for it
/// makes it: a call with the same key waits for that one instead of making
/// the same reply again beside it (a first `status` that comes while the
/// server warms the rollup at start).
type Slot = Arc<Mutex<Option<Reply>>>;

/// The replies made from one loaded vault.
#[derive(Default)]
pub struct Replies {
    kept: Mutex<HashMap<String, Slot>>,
    /// The `invoke` replies kept for the same files.
    pub invoke: Arc<KeptReplies>,
}

impl Replies {
    /// The reply of `tool` for `args` in the workspace at `root` today: the
    /// kept one, else `make()`'s, kept when it succeeds. Calls with the same
    /// key make it once, one after the other; calls with other keys do not
    /// wait for each other.
    pub fn get_or(
        &self,
        root: &Path,
        today: Date,
        tool: &str,
        args: &Value,
        make: impl FnOnce() -> ToolResult,
    ) -> ToolResult {
        let framework = fingerprint(&root.join(".vaultspec"));
        let key = format!("{tool}\n{args}\n{today}\n{}", hex::encode(framework));
        let slot = {
            let mut kept = self.kept.lock().expect("replies lock poisoned");
            if kept.len() >= KEPT && !kept.contains_key(&key) {
                kept.clear();
            }
            Slot::clone(kept.entry(key).or_default())
        };
        // A maker that panicked left the slot empty: the next call makes
        // the reply afresh.
        let mut slot = slot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(reply) = &*slot {
            return Ok(reply.clone());
        }
        let Reply {
            summary,
            structured,
        } = make()?;
        let json = match structured {
            Payload::Value(value) => serde_json::to_string(&value)
                .map_err(|err| ToolError::tool(format!("writing the {tool} reply: {err}")))?
                .into(),
            Payload::Written(json) => json,
        };
        let reply = Reply {
            summary,
            structured: Payload::Written(json),
        };
        *slot = Some(reply.clone());
        Ok(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::cell::Cell;

    #[test]
    fn a_reply_is_made_once_per_arguments_day_and_framework_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".vaultspec")).unwrap();
        let replies = Replies::default();
        let made = Cell::new(0);
        let ask = |args: Value, today: &str| {
            replies
                .get_or(dir.path(), today.parse().unwrap(), "check", &args, || {
                    made.set(made.get() + 1);
                    Ok(Reply {
                        summary: format!("reply {}", made.get()),
                        structured: json!({}).into(),
                    })
                })
                .unwrap()
                .summary
        };
        assert_eq!(ask(json!({}), "2026-12-03"), "reply 1");
        assert_eq!(ask(json!({}), "2026-12-03"), "reply 1", "asked again: kept");
        assert_eq!(ask(json!({"feature": "a"}), "2026-12-03"), "reply 2");
        assert_eq!(ask(json!({}), "2026-12-04"), "reply 3", "a new day");
        std::fs::write(dir.path().join(".vaultspec/config.toml"), "x = 1").unwrap();
        assert_eq!(
            ask(json!({}), "2026-12-04"),
            "reply 4",
            "a framework file changed"
        );
        assert_eq!(ask(json!({}), "2026-12-04"), "reply 4");
    }

    #[test]
    fn calls_with_the_same_key_make_the_reply_once() {
        let dir = tempfile::tempdir().unwrap();
        let replies = Replies::default();
        let today: Date = "2026-12-03".parse().unwrap();
        let made = std::sync::atomic::AtomicUsize::new(0);
        let make = || {
            made.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            // Long enough for every other call to arrive meanwhile.
            std::thread::sleep(std::time::Duration::from_millis(100));
            Ok(Reply {
                summary: "made".into(),
                structured: json!({}).into(),
            })
        };
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let reply = replies.get_or(dir.path(), today, "status", &json!({}), make);
                    assert_eq!(reply.unwrap().summary, "made");
                });
            }
        });
        assert_eq!(made.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn a_failure_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let replies = Replies::default();
        let today: Date = "2026-12-03".parse().unwrap();
        let failed = replies.get_or(dir.path(), today, "status", &json!({}), || {
            Err(crate::mcp::reply::ToolError::tool("no"))
        });
        assert!(failed.is_err());
        let again = replies.get_or(dir.path(), today, "status", &json!({}), || {
            Ok(Reply {
                summary: "made".into(),
                structured: json!({}).into(),
            })
        });
        assert_eq!(again.unwrap().summary, "made");
    }
}

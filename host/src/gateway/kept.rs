//! `invoke` replies a server keeps for one state of `.vault/`, so the same
//! call asked again is answered without running the verb.
//!
//! The server owns one [`KeptReplies`] per state of the vault it has loaded
//! (its watch tells it exactly when any file under `.vault/` changes, and
//! a new state gets a new, empty one). A reply is kept under the call's
//! whole command line, and holds while:
//!
//! - it is the same UTC day (builtin verbs read the date, never finer);
//! - every path outside `.vault/` the call listed or read is as it was
//!   ([`Outside`], taken after the call under the racy-stamp rule).
//!
//! Only what the command line's answer cache would keep is kept: a builtin
//! verb that finished by itself, tried no write and was handed nothing by
//! the host. The first call decides the reply; the kept one is its JSON,
//! byte for byte.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use vaultspec_vault::Date;

use crate::sandbox::Outside;

/// The most replies kept for one state of the vault; past it, or past
/// [`KEPT_BYTES`], the oldest kept are forgotten all at once.
const KEPT: usize = 64;

/// The most bytes of reply kept for one state of the vault (a reply is at
/// most the 1 MiB output cap, a little more as JSON).
const KEPT_BYTES: usize = 16 << 20;

/// One kept reply and what it depended on.
struct Kept {
    day: Date,
    outside: Outside,
    summary: String,
    json: Arc<str>,
}

/// The `invoke` replies kept for one state of `.vault/`.
#[derive(Default)]
pub struct KeptReplies {
    kept: Mutex<Store>,
}

/// The kept replies by command line, and their bytes.
#[derive(Default)]
struct Store {
    entries: HashMap<Vec<String>, Arc<Kept>>,
    bytes: usize,
}

/// A kept reply: its summary line and its JSON.
pub struct Given {
    /// The summary line of the reply.
    pub summary: String,
    /// The reply, written as JSON when it was made.
    pub json: Arc<str>,
}

impl KeptReplies {
    /// The reply kept for `command` in the workspace at `root`, when it
    /// still holds for a call that begins at `started`.
    pub fn get(&self, command: &[String], root: &Path, started: SystemTime) -> Option<Given> {
        let kept = {
            let kept = self.kept.lock().expect("kept replies lock poisoned");
            Arc::clone(kept.entries.get(command)?)
        };
        let holds = kept.day == Date::today_utc() && kept.outside.holds(root, started);
        tracing::debug!(holds, "an invoke reply is kept for `{}`", command.join(" "));
        holds.then(|| Given {
            summary: kept.summary.clone(),
            json: Arc::clone(&kept.json),
        })
    }

    /// Keep `given`, the reply to `command` made on `day`, which depended
    /// on `outside` beyond `.vault/`.
    pub fn keep(&self, command: Vec<String>, day: Date, outside: Outside, given: &Given) {
        let json = Arc::clone(&given.json);
        let mut kept = self.kept.lock().expect("kept replies lock poisoned");
        let Store { entries, bytes } = &mut *kept;
        if entries.len() >= KEPT || *bytes + json.len() > KEPT_BYTES {
            entries.clear();
            *bytes = 0;
        }
        *bytes += json.len();
        let entry = Kept {
            day,
            outside,
            summary: given.summary.clone(),
            json,
        };
        if let Some(old) = entries.insert(command, Arc::new(entry)) {
            *bytes -= old.json.len();
        }
    }
}

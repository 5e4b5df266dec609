//! The stdio watchdog: exit when the client that started the server is gone.
//!
//! stdin EOF is the normal way out; this is the backstop for a client that
//! died without closing the pipe (`spec/mcp-tools.md` §9.4). Every 15 seconds
//! it checks whether the server was re-parented and, with `--parent-pid`,
//! whether that process still exists. Before exiting it writes one JSON line
//! to stderr saying why.

use std::time::Duration;

use crate::env;

/// How often the watchdog looks.
pub const POLL: Duration = Duration::from_secs(15);

/// Whether the watchdog is wanted: off only for a false word in
/// `VAULTSPEC_STDIO_WATCHDOG` (`0`, `false`, `no`, `off`).
pub fn enabled() -> bool {
    match std::env::var(env::STDIO_WATCHDOG) {
        Ok(value) => {
            let word = value.trim().to_ascii_lowercase();
            match word.as_str() {
                "0" | "false" | "no" | "off" => false,
                "" | "1" | "true" | "yes" | "on" => true,
                other => {
                    tracing::warn!(
                        "`{}` is `{other}`, not a true or false word; keeping the watchdog on",
                        env::STDIO_WATCHDOG
                    );
                    true
                }
            }
        }
        Err(_) => true,
    }
}

fn alive(pid: i32) -> bool {
    // SAFETY: kill with signal 0 only checks that the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Start the watchdog thread (fails open: if it cannot start, EOF still ends
/// the server).
pub fn start(parent_pid: Option<i32>, poll: Duration) {
    let original_parent = std::os::unix::process::parent_id() as i32;
    let spawned = std::thread::Builder::new()
        .name("vaultspec-watchdog".into())
        .spawn(move || {
            loop {
                std::thread::sleep(poll);
                let (dead, exe) = if std::os::unix::process::parent_id() as i32 != original_parent {
                    (original_parent, "parent")
                } else if let Some(pid) = parent_pid.filter(|p| !alive(*p)) {
                    (pid, "explicit-client")
                } else {
                    continue;
                };
                let line = serde_json::json!({
                    "event": "stdio_watchdog_exit",
                    "shim_pid": std::process::id(),
                    "dead_ancestor_pid": dead,
                    "dead_ancestor_exe": exe,
                    "reason": "watched_process_exit",
                });
                eprintln!("{line}");
                std::process::exit(0);
            }
        });
    if let Err(err) = spawned {
        tracing::warn!("the stdio watchdog could not start: {err}");
    }
}

//! How the command line reports a failure: one `vaultspec.error.v1` JSON
//! document on stdout when `--json` was asked for (whatever failed, a parse
//! error included), else `error: …` on stderr; and writing to stdout so
//! that a reader who stops early (`vaultspec -h | head -1`) is no error.

use std::ffi::OsString;
use std::io::{self, Write};

use serde_json::json;

/// Whether `--json` is among the arguments (before a `--`), read from argv
/// itself so that it holds even when clap could not parse them.
pub fn json_requested(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--json")
}

/// Where failures go, and in which form.
#[derive(Debug, Clone, Copy)]
pub struct Reporter {
    /// Print failures as JSON on stdout.
    pub json: bool,
}

impl Reporter {
    /// Report `message` and return `code`, the exit code to end with.
    pub fn fail(self, code: u8, message: &str) -> u8 {
        if self.json {
            let envelope = json!({
                "schema": "vaultspec.error.v1",
                "status": "failed",
                "data": { "message": message, "exit_code": code },
            });
            // A reader that went away cannot be told anything more.
            let _ = write_stdout(&format!("{envelope}\n"));
        } else {
            eprintln!("{} {message}", crate::display::error_label());
        }
        code
    }
}

/// Print a `{schema, status, data}` envelope on stdout as one line.
pub fn print_envelope(schema: &str, status: &str, data: serde_json::Value) -> io::Result<()> {
    let envelope = json!({ "schema": schema, "status": status, "data": data });
    write_stdout(&format!("{envelope}\n"))
}

/// Write `text` to stdout in one piece. A closed pipe is not an error: the
/// reader had what it wanted.
pub fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_seen_before_a_double_dash_only() {
        let args = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(json_requested(&args(&["vs", "vault", "lst", "--json"])));
        assert!(!json_requested(&args(&[
            "vs", "vault", "search", "--", "--json"
        ])));
        assert!(!json_requested(&args(&["--json"])));
    }
}

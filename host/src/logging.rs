//! Logging to stderr (stdout belongs to the verb output and the MCP protocol).
//!
//! Log lines carry names and paths from components and from the vault (a
//! file name may hold any byte but `/` and NUL), so every line passes
//! through [`TerminalFilter`] on its way out: no control or bidirectional
//! character reaches a terminal, or a log file a person later reads in one.

use std::io::Write;

use anyhow::bail;
use tracing_subscriber::EnvFilter;

use crate::display::TerminalFilter;
use crate::env;

/// The level at the command line when `VAULTSPEC_LOG_LEVEL` is unset:
/// warnings and errors only, so a verb's own output stands alone.
pub const CLI_DEFAULT: &str = "warn";

/// The level of `vaultspec mcp` when `VAULTSPEC_LOG_LEVEL` is unset: the
/// reference server's INFO (a start line, one line per tool call).
pub const SERVER_DEFAULT: &str = "info";

/// Stderr, with each write's control and bidirectional characters escaped
/// (one log event is one write).
struct EscapingStderr;

impl Write for EscapingStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut filter = TerminalFilter::default();
        let mut out = filter.filter(buf);
        out.extend(filter.finish());
        std::io::stderr().lock().write_all(&out)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// The `tracing` level for a `VAULTSPEC_LOG_LEVEL` word: the reference's
/// `DEBUG|INFO|WARNING|ERROR|CRITICAL` (any case) and `trace`/`warn`.
pub fn level(word: &str) -> Option<&'static str> {
    Some(match word.trim().to_ascii_lowercase().as_str() {
        "trace" => "trace",
        "debug" => "debug",
        "info" => "info",
        "warn" | "warning" => "warn",
        "error" | "critical" => "error",
        _ => return None,
    })
}

/// Send logs to stderr at `VAULTSPEC_LOG_LEVEL`, or `default` when unset;
/// an unknown level refuses to start, naming the variable.
pub fn init(default: &str) -> anyhow::Result<()> {
    let chosen = match std::env::var(env::LOG_LEVEL) {
        Ok(word) if !word.trim().is_empty() => match level(&word) {
            Some(level) => level,
            None => bail!(
                "`{}` is `{word}`; use one of DEBUG, INFO, WARNING, ERROR, CRITICAL",
                env::LOG_LEVEL
            ),
        },
        _ => default,
    };
    let filter = EnvFilter::new(format!(
        "warn,vaultspec_host={chosen},vaultspec_vault={chosen}"
    ));
    let _ = tracing_subscriber::fmt()
        .with_writer(|| EscapingStderr)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_states_both_default_levels() {
        let readme = include_str!("../../README.md");
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{}`", env::LOG_LEVEL)))
            .expect("the README's environment table has the log level");
        assert!(
            row.contains(&format!("`{CLI_DEFAULT}` at the command line"))
                && row.contains(&format!("`{SERVER_DEFAULT}` for `vaultspec mcp`")),
            "{row}"
        );
    }

    #[test]
    fn reference_level_words_map_to_tracing_levels() {
        assert_eq!(level("WARNING"), Some("warn"));
        assert_eq!(level("critical"), Some("error"));
        assert_eq!(level(" Info "), Some("info"));
        assert_eq!(level("loud"), None);
    }
}

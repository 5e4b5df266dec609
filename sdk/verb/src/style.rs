//! Colour for a verb's text, when the person's terminal wants it.
//!
//! A verb sees no host environment, so it cannot read `NO_COLOR` or ask
//! whether stdout is a terminal. The host decides for it: it sets
//! [`COLOR_ENV`] to `1` for a builtin verb whose stdout is a terminal that
//! takes colour (`NO_COLOR` unset or empty, `TERM` not `dumb`), and passes
//! exactly the colours this module writes through its terminal filter.
//! Everywhere else (a pipe, `--json`, MCP, a third-party verb) [`paint`]
//! returns the text as it is.

use std::sync::OnceLock;

/// The variable the host sets to `1` when the verb may print colour.
pub const COLOR_ENV: &str = "VAULTSPEC_COLOR";

/// What a piece of text means, and so its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// An error, or a failed verdict: red.
    Error,
    /// A warning: yellow.
    Warning,
    /// A clean verdict or a done step: green.
    Good,
    /// A command to run: bold.
    Command,
    /// Less important detail: dim.
    Quiet,
}

impl Tone {
    /// The SGR parameter that starts it.
    fn code(self) -> &'static str {
        match self {
            Tone::Error => "31",
            Tone::Warning => "33",
            Tone::Good => "32",
            Tone::Command => "1",
            Tone::Quiet => "2",
        }
    }
}

/// Whether the host allowed colour for this call.
pub fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var(COLOR_ENV).is_ok_and(|v| v == "1"))
}

/// `text` in `tone`'s colour when colour is on, else as it is.
pub fn paint(tone: Tone, text: &str) -> String {
    if enabled() {
        paint_always(tone, text)
    } else {
        text.to_owned()
    }
}

/// `text` in `tone`'s colour, whatever the host said (for tests).
pub fn paint_always(tone: Tone, text: &str) -> String {
    format!("\x1b[{}m{text}\x1b[0m", tone.code())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_painted_text_is_wrapped_in_one_colour_and_a_reset() {
        assert_eq!(paint_always(Tone::Error, "error"), "\x1b[31merror\x1b[0m");
        assert_eq!(paint_always(Tone::Command, "x"), "\x1b[1mx\x1b[0m");
    }
}

//! Asking the person at the terminal, and only them.
//!
//! Trust is granted by an answer read from the controlling terminal
//! (`/dev/tty`), never from stdin: a script that pipes `yes` into vaultspec
//! answers nothing. A run whose stdin is not a terminal is non-interactive
//! and cannot grant trust at all.
//!
//! Everything shown goes through [`Escaped::text`]: a review is made of
//! names, paths and docs a component supplied, and no control or
//! bidirectional character among them may move the cursor or redraw the
//! question (only line breaks and tabs pass).

use std::io::{BufRead, BufReader, IsTerminal, Write};

use anyhow::Context;

use crate::display::Escaped;

/// Whether a person may be at the keyboard: stdin is a terminal.
pub fn stdin_is_terminal() -> bool {
    std::io::stdin().is_terminal()
}

/// Whether no person can be asked: `--json` (a script reads the answer),
/// stdin or stdout not a terminal, or the run declares itself unattended
/// (`CI` or `VAULTSPEC_NON_INTERACTIVE` set to anything but a false word).
pub fn cannot_ask(json: bool) -> bool {
    let declared = ["VAULTSPEC_NON_INTERACTIVE", "CI"].iter().any(|name| {
        std::env::var(name).is_ok_and(|v| {
            !matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "" | "0" | "false" | "no" | "off"
            )
        })
    });
    json || declared || !stdin_is_terminal() || !std::io::stdout().is_terminal()
}

/// The controlling terminal, opened for a question and its answer.
pub struct Terminal {
    reader: BufReader<std::fs::File>,
    writer: std::fs::File,
}

#[cfg(unix)]
const TTY: &str = "/dev/tty";
#[cfg(windows)]
const TTY: &str = "CONIN$";

impl Terminal {
    /// Open the controlling terminal.
    pub fn open() -> anyhow::Result<Self> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(TTY)
            .with_context(|| format!("opening the terminal `{TTY}`"))?;
        let writer = file
            .try_clone()
            .with_context(|| format!("opening the terminal `{TTY}`"))?;
        Ok(Self {
            reader: BufReader::new(file),
            writer,
        })
    }

    /// Show text to the person.
    pub fn say(&mut self, text: &str) -> anyhow::Result<()> {
        let text = Escaped::text(text).to_string();
        self.writer
            .write_all(text.as_bytes())
            .context("writing to the terminal")?;
        self.writer.flush().context("writing to the terminal")
    }

    /// Ask a yes/no question; only `y` or `yes` (any case) is a yes, and
    /// the end of input is a no.
    pub fn confirm(&mut self, question: &str) -> anyhow::Result<bool> {
        self.say(&format!("{question} [y/N] "))?;
        let mut answer = String::new();
        self.reader
            .read_line(&mut answer)
            .context("reading the answer from the terminal")?;
        let answer = answer.trim().to_ascii_lowercase();
        Ok(answer == "y" || answer == "yes")
    }
}

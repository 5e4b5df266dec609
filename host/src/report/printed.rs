//! What a host command has to say, kept whole until it is written: at a
//! terminal by [`Printed::emit`], or folded into a tool reply by the
//! gateway, which must never let a host command write on the MCP stdout.

use std::io;

use serde_json::{Value, json};

use super::write_stdout;

/// A command's exit code and everything it printed, not yet written.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Printed {
    /// The exit code the command ends with.
    pub code: u8,
    /// What goes to stdout.
    pub stdout: String,
    /// What goes to stderr.
    pub stderr: String,
}

impl Printed {
    /// Nothing printed yet, ending with `code`.
    pub fn new(code: u8) -> Self {
        Self {
            code,
            ..Self::default()
        }
    }

    /// Add a `{schema, status, data}` envelope to stdout, as one line.
    pub fn envelope(&mut self, schema: &str, status: &str, data: Value) {
        let envelope = json!({ "schema": schema, "status": status, "data": data });
        self.stdout.push_str(&format!("{envelope}\n"));
    }

    /// A read-only answer: `data` as an envelope of `schema` (`json`) or
    /// as `text` makes it, exit 0; or the refusal `message` as a usage
    /// error (exit 2), nothing on stdout.
    pub fn answer(
        result: Result<Value, String>,
        schema: &str,
        json: bool,
        text: impl FnOnce(&Value) -> String,
    ) -> Self {
        match result {
            Ok(data) => {
                let mut printed = Self::new(super::exit::OK);
                if json {
                    printed.envelope(schema, "unchanged", data);
                } else {
                    printed.stdout = text(&data);
                }
                printed
            }
            Err(message) => {
                let mut printed = Self::new(super::exit::USAGE);
                printed.stderr = format!("error: {message}\n");
                printed
            }
        }
    }

    /// Add a `warning: …` line to stderr.
    pub fn warn(&mut self, warning: &str) {
        self.stderr.push_str(&format!("warning: {warning}\n"));
    }

    /// Write it all (stderr first, then stdout in one piece) and return the
    /// exit code.
    pub fn emit(&self) -> io::Result<u8> {
        eprint!("{}", self.stderr);
        write_stdout(&self.stdout)?;
        Ok(self.code)
    }
}

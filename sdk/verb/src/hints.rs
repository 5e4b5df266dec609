//! Next-step hints: the one way a verb suggests what to run after it.
//!
//! A verb builds a [`Hints`] and hands it to [`crate::output::done_with_hints`],
//! which prints it after the verb's own text as a footer (stdout)
//!
//! ```text
//!
//! Next:
//!   <what to do>
//!     <the command that does it>
//! ```
//!
//! and, under `--json`, adds it to the envelope beside `data` in the shape
//! the reference gives that verb (`spec/cli-verbs.md` §0):
//! `"hints": {"text", "command"}` for a single step ([`Hints::one`]),
//! `"hints": {"next_steps": [{"text", "command"}, …]}` for a list
//! ([`Hints::steps`]), or nothing for a hint the reference prints only as
//! text ([`Hints::text_only`]). Hints are advisory: `--no-hints` (which the
//! host also sets for `VAULTSPEC_NO_HINTS=1` and inside a git hook) drops
//! them from both forms, so a verb passes its `no_hints` option and never
//! tests it itself.

use serde_json::{Value, json};

/// One suggested next step: what to do, and the command that does it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The step, in a short sentence.
    pub text: String,
    /// The command line to run.
    pub command: String,
}

/// Where a hint goes in the JSON envelope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JsonForm {
    /// `"hints": {"text", "command"}`.
    One,
    /// `"hints": {"next_steps": [...]}`.
    Steps,
    /// Not in the envelope at all: text output only.
    None,
}

/// The next steps a verb suggests after it ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hints {
    steps: Vec<Step>,
    form: JsonForm,
}

impl Hints {
    /// A single next step; under `--json` it is the object
    /// `{"text", "command"}`.
    pub fn one(text: impl Into<String>, command: impl Into<String>) -> Self {
        Self {
            steps: vec![Step {
                text: text.into(),
                command: command.into(),
            }],
            form: JsonForm::One,
        }
    }

    /// Several next steps, in order; under `--json` they are the list
    /// `{"next_steps": [{"text", "command"}, …]}`.
    pub fn steps<T: Into<String>, C: Into<String>>(
        steps: impl IntoIterator<Item = (T, C)>,
    ) -> Self {
        Self {
            steps: steps
                .into_iter()
                .map(|(text, command)| Step {
                    text: text.into(),
                    command: command.into(),
                })
                .collect(),
            form: JsonForm::Steps,
        }
    }

    /// The same steps, printed as text only and left out of `--json`
    /// output.
    pub fn text_only(mut self) -> Self {
        self.form = JsonForm::None;
        self
    }

    /// These hints, or none when the caller asked for none (`--no-hints`).
    pub fn unless(self, no_hints: bool) -> Option<Self> {
        (!no_hints).then_some(self)
    }

    /// The steps, in order.
    pub fn list(&self) -> &[Step] {
        &self.steps
    }

    /// The value of the envelope's `hints` key, if this hint goes there.
    pub fn json(&self) -> Option<Value> {
        let step = |s: &Step| json!({ "text": s.text, "command": s.command });
        match self.form {
            _ if self.steps.is_empty() => None,
            JsonForm::One => Some(step(&self.steps[0])),
            JsonForm::Steps => {
                Some(json!({ "next_steps": self.steps.iter().map(step).collect::<Vec<_>>() }))
            }
            JsonForm::None => None,
        }
    }

    /// The text footer: a blank line, `Next:`, then each step with its
    /// command indented beneath it. Empty when there is no step.
    pub fn render(&self) -> String {
        if self.steps.is_empty() {
            return String::new();
        }
        let mut out = String::from("\nNext:\n");
        for s in &self.steps {
            let command = crate::style::paint(crate::style::Tone::Command, &s.command);
            out.push_str(&format!("  {}\n    {command}\n", s.text));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_step_is_an_object_and_several_are_a_list() {
        let one = Hints::one("Check the vault", "vaultspec vault check all");
        assert_eq!(
            one.json().unwrap(),
            json!({"text": "Check the vault", "command": "vaultspec vault check all"})
        );
        let several = Hints::steps([("a", "x"), ("b", "y")]);
        assert_eq!(several.json().unwrap()["next_steps"][1]["command"], "y");
        assert!(several.clone().text_only().json().is_none());
        assert!(
            Hints::steps(Vec::<(String, String)>::new())
                .json()
                .is_none()
        );
    }

    #[test]
    fn the_footer_names_each_step_and_its_command() {
        let text = Hints::steps([("Do a", "run a"), ("Do b", "run b")]).render();
        assert_eq!(text, "\nNext:\n  Do a\n    run a\n  Do b\n    run b\n");
        assert_eq!(Hints::steps(Vec::<(&str, &str)>::new()).render(), "");
    }
}

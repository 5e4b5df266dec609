//! The JSON envelope every verb prints under `--json`, and plain-text helpers.
//!
//! Shape (`spec/cli-verbs.md` §0): one compact JSON document on stdout,
//! `{"schema":"vaultspec.<dotted verb path>.v<N>","status":"<word>","data":{…}}`.
//! Failures use the `vaultspec.error.v1` schema with status `failed` and exit 1.

use std::io::Write;

use serde::Serialize;
use serde_json::{Value, json};

use crate::hints::Hints;

/// Exit code of a successful verb.
pub const EXIT_OK: u8 = 0;
/// Exit code of a domain failure (bad reference, conflict, failed check…).
pub const EXIT_FAILURE: u8 = 1;
/// Exit code of a usage error (a bad value the declaration could not catch).
pub const EXIT_USAGE: u8 = 2;

/// The outcome words of the envelope's `status`.
pub mod status {
    /// A file was made.
    pub const CREATED: &str = "created";
    /// A file was changed.
    pub const UPDATED: &str = "updated";
    /// Nothing needed to change, or the verb only reads.
    pub const UNCHANGED: &str = "unchanged";
    /// A file was removed.
    pub const REMOVED: &str = "removed";
    /// A file was brought back.
    pub const RESTORED: &str = "restored";
    /// The work was deliberately not done.
    pub const SKIPPED: &str = "skipped";
    /// The verb failed.
    pub const FAILED: &str = "failed";
    /// Items ended differently.
    pub const MIXED: &str = "mixed";
}

/// The schema name of a verb: `vaultspec.` + dotted verb path + `.v` + version.
///
/// ```
/// assert_eq!(vaultspec_sdk::output::schema("vault feature list", 2), "vaultspec.vault.feature.list.v2");
/// ```
pub fn schema(verb_path: &str, version: u32) -> String {
    let dotted: Vec<&str> = verb_path.split_whitespace().collect();
    format!("vaultspec.{}.v{version}", dotted.join("."))
}

/// The aggregate status of several items: none → `unchanged`, all alike →
/// that word, otherwise `mixed`.
pub fn aggregate<'a>(statuses: impl IntoIterator<Item = &'a str>) -> &'a str {
    let mut iter = statuses.into_iter();
    let Some(first) = iter.next() else {
        return status::UNCHANGED;
    };
    if iter.all(|s| s == first) {
        first
    } else {
        status::MIXED
    }
}

/// Build the envelope of a verb's result.
pub fn envelope(schema: &str, status: &str, data: impl Serialize) -> Value {
    json!({
        "schema": schema,
        "status": status,
        "data": serde_json::to_value(data).unwrap_or(Value::Null),
    })
}

/// Build the envelope of a failure, with an optional hint for the next step.
pub fn error_envelope(message: &str, hint: Option<&str>) -> Value {
    let mut data = json!({ "message": message });
    if let Some(hint) = hint {
        data["hint"] = Value::from(hint);
    }
    json!({ "schema": "vaultspec.error.v1", "status": status::FAILED, "data": data })
}

/// Print one JSON document, compact, followed by a newline.
///
/// The document is serialised whole first and written at once: written as
/// it is serialised, stdout would pass it to the host a kilobyte at a time.
pub fn print_json(value: &(impl Serialize + ?Sized)) {
    print_line(serde_json::to_vec(value).unwrap_or_else(|_| b"null".to_vec()));
}

fn print_line(mut line: Vec<u8>) {
    line.push(b'\n');
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(&line);
    let _ = out.flush();
}

/// [`envelope`], serialised straight from `data` (no copy of it as a
/// [`Value`] first); the keys come in the same order.
#[derive(Serialize)]
struct Envelope<'a, T> {
    schema: &'a str,
    status: &'a str,
    data: T,
    #[serde(skip_serializing_if = "Option::is_none")]
    hints: Option<Value>,
}

/// Report a failure (a message, or any error) the way the caller asked for
/// (JSON envelope or a line on stderr) and return the failure exit code.
pub fn fail(json: bool, err: impl std::fmt::Display) -> u8 {
    report_error(json, &err.to_string());
    EXIT_FAILURE
}

fn report_error(json: bool, message: &str) {
    if json {
        print_json(&error_envelope(message, None));
    } else {
        eprintln!("error: {message}");
    }
}

/// Print a result (its envelope under `--json`; otherwise `text` prints the
/// human form, and runs only then) and return the success exit code.
pub fn done(
    json: bool,
    schema: &str,
    status: &str,
    data: impl Serialize,
    text: impl FnOnce(),
) -> u8 {
    done_with_hints(json, schema, status, data, None, text)
}

/// [`done`], followed by the verb's next steps: after the text as a footer,
/// or in the envelope's `hints` in the shape [`Hints`] was built with.
/// `None` (no step to suggest, or `--no-hints`: see [`Hints::unless`])
/// prints none.
pub fn done_with_hints(
    json: bool,
    schema: &str,
    status: &str,
    data: impl Serialize,
    hints: Option<&Hints>,
    text: impl FnOnce(),
) -> u8 {
    if json {
        let hints = hints.and_then(Hints::json);
        match serde_json::to_vec(&Envelope {
            schema,
            status,
            data,
            hints: hints.clone(),
        }) {
            Ok(line) => print_line(line),
            Err(_) => print_json(&Envelope {
                schema,
                status,
                data: Value::Null,
                hints,
            }),
        }
    } else {
        text();
        print_hints(hints);
    }
    EXIT_OK
}

/// Print the text footer of `hints` on stdout, if there are any.
pub fn print_hints(hints: Option<&Hints>) {
    if let Some(footer) = hints.map(Hints::render).filter(|f| !f.is_empty()) {
        print!("{footer}");
    }
}

/// Report a usage error the declaration could not catch (a bad value or
/// combination of flags) and return the usage exit code.
pub fn usage(json: bool, message: &str) -> u8 {
    report_error(json, message);
    EXIT_USAGE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_is_the_dotted_verb_path_with_its_version() {
        assert_eq!(schema("vault list", 2), "vaultspec.vault.list.v2");
        assert_eq!(schema("status", 1), "vaultspec.status.v1");
        assert_eq!(schema("vault set-body", 1), "vaultspec.vault.set-body.v1");
    }

    #[test]
    fn statuses_aggregate_to_one_word() {
        assert_eq!(aggregate([]), "unchanged");
        assert_eq!(aggregate(["created", "created"]), "created");
        assert_eq!(aggregate(["created", "unchanged"]), "mixed");
    }

    #[test]
    fn done_writes_the_envelope_that_envelope_builds() {
        #[derive(Serialize)]
        struct Row {
            zeta: u32,
            alpha: &'static str,
            nested: Value,
        }
        let data = Row {
            zeta: 1,
            alpha: "a",
            nested: json!({"b": [1, 2.5, null], "a": "é\n"}),
        };
        let direct = serde_json::to_string(&Envelope {
            schema: "s.v1",
            status: status::UNCHANGED,
            data: &data,
            hints: None,
        })
        .unwrap();
        let built = serde_json::to_string(&envelope("s.v1", status::UNCHANGED, &data)).unwrap();
        assert_eq!(direct, built);
        assert!(
            direct.starts_with(r#"{"schema":"s.v1","status":"unchanged","data":{"zeta":1,"alpha""#),
            "{direct}"
        );
    }

    #[test]
    fn hints_go_beside_data_and_only_when_given() {
        let hints = Hints::one("Check the vault", "vaultspec vault check all");
        let with = serde_json::to_value(Envelope {
            schema: "s.v1",
            status: status::CREATED,
            data: json!({"a": 1}),
            hints: hints.json(),
        })
        .unwrap();
        assert_eq!(with["hints"]["command"], "vaultspec vault check all");
        let text_only = serde_json::to_value(Envelope {
            schema: "s.v1",
            status: status::CREATED,
            data: json!({"a": 1}),
            hints: hints.text_only().json(),
        })
        .unwrap();
        assert!(text_only.get("hints").is_none(), "{text_only}");
    }

    #[test]
    fn the_error_envelope_carries_the_message_and_the_hint() {
        let value = error_envelope("no such document `x`", Some("vaultspec vault list"));
        assert_eq!(value["schema"], "vaultspec.error.v1");
        assert_eq!(value["status"], "failed");
        assert_eq!(value["data"]["message"], "no such document `x`");
        assert_eq!(value["data"]["hint"], "vaultspec vault list");
    }
}

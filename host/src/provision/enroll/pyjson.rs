//! JSON text exactly as Python's `json.dumps` writes it, for the digests,
//! keys and files the reference shares with us.
//!
//! A trust grant is the sha256 of a JSON text and an ownership fingerprint
//! is another, so a grant made by either tool matches in the other only if
//! both write the same bytes: `ensure_ascii` escapes (`\u00e9`, surrogate
//! pairs above the BMP), Python's separators and its indentation.

use serde_json::Value;

/// How to lay the text out: `json.dumps`'s keyword arguments.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// `sort_keys=True`.
    pub sort_keys: bool,
    /// `separators=(",", ":")` instead of the default `(", ", ": ")`.
    pub compact: bool,
    /// `indent=n`: one member per line, nested `n` spaces deeper.
    pub indent: Option<usize>,
}

impl Style {
    /// `json.dumps(value)`.
    pub const PLAIN: Style = Style {
        sort_keys: false,
        compact: false,
        indent: None,
    };
    /// `json.dumps(value, sort_keys=True)`.
    pub const SORTED: Style = Style {
        sort_keys: true,
        compact: false,
        indent: None,
    };
    /// `json.dumps(value, sort_keys=True, separators=(",", ":"))`.
    pub const SORTED_COMPACT: Style = Style {
        sort_keys: true,
        compact: true,
        indent: None,
    };
    /// `json.dumps(value, indent=2)`.
    pub const INDENTED: Style = Style {
        sort_keys: false,
        compact: false,
        indent: Some(2),
    };
    /// `json.dumps(value, indent=2, sort_keys=True)`.
    pub const INDENTED_SORTED: Style = Style {
        sort_keys: true,
        compact: false,
        indent: Some(2),
    };
}

/// `json.dumps(value, **style)`, with `ensure_ascii=True`.
pub fn dumps(value: &Value, style: Style) -> String {
    let mut out = String::new();
    write_value(&mut out, value, style, 0);
    out
}

fn write_value(out: &mut String, value: &Value, style: Style, depth: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                separate(out, style, depth + 1, i == 0);
                write_value(out, item, style, depth + 1);
            }
            close(out, style, depth);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            if style.sort_keys {
                // Python compares str by code point; Rust's `str` order is
                // the same (UTF-8 preserves code point order).
                members.sort_by(|a, b| a.0.cmp(b.0));
            }
            out.push('{');
            for (i, (key, item)) in members.into_iter().enumerate() {
                separate(out, style, depth + 1, i == 0);
                write_string(out, key);
                out.push_str(if style.compact { ":" } else { ": " });
                write_value(out, item, style, depth + 1);
            }
            close(out, style, depth);
            out.push('}');
        }
    }
}

/// What goes before an item: a separator after the first, then with an
/// indent a line break and the item's depth.
fn separate(out: &mut String, style: Style, depth: usize, first: bool) {
    if !first {
        out.push(',');
        if style.indent.is_none() && !style.compact {
            out.push(' ');
        }
    }
    if let Some(n) = style.indent {
        out.push('\n');
        out.push_str(&" ".repeat(n * depth));
    }
}

fn close(out: &mut String, style: Style, depth: usize) {
    if let Some(n) = style.indent {
        out.push('\n');
        out.push_str(&" ".repeat(n * depth));
    }
}

/// A string as `ensure_ascii` writes it: everything outside printable ASCII
/// as `\uXXXX` (lower-case hex; UTF-16 surrogate pairs above U+FFFF).
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // Each expected text is what Python 3.13's `json.dumps` printed.
    #[test]
    fn matches_python_separators_escapes_and_indentation() {
        let v = json!({"b": [1, "é😀\u{7f}\"\\\n"], "a": {}, "c": []});
        assert_eq!(
            dumps(&v, Style::PLAIN),
            r#"{"b": [1, "\u00e9\ud83d\ude00\u007f\"\\\n"], "a": {}, "c": []}"#
        );
        assert_eq!(
            dumps(&v, Style::SORTED_COMPACT),
            r#"{"a":{},"b":[1,"\u00e9\ud83d\ude00\u007f\"\\\n"],"c":[]}"#
        );
        assert_eq!(
            dumps(
                &json!({"x": {"y": [1, 2]}, "w": null}),
                Style::INDENTED_SORTED
            ),
            "{\n  \"w\": null,\n  \"x\": {\n    \"y\": [\n      1,\n      2\n    ]\n  }\n}"
        );
        assert_eq!(
            dumps(&json!(["/ws", "a b", true]), Style::PLAIN),
            r#"["/ws", "a b", true]"#
        );
    }

    proptest::proptest! {
        /// Any launch string (all of Unicode, controls and DEL included),
        /// as a command, an argument, an environment key and value, comes
        /// back unchanged through our writer, in every style, and a
        /// standard JSON parser.
        #[test]
        fn any_launch_string_round_trips_through_json(
            command in "\\PC*|[\\x00-\\x7f]*",
            text in proptest::prelude::any::<String>(),
        ) {
            let value = json!({
                "mcpServers": {text.clone(): {
                    "command": command, "args": [text.clone()], "env": {text.clone(): text.clone()}
                }}
            });
            for style in [Style::PLAIN, Style::SORTED_COMPACT, Style::INDENTED_SORTED] {
                let written = dumps(&value, style);
                proptest::prop_assert!(written.is_ascii(), "{written}");
                let back: Value = serde_json::from_str(&written).map_err(|e| {
                    proptest::test_runner::TestCaseError::fail(format!("{e}\n{written}"))
                })?;
                proptest::prop_assert_eq!(&back, &value);
            }
        }
    }
}

//! The small YAML of framework frontmatter: reading `key: value`, flow and
//! block lists, and writing it back so that any YAML reader gets the same.
//!
//! Framework sources carry a handful of flat keys (`name`, `description`,
//! `tier`, `mode`, `tools`, `order`); nothing here is a general YAML parser.
//! A value that is not a plain line is quoted when written, so a
//! description holding `: `, `#` or a quote still reads back as itself.

/// One frontmatter value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A scalar, unquoted.
    Text(String),
    /// A list of scalars (`[a, b]` or `- a` lines).
    List(Vec<String>),
}

impl Value {
    /// The scalar, or the list's items joined with `, `.
    pub fn as_text(&self) -> String {
        match self {
            Value::Text(text) => text.clone(),
            Value::List(items) => items.join(", "),
        }
    }
}

/// A file split into its frontmatter keys and its body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Front {
    /// The keys in the order the file gives them.
    pub keys: Vec<(String, Value)>,
    /// Everything after the closing `---` line (the whole text when there is
    /// no frontmatter), blank lines at its start removed.
    pub body: String,
}

impl Front {
    /// Split `text`; text without a `---` block is all body.
    pub fn parse(text: &str) -> Front {
        let Some((yaml, body)) = split(text) else {
            return Front {
                keys: Vec::new(),
                body: text.trim_start_matches(['\n', '\r']).to_owned(),
            };
        };
        Front {
            keys: parse_keys(yaml),
            body: body.trim_start_matches(['\n', '\r']).to_owned(),
        }
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.keys.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The scalar value of `key`, trimmed; empty when missing.
    pub fn text(&self, key: &str) -> String {
        self.get(key).map(Value::as_text).unwrap_or_default()
    }

    /// The list value of `key` (a scalar is a one-item list).
    pub fn list(&self, key: &str) -> Vec<String> {
        match self.get(key) {
            Some(Value::List(items)) => items.clone(),
            Some(Value::Text(text)) if !text.is_empty() => vec![text.clone()],
            _ => Vec::new(),
        }
    }
}

/// The YAML between the opening and closing `---` lines, and the rest.
fn split(text: &str) -> Option<(&str, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some((&rest[..offset], &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    None
}

fn parse_keys(yaml: &str) -> Vec<(String, Value)> {
    let mut keys: Vec<(String, Value)> = Vec::new();
    for raw in yaml.lines() {
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indented = line.len() != trimmed.len();
        if let Some(item) = trimmed
            .strip_prefix("- ")
            .or((trimmed == "-").then_some(""))
        {
            if let Some((_, value)) = keys.last_mut() {
                let item = unquote(item.trim());
                match value {
                    Value::List(items) => items.push(item),
                    Value::Text(text) if text.is_empty() => *value = Value::List(vec![item]),
                    Value::Text(_) => {}
                }
            }
            continue;
        }
        if indented {
            // A plain scalar folded over several lines.
            if let Some((_, Value::Text(text))) = keys.last_mut() {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(trimmed);
            }
            continue;
        }
        let Some((key, value)) = trimmed.split_once(':') else {
            continue;
        };
        let value = value.trim();
        let value = match value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            Some(inner) => Value::List(
                inner
                    .split(',')
                    .map(|item| unquote(item.trim()))
                    .filter(|item| !item.is_empty())
                    .collect(),
            ),
            None => Value::Text(unquote(value)),
        };
        keys.push((key.trim().to_owned(), value));
    }
    keys
}

/// A scalar without its quotes (`'it''s'` → `it's`, `"a\"b"` → `a"b`).
fn unquote(value: &str) -> String {
    if value.len() >= 2 && value.starts_with('\'') && value.ends_with('\'') {
        return value[1..value.len() - 1].replace("''", "'");
    }
    if value.len() >= 2 && value.starts_with('"') && value.ends_with('"') {
        return serde_json::from_str::<String>(value)
            .unwrap_or_else(|_| value[1..value.len() - 1].to_owned());
    }
    value.to_owned()
}

/// Write one `key: value` line; the value is quoted unless it reads back
/// as itself unquoted.
pub fn line(key: &str, value: &str) -> String {
    format!("{key}: {}\n", scalar(value))
}

/// Write `key:` and one `- item` line per item (`key: []` for none).
pub fn list(key: &str, items: &[String]) -> String {
    if items.is_empty() {
        return format!("{key}: []\n");
    }
    let mut out = format!("{key}:\n");
    for item in items {
        out.push_str(&format!("- {}\n", scalar(item)));
    }
    out
}

/// A scalar as YAML: plain when that is safe, else double-quoted (JSON's
/// escapes are YAML's).
pub fn scalar(value: &str) -> String {
    let plain = !value.is_empty()
        && value.trim() == value
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.ends_with(':')
        && !value.chars().any(|c| c.is_control())
        && !value.starts_with([
            '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%',
            '@', '`',
        ])
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
        )
        && value.parse::<f64>().is_err();
    if plain {
        value.to_owned()
    } else {
        serde_json::to_string(value).expect("a string serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_lists_and_folded_scalars_are_read() {
        let text = "---\nname: x\ndescription: one\n  two\ntools: [Read, 'Write']\nextra:\n- a\n- \"b\"\n---\n\n# Body\n";
        let front = Front::parse(text);
        assert_eq!(front.text("name"), "x");
        assert_eq!(front.text("description"), "one two");
        assert_eq!(front.list("tools"), ["Read", "Write"]);
        assert_eq!(front.list("extra"), ["a", "b"]);
        assert_eq!(front.body, "# Body\n");
    }

    #[test]
    fn text_without_frontmatter_is_all_body() {
        let front = Front::parse("\n# Just text\n");
        assert!(front.keys.is_empty());
        assert_eq!(front.body, "# Just text\n");
    }

    #[test]
    fn written_scalars_read_back_as_themselves() {
        for value in [
            "plain words",
            "has: colon",
            "it's",
            "\"quoted\"",
            "- dash",
            "true",
            "12",
            "tab\there",
            "bell\u{7}",
            "ends:",
            "# hash",
        ] {
            let text = format!("---\n{}---\n", line("k", value));
            assert_eq!(Front::parse(&text).text("k"), value, "{text}");
        }
    }
}

//! Codex's `config.toml`: vaultspec's servers live between two comment
//! lines, `# <vaultspec type="mcps">` and `# </vaultspec>`, and every byte
//! outside them is the user's.
//!
//! The whole file is parsed (a file that does not parse is never written),
//! then the block is read on its own, so a server is ours only when it sits
//! inside the block; one declared elsewhere in the file is external.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// The block's opening line as vaultspec writes it.
pub const OPEN: &str = "# <vaultspec type=\"mcps\">";
/// The block's closing line.
pub const CLOSE: &str = "# </vaultspec>";

/// A parsed `config.toml`.
#[derive(Debug, Clone, Default)]
pub struct CodexFile {
    /// The file's text.
    pub text: String,
    /// The byte range of the block, both marker lines and their line ends
    /// included.
    block: Option<(usize, usize)>,
    /// The servers inside the block, as JSON values.
    pub inside: Map<String, Value>,
    /// The servers declared anywhere else in the file.
    pub outside: Map<String, Value>,
}

impl CodexFile {
    /// Parse `text`; the error names the line and column at fault.
    pub fn parse(text: &str) -> Result<CodexFile, String> {
        toml::from_str::<toml::Table>(text).map_err(|e| e.to_string().trim_end().to_owned())?;
        let block = find_block(text);
        let (inside_text, outside_text) = match block {
            Some((start, end)) => (
                text[start..end].to_owned(),
                format!("{}{}", &text[..start], &text[end..]),
            ),
            None => (String::new(), text.to_owned()),
        };
        let servers = |part: &str| -> Result<Map<String, Value>, String> {
            let table = toml::from_str::<toml::Table>(part).map_err(|e| e.to_string())?;
            Ok(match table.get("mcp_servers") {
                Some(toml::Value::Table(servers)) => servers
                    .iter()
                    .map(|(k, v)| (k.clone(), to_json(v)))
                    .collect(),
                _ => Map::new(),
            })
        };
        Ok(CodexFile {
            text: text.to_owned(),
            block,
            inside: servers(&inside_text)?,
            outside: servers(&outside_text)?,
        })
    }

    /// The file with the block holding exactly `servers` (none: no block);
    /// `None` when nothing would be left (delete the file).
    pub fn with_block(&self, servers: &BTreeMap<String, Value>) -> Option<String> {
        let text = &self.text;
        let rendered = render(servers);
        let out = match (self.block, rendered.is_empty()) {
            (Some((start, end)), false) => {
                format!(
                    "{}{OPEN}\n{rendered}{CLOSE}\n{}",
                    &text[..start],
                    &text[end..]
                )
            }
            (Some((start, end)), true) => {
                let mut before = &text[..start];
                // Take back the blank line an append put before the block.
                if end == text.len() && before.ends_with("\n\n") {
                    before = &before[..before.len() - 1];
                }
                format!("{before}{}", &text[end..])
            }
            (None, false) => {
                let mut out = text.clone();
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                if !out.is_empty() && !out.ends_with("\n\n") {
                    out.push('\n');
                }
                out.push_str(&format!("{OPEN}\n{rendered}{CLOSE}\n"));
                out
            }
            (None, true) => text.clone(),
        };
        (!out.trim().is_empty()).then_some(out)
    }
}

/// Whether `line` is a marker: `<vaultspec type="mcps" ...>` (with `open`)
/// or `</vaultspec>`, after an optional `#`.
fn is_marker(line: &str, open: bool) -> bool {
    let line = line.trim_end();
    let line = line
        .strip_prefix('#')
        .map_or(line, |rest| rest.trim_start());
    if open {
        line.starts_with("<vaultspec type=\"mcps\"") && line.ends_with('>')
    } else {
        line == "</vaultspec>"
    }
}

/// The byte range of the block: its opening line through the first closing
/// line after it.
fn find_block(text: &str) -> Option<(usize, usize)> {
    let mut offset = 0;
    let mut start = None;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        match start {
            None if is_marker(bare, true) => start = Some(offset),
            Some(s) if is_marker(bare, false) => return Some((s, offset + line.len())),
            _ => {}
        }
        offset += line.len();
    }
    None
}

/// The block's content: one table per server, by name, keys sorted.
pub fn render(servers: &BTreeMap<String, Value>) -> String {
    let sections: Vec<String> = servers
        .iter()
        .map(|(name, entry)| {
            let mut section = format!("[mcp_servers.{}]\n", quote(name));
            if let Value::Object(map) = entry {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                for key in keys {
                    section.push_str(&format!("{} = {}\n", bare_or_quoted(key), value(&map[key])));
                }
            }
            section
        })
        .collect();
    sections.join("\n")
}

/// A TOML basic string. JSON's escapes are TOML's, and JSON escapes every
/// control character but DEL (U+007F), which TOML forbids raw: that one is
/// escaped too, or an approved launch string holding it would write a file
/// no TOML reader (the person's Codex included) can load.
fn quote(s: &str) -> String {
    serde_json::to_string(s)
        .expect("a string serialises")
        .replace('\u{7f}', "\\u007F")
}

fn bare_or_quoted(key: &str) -> String {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        key.to_owned()
    } else {
        quote(key)
    }
}

fn value(v: &Value) -> String {
    match v {
        Value::String(s) => quote(s),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(value).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let members: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{} = {}", quote(k), value(&map[k])))
                .collect();
            if members.is_empty() {
                "{}".to_owned()
            } else {
                format!("{{ {} }}", members.join(", "))
            }
        }
        Value::Null => "\"\"".to_owned(),
    }
}

fn to_json(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Value::from(*f),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        toml::Value::Table(t) => {
            Value::Object(t.iter().map(|(k, v)| (k.clone(), to_json(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ours() -> BTreeMap<String, Value> {
        BTreeMap::from([(
            "vaultspec-core".to_owned(),
            json!({"command": "uv", "args": ["run", "x"], "env": {"B": "2", "A": "é"}}),
        )])
    }

    proptest::proptest! {
        /// Any launch string, controls and DEL included, survives our TOML
        /// writer and a standard TOML parser.
        #[test]
        fn any_launch_string_round_trips_through_toml(
            command in "\\PC*|[\\x00-\\x7f]*",
            arg in proptest::prelude::any::<String>(),
            key in proptest::prelude::any::<String>(),
        ) {
            let servers = BTreeMap::from([(
                key.clone(),
                json!({"command": command, "args": [arg], "env": {key.clone(): arg}}),
            )]);
            let text = render(&servers);
            let parsed: toml::Table = text.parse().map_err(|e| {
                proptest::test_runner::TestCaseError::fail(format!("{e}\n{text}"))
            })?;
            let server = &parsed["mcp_servers"][&key];
            proptest::prop_assert_eq!(server["command"].as_str(), Some(command.as_str()));
            proptest::prop_assert_eq!(server["args"][0].as_str(), Some(arg.as_str()));
            proptest::prop_assert_eq!(server["env"][&key].as_str(), Some(arg.as_str()));
        }
    }

    #[test]
    fn the_block_renders_as_the_reference_writes_it() {
        assert_eq!(
            render(&ours()),
            "[mcp_servers.\"vaultspec-core\"]\nargs = [\"run\", \"x\"]\ncommand = \"uv\"\nenv = { \"A\" = \"é\", \"B\" = \"2\" }\n"
        );
    }

    #[test]
    fn the_users_lines_stay_byte_for_byte_around_the_block() {
        let user = "# my settings\nmodel = \"o3\"\n\n[mcp_servers.mine]\ncommand = \"m\"\n";
        let file = CodexFile::parse(user).unwrap();
        assert_eq!(file.outside.keys().collect::<Vec<_>>(), ["mine"]);
        let with = file.with_block(&ours()).unwrap();
        assert!(with.starts_with(user), "{with}");
        let parsed = CodexFile::parse(&with).unwrap();
        assert_eq!(parsed.inside.keys().collect::<Vec<_>>(), ["vaultspec-core"]);
        assert_eq!(parsed.outside.keys().collect::<Vec<_>>(), ["mine"]);
        assert_eq!(parsed.inside["vaultspec-core"]["env"]["A"], "é");
        assert_eq!(parsed.with_block(&BTreeMap::new()).unwrap(), user);
        assert_eq!(parsed.with_block(&ours()).unwrap(), with);
    }

    #[test]
    fn an_emptied_file_is_deleted_and_a_broken_one_names_its_line() {
        let file = CodexFile::parse("").unwrap();
        let with = file.with_block(&ours()).unwrap();
        assert_eq!(
            CodexFile::parse(&with)
                .unwrap()
                .with_block(&BTreeMap::new()),
            None
        );
        let err = CodexFile::parse("a = 1\nb = [\n").unwrap_err();
        assert!(err.contains("line"), "{err}");
    }

    #[test]
    fn another_block_with_the_same_closing_tag_is_left_alone() {
        let text = "# <vaultspec type=\"agents\">\n[agents.x]\nmodel = \"m\"\n# </vaultspec>\n";
        let file = CodexFile::parse(text).unwrap();
        let with = file.with_block(&ours()).unwrap();
        assert!(with.starts_with(text));
        let again = CodexFile::parse(&with).unwrap();
        assert_eq!(again.inside.len(), 1);
        assert_eq!(again.with_block(&BTreeMap::new()).unwrap(), text);
    }
}

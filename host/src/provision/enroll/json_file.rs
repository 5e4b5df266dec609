//! Editing one member of a JSON file in place: the bytes of everything else
//! (other servers, other keys, the user's layout) stay as they were.
//!
//! The file is parsed with serde_json first, so only valid JSON is ever
//! edited; a scanner then finds the byte spans of the members on the way
//! to the servers object, and an edit splices text into those spans. New
//! members are written as Python's `json.dumps(indent=2)` would, at the
//! indentation of their neighbours.

use serde_json::Value;

use super::pyjson::{self, Style};

/// A member of an object: its key and the spans of the member and value.
#[derive(Debug, Clone)]
struct Member {
    key: String,
    /// Where the key's opening quote is.
    start: usize,
    value_start: usize,
    value_end: usize,
}

/// An object's span (`{` to one past `}`) and its members.
#[derive(Debug, Clone)]
struct Object {
    start: usize,
    end: usize,
    members: Vec<Member>,
}

/// Parse `text`, naming the line and column of a fault.
pub fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// The value at `keys` in `doc`, if every step is an object member.
pub fn at<'v>(doc: &'v Value, keys: &[String]) -> Option<&'v Value> {
    keys.iter().try_fold(doc, |v, k| v.as_object()?.get(k))
}

/// `text` with `servers[name]` set to `entry` (or removed, for `None`),
/// where `servers` is the object at `keys`: missing objects on the way are
/// made, and objects on the way that an edit leaves empty are removed.
/// `None` when the whole document ends up empty (delete the file).
///
/// `text` must be a JSON object whose members at `keys` are objects where
/// present (the caller checked this when it parsed the file).
pub fn set(text: &str, keys: &[String], name: &str, entry: Option<&Value>) -> Option<String> {
    // A new file is written as the reference writes one: ending in a newline.
    let text = if text.trim().is_empty() { "{}\n" } else { text };
    let mut out = text.to_owned();
    match entry {
        Some(entry) => {
            let (object, rest) = descend(&out, keys);
            // Build what is missing from `rest` on down as one value.
            let mut value = entry.clone();
            let mut inner_key = name.to_owned();
            for key in rest.iter().rev() {
                let mut map = serde_json::Map::new();
                map.insert(inner_key, value);
                value = Value::Object(map);
                inner_key = key.clone();
            }
            out = upsert(&out, &object, &inner_key, &value);
        }
        None => {
            let (object, rest) = descend(&out, keys);
            if !rest.is_empty() || !object.members.iter().any(|m| m.key == name) {
                return Some(out);
            }
            out = remove(&out, &object, name);
            // Remove the containers an edit emptied, innermost first.
            for level in (0..keys.len()).rev() {
                let (object, _) = descend(&out, &keys[..=level]);
                if !object.members.is_empty() {
                    break;
                }
                let (parent, _) = descend(&out, &keys[..level]);
                out = remove(&out, &parent, &keys[level]);
            }
            let root = scan_object(&out, skip_ws(&out, 0));
            if root.members.is_empty() {
                return None;
            }
        }
    }
    Some(out)
}

/// The deepest object on the way to `keys` that exists, and the keys still
/// missing below it.
fn descend<'k>(text: &str, keys: &'k [String]) -> (Object, &'k [String]) {
    let mut object = scan_object(text, skip_ws(text, 0));
    for (depth, key) in keys.iter().enumerate() {
        let Some(member) = object.members.iter().find(|m| &m.key == key) else {
            return (object, &keys[depth..]);
        };
        object = scan_object(text, member.value_start);
    }
    (object, &[])
}

/// Set `key` of `object` to `value`.
fn upsert(text: &str, object: &Object, key: &str, value: &Value) -> String {
    let unit = indent_unit(text);
    if let Some(member) = object.members.iter().find(|m| m.key == key) {
        let indent = line_indent(text, member.start);
        let rendered = render(value, indent.as_str());
        return splice(text, member.value_start, member.value_end, &rendered);
    }
    // A member as the file lays out its members: indented over lines, or
    // on one line in a file written compactly.
    let member_text = |indent: Option<&str>| {
        let value = match indent {
            Some(indent) => render(value, indent),
            None => pyjson::dumps(value, Style::PLAIN),
        };
        format!(
            "{}: {value}",
            pyjson::dumps(&Value::String(key.to_owned()), Style::PLAIN)
        )
    };
    match object.members.last() {
        None => {
            let own = line_indent(text, object.start);
            let inner = format!("{own}{}", " ".repeat(unit));
            let body = format!("{{\n{inner}{}\n{own}}}", member_text(Some(&inner)));
            splice(text, object.start, object.end, &body)
        }
        Some(last) => {
            let first = &object.members[0];
            let insert = if text[object.start..first.start].contains('\n') {
                let indent = line_indent(text, first.start);
                format!(",\n{indent}{}", member_text(Some(&indent)))
            } else {
                format!(", {}", member_text(None))
            };
            splice(text, last.value_end, last.value_end, &insert)
        }
    }
}

/// Remove member `key` of `object`, with the separator that joined it.
fn remove(text: &str, object: &Object, key: &str) -> String {
    let Some(i) = object.members.iter().position(|m| m.key == key) else {
        return text.to_owned();
    };
    let members = &object.members;
    if members.len() == 1 {
        return splice(text, object.start, object.end, "{}");
    }
    if i > 0 {
        splice(text, members[i - 1].value_end, members[i].value_end, "")
    } else {
        splice(text, members[0].start, members[1].start, "")
    }
}

/// `value` as `json.dumps(indent=2)` writes it, each new line starting at
/// `indent`.
fn render(value: &Value, indent: &str) -> String {
    pyjson::dumps(value, Style::INDENTED).replace('\n', &format!("\n{indent}"))
}

fn splice(text: &str, start: usize, end: usize, with: &str) -> String {
    let mut out = String::with_capacity(text.len() + with.len());
    out.push_str(&text[..start]);
    out.push_str(with);
    out.push_str(&text[end..]);
    out
}

/// The whitespace that starts the line `at` is on.
fn line_indent(text: &str, at: usize) -> String {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..at]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// The file's indentation step: that of the root's first member, else 2.
fn indent_unit(text: &str) -> usize {
    let root = scan_object(text, skip_ws(text, 0));
    root.members
        .first()
        .map(|m| line_indent(text, m.start).len())
        .filter(|n| *n > 0)
        .unwrap_or(2)
}

fn skip_ws(text: &str, mut at: usize) -> usize {
    let bytes = text.as_bytes();
    while at < bytes.len() && matches!(bytes[at], b' ' | b'\t' | b'\n' | b'\r') {
        at += 1;
    }
    at
}

/// One past the string starting at `at` (its opening quote).
fn string_end(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// One past the value starting at `at`.
fn value_end(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    match bytes.get(at) {
        Some(b'"') => string_end(text, at),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut i = at;
            while i < bytes.len() {
                match bytes[i] {
                    b'"' => {
                        i = string_end(text, i);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            bytes.len()
        }
        _ => {
            let mut i = at;
            while i < bytes.len()
                && !matches!(bytes[i], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                i += 1;
            }
            i
        }
    }
}

/// The object starting at `at` (its `{`), with its direct members.
fn scan_object(text: &str, at: usize) -> Object {
    let bytes = text.as_bytes();
    let mut members = Vec::new();
    let mut i = skip_ws(text, at + 1);
    while i < bytes.len() && bytes[i] == b'"' {
        let key_end = string_end(text, i);
        let key: String = serde_json::from_str(&text[i..key_end]).unwrap_or_default();
        let colon = skip_ws(text, key_end);
        let value_start = skip_ws(text, colon + 1);
        let end = value_end(text, value_start);
        members.push(Member {
            key,
            start: i,
            value_start,
            value_end: end,
        });
        i = skip_ws(text, end);
        if bytes.get(i) == Some(&b',') {
            i = skip_ws(text, i + 1);
        }
    }
    let end = if bytes.get(i) == Some(&b'}') {
        i + 1
    } else {
        i
    };
    Object {
        start: at,
        end,
        members,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keys(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_new_file_is_written_as_the_reference_writes_it() {
        let entry = json!({"command": "vaultspec", "args": ["mcp"]});
        let text = set("", &keys(&["mcpServers"]), "vaultspec-core", Some(&entry)).unwrap();
        let python = pyjson::dumps(
            &json!({"mcpServers": {"vaultspec-core": entry}}),
            Style::INDENTED,
        );
        assert_eq!(text, format!("{python}\n"));
    }

    #[test]
    fn other_servers_and_keys_keep_their_bytes() {
        let before = "{\n    \"zeta\": 1,\n    \"mcpServers\": {\n        \"other\": {\"command\": \"x\",   \"args\": []}\n    }\n}\n";
        let entry = json!({"command": "v"});
        let added = set(before, &keys(&["mcpServers"]), "ours", Some(&entry)).unwrap();
        assert!(added.starts_with("{\n    \"zeta\": 1,\n    \"mcpServers\": {\n        \"other\": {\"command\": \"x\",   \"args\": []},\n        \"ours\": {\n"), "{added}");
        assert!(parse(&added).is_ok());
        let changed = set(
            &added,
            &keys(&["mcpServers"]),
            "ours",
            Some(&json!({"command": "w"})),
        )
        .unwrap();
        assert_eq!(
            parse(&changed).unwrap()["mcpServers"]["ours"]["command"],
            "w"
        );
        let removed = set(&changed, &keys(&["mcpServers"]), "ours", None).unwrap();
        assert_eq!(removed, before);
    }

    #[test]
    fn emptied_containers_go_and_an_empty_document_is_none() {
        let k = keys(&["projects", "/ws", "mcpServers"]);
        let text = set("{\"keep\": true}", &k, "s", Some(&json!({"command": "c"}))).unwrap();
        let doc = parse(&text).unwrap();
        assert_eq!(doc["projects"]["/ws"]["mcpServers"]["s"]["command"], "c");
        assert_eq!(doc["keep"], true);
        let back = set(&text, &k, "s", None).unwrap();
        assert_eq!(parse(&back).unwrap(), json!({"keep": true}));
        let only = set(
            "",
            &keys(&["mcpServers"]),
            "s",
            Some(&json!({"command": "c"})),
        )
        .unwrap();
        assert_eq!(set(&only, &keys(&["mcpServers"]), "s", None), None);
    }

    #[test]
    fn removing_the_first_of_several_keeps_the_rest_valid() {
        let before = r#"{"mcpServers": {"a": {"command": "1"}, "b": {"command": "2"}}}"#;
        let after = set(before, &keys(&["mcpServers"]), "a", None).unwrap();
        assert_eq!(after, r#"{"mcpServers": {"b": {"command": "2"}}}"#);
        let added = set(
            &after,
            &keys(&["mcpServers"]),
            "c",
            Some(&json!({"command": "3"})),
        )
        .unwrap();
        assert_eq!(parse(&added).unwrap()["mcpServers"]["c"]["command"], "3");
        assert!(
            added.starts_with(r#"{"mcpServers": {"b": {"command": "2"}, "c": "#),
            "{added}"
        );
    }
}

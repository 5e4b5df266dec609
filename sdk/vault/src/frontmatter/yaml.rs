//! The "full YAML" reader of spec/vault-format.md §5.2: the subset of YAML
//! that frontmatter uses, read the way PyYAML's `safe_load` reads it, with
//! the reference's fallback to a naive `key: value` splitter on a YAML error.
//!
//! Supported: block mappings and sequences (nested by indentation), flow
//! sequences `[a, 'b']`, single- and double-quoted scalars, plain scalars with
//! trailing comments, `|`/`>` block scalars, and the YAML 1.1 booleans and
//! nulls PyYAML resolves. Anything else is a [`YamlError`] naming the line.

use crate::text;

/// A YAML value as frontmatter uses it. Numbers and dates stay text: the vault
/// compares them as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// `~`, `null`, or nothing.
    Null,
    /// A YAML 1.1 boolean (`true`, `False`, `yes`, `off` ...).
    Bool(bool),
    /// Any other scalar, quotes resolved.
    Str(String),
    /// A sequence.
    List(Vec<Value>),
    /// A mapping, in document order (a repeated key keeps its last value).
    Map(Vec<(String, Value)>),
}

impl Value {
    /// The scalar text, if this is a string (or a boolean written as one).
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The items of a list, as strings where they are strings.
    pub fn str_items(&self) -> Vec<String> {
        match self {
            Value::List(items) => items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Why the YAML could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line} of the frontmatter: {message}")]
pub struct YamlError {
    /// 1-based line within the YAML text.
    pub line: usize,
    /// What was expected.
    pub message: String,
    /// Whether the text is valid YAML this reader does not support (rather
    /// than broken YAML).
    pub unsupported: bool,
}

#[derive(Clone, Copy)]
struct Ln<'a> {
    no: usize,
    indent: usize,
    text: &'a str,
}

/// Reads frontmatter YAML like the reference: a mapping on success; on a YAML
/// error the naive splitter's result together with the error; a non-mapping
/// document reads as an empty mapping.
pub fn parse(yaml: &str) -> (Vec<(String, Value)>, Option<YamlError>) {
    match parse_strict(yaml) {
        Ok(Value::Map(m)) => (m, None),
        Ok(_) => (Vec::new(), None),
        Err(e) => (naive(yaml), Some(e)),
    }
}

/// The reference's fallback: every line with a `:` is `key: value`, as text.
pub fn naive(yaml: &str) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    for l in yaml.split('\n') {
        if let Some((k, v)) = l.split_once(':') {
            insert(
                &mut out,
                k.trim().to_string(),
                Value::Str(v.trim().to_string()),
            );
        }
    }
    out
}

fn insert(map: &mut Vec<(String, Value)>, k: String, v: Value) {
    if let Some(slot) = map.iter_mut().find(|(key, _)| *key == k) {
        slot.1 = v;
    } else {
        map.push((k, v));
    }
}

/// Reads `yaml` strictly: any construct outside the supported subset is an error.
pub fn parse_strict(yaml: &str) -> Result<Value, YamlError> {
    let mut lines = Vec::new();
    for (i, l) in text::lines(yaml).iter().enumerate() {
        let t = &yaml[l.content.clone()];
        let body = t.trim_start_matches(' ');
        if body.starts_with('\t') {
            return Err(YamlError {
                line: i + 1,
                message: "tabs are not allowed as indentation, expected spaces".into(),
                unsupported: false,
            });
        }
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        lines.push(Ln {
            no: i + 1,
            indent: t.len() - body.len(),
            text: body.trim_end(),
        });
    }
    if lines.is_empty() {
        return Ok(Value::Null);
    }
    if lines[0].indent != 0 && !lines.iter().all(|l| l.indent >= lines[0].indent) {
        return Err(err(&lines[0], "unexpected indentation"));
    }
    let mut pos = 0;
    let indent = lines[0].indent;
    let v = block(&lines, &mut pos, indent)?;
    if let Some(l) = lines.get(pos) {
        return Err(err(l, "unexpected content, expected a `key: value` line"));
    }
    Ok(v)
}

fn err(l: &Ln<'_>, m: &str) -> YamlError {
    YamlError {
        line: l.no,
        message: m.to_string(),
        unsupported: m.contains("not supported"),
    }
}

fn is_item(t: &str) -> bool {
    t == "-" || t.starts_with("- ")
}

fn block(lines: &[Ln<'_>], pos: &mut usize, indent: usize) -> Result<Value, YamlError> {
    if is_item(lines[*pos].text) {
        let mut items = Vec::new();
        while let Some(l) = lines.get(*pos) {
            if l.indent != indent || !is_item(l.text) {
                break;
            }
            *pos += 1;
            let rest = l.text[1..].trim_start();
            if rest.is_empty() {
                items.push(nested(lines, pos, indent, false)?);
            } else if key_split(rest).is_some() && !rest.starts_with(['\'', '"', '[']) {
                items.push(item_mapping(lines, pos, l, rest)?);
            } else {
                items.push(scalar(rest, l)?);
            }
        }
        return Ok(Value::List(items));
    }
    let mut map = Vec::new();
    while let Some(l) = lines.get(*pos) {
        if l.indent < indent {
            break;
        }
        if l.indent > indent || is_item(l.text) {
            return Err(err(
                l,
                "unexpected indentation, expected a `key: value` line",
            ));
        }
        let (key, rest) = key_split(l.text).ok_or_else(|| err(l, "expected `key: value`"))?;
        *pos += 1;
        let value = if rest.is_empty() || rest.starts_with('#') {
            nested(lines, pos, indent, true)?
        } else if rest == "|" || rest == ">" || rest.starts_with("|-") || rest.starts_with(">-") {
            block_scalar(lines, pos, indent, rest)
        } else {
            scalar(rest, l)?
        };
        insert(&mut map, key, value);
    }
    Ok(Value::Map(map))
}

/// A mapping that starts on its item's line (`- key: value`, more keys
/// below at the first key's column), as PyYAML reads it.
fn item_mapping<'a>(
    lines: &[Ln<'a>],
    pos: &mut usize,
    item: &Ln<'a>,
    rest: &'a str,
) -> Result<Value, YamlError> {
    let column = item.indent + (item.text.len() - rest.len());
    let mut own = vec![Ln {
        no: item.no,
        indent: column,
        text: rest,
    }];
    while let Some(next) = lines.get(*pos).filter(|n| n.indent > item.indent) {
        own.push(*next);
        *pos += 1;
    }
    let mut at = 0;
    let value = block(&own, &mut at, column)?;
    match own.get(at) {
        Some(l) => Err(err(l, "unexpected indentation inside a list item")),
        None => Ok(value),
    }
}

/// The value of a key or item whose text is empty: a deeper block, a
/// same-indent sequence (for mapping values), or null.
fn nested(
    lines: &[Ln<'_>],
    pos: &mut usize,
    indent: usize,
    allow_same: bool,
) -> Result<Value, YamlError> {
    match lines.get(*pos) {
        Some(n) if n.indent > indent => block(lines, pos, n.indent),
        Some(n) if allow_same && n.indent == indent && is_item(n.text) => block(lines, pos, indent),
        _ => Ok(Value::Null),
    }
}

fn block_scalar(lines: &[Ln<'_>], pos: &mut usize, indent: usize, head: &str) -> Value {
    let mut parts = Vec::new();
    while let Some(l) = lines.get(*pos).filter(|l| l.indent > indent) {
        parts.push(l.text);
        *pos += 1;
    }
    let joined = if head.starts_with('|') {
        parts.join("\n")
    } else {
        parts.join(" ")
    };
    Value::Str(if head.ends_with('-') {
        joined
    } else {
        joined + "\n"
    })
}

/// Splits `key: rest` (key optionally quoted); `None` when there is no key.
fn key_split(t: &str) -> Option<(String, &str)> {
    if let Some(q) = t.chars().next().filter(|c| *c == '\'' || *c == '"') {
        let end = t[1..].find(q)? + 1;
        let rest = t[end + 1..].strip_prefix(':')?;
        return Some((t[1..end].to_string(), rest.trim()));
    }
    let mut from = 0;
    loop {
        let i = from + t[from..].find(':')?;
        let after = &t[i + 1..];
        if after.is_empty() || after.starts_with(' ') {
            return Some((t[..i].trim().to_string(), after.trim()));
        }
        from = i + 1;
    }
}

fn scalar(t: &str, l: &Ln<'_>) -> Result<Value, YamlError> {
    let t = t.trim();
    if let Some(inner) = t.strip_prefix('[') {
        let close = inner
            .rfind(']')
            .ok_or_else(|| err(l, "unclosed `[`, expected `]` on the same line"))?;
        let tail = inner[close + 1..].trim();
        if !tail.is_empty() && !tail.starts_with('#') {
            return Err(err(l, "unexpected text after `]`"));
        }
        let mut items = Vec::new();
        for part in split_flow(&inner[..close], l)? {
            let p = part.trim();
            if !p.is_empty() {
                items.push(scalar(p, l)?);
            }
        }
        return Ok(Value::List(items));
    }
    if t.starts_with('{') {
        return Err(err(l, "flow mappings are not supported"));
    }
    if let Some(q) = t.chars().next().filter(|c| *c == '\'' || *c == '"') {
        let (s, used) = quoted(t, q).ok_or_else(|| {
            err(
                l,
                "unclosed quote, expected the closing quote on the same line",
            )
        })?;
        let tail = t[used..].trim();
        if !tail.is_empty() && !tail.starts_with('#') {
            return Err(err(l, "unexpected text after the closing quote"));
        }
        return Ok(Value::Str(s));
    }
    if t.starts_with(['&', '*', '!', '%', '@', '`']) {
        return Err(err(
            l,
            "anchors, aliases, tags and reserved indicators are not supported",
        ));
    }
    let plain = match t.find(" #") {
        Some(i) => t[..i].trim_end(),
        None => t,
    };
    if plain.starts_with('#') {
        return Ok(Value::Null);
    }
    Ok(match plain {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Value::Bool(true),
        "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
            Value::Bool(false)
        }
        _ => Value::Str(plain.to_string()),
    })
}

/// A quoted scalar at the start of `t`: its value and the bytes it used.
fn quoted(t: &str, q: char) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut chars = t.char_indices().skip(1).peekable();
    while let Some((i, c)) = chars.next() {
        if c == q {
            if q == '\'' && chars.peek().map(|p| p.1) == Some('\'') {
                chars.next();
                out.push('\'');
                continue;
            }
            return Some((out, i + 1));
        }
        if q == '"' && c == '\\' {
            let (_, e) = chars.next()?;
            out.push(match e {
                'n' => '\n',
                't' => '\t',
                'r' => '\r',
                '0' => '\0',
                other => other,
            });
            continue;
        }
        out.push(c);
    }
    None
}

fn split_flow<'a>(s: &'a str, l: &Ln<'_>) -> Result<Vec<&'a str>, YamlError> {
    let mut parts = Vec::new();
    let (mut start, mut quote, mut depth) = (0, None::<char>, 0i32);
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '[') => depth += 1,
            (None, ']') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if quote.is_some() {
        return Err(err(l, "unclosed quote inside `[...]`"));
    }
    parts.push(&s[start..]);
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get<'m>(m: &'m [(String, Value)], k: &str) -> &'m Value {
        &m.iter().find(|(key, _)| key == k).unwrap().1
    }

    #[test]
    fn reads_the_shapes_frontmatter_uses() {
        let (m, e) = parse(
            "generated: true\ntags:\n  - '#adr'\n  - \"#x\"\ndate: 2026-01-05\nrelated: []\n\
             supersedes: ['a', \"b\"]\nnote: it''s # c\nq: 'it''s'\nlist:\n- a\n- b\n",
        );
        assert!(e.is_none());
        assert_eq!(get(&m, "generated"), &Value::Bool(true));
        assert_eq!(get(&m, "tags").str_items(), ["#adr", "#x"]);
        assert_eq!(get(&m, "date").as_str(), Some("2026-01-05"));
        assert_eq!(get(&m, "related"), &Value::List(vec![]));
        assert_eq!(get(&m, "supersedes").str_items(), ["a", "b"]);
        assert_eq!(get(&m, "q").as_str(), Some("it's"));
        assert_eq!(get(&m, "list").str_items(), ["a", "b"]);
    }

    #[test]
    fn a_yaml_error_falls_back_to_the_naive_splitter() {
        let (m, e) = parse("title: a: b\nx: 'open\n");
        assert_eq!(e.unwrap().line, 2);
        assert_eq!(get(&m, "title").as_str(), Some("a: b"));
        assert_eq!(get(&m, "x").as_str(), Some("'open"));
    }

    #[test]
    fn list_items_may_be_mappings_as_pyyaml_reads_them() {
        let v = parse_strict(
            "actions:\n- type: shell\n  command: echo a\n-   type: other\n    x: 'y'\n- plain\nafter: 1\n",
        )
        .unwrap();
        let Value::Map(m) = v else {
            panic!("not a mapping")
        };
        let Value::List(items) = get(&m, "actions") else {
            panic!("not a list")
        };
        assert_eq!(
            items[0],
            Value::Map(vec![
                ("type".into(), Value::Str("shell".into())),
                ("command".into(), Value::Str("echo a".into())),
            ])
        );
        assert_eq!(
            items[1],
            Value::Map(vec![
                ("type".into(), Value::Str("other".into())),
                ("x".into(), Value::Str("y".into())),
            ])
        );
        assert_eq!(items[2], Value::Str("plain".into()));
        assert_eq!(get(&m, "after").as_str(), Some("1"));
        assert!(parse_strict("l:\n- a: 1\n   b: 2\n").is_err());
    }
}

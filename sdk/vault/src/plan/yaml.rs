//! The small YAML subset of plan frontmatter: reading top-level keys into
//! [`Value`]s and dumping them back the way PyYAML's `safe_dump` does for the
//! shapes the vault uses (block style, single quotes only where needed).

/// One frontmatter value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A string scalar (quoted, or plain text that YAML reads as a string).
    Str(String),
    /// A plain scalar YAML reads as something else (date, number, bool),
    /// kept as written.
    Plain(String),
    /// An empty value or `null`/`~`.
    Null,
    /// A block or inline list of scalars.
    List(Vec<Value>),
    /// Anything else (nested maps, block scalars): the text after `key:` and
    /// the continuation lines, verbatim.
    Raw(String),
}

impl Value {
    /// The value on one line, for messages.
    pub fn render_inline(&self) -> String {
        match self {
            Value::Str(s) | Value::Plain(s) => s.clone(),
            Value::Null => "null".into(),
            Value::List(items) => {
                format!(
                    "[{}]",
                    items
                        .iter()
                        .map(Value::render_inline)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            Value::Raw(r) => r.trim().to_string(),
        }
    }
}

/// Reads the top-level keys of `text`, in order (a repeated key keeps its
/// last value at its first position).
pub fn parse_mapping(text: &str) -> Vec<(String, Value)> {
    let text = crate::text::normalize_newlines(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<(String, Value)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.trim().is_empty()
            || line.trim_start().starts_with('#')
            || line.starts_with([' ', '\t'])
            || is_item(line)
        {
            continue;
        }
        let Some((key, rest)) = split_key(line) else {
            continue;
        };
        let key = match scalar(key.trim()) {
            Value::Str(k) | Value::Plain(k) => k,
            _ => key.trim().to_string(),
        };
        let rest = rest.trim();
        let mut cont: Vec<&str> = Vec::new();
        while i < lines.len()
            && (lines[i].starts_with([' ', '\t'])
                || is_item(lines[i])
                || lines[i].trim().is_empty())
        {
            cont.push(lines[i]);
            i += 1;
        }
        while cont.last().is_some_and(|l| l.trim().is_empty()) {
            cont.pop();
        }
        let value = if rest.is_empty() {
            block_value(&cont)
        } else if rest.starts_with('|') || rest.starts_with('>') || !cont.is_empty() {
            let mut raw = format!(" {rest}");
            for c in &cont {
                raw.push('\n');
                raw.push_str(c);
            }
            Value::Raw(raw)
        } else if rest.starts_with('[') && rest.ends_with(']') {
            inline_list(&rest[1..rest.len() - 1])
        } else {
            scalar(strip_comment(rest))
        };
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => out.push((key, value)),
        }
    }
    out
}

/// Splits `key: rest` at the first `:` outside a quoted key.
fn split_key(line: &str) -> Option<(&str, &str)> {
    let q = line.chars().next().filter(|c| *c == '\'' || *c == '"');
    let Some(q) = q else {
        return line.split_once(':');
    };
    let bytes = line.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        if bytes[i] == q as u8 {
            if q == '\'' && bytes.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            let after = &line[i + 1..];
            let colon = after.find(':')?;
            return after[..colon]
                .trim()
                .is_empty()
                .then(|| (&line[..i + 1], &after[colon + 1..]));
        }
        i += 1;
    }
    None
}

/// A block sequence item at the start of a line (`- x` or a bare `-`); a
/// plain scalar such as `-4x: y` is a key instead.
fn is_item(line: &str) -> bool {
    line == "-" || line.starts_with("- ") || line.starts_with("-\t")
}

fn block_value(cont: &[&str]) -> Value {
    if cont.is_empty() {
        return Value::Null;
    }
    let items: Option<Vec<Value>> = cont
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let t = l.trim_start();
            let item = t.strip_prefix('-')?;
            (item.is_empty() || item.starts_with(' ')).then(|| scalar(strip_comment(item.trim())))
        })
        .collect();
    match items {
        Some(items) if items.iter().all(|v| !matches!(v, Value::Raw(_))) => Value::List(items),
        _ => Value::Raw(cont.iter().fold(String::new(), |acc, l| acc + "\n" + l)),
    }
}

fn inline_list(inner: &str) -> Value {
    if inner.trim().is_empty() {
        return Value::List(Vec::new());
    }
    let mut items = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in inner.chars() {
        match (quote, c) {
            (None, ',') => {
                items.push(scalar(cur.trim()));
                cur.clear();
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (Some(q), _) if c == q => {
                quote = None;
                cur.push(c);
            }
            _ => cur.push(c),
        }
    }
    items.push(scalar(cur.trim()));
    Value::List(items)
}

fn strip_comment(s: &str) -> &str {
    if s.starts_with(['\'', '"']) {
        return s;
    }
    match s.find(" #") {
        Some(i) => s[..i].trim_end(),
        None => s,
    }
}

/// Reads one scalar: quoted forms unquoted, plain text typed by YAML 1.1.
pub fn scalar(s: &str) -> Value {
    if s.len() >= 2 && s.starts_with('\'') && s.ends_with('\'') {
        return Value::Str(s[1..s.len() - 1].replace("''", "'"));
    }
    if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        return Value::Str(unescape_double(&s[1..s.len() - 1]));
    }
    if is_null(s) {
        return Value::Null;
    }
    if resolves_to_non_string(s) {
        return Value::Plain(s.to_string());
    }
    Value::Str(s.to_string())
}

fn unescape_double(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some('/') => out.push('/'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn is_null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

fn is_bool(s: &str) -> bool {
    matches!(
        s,
        "yes"
            | "Yes"
            | "YES"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    )
}

fn is_int(s: &str) -> bool {
    let t = s.strip_prefix(['-', '+']).unwrap_or(s);
    if t.is_empty() {
        return false;
    }
    if let Some(h) = t.strip_prefix("0x") {
        return !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit() || c == '_');
    }
    if let Some(b) = t.strip_prefix("0b") {
        return !b.is_empty() && b.chars().all(|c| c == '0' || c == '1' || c == '_');
    }
    t.chars().next().is_some_and(|c| c.is_ascii_digit())
        && t.chars()
            .all(|c| c.is_ascii_digit() || c == '_' || c == ':')
}

fn is_float(s: &str) -> bool {
    let t = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(t, ".inf" | ".Inf" | ".INF") || matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let Some(dot) = mant.find('.') else {
        return false;
    };
    let (a, b) = (&mant[..dot], &mant[dot + 1..]);
    let ok_mant = (a.is_empty() || a.starts_with(|c: char| c.is_ascii_digit()))
        && a.chars().all(|c| c.is_ascii_digit() || c == '_')
        && b.chars().all(|c| c.is_ascii_digit() || c == '_')
        && !(a.is_empty() && b.is_empty());
    let ok_exp = exp.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']);
        e.is_some_and(|e| !e.is_empty() && e.chars().all(|c| c.is_ascii_digit()))
    });
    ok_mant && ok_exp
}

fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 8 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let rest = &s[5..];
    let mut parts = rest.splitn(2, '-');
    let m = parts.next().unwrap_or("");
    let Some(d_and_more) = parts.next() else {
        return false;
    };
    let d: String = d_and_more
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let ok_m = (1..=2).contains(&m.len()) && m.chars().all(|c| c.is_ascii_digit());
    let ok_d = (1..=2).contains(&d.len());
    let tail = &d_and_more[d.len()..];
    ok_m && ok_d && (tail.is_empty() || tail.starts_with(['T', 't', ' ']))
}

/// Whether a plain scalar is read by YAML 1.1 as something other than a
/// string.
pub fn resolves_to_non_string(s: &str) -> bool {
    is_null(s) || is_bool(s) || is_int(s) || is_float(s) || is_timestamp(s)
}

fn needs_quotes(s: &str) -> bool {
    if s.is_empty() || resolves_to_non_string(s) {
        return true;
    }
    if s.starts_with([' ', '\t']) || s.ends_with([' ', '\t']) {
        return true;
    }
    let first = s.chars().next().unwrap_or(' ');
    if "#,[]{}&*!|>'\"%@`".contains(first) {
        return true;
    }
    if "-?:".contains(first) && s[1..].chars().next().is_none_or(|c| c == ' ' || c == '\t') {
        return true;
    }
    s.contains(": ") || s.contains(" #") || s.ends_with(':') || s.chars().any(|c| c.is_control())
}

/// One scalar as PyYAML dumps it in block context.
pub fn dump_scalar(v: &Value) -> String {
    match v {
        Value::Str(s) if needs_quotes(s) => format!("'{}'", s.replace('\'', "''")),
        Value::Str(s) | Value::Plain(s) => s.clone(),
        Value::Null => "null".into(),
        Value::List(_) | Value::Raw(_) => v.render_inline(),
    }
}

/// One `key: value` entry as PyYAML dumps it (lists in block style with the
/// items at the key's indentation, multi-line strings as `|` blocks).
pub fn dump_entry(key: &str, value: &Value) -> String {
    let quoted;
    let key = if needs_quotes(key) || key.contains(':') {
        quoted = format!("'{}'", key.replace('\'', "''"));
        quoted.as_str()
    } else {
        key
    };
    match value {
        Value::List(items) if items.is_empty() => format!("{key}: []"),
        Value::List(items) => {
            let mut s = format!("{key}:");
            for item in items {
                s.push_str(&format!("\n- {}", dump_scalar(item)));
            }
            s
        }
        Value::Raw(raw) => format!("{key}:{raw}"),
        Value::Str(s) if s.contains('\n') => {
            let chomp = if s.ends_with('\n') { "" } else { "-" };
            let body: Vec<String> = s
                .trim_end_matches('\n')
                .split('\n')
                .map(|l| format!("  {l}"))
                .collect();
            format!("{key}: |{chomp}\n{}", body.join("\n"))
        }
        other => format!("{key}: {}", dump_scalar(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_are_typed_like_yaml() {
        assert_eq!(scalar("'2026-03-20'"), Value::Str("2026-03-20".into()));
        assert_eq!(scalar("2026-03-20"), Value::Plain("2026-03-20".into()));
        assert_eq!(scalar("body-v2"), Value::Str("body-v2".into()));
        assert_eq!(
            dump_entry("modified", &Value::Str("2026-03-20".into())),
            "modified: '2026-03-20'"
        );
        assert_eq!(
            dump_entry("body_schema", &Value::Str("body-v2".into())),
            "body_schema: body-v2"
        );
        assert_eq!(
            dump_entry("x", &Value::Str("it's: odd".into())),
            "x: 'it''s: odd'"
        );
    }

    #[test]
    fn odd_keys_survive_a_round_trip() {
        let m = parse_mapping("-4x: '1'\n'a: b': c\n");
        assert_eq!(m[0].0, "-4x");
        assert_eq!(m[1].0, "a: b");
        assert_eq!(dump_entry(&m[1].0, &m[1].1), "'a: b': c");
        assert_eq!(dump_entry(&m[0].0, &m[0].1), "-4x: '1'");
    }

    #[test]
    fn lists_of_both_styles_are_read() {
        let m = parse_mapping("tags:\n  - '#plan'\n  - \"#x\"\nrelated: []\nb: [a, 'b c']\n");
        assert_eq!(
            m[0].1,
            Value::List(vec![Value::Str("#plan".into()), Value::Str("#x".into())])
        );
        assert_eq!(m[1].1, Value::List(vec![]));
        assert_eq!(
            m[2].1,
            Value::List(vec![Value::Str("a".into()), Value::Str("b c".into())])
        );
    }
}

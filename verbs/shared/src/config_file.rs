//! The local settings file `.vaultspec/config.toml`: the keys vaultspec
//! knows, and reading and rewriting `key = "value"` lines while keeping every
//! other line as it was.
//!
//! Shared by the `orient` (read) and `admin` (write) components.

/// Where the local settings live, workspace-relative.
pub const CONFIG_PATH: &str = ".vaultspec/config.toml";

/// The keys that may be set (vaultspec-core 0.3.9 knows only `editor`).
pub const KEYS: [&str; 1] = ["editor"];

/// A key checked against [`KEYS`], or the message naming the valid ones.
pub fn known_key(raw: &str) -> Result<&'static str, String> {
    let key = raw.trim();
    KEYS.iter().copied().find(|k| *k == key).ok_or_else(|| {
        format!(
            "unknown configuration key `{key}`: valid keys are {}",
            KEYS.iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// The key of a `key = value` line, if it is one.
fn line_key(line: &str) -> Option<&str> {
    let (key, _) = line.split_once('=')?;
    let key = key.trim().trim_matches('"');
    (!key.is_empty() && !key.starts_with('#') && !key.starts_with('[')).then_some(key)
}

/// Reads a TOML basic or literal string, or a bare value.
fn parse_value(raw: &str) -> String {
    let raw = raw.trim();
    if let Some(inner) = raw.strip_prefix('\'').and_then(|r| r.split_once('\'')) {
        return inner.0.to_owned();
    }
    let Some(rest) = raw.strip_prefix('"') else {
        return raw.split('#').next().unwrap_or("").trim().to_owned();
    };
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => break,
            },
            c => out.push(c),
        }
    }
    out
}

/// The value of `key` in the top-level table of `text`.
pub fn get(text: &str, key: &str) -> Option<String> {
    for line in text.lines() {
        if line.trim_start().starts_with('[') {
            break;
        }
        if line_key(line) == Some(key) {
            return line.split_once('=').map(|(_, v)| parse_value(v));
        }
    }
    None
}

/// `text` with `key` set to `value` (or removed when `None`), other lines kept.
pub fn set(text: &str, key: &str, value: Option<&str>) -> String {
    let rendered = value.map(|v| {
        format!(
            "{key} = \"{}\"",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        )
    });
    let mut out = Vec::new();
    let mut placed = false;
    let mut in_top = true;
    for line in text.lines() {
        if line.trim_start().starts_with('[') {
            if !placed && let Some(r) = &rendered {
                out.push(r.clone());
                placed = true;
            }
            in_top = false;
        }
        if in_top && line_key(line) == Some(key) {
            if let Some(r) = &rendered
                && !placed
            {
                out.push(r.clone());
            }
            placed = true;
            continue;
        }
        out.push(line.to_owned());
    }
    if !placed && let Some(r) = rendered {
        out.push(r);
    }
    let mut joined = out.join("\n");
    if !joined.trim().is_empty() {
        joined.push('\n');
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_set_replaced_and_removed_keeping_other_lines() {
        let text = set("# mine\nother = 1\n", "editor", Some("vim"));
        assert_eq!(text, "# mine\nother = 1\neditor = \"vim\"\n");
        assert_eq!(get(&text, "editor").as_deref(), Some("vim"));
        let text = set(&text, "editor", Some("code -w"));
        assert_eq!(get(&text, "editor").as_deref(), Some("code -w"));
        assert_eq!(set(&text, "editor", None), "# mine\nother = 1\n");
    }
}

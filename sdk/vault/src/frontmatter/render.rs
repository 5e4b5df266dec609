//! The writers' exact quoting (spec/vault-format.md §5.4) and the whole-block
//! re-renders: `rerender_frontmatter` of ADR supersede and the plan writer's
//! frontmatter order.
//!
//! Each writer of the reference quotes differently; the functions here name
//! the writer they imitate so a caller picks the bytes its verb must produce.

use super::edit::{key_blocks, newline_of};
use super::scan::{self, Metadata};
use super::split;
use crate::text;

/// `'value'` with inner single quotes doubled (YAML single-quoted style).
pub fn single(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

/// `"value"` with backslashes and double quotes escaped.
pub fn double(value: &str) -> String {
    format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A quoting style for list items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quote {
    /// `'item'`: set-frontmatter, link verbs, index, plan writer.
    Single,
    /// `"item"`: scaffold `related:`, rerendered `tags`/`related`.
    Double,
}

/// `key: []` or `key:` followed by `  - <quoted item>` lines.
pub fn list_lines(key: &str, items: &[String], quote: Quote) -> Vec<String> {
    if items.is_empty() {
        return vec![format!("{key}: []")];
    }
    let mut out = vec![format!("{key}:")];
    out.extend(items.iter().map(|i| {
        format!(
            "  - {}",
            if quote == Quote::Single {
                single(i)
            } else {
                double(i)
            }
        )
    }));
    out
}

/// A scalar as PyYAML's `dump` writes it: plain when it reads back as the
/// same string, else single-quoted.
pub fn yaml_dump_scalar(value: &str) -> String {
    let looks_special = value.is_empty()
        || value.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@`~ ".contains(c))
        || value.ends_with(' ')
        || value.contains(": ")
        || value.contains(" #")
        || value.contains(['\n', '\r', '\t'])
        || matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n"
        )
        || value.parse::<f64>().is_ok()
        || crate::date::Date::parse_strict(value).is_ok()
        || value
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'-' || b == b'_' || b == b':' || b == b'.');
    if looks_special {
        single(value)
    } else {
        value.to_string()
    }
}

/// Joins the rendered frontmatter lines and the body the way the reference's
/// re-renders do: fences, the lines, then the body from its first non-blank
/// line directly after the closing fence; CRLF restored when the original had
/// any.
fn assemble(original: &str, lines: &[String], body: &str) -> String {
    let mut out = String::from("---\n");
    for l in lines {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str("---\n");
    out.push_str(&text::normalize_newlines(body));
    if newline_of(original) == "\r\n" {
        text::to_crlf(&out)
    } else {
        out
    }
}

/// The key blocks of keys outside `modelled`, verbatim, in original order,
/// each as its lines (terminators dropped).
fn carried_lines(original: &str, modelled: &[&str]) -> Vec<String> {
    let Some(s) = split(original) else {
        return Vec::new();
    };
    key_blocks(original, &s)
        .into_iter()
        .filter(|b| !modelled.contains(&b.key.as_str()))
        .flat_map(|b| {
            let block = &original[b.range.clone()];
            text::lines(block)
                .into_iter()
                .map(|l| block[l.content].to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The original lines of `key`'s block (terminators dropped).
fn block_lines(original: &str, key: &str) -> Vec<String> {
    let Some(s) = split(original) else {
        return Vec::new();
    };
    key_blocks(original, &s)
        .into_iter()
        .filter(|b| b.key == key)
        .flat_map(|b| {
            let block = &original[b.range.clone()];
            text::lines(block)
                .into_iter()
                .map(|l| block[l.content].to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The keys the reference's `rerender_frontmatter` writes from its model.
const REREND_MODELLED: [&str; 8] = [
    "tags",
    "date",
    "related",
    "supersedes",
    "superseded_by",
    "derived_from",
    "promoted_to",
    "archived",
];

/// The stamps, which `render_stamps=True` writes from the model too.
const STAMP_KEYS: [&str; 3] = ["modified", "body_schema", "body_hash"];

/// Which form of the reference's `rerender_frontmatter` [`rerender`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rerender {
    /// `render_stamps=False, quote_date=True`, as ADR supersede writes it:
    /// `date` single-quoted, the stamps carried as they were, the body's
    /// newlines following the original's. The caller restamps afterwards.
    Supersede,
    /// `render_stamps=True`, as the frontmatter fixer writes it: `date`
    /// bare, `modified`/`body_schema`/`body_hash` single-quoted right after
    /// it, the body verbatim right after the closing fence.
    WithStamps,
}

/// The reference's `rerender_frontmatter`: the modelled keys in canonical
/// order (tags double-quoted, then date, the link keys; empty ones
/// omitted), then every other key's original lines, then the body. `None`
/// without frontmatter.
pub fn rerender(original: &str, meta: &Metadata, form: Rerender) -> Option<String> {
    let s = split(original)?;
    let stamps = form == Rerender::WithStamps;
    let mut lines = Vec::new();
    if !meta.tags.is_empty() {
        lines.extend(list_lines("tags", &meta.tags, Quote::Double));
    }
    if let Some(d) = meta.date.as_deref().filter(|d| !d.is_empty()) {
        lines.push(if stamps {
            format!("date: {d}")
        } else {
            format!("date: {}", single(d))
        });
    }
    if stamps {
        let values = [&meta.modified, &meta.body_schema, &meta.body_hash];
        for (k, v) in STAMP_KEYS.iter().zip(values) {
            if let Some(v) = v {
                lines.push(format!("{k}: {}", single(v)));
            }
        }
    }
    if !meta.related.is_empty() {
        lines.extend(list_lines("related", &meta.related, Quote::Double));
    }
    if !meta.supersedes.is_empty() {
        lines.extend(list_lines("supersedes", &meta.supersedes, Quote::Single));
    }
    if let Some(v) = &meta.superseded_by {
        lines.push(format!("superseded_by: {}", single(v)));
    }
    for (k, v) in [
        ("derived_from", &meta.derived_from),
        ("promoted_to", &meta.promoted_to),
    ] {
        if !v.is_empty() {
            lines.extend(list_lines(k, v, Quote::Single));
        }
    }
    if let Some(v) = &meta.archived {
        lines.push(format!("archived: {}", single(v)));
    }
    if stamps {
        let modelled: Vec<&str> = REREND_MODELLED.iter().chain(&STAMP_KEYS).copied().collect();
        lines.extend(carried_lines(original, &modelled));
        let mut out = String::from("---\n");
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
        out.push_str("---\n");
        out.push_str(&original[s.body..]);
        Some(out)
    } else {
        lines.extend(carried_lines(original, &REREND_MODELLED));
        Some(assemble(original, &lines, s.body(original)))
    }
}

/// The plan writer's frontmatter (plan-format.md §4): `tags`, `date`, `tier`,
/// `related` (dropped when empty), then every other key in original order
/// YAML-dumped, with `modified` and `body_hash` in canonical quoted form. The
/// body is kept as it was (including the blank line after the fence). The
/// caller restamps afterwards.
pub fn rerender_plan(original: &str) -> Option<String> {
    let s = split(original)?;
    let meta = scan::scan(s.yaml(original));
    let (values, _) = super::yaml::parse(s.yaml(original));
    let mut lines = list_lines("tags", &meta.tags, Quote::Single);
    if let Some(d) = &meta.date {
        lines.push(format!("date: {}", single(d)));
    }
    lines.push(format!("tier: {}", meta.tier.as_deref().unwrap_or("L2")));
    if !meta.related.is_empty() {
        lines.extend(list_lines("related", &meta.related, Quote::Single));
    }
    for (key, value) in &values {
        if matches!(key.as_str(), "tags" | "date" | "tier" | "related") {
            continue;
        }
        match (key.as_str(), value) {
            ("modified" | "body_hash", super::yaml::Value::Str(v)) => {
                lines.push(format!("{key}: {}", single(v)))
            }
            (_, super::yaml::Value::Str(v)) => {
                lines.push(format!("{key}: {}", yaml_dump_scalar(v)))
            }
            (_, super::yaml::Value::Bool(b)) => lines.push(format!("{key}: {b}")),
            (_, super::yaml::Value::Null) => lines.push(format!("{key}: null")),
            (_, super::yaml::Value::List(items)) => {
                let items: Vec<String> = items
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect();
                lines.extend(list_lines(key, &items, Quote::Single));
            }
            (_, super::yaml::Value::Map(_)) => lines.extend(block_lines(original, key)),
        }
    }
    let mut out = String::from("---\n");
    for l in &lines {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str("---\n");
    out.push_str(&text::normalize_newlines(&original[s.close.end..]));
    Some(if newline_of(original) == "\r\n" {
        text::to_crlf(&out)
    } else {
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dump_quotes_what_would_read_back_differently() {
        assert_eq!(yaml_dump_scalar("body-v2"), "body-v2");
        assert_eq!(yaml_dump_scalar("2026-03-04"), "'2026-03-04'");
        assert_eq!(yaml_dump_scalar("true"), "'true'");
        assert_eq!(yaml_dump_scalar("a: b"), "'a: b'");
        assert_eq!(yaml_dump_scalar("sha256:ab"), "sha256:ab");
    }

    #[test]
    fn plan_rerender_orders_keys_like_the_plan_writer() {
        let t = "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-10'\nmodified: '2026-03-10'\nbody_schema: 'body-v2'\n\
                 body_hash: 'sha256:00'\ntier: L1\nrelated: []\n---\n\n# `f` plan\n";
        let out = rerender_plan(t).unwrap();
        assert_eq!(
            out,
            "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-10'\ntier: L1\nmodified: '2026-03-10'\n\
             body_schema: body-v2\nbody_hash: 'sha256:00'\n---\n\n# `f` plan\n"
        );
    }
}

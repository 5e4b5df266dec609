//! Format-preserving frontmatter edits: a key's block (its line plus its
//! indented continuation lines) is replaced where it stands, or inserted as
//! the last YAML line; every other byte of the file stays as it was.
//!
//! New lines take the file's line-ending convention (CRLF when the original
//! has any `\r\n`), so a CRLF file stays CRLF after an edit.

use std::ops::Range;

use super::{Split, split};
use crate::text;

/// One top-level key of the frontmatter with the byte range of its block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyBlock {
    /// The key, quotes removed.
    pub key: String,
    /// The key line and its continuation lines, terminators included, as a
    /// range of the whole text.
    pub range: Range<usize>,
}

/// The top-level key blocks of the frontmatter found by `split`, in order.
/// A continuation line is one that starts with a space, a tab or `-`.
pub fn key_blocks(text: &str, split: &Split) -> Vec<KeyBlock> {
    let yaml = &text[split.yaml.clone()];
    let base = split.yaml.start;
    let mut out: Vec<KeyBlock> = Vec::new();
    for l in text::lines(yaml) {
        let t = &yaml[l.content.clone()];
        let continuation = t.starts_with([' ', '\t', '-']);
        if continuation {
            if let Some(last) = out
                .last_mut()
                .filter(|b| b.range.end == l.full.start + base)
            {
                last.range.end = l.full.end + base;
            }
            continue;
        }
        if t.starts_with('#') || t.trim().is_empty() {
            continue;
        }
        if let Some((k, _)) = t.split_once(':') {
            let key = super::scan::strip_quotes(k.trim()).to_string();
            out.push(KeyBlock {
                key,
                range: l.full.start + base..l.full.end + base,
            });
        }
    }
    out
}

/// The line terminator new lines of `text` should use.
pub fn newline_of(text: &str) -> &'static str {
    if text::uses_crlf(text) { "\r\n" } else { "\n" }
}

/// Replaces the block of `key` with `lines` (given without terminators), or
/// inserts them just above the closing fence when the key is absent. Later
/// duplicate blocks of the key are removed. `None` when the text has no
/// frontmatter.
pub fn set_key(text: &str, key: &str, lines: &[String]) -> Option<String> {
    let s = split(text)?;
    let nl = newline_of(text);
    let rendered: String = lines.iter().map(|l| format!("{l}{nl}")).collect();
    let blocks: Vec<KeyBlock> = key_blocks(text, &s)
        .into_iter()
        .filter(|b| b.key == key)
        .collect();
    let mut out = String::with_capacity(text.len() + rendered.len());
    match blocks.first() {
        Some(first) => {
            out.push_str(&text[..first.range.start]);
            out.push_str(&rendered);
            let mut pos = first.range.end;
            for dup in &blocks[1..] {
                out.push_str(&text[pos..dup.range.start]);
                pos = dup.range.end;
            }
            out.push_str(&text[pos..]);
        }
        None => {
            out.push_str(&text[..s.close.start]);
            if s.yaml.end > s.yaml.start && !text[..s.yaml.end].ends_with(['\n', '\r']) {
                out.push_str(nl);
            }
            out.push_str(&rendered);
            out.push_str(&text[s.close.start..]);
        }
    }
    Some(out)
}

/// Removes every block of `key`; `None` when the text has no frontmatter.
pub fn remove_key(text: &str, key: &str) -> Option<String> {
    let s = split(text)?;
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for b in key_blocks(text, &s).into_iter().filter(|b| b.key == key) {
        out.push_str(&text[pos..b.range.start]);
        pos = b.range.end;
    }
    out.push_str(&text[pos..]);
    Some(out)
}

/// Replaces the body: everything after the closing fence becomes `body`
/// (newlines converted to the file's convention). The body follows the fence
/// directly, as the reference's `set-body` writes it.
pub fn replace_body(text: &str, body: &str) -> Option<String> {
    let s = split(text)?;
    let body = if text::uses_crlf(text) {
        text::to_crlf(body)
    } else {
        text::normalize_newlines(body).into_owned()
    };
    Some(format!("{}{}", &text[..s.close.end], body))
}

/// Rewrites, inside the blocks of list key `key`, every item for which `map`
/// returns a new value; the rest of each line (indentation, quotes,
/// terminator) is kept. `map` receives the item text without quotes.
/// Returns the new text and how many items changed.
pub fn rewrite_items(
    text: &str,
    key: &str,
    map: &dyn Fn(&str) -> Option<String>,
) -> (String, usize) {
    let Some(s) = split(text) else {
        return (text.to_string(), 0);
    };
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    let mut count = 0;
    for b in key_blocks(text, &s).into_iter().filter(|b| b.key == key) {
        out.push_str(&text[pos..b.range.start]);
        let block = &text[b.range.clone()];
        for (i, l) in text::lines(block).into_iter().enumerate() {
            let line = &block[l.content.clone()];
            let (head, items) = if i == 0 {
                match line.find('[') {
                    Some(open)
                        if line[open..].trim_end().ends_with(']')
                            && !line[open..].starts_with("[[") =>
                    {
                        (&line[..open], Some(&line[open..]))
                    }
                    _ => (line, None),
                }
            } else {
                match line.trim_start().strip_prefix('-') {
                    Some(_) => {
                        let dash = line.find('-').unwrap_or(0);
                        let rest = &line[dash + 1..];
                        let ws = rest.len() - rest.trim_start().len();
                        (&line[..dash + 1 + ws], Some(&line[dash + 1 + ws..]))
                    }
                    None => (line, None),
                }
            };
            out.push_str(head);
            match items {
                Some(v) if i == 0 => {
                    // Inline list: map each comma-separated item.
                    let inner = &v.trim_end()[1..v.trim_end().len() - 1];
                    let parts: Vec<String> = inner
                        .split(',')
                        .map(|p| {
                            let (lead, core) = p.split_at(p.len() - p.trim_start().len());
                            let core_t = core.trim_end();
                            match map(super::scan::strip_quotes(core_t)) {
                                Some(new) => {
                                    count += 1;
                                    format!(
                                        "{lead}{}{}",
                                        requote(core_t, &new),
                                        &core[core_t.len()..]
                                    )
                                }
                                None => p.to_string(),
                            }
                        })
                        .collect();
                    out.push('[');
                    out.push_str(&parts.join(","));
                    out.push_str(&v.trim_end()[v.trim_end().len() - 1..]);
                    out.push_str(&v[v.trim_end().len()..]);
                }
                Some(v) => {
                    let core = v.trim_end();
                    match map(super::scan::strip_quotes(core)) {
                        Some(new) => {
                            count += 1;
                            out.push_str(&requote(core, &new));
                            out.push_str(&v[core.len()..]);
                        }
                        None => out.push_str(v),
                    }
                }
                None => {}
            }
            out.push_str(l.terminator(block));
        }
        pos = b.range.end;
    }
    out.push_str(&text[pos..]);
    (out, count)
}

/// `new` written with the same quotes as `old`.
fn requote(old: &str, new: &str) -> String {
    if old.starts_with('\'') {
        super::render::single(new)
    } else if old.starts_with('"') {
        super::render::double(new)
    } else {
        new.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str =
        "---\ntags:\n  - '#a'\n  - \"#b\"\ndate: '2026-01-01'\nrelated: []\n---\n\nbody\n";

    #[test]
    fn blocks_cover_continuation_lines() {
        let s = split(DOC).unwrap();
        let b = key_blocks(DOC, &s);
        assert_eq!(
            b.iter().map(|b| b.key.as_str()).collect::<Vec<_>>(),
            ["tags", "date", "related"]
        );
        assert_eq!(&DOC[b[0].range.clone()], "tags:\n  - '#a'\n  - \"#b\"\n");
    }

    #[test]
    fn set_key_replaces_in_place_or_appends() {
        let out = set_key(DOC, "date", &["date: '2026-02-02'".into()]).unwrap();
        assert_eq!(out, DOC.replace("2026-01-01", "2026-02-02"));
        let out = set_key(DOC, "tier", &["tier: L1".into()]).unwrap();
        assert_eq!(out, DOC.replace("related: []\n", "related: []\ntier: L1\n"));
        let crlf = DOC.replace('\n', "\r\n");
        let out = set_key(&crlf, "related", &["related:".into(), "  - '[[x]]'".into()]).unwrap();
        assert_eq!(
            out,
            crlf.replace("related: []\r\n", "related:\r\n  - '[[x]]'\r\n")
        );
    }

    #[test]
    fn rewrite_items_keeps_quotes_and_other_items() {
        let t = "---\ntags:\n  - '#a'\n  - \"#b\"\n  - #c\nrelated: [\"[[x]]\", '[[y]]']\n---\nb";
        let map = |v: &str| {
            (v == "#b" || v == "[[y]]").then(|| {
                if v == "#b" {
                    "#z".to_string()
                } else {
                    "[[w]]".to_string()
                }
            })
        };
        let (out, n) = rewrite_items(t, "tags", &map);
        assert_eq!(
            (out.as_str(), n),
            (t.replace("\"#b\"", "\"#z\"").as_str(), 1)
        );
        let (out, n) = rewrite_items(t, "related", &map);
        assert_eq!(
            (out.as_str(), n),
            (t.replace("'[[y]]'", "'[[w]]'").as_str(), 1)
        );
    }
}

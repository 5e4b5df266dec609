//! The `annotations` checker: template guidance left in a document (YAML
//! comment lines in the frontmatter, HTML comments and the malformed `<--`
//! opener in the body outside fenced code), and its fixer, which removes them.
//!
//! Comments that begin `RETIRED:` record plan retirements and are kept. A
//! comment on its own lines takes those lines with it; a comment sharing a
//! line with prose is cut out and the prose stays, so the fixer never drops
//! authored text and a second run finds nothing.

use crate::doc::Document;
use crate::error::Result;
use crate::frontmatter::split;
use crate::graph::markdown::FenceTracker;

use super::context::{Options, Snapshot, plural, rewrite};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "annotations";

/// What the fixer would remove from a text.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    /// HTML comment blocks in the body.
    pub html: usize,
    /// `#` comment lines in the frontmatter.
    pub yaml: usize,
}

impl Annotations {
    fn describe(self) -> String {
        let mut parts = Vec::new();
        if self.html > 0 {
            parts.push(plural(
                self.html,
                "HTML comment block",
                "HTML comment blocks",
            ));
        }
        if self.yaml > 0 {
            parts.push(plural(
                self.yaml,
                "frontmatter comment line",
                "frontmatter comment lines",
            ));
        }
        parts.join(", ")
    }
}

/// Removes the annotations of a normalised text; returns the new text and
/// what was removed.
pub fn strip(text: &str) -> (String, Annotations) {
    let mut found = Annotations::default();
    let (head, body) = match split(text) {
        Some(s) => {
            let mut head = text[..s.yaml.start].to_string();
            for line in text[s.yaml.clone()].split_inclusive('\n') {
                if is_yaml_comment(line) {
                    found.yaml += 1;
                } else {
                    head.push_str(line);
                }
            }
            head.push_str(&text[s.yaml.end..s.close.end]);
            (head, &text[s.close.end..])
        }
        None => (String::new(), text),
    };
    let (body, html) = strip_html(body);
    found.html = html;
    (head + &body, found)
}

fn is_yaml_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// Whether [`strip`] may find anything in `doc`: a frontmatter comment line,
/// or a `<` in the body (every opener starts with one). Most documents have
/// neither, and stripping builds a copy of the whole text.
fn may_have_annotations(doc: &Document) -> bool {
    match &doc.split {
        Some(s) => {
            doc.text[s.yaml.clone()]
                .split_inclusive('\n')
                .any(is_yaml_comment)
                || doc.text[s.close.end..].contains('<')
        }
        None => doc.text.contains('<'),
    }
}

fn opener_at(line: &str, from: usize) -> Option<(usize, usize)> {
    let a = line[from..].find("<!--").map(|i| (from + i, 4));
    let b = line[from..].find("<--").map(|i| (from + i, 3));
    match (a, b) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// Removes HTML comments outside fenced code; an opener without a later
/// `-->` is not a comment.
fn strip_html(body: &str) -> (String, usize) {
    let lines: Vec<&str> = body.split_inclusive('\n').collect();
    let mut code = Vec::with_capacity(lines.len());
    let mut fences = FenceTracker::default();
    for l in &lines {
        code.push(fences.code_line(l.trim_end_matches('\n')));
    }
    let closes_later = |li: usize, pos: usize| -> bool {
        lines[li][pos..].contains("-->")
            || (li + 1..lines.len()).any(|j| !code[j] && lines[j].contains("-->"))
    };
    let mut out = String::with_capacity(body.len());
    let mut count = 0;
    let mut open: Option<bool> = None; // Some(kept) while inside a comment
    for (li, raw) in lines.iter().enumerate() {
        if code[li] && open.is_none() {
            out.push_str(raw);
            continue;
        }
        let (line, nl) = raw.strip_suffix('\n').map_or((*raw, ""), |l| (l, "\n"));
        let mut kept = String::new();
        let mut removed = false;
        let mut removed_at_start = false;
        let mut pos = 0;
        while pos <= line.len() {
            if let Some(keep) = open {
                if !keep {
                    removed = true;
                    removed_at_start |= pos == 0;
                }
                match line[pos..].find("-->") {
                    Some(i) => {
                        if keep {
                            kept.push_str(&line[pos..pos + i + 3]);
                        }
                        pos += i + 3;
                        open = None;
                    }
                    None => {
                        if keep {
                            kept.push_str(&line[pos..]);
                        }
                        pos = line.len() + 1;
                    }
                }
                continue;
            }
            match opener_at(line, pos).filter(|&(i, n)| closes_later(li, i + n)) {
                Some((i, n)) => {
                    kept.push_str(&line[pos..i]);
                    let retired = line[i + n..].trim_start().starts_with("RETIRED:");
                    if retired {
                        kept.push_str(&line[i..i + n]);
                    } else {
                        count += 1;
                        removed = true;
                        removed_at_start |= line[..i].trim().is_empty();
                    }
                    open = Some(retired);
                    pos = i + n;
                }
                None => {
                    kept.push_str(&line[pos..]);
                    pos = line.len() + 1;
                }
            }
        }
        if !removed && kept.len() == line.len() {
            out.push_str(raw);
            continue;
        }
        let mut k = kept.trim_end();
        if removed_at_start {
            k = k.trim_start();
        }
        if k.is_empty() && removed {
            continue;
        }
        out.push_str(k);
        out.push_str(nl);
    }
    (out, count)
}

/// Runs the checker (and its fixer under `opts.fix`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Annotations);
    for doc in snap.scoped(opts).filter(|d| may_have_annotations(d)) {
        let (_, found) = strip(&doc.text);
        if found == Annotations::default() {
            continue;
        }
        if opts.fix {
            let mut removed = Annotations::default();
            rewrite(snap.storage, &doc.path, |t| {
                let (new, r) = strip(t);
                removed = r;
                Some(new)
            })?;
            result.fixed_count += 1;
            result.findings.push(Finding::fixed(
                NAME,
                &doc.path,
                format!("Removed template annotations: {}", removed.describe()),
            ));
        } else {
            result.findings.push(
                Finding::new(
                    NAME,
                    Severity::Warning,
                    Some(&doc.path),
                    format!("Template annotations remain: {}", found.describe()),
                )
                .fixable(Some(
                    "Run annotations check with --fix to strip them".into(),
                )),
            );
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_go_prose_and_retirements_stay() {
        let t = "---\n# guide\ntags: []\n---\n\n<!-- RETIRED: S02 -->\n# T\n\n<!-- a\nb -->\n\nkeep <!-- x --> this\n<!-- y --> tail\n<-- bad -->\n```\n<!-- code -->\n```\nA <-- B\n";
        let (out, found) = strip(t);
        assert_eq!(found, Annotations { html: 4, yaml: 1 });
        assert_eq!(
            out,
            "---\ntags: []\n---\n\n<!-- RETIRED: S02 -->\n# T\n\n\nkeep  this\ntail\n```\n<!-- code -->\n```\nA <-- B\n"
        );
        assert_eq!(strip(&out), (out.clone(), Annotations::default()));
    }
}

//! One parsed vault document: the original text plus everything derived from
//! it in a single pass (spec/vault-format.md §5).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use super::{DocType, stem_of};
use crate::date::Date;
use crate::error::{Error, Result};
use crate::frontmatter::spans::{MetaRef, MetaSpans};
use crate::frontmatter::{self, Split};

/// A vault document as read from storage.
///
/// `text` is the file exactly as decoded (BOM and line endings kept), so
/// writers edit the very bytes that were read; the derived fields are views
/// through the line scanner of §5.2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Workspace-relative path (`.vault/adr/x.md`).
    pub path: String,
    /// The first folder under `.vault/`, when it is a document type.
    pub doc_type: Option<DocType>,
    /// The file's text, unchanged (shared with the graph document it was
    /// made from, when it was).
    pub text: Arc<str>,
    /// Where the frontmatter lies, if there is any.
    pub split: Option<Split>,
    /// Where the modelled frontmatter's values lie in `text`: read them
    /// through [`Document::meta`].
    meta: MetaSpans,
}

impl Document {
    /// Parses a document from its bytes. A file that is not UTF-8 is refused
    /// with [`Error::Encoding`] naming the path.
    pub fn from_bytes(path: &str, bytes: Vec<u8>) -> Result<Document> {
        let text = String::from_utf8(bytes).map_err(|e| Error::Encoding {
            path: path.to_string(),
            offset: e.utf8_error().valid_up_to(),
        })?;
        Ok(Document::from_text(path, text))
    }

    /// Parses a document from its text.
    pub fn from_text(path: &str, text: impl Into<Arc<str>>) -> Document {
        let text = text.into();
        let split = frontmatter::split(&text);
        let meta = split
            .as_ref()
            .map(|s| MetaSpans::read(s.yaml(&text)))
            .unwrap_or_default();
        Document {
            path: path.to_string(),
            doc_type: DocType::of_path(path),
            text,
            split,
            meta,
        }
    }

    /// The filename without `.md`: the document's graph key. Read from
    /// the path each time, not kept beside it: a server holds a document
    /// per file of the vault.
    pub fn stem(&self) -> &str {
        stem_of(&self.path)
    }

    /// The modelled frontmatter (empty without frontmatter).
    pub fn meta(&self) -> MetaRef<'_> {
        let yaml = self.split.as_ref().map_or("", |s| s.yaml(&self.text));
        self.meta.view(yaml)
    }

    /// The body's byte range: from the first non-blank line after the
    /// frontmatter, or the whole text without frontmatter.
    pub fn body_range(&self) -> Range<usize> {
        match &self.split {
            Some(s) => s.body..self.text.len(),
            None => usize::from(self.text.starts_with(crate::text::BOM)) * 3..self.text.len(),
        }
    }

    /// The body text.
    pub fn body(&self) -> &str {
        &self.text[self.body_range()]
    }

    /// The feature: the first non-directory tag without `#`, else the legacy
    /// `feature:` key lowercased.
    pub fn feature(&self) -> Option<String> {
        self.feature_text().map(Cow::into_owned)
    }

    /// [`Document::feature`], lent from the text where it is written as it
    /// reads (a legacy `feature:` with capitals is the only copy).
    pub fn feature_text(&self) -> Option<Cow<'_, str>> {
        let meta = self.meta();
        let tag = meta
            .tags()
            .iter()
            .find(|t| DocType::from_tag(t).is_none() && !t.is_empty());
        match tag {
            Some(t) => Some(Cow::Borrowed(super::tag_name(t))),
            None => meta.feature().map(|f| {
                match f.bytes().any(|b| b.is_ascii_uppercase()) || !f.is_ascii() {
                    true => Cow::Owned(f.to_lowercase()),
                    false => Cow::Borrowed(f),
                }
            }),
        }
    }

    /// Whether the document carries `#<feature>` among its tags.
    pub fn has_feature_tag(&self, feature: &str) -> bool {
        self.meta()
            .tags()
            .iter()
            .any(|t| t.strip_prefix('#') == Some(feature))
    }

    /// The `date:` value, leniently parsed.
    pub fn date(&self) -> Option<Date> {
        self.meta().date().and_then(|d| Date::parse_lenient(d).ok())
    }

    /// Whether the frontmatter says `generated: true` (feature indexes).
    pub fn generated(&self) -> bool {
        self.meta()
            .generated()
            .is_some_and(|g| g.eq_ignore_ascii_case("true"))
    }

    /// The text of the first level-1 heading of the body, outside code fences.
    pub fn title(&self) -> Option<&str> {
        first_h1(self.body())
    }

    /// The `related:` targets: `[[stem]]` items reduced to their stems.
    pub fn related_stems(&self) -> Vec<&str> {
        self.meta()
            .related()
            .iter()
            .filter_map(wiki_target)
            .collect()
    }

    /// The git blob id of the text as it was read.
    pub fn blob_oid(&self) -> String {
        crate::hash::blob_oid(self.text.as_bytes())
    }

    /// Every key line of the frontmatter, in order, with its 1-based line
    /// within the YAML (read again from the text on each call).
    pub fn keys(&self) -> Vec<(&str, usize)> {
        self.split
            .as_ref()
            .map(|s| frontmatter::scan::keys(s.yaml(&self.text)))
            .unwrap_or_default()
    }

    /// The 1-based line of the text where `key` is first written, if it is.
    pub fn key_line(&self, key: &str) -> Option<usize> {
        let s = self.split.as_ref()?;
        let first = s.first_yaml_line(&self.text);
        self.keys()
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, l)| first + l - 1)
    }

    /// Fails with [`Error::Malformed`] (file, line, what was expected) when
    /// the frontmatter is broken YAML, so writers refuse instead of silently
    /// rewriting it. Valid YAML outside the supported subset passes.
    pub fn check_yaml(&self) -> Result<()> {
        let Some(s) = &self.split else { return Ok(()) };
        match frontmatter::yaml::parse_strict(s.yaml(&self.text)) {
            Err(e) if !e.unsupported => Err(Error::Malformed {
                path: self.path.clone(),
                line: s.first_yaml_line(&self.text) + e.line - 1,
                message: e.message,
            }),
            _ => Ok(()),
        }
    }

    /// Fails with [`Error::NoFrontmatter`] when the document has none at its
    /// first line, which every frontmatter writer needs.
    pub fn require_frontmatter(&self) -> Result<&Split> {
        match &self.split {
            Some(s) if s.at_start => {
                self.check_yaml()?;
                Ok(s)
            }
            _ => Err(Error::NoFrontmatter {
                path: self.path.clone(),
            }),
        }
    }
}

/// The target of a `[[target]]` or `[[target|alias]]` link, trimmed, with a
/// trailing `.md` dropped; `None` when `item` is not a wiki-link.
pub fn wiki_target(item: &str) -> Option<&str> {
    let inner = item.trim().strip_prefix("[[")?.strip_suffix("]]")?;
    let target = inner.split('|').next()?.trim();
    Some(target.strip_suffix(".md").unwrap_or(target))
}

/// The first `# ` heading of `body` outside fenced code, trimmed.
pub fn first_h1(body: &str) -> Option<&str> {
    let mut fence: Option<&str> = None;
    for line in body.lines() {
        let t = line.trim_start();
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") {
            fence = Some("```");
            continue;
        }
        if t.starts_with("~~~") {
            fence = Some("~~~");
            continue;
        }
        if let Some(rest) = line.strip_prefix('#')
            && rest.starts_with([' ', '\t'])
        {
            let title = rest.trim().trim_end_matches('\r');
            if !title.is_empty() {
                return Some(title);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_feature_is_lent_unless_it_must_be_lowercased() {
        let feature = |tags: &str, legacy: &str| {
            let text = format!("---\ntags: [{tags}]\nfeature: {legacy}\n---\nbody\n");
            let d = Document::from_text(".vault/adr/2026-01-05-x-adr.md", text);
            let lent = d.feature_text().map(|f| matches!(f, Cow::Borrowed(_)));
            (d.feature(), lent)
        };
        for (tags, legacy, want, lent) in [
            // The first tag that names no type, written out as it reads.
            ("'#adr', '#cache'", "Old", "cache", true),
            ("'#adr', '', '#a'", "Old", "a", true),
            // Else the legacy key, lowercased: a copy only when that
            // changes it.
            ("'#adr'", "legacy", "legacy", true),
            ("'#adr'", "Legacy", "legacy", false),
            ("'#adr'", "ÉTÉ", "été", false),
        ] {
            let got = feature(tags, legacy);
            assert_eq!(got, (Some(want.to_owned()), Some(lent)), "{tags} {legacy}");
        }
    }

    #[test]
    fn a_hand_edited_document_is_read() {
        let text = "\u{feff}---\r\ntags: [\"#adr\", '#x']\r\ndate: 2026-01-05\r\nrelated:\r\n- \"[[a|alias]]\"\r\n---\r\n\r\n```\r\n# no\r\n```\r\n# `x` adr: `t`\r\n";
        let d = Document::from_text(".vault/adr/2026-01-05-x-adr.md", text);
        assert_eq!(d.doc_type, Some(DocType::Adr));
        assert_eq!(d.feature().as_deref(), Some("x"));
        assert_eq!(d.date(), Date::new(2026, 1, 5));
        assert_eq!(d.related_stems(), ["a"]);
        assert_eq!(d.title(), Some("`x` adr: `t`"));
        assert_eq!(d.key_line("date"), Some(3));
    }

    #[test]
    fn broken_yaml_is_reported_with_file_and_line() {
        let d = Document::from_text(".vault/adr/x.md", "---\ntags:\n  - '#adr\ndate: x\n---\nb");
        let e = d.require_frontmatter().unwrap_err().to_string();
        assert!(
            e.starts_with("`.vault/adr/x.md` line 3: unclosed quote"),
            "{e}"
        );
    }

    #[test]
    fn non_utf8_is_an_encoding_error_naming_the_file() {
        let e = Document::from_bytes(".vault/adr/x.md", vec![b'a', 0xff]).unwrap_err();
        assert!(e.to_string().contains("`.vault/adr/x.md`"), "{e}");
    }
}

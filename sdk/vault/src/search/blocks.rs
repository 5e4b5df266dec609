//! Splitting a document body into search blocks: one block per heading
//! (outside fenced code) running to the next heading, plus the prose before
//! the first heading. Each block knows its heading path and its file lines.

use std::ops::Range;

use crate::graph::GraphDoc;
use crate::graph::markdown::{FenceTracker, atx_heading};

/// One block of one document, as byte and line ranges (compact: the index
/// holds one per section of every document, half a million at 100,000
/// documents; its last line and parent are worked out or packed rather
/// than held in fields of their own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// Index of the document in the slice the index was built from.
    pub doc: u32,
    /// Byte range of the block in the document's normalised text.
    pub start: u32,
    /// End of that range (exclusive).
    pub end: u32,
    /// 1-based first file line of the block.
    pub line_start: u32,
    /// The block of the enclosing heading, [`NO_PARENT`] for none.
    parent: u32,
    /// Heading level (1-6), 0 for the prose before the first heading.
    pub level: u8,
}

/// [`Block::parent`] of a block under no heading.
const NO_PARENT: u32 = u32::MAX;

impl Block {
    /// The block of the enclosing heading, if any.
    pub fn parent(&self) -> Option<u32> {
        (self.parent != NO_PARENT).then_some(self.parent)
    }

    /// 1-based last file line of the block (trailing blank lines excluded).
    pub fn line_end(&self, doc: &GraphDoc) -> u32 {
        let text = self.text(doc);
        self.line_start + text.trim_end().matches('\n').count() as u32
    }

    /// The block's text (heading line included).
    pub fn text<'d>(&self, doc: &'d GraphDoc) -> &'d str {
        &doc.text[self.start as usize..self.end as usize]
    }

    /// The heading text of the block, `None` for the prose before the first heading.
    pub fn heading<'d>(&self, doc: &'d GraphDoc) -> Option<&'d str> {
        if self.level == 0 {
            return None;
        }
        let first = self.text(doc).lines().next()?;
        atx_heading(first).map(|(_, text)| text)
    }
}

/// 1-based line number of byte `offset` in `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Append the blocks of `doc` (document number `doc_index`) to `out`;
/// parents are indexes into `out`.
pub fn split_blocks(doc: &GraphDoc, doc_index: u32, out: &mut Vec<Block>) {
    let text: &str = &doc.text;
    let body_start = doc.body_start();
    let first_line = line_of(text, body_start);
    let mut fences = FenceTracker::default();
    // Start offset, first line and level of each section; the prose before
    // the first heading is level 0.
    let mut sections: Vec<(usize, usize, u8)> = vec![(body_start, first_line, 0)];
    let mut offset = body_start;
    for (line, raw) in (first_line..).zip(text[body_start..].split_inclusive('\n')) {
        let content = raw.strip_suffix('\n').unwrap_or(raw);
        if !fences.code_line(content)
            && let Some((level, _)) = atx_heading(content)
        {
            sections.push((offset, line, level as u8));
        }
        offset += raw.len();
    }
    let first = out.len();
    let mut stack: Vec<(u8, u32)> = Vec::new();
    for (i, &(start, line_start, level)) in sections.iter().enumerate() {
        let end = sections.get(i + 1).map_or(text.len(), |s| s.0);
        let body = &text[start..end];
        if body.trim().is_empty() {
            continue;
        }
        while stack.last().is_some_and(|&(l, _)| level == 0 || l >= level) {
            stack.pop();
        }
        let index = out.len() as u32;
        out.push(Block {
            doc: doc_index,
            start: start as u32,
            end: end as u32,
            line_start: line_start as u32,
            parent: stack.last().map_or(NO_PARENT, |&(_, b)| b),
            level,
        });
        if level > 0 {
            stack.push((level, index));
        }
    }
    debug_assert!(out[first..].iter().all(|b| b.start < b.end));
}

/// The headings from the outermost to this block's own.
pub fn heading_path(blocks: &[Block], index: usize, doc: &GraphDoc) -> Vec<String> {
    let mut path = Vec::new();
    let mut at = Some(index as u32);
    while let Some(i) = at {
        let block = &blocks[i as usize];
        if let Some(h) = block.heading(doc) {
            path.push(h.to_owned());
        }
        at = block.parent();
    }
    path.reverse();
    path
}

/// Byte range of `doc`'s text covered by the given 1-based file lines.
pub(crate) fn line_span(text: &str, lines: Range<usize>) -> Range<usize> {
    let mut start = text.len();
    let mut end = text.len();
    let mut offset = 0;
    for (n, raw) in (1..).zip(text.split_inclusive('\n')) {
        if n == lines.start {
            start = offset;
        }
        if n == lines.end {
            end = offset;
            break;
        }
        offset += raw.len();
    }
    start.min(end)..end
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\ntags: ['#adr', '#f']\n---\n\nIntro line.\n\n# Title\n\n## Problem Statement\n\nCaches evict.\n\n```\n# not a heading\n```\n\n### Detail\n\nMore.\n\n## Decision\n\nUse LRU.\n";

    fn blocks() -> (GraphDoc, Vec<Block>) {
        let doc = GraphDoc::from_text(".vault/adr/x.md", DOC);
        let mut out = Vec::new();
        split_blocks(&doc, 0, &mut out);
        (doc, out)
    }

    #[test]
    fn blocks_follow_headings_outside_code_with_file_lines() {
        let (doc, b) = blocks();
        let spans: Vec<(u32, u32, u8)> = b
            .iter()
            .map(|b| (b.line_start, b.line_end(&doc), b.level))
            .collect();
        assert_eq!(
            spans,
            [(5, 5, 0), (7, 7, 1), (9, 15, 2), (17, 19, 3), (21, 23, 2)]
        );
        assert!(b[2].text(&doc).contains("# not a heading"));
        assert_eq!(DOC.lines().nth(20), Some("## Decision"));
    }

    #[test]
    fn heading_paths_nest_by_level() {
        let (doc, b) = blocks();
        assert!(heading_path(&b, 0, &doc).is_empty());
        assert_eq!(
            heading_path(&b, 3, &doc),
            ["Title", "Problem Statement", "Detail"]
        );
        assert_eq!(heading_path(&b, 4, &doc), ["Title", "Decision"]);
    }

    #[test]
    fn line_span_maps_lines_back_to_bytes() {
        let (doc, b) = blocks();
        let span = line_span(&doc.text, 21..24);
        assert_eq!(&doc.text[span], "## Decision\n\nUse LRU.\n");
        assert_eq!(b[4].text(&doc), "## Decision\n\nUse LRU.\n");
    }
}

//! Bounded windows over listings: one page of rows and the fields that say
//! what was left out (`returned`, `total`, `truncated`, `offset`,
//! `next_offset`), as every paged JSON output of `vaultspec-core` 0.3.9
//! carries them (spec/cli-verbs.md).

use serde_json::{Map, Value, json};

/// Rows a page holds when the caller names no limit.
pub const DEFAULT_LIMIT: usize = 50;
/// The most rows one page may hold; larger limits are lowered to it.
pub const MAX_LIMIT: usize = 500;

/// Where one page sits in the full list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Rows before paging.
    pub total: usize,
    /// Rows in this page.
    pub returned: usize,
    /// Index of the page's first row in the full list.
    pub offset: usize,
}

impl Window {
    /// Whether rows follow this page.
    pub fn truncated(&self) -> bool {
        self.offset + self.returned < self.total
    }

    /// The offset of the next page, or `None` at the end.
    pub fn next_offset(&self) -> Option<usize> {
        self.truncated().then_some(self.offset + self.returned)
    }

    /// The JSON fields of the window: `returned`, `total`, `truncated`, then
    /// `offset` when the page does not start the list and `next_offset` when
    /// rows follow.
    pub fn fields(&self) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("returned".into(), json!(self.returned));
        out.insert("total".into(), json!(self.total));
        out.insert("truncated".into(), json!(self.truncated()));
        if self.offset > 0 {
            out.insert("offset".into(), json!(self.offset));
        }
        if let Some(next) = self.next_offset() {
            out.insert("next_offset".into(), json!(next));
        }
        out
    }
}

/// The page size a request asks for: `None` or 0 gives [`DEFAULT_LIMIT`],
/// anything above [`MAX_LIMIT`] gives [`MAX_LIMIT`].
pub fn resolve_limit(limit: Option<usize>) -> usize {
    match limit {
        None | Some(0) => DEFAULT_LIMIT,
        Some(n) => n.min(MAX_LIMIT),
    }
}

/// One page of `rows`: at most [`resolve_limit`]`(limit)` rows from
/// `offset`, and its window.
pub fn apply<T>(rows: &[T], limit: Option<usize>, offset: usize) -> (&[T], Window) {
    let total = rows.len();
    let start = offset.min(total);
    let end = start.saturating_add(resolve_limit(limit)).min(total);
    let page = &rows[start..end];
    (
        page,
        Window {
            total,
            returned: page.len(),
            offset,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_default_to_fifty_and_say_where_to_resume() {
        let rows: Vec<usize> = (0..120).collect();
        let (page, w) = apply(&rows, None, 0);
        assert_eq!((page.len(), page[0], w.next_offset()), (50, 0, Some(50)));
        assert_eq!(
            Value::Object(w.fields()),
            json!({"returned": 50, "total": 120, "truncated": true, "next_offset": 50})
        );
        let (page, w) = apply(&rows, Some(50), 100);
        assert_eq!(
            (page.len(), w.truncated(), w.next_offset()),
            (20, false, None)
        );
        assert_eq!(w.fields()["offset"], json!(100));
    }

    #[test]
    fn limits_are_bounded_and_offsets_past_the_end_say_so() {
        let rows: Vec<usize> = (0..900).collect();
        assert_eq!(apply(&rows, Some(10_000), 0).0.len(), MAX_LIMIT);
        assert_eq!(apply(&rows, Some(0), 0).0.len(), DEFAULT_LIMIT);
        let (page, w) = apply(&rows, Some(5), 2000);
        assert!(page.is_empty());
        assert_eq!(
            Value::Object(w.fields()),
            json!({"returned": 0, "total": 900, "truncated": false, "offset": 2000})
        );
    }
}

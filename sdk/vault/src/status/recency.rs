//! When a document last changed, for ordering the rollup: `modified:`, else
//! `date:`, else the date its file name starts with, each read leniently
//! (the reference's decision D3b), or `None` when none of them is a date.

use crate::date::{Date, is_ymd_dashed_shape};
use crate::graph::GraphDoc;

/// The recency of a document (see the module docs), worked out once per
/// document.
pub fn recency(doc: &GraphDoc) -> Option<Date> {
    doc.kept_recency(|| read(doc))
}

fn read(doc: &GraphDoc) -> Option<Date> {
    [doc.meta().modified(), doc.written_date()]
        .into_iter()
        .flatten()
        .find_map(|raw| Date::parse_lenient(raw).ok())
        .or_else(|| {
            let prefix = doc.stem().get(..10).filter(|p| is_ymd_dashed_shape(p))?;
            Date::parse_lenient(prefix).ok()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modified_wins_then_date_then_the_file_name() {
        let doc = |text: &str, path: &str| GraphDoc::from_bytes(path, text.as_bytes());
        let both = doc(
            "---\ndate: '2026-01-02'\nmodified: '2026-03-04'\n---\n",
            ".vault/adr/2026-01-01-x-adr.md",
        );
        assert_eq!(recency(&both).unwrap().to_string(), "2026-03-04");
        let dated = doc(
            "---\ndate: '2026-01-02'\n---\n",
            ".vault/adr/2026-01-01-x-adr.md",
        );
        assert_eq!(recency(&dated).unwrap().to_string(), "2026-01-02");
        let named = doc("---\ntags: []\n---\n", ".vault/adr/2026-01-01-x-adr.md");
        assert_eq!(recency(&named).unwrap().to_string(), "2026-01-01");
        assert!(recency(&doc("no frontmatter\n", ".vault/adr/x-adr.md")).is_none());
    }
}

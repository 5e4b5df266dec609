//! The document mode of MCP `find`: documents by type, feature, date and a
//! text match on stem or feature (spec/mcp-tools.md §6.1).

use super::{DocRow, DocSelect, Graph};

/// Types `find` searches when none are named, in this order.
pub const FIND_DEFAULT_TYPES: [&str; 4] = ["adr", "plan", "research", "reference"];

/// The filters of `find` in document mode.
#[derive(Debug, Clone, Default)]
pub struct FindQuery<'a> {
    /// Types, searched in this order; empty: [`FIND_DEFAULT_TYPES`].
    pub types: &'a [String],
    /// Exact feature (a leading `#` ignored).
    pub feature: Option<&'a str>,
    /// Exact date.
    pub date: Option<&'a str>,
    /// Case-insensitive substring of the stem or the feature (never the body).
    pub text: Option<&'a str>,
    /// Most rows over all types.
    pub limit: usize,
}

impl Graph {
    /// The rows of `find` in document mode: for each type in order, its
    /// documents in path order, filtered, the concatenation capped at `limit`.
    pub fn find_documents(&self, query: &FindQuery<'_>) -> Vec<DocRow> {
        let defaults: Vec<String>;
        let types = if query.types.is_empty() {
            defaults = FIND_DEFAULT_TYPES.iter().map(|t| (*t).to_owned()).collect();
            &defaults
        } else {
            query.types
        };
        let needle = query.text.filter(|t| !t.is_empty()).map(str::to_lowercase);
        let mut rows = Vec::new();
        for t in types {
            for row in self.list_documents(DocSelect::Type(t), query.feature, query.date) {
                if rows.len() == query.limit {
                    return rows;
                }
                let hit = needle.as_deref().is_none_or(|n| {
                    row.name.to_lowercase().contains(n)
                        || row
                            .feature
                            .as_deref()
                            .is_some_and(|f| f.to_lowercase().contains(n))
                });
                if hit {
                    rows.push(row);
                }
            }
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::super::GraphDoc;
    use super::*;

    fn doc(path: &str, feature: &str) -> GraphDoc {
        let dir = path.split('/').nth(1).unwrap();
        GraphDoc::from_text(
            path,
            &format!("---\ntags: ['#{dir}', '#{feature}']\ndate: '2026-01-01'\n---\n"),
        )
    }

    fn graph() -> Graph {
        Graph::build(
            vec![
                doc(".vault/adr/2026-01-01-auth-adr.md", "auth"),
                doc(".vault/audit/2026-01-01-auth-audit.md", "auth"),
                doc(".vault/plan/2026-01-01-auth-plan.md", "auth"),
                doc(".vault/research/2026-01-01-cache-research.md", "cache"),
            ],
            &[],
        )
    }

    #[test]
    fn default_types_come_in_find_order_and_skip_audits() {
        let rows = graph().find_documents(&FindQuery {
            limit: 20,
            ..Default::default()
        });
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "2026-01-01-auth-adr",
                "2026-01-01-auth-plan",
                "2026-01-01-cache-research"
            ]
        );
    }

    #[test]
    fn text_matches_stem_or_feature_and_the_limit_is_global() {
        let g = graph();
        let types = vec!["research".to_owned(), "audit".to_owned()];
        let rows = g.find_documents(&FindQuery {
            types: &types,
            text: Some("CACHE"),
            limit: 20,
            ..Default::default()
        });
        assert_eq!(rows.len(), 1);
        let rows = g.find_documents(&FindQuery {
            text: Some("au"),
            limit: 1,
            ..Default::default()
        });
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].doc_type, "adr");
    }
}

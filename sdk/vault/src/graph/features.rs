//! Feature listing: the rows of `vault feature list` (v2) and of MCP `find`
//! in listing mode (spec/graph-and-search.md §4).
//!
//! Membership uses the listing feature of each readable document (first
//! non-directory tag in written order), so generated indexes count; the
//! `find` weight comes from [`Graph::feature_rankings`] over the top 100.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use super::Graph;

/// How many features the `find` weight ranks; a feature outside shows 0.
pub const FIND_RANKING_LIMIT: usize = 100;

/// One row of `vault feature list` (`vaultspec.vault.feature.list.v2`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FeatureRow {
    /// Feature name, without `#`.
    pub name: String,
    /// Documents carrying the feature, the generated index included.
    pub doc_count: usize,
    /// Doc types present, sorted.
    pub types: Vec<String>,
    /// Smallest listing date among the documents.
    pub earliest_date: Option<String>,
    /// Largest listing date among the documents.
    pub latest_activity: Option<String>,
    /// Whether a plan carries the feature.
    pub has_plan: bool,
}

/// One row of MCP `find` in listing mode. `types`, `earliest_date` and
/// `has_plan` are printed only with `json: true` (with the lifecycle
/// `status`, which comes from the orientation rollup, not from the graph).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FindFeatureRow {
    /// Feature name.
    pub name: String,
    /// Documents carrying the feature, the generated index included.
    pub doc_count: usize,
    /// Feature weight from the top-100 ranking, 0 when not ranked.
    pub weight: usize,
    /// Doc types present, sorted.
    pub types: Vec<String>,
    /// Smallest listing date among the documents.
    pub earliest_date: Option<String>,
    /// Whether a plan carries the feature.
    pub has_plan: bool,
}

/// The filters of `vault feature list`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeatureFilter {
    /// `--date`: drop features whose earliest date is after this one.
    pub date: Option<String>,
    /// `--type`: keep features with at least one document of this type.
    pub doc_type: Option<String>,
    /// `--orphaned`: keep features whose every document is an orphan.
    pub orphaned_only: bool,
    /// `--stale-days`, as a date: keep features whose latest activity is
    /// before it (the caller computes `today - N days`).
    pub stale_before: Option<String>,
}

impl Graph {
    /// Every feature with its figures, sorted by name.
    pub fn feature_list(&self, filter: &FeatureFilter) -> Vec<FeatureRow> {
        let mut by_feature: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (id, doc) in self.docs.iter().enumerate() {
            if !doc.has_text() {
                continue;
            }
            if let Some(f) = doc.listing_feature() {
                by_feature.entry(f).or_default().push(id);
            }
        }
        let orphans: Option<Vec<bool>> = filter.orphaned_only.then(|| {
            let mut is = vec![false; self.docs.len()];
            for id in self.orphans() {
                is[id] = true;
            }
            is
        });
        let mut rows = Vec::new();
        for (name, members) in by_feature {
            if let Some(is) = &orphans
                && !members.iter().all(|&id| is[id])
            {
                continue;
            }
            let types: BTreeSet<&str> = members
                .iter()
                .map(|&id| self.docs[id].type_name())
                .collect();
            if filter
                .doc_type
                .as_deref()
                .is_some_and(|t| !types.contains(t))
            {
                continue;
            }
            let dates: Vec<&str> = members
                .iter()
                .filter_map(|&id| self.docs[id].listing_date())
                .collect();
            let earliest = dates.iter().min().map(|d| (*d).to_owned());
            let latest = dates.iter().max().map(|d| (*d).to_owned());
            if let (Some(limit), Some(first)) = (&filter.date, &earliest)
                && first > limit
            {
                continue;
            }
            if let Some(before) = &filter.stale_before
                && latest.as_ref().is_some_and(|l| l >= before)
            {
                continue;
            }
            rows.push(FeatureRow {
                name: name.to_owned(),
                doc_count: members.len(),
                has_plan: types.contains("plan"),
                types: types.into_iter().map(str::to_owned).collect(),
                earliest_date: earliest,
                latest_activity: latest,
            });
        }
        rows
    }

    /// MCP `find` listing mode: every feature by name, capped at `limit`,
    /// with its weight from [`Graph::feature_rankings`] (top 100).
    pub fn find_listing(&self, limit: usize) -> Vec<FindFeatureRow> {
        let weights: HashMap<String, usize> = self
            .feature_rankings(FIND_RANKING_LIMIT)
            .into_iter()
            .collect();
        self.feature_list(&FeatureFilter::default())
            .into_iter()
            .take(limit)
            .map(|row| FindFeatureRow {
                weight: weights.get(&row.name).copied().unwrap_or(0),
                name: row.name,
                doc_count: row.doc_count,
                types: row.types,
                earliest_date: row.earliest_date,
                has_plan: row.has_plan,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::GraphDoc;
    use super::*;

    fn doc(path: &str, feature: &str, date: &str, related: &[&str]) -> GraphDoc {
        let dir = path.split('/').nth(1).unwrap();
        let mut text =
            format!("---\ntags:\n  - '#{dir}'\n  - '#{feature}'\ndate: '{date}'\nrelated:\n");
        for r in related {
            text.push_str(&format!("  - '[[{r}]]'\n"));
        }
        text.push_str("---\n");
        GraphDoc::from_text(path, &text)
    }

    fn vault() -> Graph {
        Graph::build(
            vec![
                doc(".vault/adr/cache-adr.md", "cache", "2026-01-03", &[]),
                doc(
                    ".vault/plan/cache-plan.md",
                    "cache",
                    "2026-01-05",
                    &["cache-adr"],
                ),
                doc(
                    ".vault/index/cache.index.md",
                    "cache",
                    "2026-01-06",
                    &["cache-adr", "cache-plan"],
                ),
                doc(
                    ".vault/research/auth-research.md",
                    "auth",
                    "2026-02-01",
                    &[],
                ),
            ],
            &[],
        )
    }

    #[test]
    fn feature_rows_count_the_index_and_span_dates() {
        let rows = vault().feature_list(&FeatureFilter::default());
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].name, "auth");
        let cache = &rows[1];
        assert_eq!(cache.doc_count, 3);
        assert_eq!(cache.types, ["adr", "index", "plan"]);
        assert_eq!(cache.earliest_date.as_deref(), Some("2026-01-03"));
        assert_eq!(cache.latest_activity.as_deref(), Some("2026-01-06"));
        assert!(cache.has_plan && !rows[0].has_plan);
    }

    #[test]
    fn feature_filters_select_by_type_date_orphans_and_staleness() {
        let g = vault();
        let names = |f: FeatureFilter| {
            g.feature_list(&f)
                .into_iter()
                .map(|r| r.name)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(FeatureFilter {
                doc_type: Some("plan".into()),
                ..Default::default()
            }),
            ["cache"]
        );
        assert_eq!(
            names(FeatureFilter {
                date: Some("2026-01-31".into()),
                ..Default::default()
            }),
            ["cache"]
        );
        assert_eq!(
            names(FeatureFilter {
                orphaned_only: true,
                ..Default::default()
            }),
            ["auth"]
        );
        assert_eq!(
            names(FeatureFilter {
                stale_before: Some("2026-01-10".into()),
                ..Default::default()
            }),
            ["cache"]
        );
    }

    #[test]
    fn find_listing_is_by_name_with_the_ranking_weight() {
        let rows = vault().find_listing(20);
        let got: Vec<(&str, usize, usize)> = rows
            .iter()
            .map(|r| (r.name.as_str(), r.doc_count, r.weight))
            .collect();
        // cache-adr has 2 distinct in-link sources, cache-plan 1.
        assert_eq!(got, [("auth", 1, 0), ("cache", 3, 3)]);
        assert_eq!(vault().find_listing(1).len(), 1);
    }
}

//! The documents of the graph that have a problem, as the listings, `find`,
//! `search` and `status` name them next to their answer.

use serde::Serialize;

use super::{Graph, GraphDoc};

/// One document with a problem: its path and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProblemRow {
    /// Workspace-relative path.
    pub path: String,
    /// What is wrong, naming what would be accepted.
    pub problem: String,
}

impl Graph {
    /// Every document with a problem (unreadable, not UTF-8, malformed
    /// frontmatter), in path order.
    pub fn problem_rows(&self) -> Vec<ProblemRow> {
        self.rows_where(|_| true)
    }

    /// The documents whose text could not be read at all (unreadable or
    /// not UTF-8): what a search cannot look inside.
    pub fn unreadable_rows(&self) -> Vec<ProblemRow> {
        self.rows_where(|d| !d.has_text())
    }

    fn rows_where(&self, keep: impl Fn(&GraphDoc) -> bool) -> Vec<ProblemRow> {
        self.problems()
            .filter(|d| keep(d))
            .filter_map(|d| {
                let problem = d.problem.as_ref()?.to_string();
                Some(ProblemRow {
                    path: d.path.clone(),
                    problem,
                })
            })
            .collect()
    }
}

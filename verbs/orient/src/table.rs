//! Plain-text sections for human output: a title, rows in aligned columns,
//! at most a set number of rows with "and N more" after them, nothing at all
//! for a section with no rows.

/// One titled section of rows.
pub struct Section {
    title: String,
    rows: Vec<Vec<String>>,
    /// Rows that exist beyond `rows` (counted elsewhere, e.g. a truncated
    /// listing).
    hidden: usize,
    /// Where to see the rest.
    more: Option<String>,
}

impl Section {
    /// An empty section with this title.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            rows: Vec::new(),
            hidden: 0,
            more: None,
        }
    }

    /// Add a row of cells.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Say that `hidden` more rows exist and which command lists them.
    pub fn more(&mut self, hidden: usize, command: impl Into<String>) {
        self.hidden += hidden;
        self.more = Some(command.into());
    }

    /// The section as text, rows capped at `limit` (the rest counted in the
    /// "and N more" line), or nothing when it has no rows.
    pub fn render(mut self, limit: usize) -> String {
        if self.rows.is_empty() {
            return String::new();
        }
        if self.rows.len() > limit {
            self.hidden += self.rows.len() - limit;
            self.rows.truncate(limit);
        }
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(|cell| cell.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = format!("{}\n", self.title);
        for row in &self.rows {
            let mut line = String::from(" ");
            for (c, cell) in row.iter().enumerate() {
                line.push(' ');
                line.push_str(cell);
                if c + 1 < row.len() {
                    let pad = widths[c] - cell.chars().count() + 1;
                    line.push_str(&" ".repeat(pad));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        if self.hidden > 0 {
            out.push_str(&format!("  … and {} more", self.hidden));
            if let Some(command) = &self.more {
                out.push_str(&format!(" ({command})"));
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align_and_long_sections_are_capped() {
        let mut section = Section::new("Features");
        section.row(vec!["a".into(), "1 doc".into()]);
        section.row(vec!["longer".into(), "12 docs".into()]);
        section.row(vec!["c".into(), "3 docs".into()]);
        section.more(4, "vaultspec vault feature list");
        assert_eq!(
            section.render(2),
            "Features\n  a       1 doc\n  longer  12 docs\n  … and 5 more (vaultspec vault feature list)\n"
        );
        assert_eq!(Section::new("Empty").render(10), "");
    }
}

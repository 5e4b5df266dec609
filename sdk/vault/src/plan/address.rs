//! Addressing containers inside a plan: a Step by its leaf id or its full
//! display path, a Phase or Wave by its canonical id. Unknown ids name the
//! nearest existing ones; ambiguous leaves list the paths they could mean.

use super::error::PlanError;
use super::ids::Kind;
use super::model::Plan;

/// Up to three candidates nearest to `wanted` by edit distance.
pub fn nearest(wanted: &str, candidates: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut scored: Vec<(usize, String)> = candidates
        .into_iter()
        .map(|c| (strsim::levenshtein(wanted, &c), c))
        .filter(|(d, c)| *d <= (wanted.len().max(c.len()) / 2).max(1))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

impl Plan {
    /// The index in `steps` of the Step addressed by `addr` (leaf `S03` or the
    /// full display path `W01.P02.S03`).
    pub fn find_step(&self, addr: &str) -> Result<usize, PlanError> {
        let addr = addr.trim();
        let hits: Vec<usize> = if addr.contains('.') {
            (0..self.steps.len())
                .filter(|&i| self.step_path(&self.steps[i]) == addr)
                .collect()
        } else {
            (0..self.steps.len())
                .filter(|&i| self.steps[i].id == addr)
                .collect()
        };
        match hits.as_slice() {
            [one] => Ok(*one),
            [] => Err(PlanError::Unknown {
                kind: Kind::Step,
                id: addr.to_string(),
                suggestions: nearest(
                    addr,
                    self.steps.iter().map(|s| {
                        if addr.contains('.') {
                            self.step_path(s)
                        } else {
                            s.id.clone()
                        }
                    }),
                ),
            }),
            many => Err(PlanError::Ambiguous {
                kind: Kind::Step,
                id: addr.to_string(),
                candidates: many
                    .iter()
                    .map(|&i| self.step_path(&self.steps[i]))
                    .collect(),
            }),
        }
    }

    /// The index in `phases` of the Phase with canonical id `id`.
    pub fn find_phase(&self, id: &str) -> Result<usize, PlanError> {
        let id = id.trim();
        let hits: Vec<usize> = (0..self.phases.len())
            .filter(|&i| self.phases[i].id == id)
            .collect();
        match hits.as_slice() {
            [one] => Ok(*one),
            [] => Err(PlanError::Unknown {
                kind: Kind::Phase,
                id: id.to_string(),
                suggestions: nearest(id, self.phases.iter().map(|p| p.id.clone())),
            }),
            many => Err(PlanError::Ambiguous {
                kind: Kind::Phase,
                id: id.to_string(),
                candidates: many
                    .iter()
                    .map(|&i| self.phase_path(&self.phases[i]))
                    .collect(),
            }),
        }
    }

    /// The index in `waves` of the Wave with canonical id `id`.
    pub fn find_wave(&self, id: &str) -> Result<usize, PlanError> {
        let id = id.trim();
        let hits: Vec<usize> = (0..self.waves.len())
            .filter(|&i| self.waves[i].id == id)
            .collect();
        match hits.as_slice() {
            [one] => Ok(*one),
            [] => Err(PlanError::Unknown {
                kind: Kind::Wave,
                id: id.to_string(),
                suggestions: nearest(id, self.waves.iter().map(|w| w.id.clone())),
            }),
            many => Err(PlanError::Ambiguous {
                kind: Kind::Wave,
                id: id.to_string(),
                candidates: many.iter().map(|&i| self.waves[i].id.clone()).collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_prefers_small_edits() {
        let c = ["S01", "S02", "S10", "P01"].map(String::from);
        assert_eq!(nearest("S09", c.clone()), vec!["S01", "S02"]);
        assert!(nearest("zzzzzz", c).is_empty());
    }
}

//! Read limits: the per-file ceiling and the per-call budget.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{MAX_FILE_BYTES, StorageError};

/// Counts the bytes a storage has returned against a budget.
///
/// The per-file limit is checked before a file is read, from its size; the
/// budget is charged with the size too, so a refused read costs nothing.
#[derive(Debug)]
pub struct ReadBudget {
    max_file: u64,
    budget: Option<u64>,
    used: AtomicU64,
}

impl Default for ReadBudget {
    fn default() -> Self {
        Self::new(None)
    }
}

impl ReadBudget {
    /// A budget of `budget` bytes in all (`None`: unlimited), with the usual
    /// 1 MiB per-file ceiling.
    pub fn new(budget: Option<u64>) -> Self {
        Self {
            max_file: MAX_FILE_BYTES,
            budget,
            used: AtomicU64::new(0),
        }
    }

    /// Bytes charged so far.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// Admit a read of `size` bytes of `path`, or refuse it.
    pub fn charge(&self, path: &str, size: u64) -> Result<(), StorageError> {
        if size > self.max_file {
            return Err(StorageError::TooLarge {
                path: path.to_owned(),
                size,
                limit: self.max_file,
            });
        }
        let Some(budget) = self.budget else {
            self.used.fetch_add(size, Ordering::Relaxed);
            return Ok(());
        };
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            let next = used.saturating_add(size);
            if next > budget {
                return Err(StorageError::BudgetExceeded {
                    path: path.to_owned(),
                    budget,
                });
            }
            match self
                .used
                .compare_exchange_weak(used, next, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return Ok(()),
                Err(actual) => used = actual,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_one_mebibyte_is_refused_with_its_size() {
        let budget = ReadBudget::new(None);
        let err = budget.charge("big.md", MAX_FILE_BYTES + 1).unwrap_err();
        assert!(matches!(err, StorageError::TooLarge { size, .. } if size == MAX_FILE_BYTES + 1));
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn the_budget_refuses_the_read_that_would_cross_it() {
        let budget = ReadBudget::new(Some(10));
        budget.charge("a", 6).unwrap();
        assert!(matches!(budget.charge("b", 5), Err(StorageError::BudgetExceeded { .. })));
        budget.charge("c", 4).unwrap();
        assert_eq!(budget.used(), 10);
    }
}

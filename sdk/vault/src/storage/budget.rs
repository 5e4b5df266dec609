//! Read and write limits: the per-file read ceiling and the per-call budgets.

use std::sync::Mutex;
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

/// Counts the bytes and the files a storage has changed against a budget.
///
/// Every write charges its bytes and one file; every rename and remove one
/// file. The change that would cross either limit is refused before it is
/// made, so a refused change costs nothing.
#[derive(Debug, Default)]
pub struct WriteBudget {
    limits: Option<(u64, u64)>,
    /// Bytes and files charged so far.
    used: Mutex<(u64, u64)>,
}

impl WriteBudget {
    /// A budget of `bytes` bytes and `files` changed files in all.
    pub fn new(bytes: u64, files: u64) -> Self {
        Self {
            limits: Some((bytes, files)),
            used: Mutex::new((0, 0)),
        }
    }

    /// Bytes and files charged so far.
    pub fn used(&self) -> (u64, u64) {
        *self.used.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Admit a change of `path` writing `bytes` bytes, or refuse it.
    pub fn charge(&self, path: &str, bytes: u64) -> Result<(), StorageError> {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        let next = (used.0.saturating_add(bytes), used.1.saturating_add(1));
        if let Some((max_bytes, max_files)) = self.limits {
            let exceeded = |limit, unit| StorageError::WriteBudgetExceeded {
                path: path.to_owned(),
                limit,
                unit,
            };
            if next.0 > max_bytes {
                return Err(exceeded(max_bytes, "bytes"));
            }
            if next.1 > max_files {
                return Err(exceeded(max_files, "files"));
            }
        }
        *used = next;
        Ok(())
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
        assert!(matches!(
            budget.charge("b", 5),
            Err(StorageError::BudgetExceeded { .. })
        ));
        budget.charge("c", 4).unwrap();
        assert_eq!(budget.used(), 10);
    }

    #[test]
    fn the_write_budget_refuses_the_change_that_would_cross_either_limit() {
        let budget = WriteBudget::new(10, 3);
        budget.charge("a", 6).unwrap();
        let err = budget.charge("b", 5).unwrap_err();
        assert!(
            matches!(
                err,
                StorageError::WriteBudgetExceeded {
                    limit: 10,
                    unit: "bytes",
                    ..
                }
            ),
            "{err}"
        );
        budget.charge("c", 4).unwrap();
        budget.charge("d", 0).unwrap();
        let err = budget.charge("e", 0).unwrap_err();
        assert!(
            matches!(
                err,
                StorageError::WriteBudgetExceeded {
                    limit: 3,
                    unit: "files",
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            "changing `e` would exceed this call's write budget of 3 files"
        );
        assert_eq!(budget.used(), (10, 3));
        let unlimited = WriteBudget::default();
        unlimited.charge("f", u64::MAX).unwrap();
    }
}

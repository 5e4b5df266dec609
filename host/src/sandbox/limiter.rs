//! One memory ceiling per call over every linear memory and table of its
//! store together: bytes decide, not how many there are.
//!
//! wasmtime asks the limiter before it creates a memory or table (as a growth
//! from 0 to the declared minimum) and before every later growth, so summing
//! the increments covers all of them: six 500 MiB memories are refused at the
//! second one, not admitted one by one under a per-memory limit. Creating a
//! memory or table is charged a fixed cost beside its size
//! ([`MEMORY_CREATION_COST`], [`TABLE_CREATION_COST`]), so a component of
//! many small memories runs and thousands of empty ones are refused by the
//! same ceiling; the counts wasmtime asks for are what that ceiling pays
//! for. (A memory declared empty and grown later is charged its creation
//! twice: the ceiling errs toward refusing.) Memories and tables are never
//! freed before the store is, so the sum only rises.

use wasmtime::ResourceLimiter;

pub use vaultspec_engine_config::{
    MAX_INSTANCES, MAX_MEMORIES, MAX_TABLE_ELEMENTS, MAX_TABLES, MEMORY_CREATION_COST,
    TABLE_CREATION_COST,
};

/// What one table element is charged against the ceiling, in bytes: a
/// pointer in wasmtime today, with room for the bookkeeping around it.
pub const TABLE_ELEMENT_COST: usize = 16;

/// The limits of one call's store.
#[derive(Debug)]
pub struct CallLimiter {
    ceiling: usize,
    used: usize,
    exceeded: bool,
}

impl CallLimiter {
    /// A limiter allowing `ceiling` bytes of memories and tables together.
    pub fn new(ceiling: usize) -> Self {
        Self {
            ceiling,
            used: 0,
            exceeded: false,
        }
    }

    /// Whether the call asked for more than its ceiling (or a count limit).
    pub fn exceeded(&self) -> bool {
        self.exceeded
    }

    /// Charge `bytes` more, or refuse with a trap naming the ceiling.
    fn charge(&mut self, what: &str, bytes: usize) -> wasmtime::Result<bool> {
        match self
            .used
            .checked_add(bytes)
            .filter(|total| *total <= self.ceiling)
        {
            Some(total) => {
                self.used = total;
                Ok(true)
            }
            None => {
                self.exceeded = true;
                Err(wasmtime::format_err!(
                    "memory limit: {what} would take the call's memories and tables past {} bytes \
                     ({} already in use)",
                    self.ceiling,
                    self.used
                ))
            }
        }
    }
}

impl ResourceLimiter for CallLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let (what, fixed) = if current == 0 {
            ("creating a memory", MEMORY_CREATION_COST)
        } else {
            ("growing a memory", 0)
        };
        self.charge(
            &format!("{what} of {desired} bytes"),
            desired.saturating_sub(current).saturating_add(fixed),
        )
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > MAX_TABLE_ELEMENTS {
            self.exceeded = true;
            return Err(wasmtime::format_err!(
                "memory limit: a table of {desired} elements is past the {MAX_TABLE_ELEMENTS} a table may have"
            ));
        }
        let fixed = if current == 0 { TABLE_CREATION_COST } else { 0 };
        let bytes = desired
            .saturating_sub(current)
            .saturating_mul(TABLE_ELEMENT_COST)
            .saturating_add(fixed);
        self.charge(&format!("a table of {desired} elements"), bytes)
    }

    fn instances(&self) -> usize {
        MAX_INSTANCES
    }

    fn memories(&self) -> usize {
        MAX_MEMORIES
    }

    fn tables(&self) -> usize {
        MAX_TABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memories_and_tables_share_one_ceiling() {
        let fixed = MEMORY_CREATION_COST + TABLE_CREATION_COST;
        let mut limiter = CallLimiter::new(fixed + MEMORY_CREATION_COST + 1000);
        assert!(limiter.memory_growing(0, 600, None).unwrap());
        assert!(limiter.table_growing(0, 10, None).unwrap());
        let err = limiter.memory_growing(0, 600, None).unwrap_err();
        assert!(err.to_string().contains("past"), "{err}");
        assert!(limiter.exceeded());
    }

    #[test]
    fn the_ceiling_pays_for_as_many_empty_memories_as_the_count_allows() {
        let mut limiter = CallLimiter::new(vaultspec_engine_config::MEMORY_LIMIT);
        for _ in 0..MAX_MEMORIES {
            assert!(limiter.memory_growing(0, 0, None).unwrap());
        }
        assert!(limiter.memory_growing(0, 0, None).is_err());
        let mut limiter = CallLimiter::new(vaultspec_engine_config::MEMORY_LIMIT);
        for _ in 0..MAX_TABLES {
            assert!(limiter.table_growing(0, 0, None).unwrap());
        }
        assert!(limiter.table_growing(0, 0, None).is_err());
    }

    #[test]
    fn growth_is_charged_by_its_increment_and_huge_tables_are_refused() {
        let mut limiter = CallLimiter::new(MEMORY_CREATION_COST + 1000);
        assert!(limiter.memory_growing(0, 400, None).unwrap());
        assert!(limiter.memory_growing(400, 900, None).unwrap());
        assert!(limiter.memory_growing(900, 1100, None).is_err());
        let mut limiter = CallLimiter::new(usize::MAX);
        assert!(limiter.table_growing(0, 1_000_000_000, None).is_err());
        assert!(limiter.exceeded());
    }
}

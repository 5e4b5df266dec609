//! The slots of a pooled engine, shared fairly between components.
//!
//! A pooled engine runs at most as many calls at once as it has slots. So
//! that a flood of calls to one component (a hostile verb that sleeps until
//! its deadline, or a client that fires one verb in a loop) cannot take them
//! all, one component — one digest — may hold at most [`share`] of them at
//! once; its calls past that wait for one of its own slots to free up, while
//! calls of every other component still find slots. Every wait here runs
//! under the call's deadline (the caller's `tokio::time::timeout`), so a
//! call never waits for a slot longer than it may run.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{AcquireError, OwnedSemaphorePermit, Semaphore, SemaphorePermit};

/// How many of `slots` one component may hold at once: half, at least one.
pub fn share(slots: u32) -> usize {
    (slots as usize / 2).max(1)
}

/// The slots of a pool and each component's share of them.
#[derive(Debug)]
pub struct Slots {
    all: Semaphore,
    share: usize,
    by_component: Mutex<HashMap<String, Arc<Semaphore>>>,
}

/// One slot held for one call; dropping it gives the slot back.
#[derive(Debug)]
pub struct Slot<'a> {
    _slot: SemaphorePermit<'a>,
    _share: OwnedSemaphorePermit,
}

impl Slots {
    /// A pool of `slots` slots.
    pub fn new(slots: u32) -> Self {
        Self {
            all: Semaphore::new(slots as usize),
            share: share(slots),
            by_component: Mutex::default(),
        }
    }

    /// Wait for a slot for a call of the component with this digest: first
    /// one of its share, then one of the pool.
    pub async fn acquire(&self, digest: &str) -> Result<Slot<'_>, AcquireError> {
        let component = {
            let mut map = self.by_component.lock().expect("slot map poisoned");
            match map.get(digest) {
                Some(semaphore) => semaphore.clone(),
                None => {
                    let semaphore = Arc::new(Semaphore::new(self.share));
                    map.insert(digest.to_owned(), semaphore.clone());
                    semaphore
                }
            }
        };
        let share = component.acquire_owned().await?;
        let slot = self.all.acquire().await?;
        Ok(Slot {
            _slot: slot,
            _share: share,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_component_leaves_half_the_slots_to_the_others() {
        let slots = Slots::new(4);
        let mut held = Vec::new();
        for _ in 0..2 {
            held.push(slots.acquire("sha256:flood").await.unwrap());
        }
        let third = tokio::time::timeout(
            std::time::Duration::from_millis(50),
            slots.acquire("sha256:flood"),
        )
        .await;
        assert!(third.is_err(), "a component got more than its share");
        let other = tokio::time::timeout(
            std::time::Duration::from_millis(50),
            slots.acquire("sha256:other"),
        )
        .await;
        assert!(other.is_ok(), "another component found no slot");
        drop(held.pop());
        assert!(slots.acquire("sha256:flood").await.is_ok());
    }
}

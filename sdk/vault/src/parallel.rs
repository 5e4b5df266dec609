//! One ordered parallel map, for native reads and writes of many files:
//! the results come back in input order whatever thread produced them.

/// How many threads to read with: the available parallelism, at most 8.
pub fn default_threads() -> usize {
    #[cfg(target_arch = "wasm32")]
    return 1;
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8)
}

/// Threads for writing many files at once: each write waits on the disk
/// (its `fdatasync`) more than on a core, so more threads than cores
/// overlap more of those waits. Use with [`map_heavy`].
pub const WRITE_THREADS: usize = 8;

/// `items.iter().map(f).collect()`, on `threads` threads. Each thread takes
/// the next run of items from a shared counter (files vary in size, so
/// splitting the items up front would leave threads idle). Few items, or
/// one thread, stay on the caller's thread; so does everything on
/// `wasm32`, which has no threads.
pub fn map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_from(64, items, threads, f)
}

/// [`map`] for a few items that each take long (whole-vault checkers):
/// two items are enough to use threads.
pub fn map_heavy<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    map_from(2, items, threads, f)
}

/// [`map`] on threads once there are at least `least` items.
fn map_from<T: Sync, R: Send>(
    least: usize,
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    #[cfg(not(target_arch = "wasm32"))]
    if threads >= 2 && items.len() >= least {
        return map_on_threads(items, threads.min(items.len()), &f);
    }
    let _ = (threads, least);
    items.iter().map(f).collect()
}

/// Items a worker claims at a time, for many light items.
#[cfg(not(target_arch = "wasm32"))]
const CLAIM: usize = 64;

/// Each worker claims the next run of output slots and fills them in place:
/// the results are never held twice (a vault's documents are tens of
/// megabytes at 100,000 files, and collecting them per worker before
/// moving them into the output doubled the load's peak memory).
#[cfg(not(target_arch = "wasm32"))]
fn map_on_threads<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: &(impl Fn(&T) -> R + Sync),
) -> Vec<R> {
    use std::sync::Mutex;

    // Small claims for a few heavy items (each thread takes the next one as
    // it finishes), runs of `CLAIM` for many light ones.
    let claim = if items.len() >= CLAIM * threads {
        CLAIM
    } else {
        1
    };
    let mut slots: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    let runs = Mutex::new(slots.chunks_mut(claim).zip(items.chunks(claim)));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let next = runs.lock().expect("claim lock poisoned").next();
                    let Some((out, run)) = next else { break };
                    for (slot, item) in out.iter_mut().zip(run) {
                        *slot = Some(f(item));
                    }
                }
            });
        }
    });
    // Every slot was filled (a panicking worker panics the scope above);
    // `Option<R>` is most often the size of `R`, and then this reuses the
    // allocation.
    slots
        .into_iter()
        .map(|r| r.expect("every claimed slot is filled"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_input_order_on_any_number_of_threads() {
        let items: Vec<u32> = (0..1000).collect();
        let squares: Vec<u64> = items.iter().map(|&i| u64::from(i) * u64::from(i)).collect();
        for threads in [1, 2, 3, 8] {
            assert_eq!(
                map(&items, threads, |&i| u64::from(i) * u64::from(i)),
                squares
            );
            assert_eq!(
                map_heavy(&items[..3], threads, |&i| u64::from(i) * u64::from(i)),
                squares[..3]
            );
        }
    }
}
